//! The grid's rollup (`grid_cells`, `grid_totals`): each cell's state and counts, and each step's
//! learners by state, kept in the transaction that writes what they derive from — ingest, and
//! the help desk's own writes that decide a follow-up. The grid then reads a page of learners'
//! cells by key and the class totals in one short range, instead of grouping the class's
//! results, struggles and calls on every read.
//!
//! A change recomputes the cells it touched from the derived tables ([`cell_facts`], the
//! queries the grid used to run itself, read at each cell's key) and moves the totals by the
//! difference; `db rebuild` and a store migrated from before the rollup recompute every row.
//! Both go through [`refresh`], so the two cannot disagree on a cell.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use sqlx::QueryBuilder;

use super::engine::{Conn, json_list, on_conn};

use super::StoreError;
use crate::progress::grid::{CellState, Narrow, cell_facts, cell_state};

/// Rows (7 columns) per multi-row upsert, far inside SQLite's bound-parameter limit; fewer
/// statements per batch, as [`super::ROWS_PER_STATEMENT`].
const CELLS_PER_STATEMENT: usize = 250;

/// The cells (learner, step) a write touched, by pathway, and the calls whose cells it touched
/// (a response names its call, not its learner or step).
#[derive(Debug, Default)]
pub(crate) struct Touched {
    pub cells: BTreeMap<String, BTreeSet<(String, String)>>,
    pub calls: BTreeSet<String>,
}

impl Touched {
    pub fn cell(&mut self, pathway_id: &str, learner: &str, widget_id: &str) {
        self.cells
            .entry(pathway_id.to_string())
            .or_default()
            .insert((learner.to_string(), widget_id.to_string()));
    }
}

/// Brings the rollup of the touched rows of `class_id` up to date.
pub(crate) async fn refresh_touched(
    conn: &mut Conn<'_>,
    class_id: &str,
    mut touched: Touched,
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
                touched.cell(&pathway, &learner, &widget);
            }
        }
        for (pathway, cells) in touched.cells {
            // Through `Value`: infallible, so a list never falls back to the whole class.
            let pairs: Vec<serde_json::Value> = cells
                .into_iter()
                .map(|(learner, widget)| serde_json::Value::from(vec![learner, widget]))
                .collect();
            let which = Narrow::Cells(serde_json::Value::from(pairs).to_string());
            refresh(&mut Conn::from(&mut *conn), class_id, &pathway, &which).await?;
        }
        Ok(())
    })
}

