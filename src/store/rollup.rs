//! The grid's rollup (`grid_cells`, `grid_totals`): each cell's state, counts and the facts its
//! state derives from, and each step's learners by state, kept in the transaction that writes
//! what they derive from — ingest, and the help desk's own writes that decide a follow-up. The
//! grid then reads a page of learners' cells by key and the class totals in one short range,
//! instead of grouping the class's results, struggles and calls on every read.
//!
//! A write folds what it added into the cells it touched by arithmetic: the results and
//! struggles it inserted (as the inserts return them) are added to each cell's stored facts, so
//! the derived tables are not read again. Only calls are read again, for the cells whose calls
//! changed: a response, a claim or the desk's follow-up changes a call's state without naming
//! its cell, and a follow-up also depends on the desk's tables. The totals move by the
//! difference. `db rebuild` and a store migrated from before the rollup compute every cell from
//! the derived tables ([`cell_facts`]); both paths write through [`write_cells`], and a test
//! compares the two.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use sqlx::QueryBuilder;

use super::engine::{Conn, Pool, json_list, on_conn};

use super::StoreError;
use crate::progress::grid::{CellFacts, CellState, Narrow, call_facts, cell_facts, cell_state};

/// Rows (12 columns) per multi-row upsert, far inside SQLite's bound-parameter limit; fewer
/// statements per batch, as [`super::ROWS_PER_STATEMENT`].
const CELLS_PER_STATEMENT: usize = 250;

/// What a write added to one cell.
#[derive(Debug, Default)]
pub(crate) struct Added {
    /// The completions and struggles it inserted, as facts to add.
    facts: CellFacts,
    /// Its calls changed: their facts are read again.
    calls: bool,
}

type Cell = (String, String);

/// The cells (learner, step) a write touched, by pathway, with what it added to each; and the
/// calls it changed whose cells are not known yet (a response names its call, not its learner
/// or step).
#[derive(Debug, Default)]
pub(crate) struct Touched {
    cells: BTreeMap<String, BTreeMap<Cell, Added>>,
    calls: BTreeSet<String>,
}

impl Touched {
    fn cell(&mut self, pathway_id: &str, learner: &str, widget_id: &str) -> &mut Added {
        self.cells
            .entry(pathway_id.to_string())
            .or_default()
            .entry((learner.to_string(), widget_id.to_string()))
            .or_default()
    }

    /// A result was inserted.
    pub fn completion(
        &mut self,
        pathway_id: &str,
        learner: &str,
        widget_id: &str,
        at_ms: i64,
        correct: Option<bool>,
    ) {
        let cell = self.cell(pathway_id, learner, widget_id);
        cell.facts.add_completion(at_ms, correct);
    }

    /// A struggle signal was inserted.
    pub fn struggle(&mut self, pathway_id: &str, learner: &str, widget_id: &str, at_ms: i64) {
        self.cell(pathway_id, learner, widget_id)
            .facts
            .add_struggle(at_ms);
    }

    /// A call was opened on the cell.
    pub fn call_on(&mut self, pathway_id: &str, learner: &str, widget_id: &str) {
        self.cell(pathway_id, learner, widget_id).calls = true;
    }

    /// A call changed (answered, closed, followed up).
    pub fn call(&mut self, call_id: &str) {
        self.calls.insert(call_id.to_string());
    }
}

/// A cell's row as the rollup holds it.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Stored {
    state: CellState,
    facts: CellFacts,
}

/// A class's rollup rows as the follower that writes the class keeps them (in its
/// `ClassMemory`, fenced by the class's version like the rest of it): a batch then finds the
/// cells it touches here instead of reading them back.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CellCache {
    by_pathway: HashMap<String, HashMap<Cell, Stored>>,
}