/// Recomputes the cells `which` names of `class_id` on `pathway_id` (or all of them), writes
/// those that changed and moves the class totals by the difference.
pub(crate) async fn refresh(
    conn: &mut Conn<'_>,
    class_id: &str,
    pathway_id: &str,
    which: &Narrow,
) -> Result<(), StoreError> {
    on_conn!(conn, |conn| {
        let facts = cell_facts(&mut Conn::from(&mut *conn), class_id, pathway_id, which).await?;
        let sql = which.sql(
            "SELECT learner, widget_id, state, completions, incorrect FROM grid_cells \
         WHERE class_id = $1 AND pathway_id = $2",
            PG,
        );
        let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
        if let Some(cells) = which.bind() {
            q = q.bind(cells);
        }
        let stored: Vec<(String, String, String, i64, i64)> = q.fetch_all(&mut *conn).await?;
        let mut before: HashMap<(String, String), (String, i64, i64)> = stored
            .into_iter()
            .map(|(l, w, state, c, i)| ((l, w), (state, c, i)))
            .collect();

        let mut delta: HashMap<(String, &'static str), i64> = HashMap::new();
        let mut upserts: Vec<(String, String, &'static str, i64, i64)> = Vec::new();
        for ((learner, widget), f) in facts {
            let state = cell_state(&f);
            if state == CellState::NotStarted {
                continue;
            }
            let now = (
                state.as_str(),
                i64::from(f.completions),
                i64::from(f.incorrect),
            );
            match before.remove(&(learner.clone(), widget.clone())) {
                Some((s, c, i)) if (s.as_str(), c, i) == now => continue,
                Some((old, _, _)) => {
                    if old != now.0 {
                        *delta
                            .entry((widget.clone(), state_name(&old)?))
                            .or_default() -= 1;
                        *delta.entry((widget.clone(), now.0)).or_default() += 1;
                    }
                }
                None => *delta.entry((widget.clone(), now.0)).or_default() += 1,
            }
            upserts.push((learner, widget, now.0, now.1, now.2));
        }
        // Cells left with nothing to derive from. Derived rows are only ever deleted by a rebuild,
        // which empties the rollup first, so none in practice; kept so the totals stay exact.
        for ((learner, widget), (state, _, _)) in before {
            sqlx::query(
                "DELETE FROM grid_cells WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 \
             AND widget_id = $4",
            )
            .bind(class_id)
            .bind(pathway_id)
            .bind(&learner)
            .bind(&widget)
            .execute(&mut *conn)
            .await?;
            *delta.entry((widget, state_name(&state)?)).or_default() -= 1;
        }

        for chunk in upserts.chunks(CELLS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO grid_cells (class_id, pathway_id, learner, widget_id, state, \
             completions, incorrect) ",
            );
            q.push_values(
                chunk,
                |mut row, (learner, widget, state, completions, incorrect)| {
                    row.push_bind(class_id)
                        .push_bind(pathway_id)
                        .push_bind(learner)
                        .push_bind(widget)
                        .push_bind(*state)
                        .push_bind(*completions)
                        .push_bind(*incorrect);
                },
            );
            q.push(
                " ON CONFLICT (class_id, pathway_id, learner, widget_id) DO UPDATE SET \
             state = excluded.state, completions = excluded.completions, \
             incorrect = excluded.incorrect",
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

fn state_name(stored: &str) -> Result<&'static str, StoreError> {
    CellState::stored(stored).map(CellState::as_str)
}

/// Empties the rollup and recomputes it from the derived tables, every row of every class.
pub(crate) async fn rebuild(conn: &mut Conn<'_>) -> Result<(), StoreError> {
    on_conn!(conn, |conn| {
        sqlx::query("DELETE FROM grid_cells")
            .execute(&mut *conn)
            .await?;
        sqlx::query("DELETE FROM grid_totals")
            .execute(&mut *conn)
            .await?;
        let pairs: Vec<(String, String)> = sqlx::query_as(
            "SELECT class_id, pathway_id FROM results UNION SELECT class_id, pathway_id FROM struggles \
             UNION SELECT class_id, pathway_id FROM calls",
        )
        .fetch_all(&mut *conn)
        .await?;
        for (class_id, pathway_id) in pairs {
            refresh(
                &mut Conn::from(&mut *conn),
                &class_id,
                &pathway_id,
                &Narrow::Class,
            )
            .await?;
        }
        if !PG {
            // A shared store starts with its rollup (migrations-postgres/ has no marker).
            sqlx::query("DELETE FROM rollups_pending WHERE name = 'grid'")
                .execute(&mut *conn)
                .await?;
        }
        Ok(())
    })
}

/// Builds the rollup of a store migrated from before it (the migration leaves a marker; see
/// `migrations/20261202000004_grid_rollup.sql`), in one transaction.
pub(crate) async fn build_pending(pool: &sqlx::SqlitePool) -> Result<(), StoreError> {
    let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
    let pending: Option<String> =
        sqlx::query_scalar("SELECT name FROM rollups_pending WHERE name = 'grid'")
            .fetch_optional(&mut *tx)
            .await?;
    if pending.is_some() {
        rebuild(&mut Conn::from(&mut *tx)).await?;
        tracing::info!("grid rollup built");
    }
    tx.commit().await?;
    Ok(())
}