impl CellCache {
    /// How many cells it holds.
    pub fn len(&self) -> usize {
        self.by_pathway.values().map(HashMap::len).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Every rollup row of the class.
pub(crate) async fn load_cells(
    conn: &mut Conn<'_>,
    class_id: &str,
) -> Result<CellCache, StoreError> {
    let pathways: Vec<String> = on_conn!(conn, |conn| {
        sqlx::query_scalar("SELECT DISTINCT pathway_id FROM grid_cells WHERE class_id = $1")
            .bind(class_id)
            .fetch_all(&mut *conn)
            .await?
    });
    let mut cache = CellCache::default();
    for pathway in pathways {
        let cells = stored_cells(conn, class_id, &pathway, &Narrow::Class).await?;
        cache.by_pathway.insert(pathway, cells);
    }
    Ok(cache)
}

/// Brings the rollup of the touched rows of `class_id` up to date: with the class's cells from
/// `cache` when the writer keeps them (and keeps them current), else read from the store.
pub(crate) async fn refresh_touched(
    conn: &mut Conn<'_>,
    class_id: &str,
    mut touched: Touched,
    mut cache: Option<&mut CellCache>,
) -> Result<(), StoreError> {
    on_conn!(conn, |conn| {
        if !touched.calls.is_empty() {
            let calls: Vec<&str> = touched.calls.iter().map(String::as_str).collect();
            let sql = format!(
                "SELECT pathway_id, learner, widget_id FROM calls WHERE class_id = $1 \
                 AND call_id IN ({})",
                json_list("$2", PG)
            );
            let cells: Vec<(String, String, String)> = sqlx::query_as(&sql)
                .bind(class_id)
                .bind(serde_json::Value::from(calls).to_string())
                .fetch_all(&mut *conn)
                .await?;
            for (pathway, learner, widget) in cells {
                touched.call_on(&pathway, &learner, &widget);
            }
        }
    });
    for (pathway, cells) in touched.cells {
        let mut stored = match cache.as_deref_mut() {
            Some(cache) => {
                let kept = cache.by_pathway.entry(pathway.clone()).or_default();
                cells
                    .keys()
                    .filter_map(|cell| kept.get(cell).map(|s| (cell.clone(), *s)))
                    .collect()
            }
            None => stored_cells(conn, class_id, &pathway, &narrow_to(cells.keys())).await?,
        };
        let with_calls = cells.iter().filter(|(_, a)| a.calls).map(|(c, _)| c);
        let mut calls = if cells.values().any(|a| a.calls) {
            call_facts(conn, class_id, &pathway, &narrow_to(with_calls)).await?
        } else {
            HashMap::new()
        };
        let rows = cells.into_iter().map(|(cell, added)| {
            let before = stored.remove(&cell);
            let mut facts = before.map(|b| b.facts).unwrap_or_default();
            if added.calls {
                facts.set_calls(calls.remove(&cell).unwrap_or_default());
            }
            facts.add(&added.facts);
            (cell, before, facts)
        });
        let rows: Vec<(Cell, Option<Stored>, CellFacts)> = rows.collect();
        if let Some(cache) = cache.as_deref_mut() {
            let kept = cache.by_pathway.entry(pathway.clone()).or_default();
            for (cell, _, facts) in &rows {
                let state = cell_state(facts);
                if state == CellState::NotStarted {
                    kept.remove(cell);
                } else {
                    kept.insert(
                        cell.clone(),
                        Stored {
                            state,
                            facts: *facts,
                        },
                    );
                }
            }
        }
        write_cells(conn, class_id, &pathway, rows).await?;
    }
    Ok(())
}

/// The narrowing to `cells`, a JSON array of `[learner, step]` pairs.
fn narrow_to<'a>(cells: impl Iterator<Item = &'a Cell>) -> Narrow {
    // Through `Value`: infallible, so a list never falls back to the whole class.
    let pairs: Vec<serde_json::Value> = cells
        .map(|(learner, widget)| serde_json::Value::from(vec![learner.as_str(), widget.as_str()]))
        .collect();
    Narrow::Cells(serde_json::Value::from(pairs).to_string())
}

/// The rollup's rows of the cells `which` names.
async fn stored_cells(
    conn: &mut Conn<'_>,
    class_id: &str,
    pathway_id: &str,
    which: &Narrow,
) -> Result<HashMap<Cell, Stored>, StoreError> {
    type Row = (
        String,
        String,
        String,
        i64,
        i64,
        Option<i64>,
        Option<bool>,
        Option<i64>,
        bool,
        bool,
        i64,
    );
    on_conn!(conn, |conn| {
        let sql = which.sql(
            "SELECT learner, widget_id, state, completions, incorrect, last_completed_at, \
             last_correct, last_struggle_at, open_assist, follow_up, calls FROM grid_cells \
             WHERE class_id = $1 AND pathway_id = $2",
            PG,
        );
        let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
        if let Some(cells) = which.bind() {
            q = q.bind(cells);
        }
        let rows: Vec<Row> = q.fetch_all(&mut *conn).await?;
        let count = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
        rows.into_iter()
            .map(
                |(l, w, state, c, i, at, correct, struggle, open, follow, calls)| {
                    let facts = CellFacts {
                        last_completion: at.map(|at| (at, correct)),
                        completions: count(c),
                        incorrect: count(i),
                        last_struggle_at: struggle,
                        open_assist: open,
                        follow_up: follow,
                        calls: count(calls),
                    };
                    let state = CellState::stored(&state)?;
                    Ok(((l, w), Stored { state, facts }))
                },
            )
            .collect()
    })
}

/// Writes each cell whose facts changed from `before` and moves the class totals by the states
/// that changed.
async fn write_cells(
    conn: &mut Conn<'_>,
    class_id: &str,
    pathway_id: &str,
    rows: Vec<(Cell, Option<Stored>, CellFacts)>,
) -> Result<(), StoreError> {
    let mut delta: HashMap<(String, &'static str), i64> = HashMap::new();
    let mut upserts: Vec<(Cell, CellState, CellFacts)> = Vec::new();
    let mut gone: Vec<Cell> = Vec::new();
    for (cell, before, facts) in rows {
        let state = cell_state(&facts);
        if before == Some(Stored { state, facts }) {
            continue;
        }
        if let Some(before) = before
            && before.state != state
        {
            *delta
                .entry((cell.1.clone(), before.state.as_str()))
                .or_default() -= 1;
        }
        if before.is_none_or(|b| b.state != state) && state != CellState::NotStarted {
            *delta.entry((cell.1.clone(), state.as_str())).or_default() += 1;
        }
        // Facts only grow, so a stored cell never goes back to not started; kept exact anyway.
        if state == CellState::NotStarted {
            if before.is_some() {
                gone.push(cell);
            }
            continue;
        }
        upserts.push((cell, state, facts));
    }
    on_conn!(conn, |conn| {
        for (learner, widget) in gone {
            sqlx::query(
                "DELETE FROM grid_cells WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 \
                 AND widget_id = $4",
            )
            .bind(class_id)
            .bind(pathway_id)
            .bind(learner)
            .bind(widget)
            .execute(&mut *conn)
            .await?;
        }
        for chunk in upserts.chunks(CELLS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO grid_cells (class_id, pathway_id, learner, widget_id, state, \
                 completions, incorrect, last_completed_at, last_correct, last_struggle_at, \
                 open_assist, follow_up, calls) ",
            );
            q.push_values(chunk, |mut row, ((learner, widget), state, f)| {
                row.push_bind(class_id)
                    .push_bind(pathway_id)
                    .push_bind(learner)
                    .push_bind(widget)
                    .push_bind(state.as_str())
                    .push_bind(i64::from(f.completions))
                    .push_bind(i64::from(f.incorrect))
                    .push_bind(f.last_completion.map(|(at, _)| at))
                    .push_bind(f.last_completion.and_then(|(_, correct)| correct))
                    .push_bind(f.last_struggle_at)
                    .push_bind(f.open_assist)
                    .push_bind(f.follow_up)
                    .push_bind(i64::from(f.calls));
            });
            q.push(
                " ON CONFLICT (class_id, pathway_id, learner, widget_id) DO UPDATE SET \
                 state = excluded.state, completions = excluded.completions, \
                 incorrect = excluded.incorrect, last_completed_at = excluded.last_completed_at, \
                 last_correct = excluded.last_correct, \
                 last_struggle_at = excluded.last_struggle_at, \
                 open_assist = excluded.open_assist, follow_up = excluded.follow_up, \
                 calls = excluded.calls",
            );
            q.build().execute(&mut *conn).await?;
        }
        let moved: Vec<((String, &'static str), i64)> =
            delta.into_iter().filter(|(_, n)| *n != 0).collect();
        for chunk in moved.chunks(CELLS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO grid_totals (class_id, pathway_id, widget_id, state, learners) ",
            );
            q.push_values(chunk, |mut row, ((widget, state), n)| {
                row.push_bind(class_id)
                    .push_bind(pathway_id)
                    .push_bind(widget)
                    .push_bind(*state)
                    .push_bind(*n);
            });
            q.push(
                " ON CONFLICT (class_id, pathway_id, widget_id, state) DO UPDATE SET \
                 learners = grid_totals.learners + excluded.learners",
            );
            q.build().execute(&mut *conn).await?;
        }
        Ok(())
    })
}

/// Empties the rollup and recomputes it from the derived tables, every row of every class.
pub(crate) async fn rebuild(conn: &mut Conn<'_>) -> Result<(), StoreError> {
    let pairs: Vec<(String, String)> = on_conn!(conn, |conn| {
        if PG {
            // Other followers may be writing: their batches' rollup writes wait until the
            // rebuild commits, then add their own rows to it (a batch that already wrote its
            // cells holds its lock, and the rebuild waits for its commit to count it).
            sqlx::query("LOCK TABLE grid_cells, grid_totals IN ACCESS EXCLUSIVE MODE")
                .execute(&mut *conn)
                .await?;
        }
        sqlx::query("DELETE FROM grid_cells")
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM grid_totals")
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM rollups_pending WHERE name = 'grid'")
            .execute(&mut *conn)
            .await?;
        sqlx::query_as(
            "SELECT class_id, pathway_id FROM results UNION SELECT class_id, pathway_id FROM struggles \
             UNION SELECT class_id, pathway_id FROM calls",
        )
        .fetch_all(&mut *conn)
        .await?
    });
    for (class_id, pathway_id) in pairs {
        let facts = cell_facts(conn, &class_id, &pathway_id, &Narrow::Class).await?;
        let rows = facts.into_iter().map(|(cell, f)| (cell, None, f)).collect();
        write_cells(conn, &class_id, &pathway_id, rows).await?;
    }
    Ok(())
}

/// Builds the rollup of a store whose migrations left it to build (a marker in
/// `rollups_pending`: cell states are computed in Rust, which a migration cannot call), in one
/// transaction; once, however many apps and followers open the store at the same time.
pub(crate) async fn build_pending(pool: &Pool) -> Result<(), StoreError> {
    let mut tx = pool.begin_write().await?;
    let conn = &mut tx.conn();
    let pending: Option<String> = on_conn!(conn, |conn| {
        if PG {
            // The next opener waits here, then finds the marker gone.
            sqlx::query("LOCK TABLE rollups_pending IN EXCLUSIVE MODE")
                .execute(&mut *conn)
                .await?;
        }
        sqlx::query_scalar("SELECT name FROM rollups_pending WHERE name = 'grid'")
            .fetch_optional(&mut *conn)
            .await?
    });
    if pending.is_some() {
        rebuild(conn).await?;
        tracing::info!("grid rollup built");
    }
    tx.commit().await?;
    Ok(())
}
