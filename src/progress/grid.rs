//! The live grid: learners (rows) x the steps of one assignment's pathway (columns), each cell in
//! one state derived from the stored results, struggles and calls.
//!
//! # Cell states (what the contract lets us know)
//!
//! The contract has no "started" event (quiet reporting), so a cell knows only completions,
//! struggle signals and score/assist calls. In order of precedence:
//!
//! 1. `waiting_for_help`: an open `a2learn.assist` call on the step.
//! 2. `follow_up`: an assist call the host closed unanswered (deadline, failure) that the
//!    teacher has not marked done ([`crate::desk::room`]).
//! 3. `struggling`: a struggle signal newer than the newest completion (or with none).
//! 4. a completion: the newest one decides: `completed_correct` (`correct: true`),
//!    `completed_incorrect` (`false`), `completed` (`null`: a step that does not assess, or no
//!    check ran). Of two at the same millisecond the incorrect one decides, then the correct
//!    one ([`CellFacts::add_completion`]: the grid's rollup and its rebuild must agree).
//! 5. `in_progress`: no completion, but some call (score or assist, any state) on the step.
//! 6. `not_started`: nothing stored for the learner on the step.

use std::collections::HashMap;

use crate::store::engine::{Conn, by_code_point, json_list, on_conn, on_pool};
use serde::Serialize;

use crate::store::{Store, StoreError};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum CellState {
    NotStarted,
    InProgress,
    CompletedCorrect,
    CompletedIncorrect,
    Completed,
    Struggling,
    WaitingForHelp,
    /// Asked for help, and the request closed unanswered: the teacher owes a follow-up.
    FollowUp,
}

impl CellState {
    pub const ALL: [CellState; 8] = [
        CellState::NotStarted,
        CellState::InProgress,
        CellState::CompletedCorrect,
        CellState::CompletedIncorrect,
        CellState::Completed,
        CellState::Struggling,
        CellState::WaitingForHelp,
        CellState::FollowUp,
    ];

    /// The state the grid's rollup stored by its name ([`CellState::as_str`]).
    pub fn stored(name: &str) -> Result<CellState, StoreError> {
        CellState::ALL
            .into_iter()
            .find(|s| s.as_str() == name)
            .ok_or_else(|| {
                StoreError::Invalid(format!("the grid rollup holds an unknown state {name:?}"))
            })
    }

    /// Its place in [`CellState::ALL`] (declared in that order).
    pub fn index(self) -> usize {
        self as usize
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CellState::NotStarted => "not_started",
            CellState::InProgress => "in_progress",
            CellState::CompletedCorrect => "completed_correct",
            CellState::CompletedIncorrect => "completed_incorrect",
            CellState::Completed => "completed",
            CellState::Struggling => "struggling",
            CellState::WaitingForHelp => "waiting_for_help",
            CellState::FollowUp => "follow_up",
        }
    }
}

/// What the store holds about one learner on one step.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CellFacts {
    /// The newest completion: its time and verdict.
    pub last_completion: Option<(i64, Option<bool>)>,
    pub completions: u32,
    pub incorrect: u32,
    pub last_struggle_at: Option<i64>,
    pub open_assist: bool,
    /// A help request the host closed unanswered, not yet followed up ([`crate::desk::room`]).
    pub follow_up: bool,
    pub calls: u32,
}

impl CellFacts {
    /// Adds one stored completion (a row of `results`).
    pub fn add_completion(&mut self, at_ms: i64, correct: Option<bool>) {
        self.completions = self.completions.saturating_add(1);
        if correct == Some(false) {
            self.incorrect = self.incorrect.saturating_add(1);
        }
        self.keep_newest(at_ms, correct);
    }

    /// Makes a completion at `at_ms` the newest if it is newer ([`newest_key`]).
    fn keep_newest(&mut self, at_ms: i64, correct: Option<bool>) {
        let newest = newest_key(at_ms, correct);
        if self
            .last_completion
            .is_none_or(|(at, c)| newest_key(at, c) < newest)
        {
            self.last_completion = Some((at_ms, correct));
        }
    }

    /// Adds one stored struggle signal (a row of `struggles`).
    pub fn add_struggle(&mut self, at_ms: i64) {
        self.last_struggle_at = Some(self.last_struggle_at.map_or(at_ms, |at| at.max(at_ms)));
    }

    /// Adds the completions and struggles of `more` (rows stored since these facts were read).
    pub(crate) fn add(&mut self, more: &CellFacts) {
        self.completions = self.completions.saturating_add(more.completions);
        self.incorrect = self.incorrect.saturating_add(more.incorrect);
        if let Some((at, correct)) = more.last_completion {
            self.keep_newest(at, correct);
        }
        if let Some(at) = more.last_struggle_at {
            self.add_struggle(at);
        }
    }

    /// Replaces the call facts (read again: calls change state).
    pub(crate) fn set_calls(&mut self, calls: CallFacts) {
        self.open_assist = calls.open_assist;
        self.follow_up = calls.follow_up;
        self.calls = calls.calls;
    }
}

/// Orders completions by time, and at one millisecond by verdict (incorrect over correct over
/// none): the same integer [`GRID_RESULTS_SQL`] takes the `MAX` of, so the rollup kept by
/// arithmetic and the one rebuilt by the query pick the same newest completion.
fn newest_key(at_ms: i64, correct: Option<bool>) -> i64 {
    let rank = match correct {
        None => 0,
        Some(true) => 1,
        Some(false) => 2,
    };
    at_ms.saturating_mul(4).saturating_add(rank)
}

/// The time and verdict a [`newest_key`] was made of.
fn from_newest_key(key: i64) -> (i64, Option<bool>) {
    let correct = match key.rem_euclid(4) {
        0 => None,
        1 => Some(true),
        _ => Some(false),
    };
    (key.div_euclid(4), correct)
}

/// The state of one cell (see the module docs for the precedence).
pub fn cell_state(f: &CellFacts) -> CellState {
    if f.open_assist {
        return CellState::WaitingForHelp;
    }
    if f.follow_up {
        return CellState::FollowUp;
    }
    let completed_at = f.last_completion.map(|(at, _)| at);
    if let Some(struggle_at) = f.last_struggle_at
        && completed_at.is_none_or(|c| struggle_at > c)
    {
        return CellState::Struggling;
    }
    match f.last_completion {
        Some((_, Some(true))) => CellState::CompletedCorrect,
        Some((_, Some(false))) => CellState::CompletedIncorrect,
        Some((_, None)) => CellState::Completed,
        None if f.calls > 0 => CellState::InProgress,
        None => CellState::NotStarted,
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridStep {
    pub widget_id: String,
    pub title: String,
    pub kind: String,
    pub standard: Option<String>,
    pub assesses: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridCell {
    pub state: CellState,
    pub completions: u32,
    pub incorrect: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridRow {
    pub learner: String,
    pub cells: Vec<GridCell>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Grid {
    pub class_id: String,
    pub assignment_id: String,
    pub pathway_id: String,
    pub steps: Vec<GridStep>,
    /// The learners asked for ([`Learners`]), in id order (views sort and label them).
    pub rows: Vec<GridRow>,
    /// Which learners the rows are: the whole class, or the ones named.
    pub learners: Learners,
}

/// Which learners a per-learner view reads: the whole class, or some of them by anonymous id
/// (the rows a live change touched). Named learners the class does not have are left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub enum Learners {
    All,
    Only(Vec<String>),
}

impl Learners {
    /// Binds the named learners as the JSON array [`for_learners`] reads at `$3`.
    pub(crate) fn json(&self) -> Option<String> {
        match self {
            Learners::All => None,
            // Through `Value`: infallible, so a list never falls back to the whole class.
            Learners::Only(ids) => Some(serde_json::Value::from(ids.clone()).to_string()),
        }
    }
}

/// The class-wide `sql`, or narrowed by [`for_learners`] (on PostgreSQL
/// [`for_learners_pg`]) when `only` names learners (a class-wide query has no `$3`: sqlx binds
/// only the parameters a statement has).
pub(crate) fn narrowed(sql: &str, only: &Option<String>, pg: bool) -> String {
    match only {
        None => sql.to_string(),
        Some(_) if pg => for_learners_pg(sql),
        Some(_) => for_learners(sql),
    }
}

/// `sql`, one of the class-wide per-learner queries (class at `$1`, pathway at `$2`), narrowed
/// to the learners of a JSON array bound at `$3`: each `pathway_id = $2` gains the filter, so the
/// same index range is read, learner by learner.
pub fn for_learners(sql: &str) -> String {
    sql.replace(
        "pathway_id = $2",
        "pathway_id = $2 AND learner IN (SELECT value FROM json_each($3))",
    )
}

/// [`for_learners`] on PostgreSQL.
pub fn for_learners_pg(sql: &str) -> String {
    sql.replace(
        "pathway_id = $2",
        "pathway_id = $2 AND learner IN (SELECT json_array_elements_text($3::json))",
    )
}

/// `sql`, one of the class-wide per-cell queries (class at `$1`, pathway at `$2`), narrowed to
/// the cells of a JSON array of `[learner, step]` pairs bound at `$3`: the index is read at each
/// cell's key, not through the learner's whole row.
pub fn for_cells(sql: &str) -> String {
    sql.replace(
        "pathway_id = $2",
        "pathway_id = $2 AND (learner, widget_id) IN \
         (SELECT value ->> 0, value ->> 1 FROM json_each($3))",
    )
}

/// [`for_cells`] on PostgreSQL: its per-cell queries (class at `$1`, pathway at `$2`) narrowed
/// to the pairs of the JSON array at `$3`.
pub fn for_cells_pg(sql: &str) -> String {
    sql.replace(
        "pathway_id = $2",
        "pathway_id = $2 AND (learner, widget_id) IN \
         (SELECT e ->> 0, e ->> 1 FROM json_array_elements($3::json) AS e)",
    )
}

/// Which part of a class a per-cell query reads: all of it, or some cells (a JSON array of
/// `[learner, step]` pairs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Narrow {
    Class,
    Cells(String),
}

impl Narrow {
    /// `sql` (one of SQLite's per-cell queries, or with `pg` one of PostgreSQL's) narrowed.
    pub fn sql(&self, sql: &str, pg: bool) -> String {
        match self {
            Narrow::Class => sql.to_string(),
            Narrow::Cells(_) if pg => for_cells_pg(sql),
            Narrow::Cells(_) => for_cells(sql),
        }
    }

    pub fn bind(&self) -> Option<&str> {
        match self {
            Narrow::Class => None,
            Narrow::Cells(json) => Some(json),
        }
    }
}

/// The grid's facts, read from the derived tables (by the rollup's rebuild,
/// [`crate::store::rollup`]); public so the plan test can check every one reads through an
/// index. The newest completion is the `MAX` of [`newest_key`] (`correct` as an integer on
/// SQLite, a boolean on PostgreSQL: `CASE WHEN correct` reads both); the results and struggles
/// statements run on both engines.
pub const GRID_RESULTS_SQL: &str = "SELECT learner, widget_id, \
     MAX(at_ms * 4 + CASE WHEN correct IS NULL THEN 0 WHEN correct THEN 1 ELSE 2 END), \
     COUNT(*), COUNT(*) FILTER (WHERE NOT correct) FROM results \
     WHERE class_id = $1 AND pathway_id = $2 GROUP BY learner, widget_id";
pub const GRID_STRUGGLES_SQL: &str = "SELECT learner, widget_id, MAX(at_ms) FROM struggles \
     WHERE class_id = $1 AND pathway_id = $2 GROUP BY learner, widget_id";
pub const GRID_CALLS_SQL: &str = "SELECT learner, widget_id, \
     MAX(function = 'assist' AND state = 'open'), \
     MAX(function = 'assist' AND state IN ('expired', 'failed') \
         AND call_id NOT IN (SELECT call_id FROM desk_sent WHERE class_id = $1) \
         AND call_id NOT IN (SELECT call_id FROM desk_followups_done WHERE class_id = $1)), \
     COUNT(*) FROM calls WHERE class_id = $1 AND pathway_id = $2 GROUP BY learner, widget_id";

/// [`GRID_CALLS_SQL`] on PostgreSQL, which has no `MAX` of a boolean.
pub const PG_GRID_CALLS_SQL: &str = "SELECT learner, widget_id, \
     BOOL_OR(function = 'assist' AND state = 'open'), \
     BOOL_OR(function = 'assist' AND state IN ('expired', 'failed') \
         AND call_id NOT IN (SELECT call_id FROM desk_sent WHERE class_id = $1) \
         AND call_id NOT IN (SELECT call_id FROM desk_followups_done WHERE class_id = $1)), \
     COUNT(*) FROM calls WHERE class_id = $1 AND pathway_id = $2 GROUP BY learner, widget_id";

/// A cell's call facts: an open help request, a follow-up owed, how many calls.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct CallFacts {
    pub open_assist: bool,
    pub follow_up: bool,
    pub calls: u32,
}

/// The call facts of a class's cells on a pathway (all, or the cells `narrow` names).
pub(crate) async fn call_facts(
    conn: &mut Conn<'_>,
    class_id: &str,
    pathway_id: &str,
    narrow: &Narrow,
) -> Result<HashMap<(String, String), CallFacts>, StoreError> {
    on_conn!(conn, |conn| {
        let sql = narrow.sql(
            if PG {
                PG_GRID_CALLS_SQL
            } else {
                GRID_CALLS_SQL
            },
            PG,
        );
        let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
        // The narrowing's list is bound only when the statement has it: PostgreSQL refuses a
        // parameter a statement does not take.
        if let Some(only) = narrow.bind() {
            q = q.bind(only);
        }
        let calls: Vec<(String, String, bool, bool, i64)> = q.fetch_all(&mut *conn).await?;
        Ok(calls
            .into_iter()
            .map(|(learner, widget, open_assist, follow_up, n)| {
                let calls = u32::try_from(n).unwrap_or(u32::MAX);
                let facts = CallFacts {
                    open_assist,
                    follow_up,
                    calls,
                };
                ((learner, widget), facts)
            })
            .collect())
    })
}

/// The facts of a class's cells on a pathway (all, or the cells `narrow` names), from results,
/// struggles and calls.
pub(crate) async fn cell_facts(
    conn: &mut Conn<'_>,
    class_id: &str,
    pathway_id: &str,
    narrow: &Narrow,
) -> Result<HashMap<(String, String), CellFacts>, StoreError> {
    let only = narrow.bind();
    let mut facts: HashMap<(String, String), CellFacts> = HashMap::new();
    on_conn!(conn, |conn| {
        let sql = narrow.sql(GRID_RESULTS_SQL, PG);
        let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
        if let Some(only) = only {
            q = q.bind(only);
        }
        let results: Vec<(String, String, i64, i64, i64)> = q.fetch_all(&mut *conn).await?;
        for (learner, widget, newest, n, incorrect) in results {
            let f = facts.entry((learner, widget)).or_default();
            f.last_completion = Some(from_newest_key(newest));
            f.completions = u32::try_from(n).unwrap_or(u32::MAX);
            f.incorrect = u32::try_from(incorrect).unwrap_or(u32::MAX);
        }
        let sql = narrow.sql(GRID_STRUGGLES_SQL, PG);
        let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
        if let Some(only) = only {
            q = q.bind(only);
        }
        let struggles: Vec<(String, String, i64)> = q.fetch_all(&mut *conn).await?;
        for (learner, widget, at) in struggles {
            facts.entry((learner, widget)).or_default().last_struggle_at = Some(at);
        }
    });
    for (cell, calls) in call_facts(conn, class_id, pathway_id, narrow).await? {
        facts.entry(cell).or_default().set_calls(calls);
    }
    Ok(facts)
}

/// A step's learners by state, over the whole class (the grid's footer).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StepTotals {
    pub widget_id: String,
    /// Learners in each state, in [`CellState::ALL`] order; not started is the class's learners
    /// less the others.
    pub learners: [u32; CellState::ALL.len()],
}

impl StepTotals {
    pub fn of(&self, state: CellState) -> u32 {
        self.learners[state.index()]
    }
}

/// Each step's totals over the rows a grid holds (a group's, where the rollup's class totals
/// are not the ones shown).
pub fn totals_of_rows(grid: &Grid) -> Vec<StepTotals> {
    grid.steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            let mut learners = [0u32; CellState::ALL.len()];
            for row in &grid.rows {
                let state = row.cells.get(i).map_or(CellState::NotStarted, |c| c.state);
                learners[state.index()] += 1;
            }
            StepTotals {
                widget_id: step.widget_id.clone(),
                learners,
            }
        })
        .collect()
}

/// One page of a class's grid: learners in id order after a cursor, with the class totals.
#[derive(Debug, Clone, PartialEq)]
pub struct GridPage {
    pub grid: Grid,
    /// Every learner of the class (not only the page's).
    pub learner_count: u32,
    /// Per step of the pathway, over the whole class.
    pub totals: Vec<StepTotals>,
    /// The last learner of this page when more follow: the cursor of the next page.
    pub next_after: Option<String>,
}

impl Store {
    /// The pathway an assignment of `class_id` refers to.
    pub async fn assignment_pathway(
        &self,
        class_id: &str,
        assignment_id: &str,
    ) -> Result<String, StoreError> {
        let pathway: Option<String> = on_pool!(self.engine(), |pool| {
            sqlx::query_scalar(
                "SELECT pathway_id FROM assignments WHERE class_id = $1 AND assignment_id = $2",
            )
            .bind(class_id)
            .bind(assignment_id)
            .fetch_optional(pool)
            .await?
        });
        pathway.ok_or_else(|| StoreError::NotFound("no such assignment in this class".into()))
    }

    /// The steps of a pathway in the stored catalog, in order.
    pub async fn pathway_steps(&self, pathway_id: &str) -> Result<Vec<GridStep>, StoreError> {
        let rows: Vec<(String, String, String, Option<String>, bool)> =
            on_pool!(self.engine(), |pool| {
                sqlx::query_as(
                    "SELECT widget_id, title, kind, standard, assesses FROM pathway_steps \
                     WHERE pathway_id = $1 ORDER BY position",
                )
                .bind(pathway_id)
                .fetch_all(pool)
                .await?
            });
        Ok(rows
            .into_iter()
            .map(|(widget_id, title, kind, standard, assesses)| GridStep {
                widget_id,
                title,
                kind,
                standard,
                assesses,
            })
            .collect())
    }

    /// Learners with anything stored on a pathway (a result, a struggle or a call): "who has
    /// started".
    pub async fn started_learners(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<i64, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM (\
                 SELECT learner FROM results WHERE class_id = $1 AND pathway_id = $2 \
                 UNION SELECT learner FROM struggles WHERE class_id = $1 AND pathway_id = $2 \
                 UNION SELECT learner FROM calls WHERE class_id = $1 AND pathway_id = $2) AS s",
            )
            .bind(class_id)
            .bind(pathway_id)
            .fetch_one(pool)
            .await?
        }))
    }

    /// The live grid of one assignment: the class's learners, their cells from the rollup.
    pub async fn grid(&self, class_id: &str, assignment_id: &str) -> Result<Grid, StoreError> {
        self.grid_of(class_id, assignment_id, Learners::All).await
    }

    /// A page of the grid: at most `limit` learners after `after` (anonymous ids, in id order),
    /// with the class's totals. Each part reads the rollup or an index by key, so the first page
    /// of a class of 100,000 costs what a class of 30 does.
    pub async fn grid_page(
        &self,
        class_id: &str,
        assignment_id: &str,
        after: Option<&str>,
        limit: u32,
    ) -> Result<GridPage, StoreError> {
        let mut page: Vec<String> = on_pool!(self.engine(), |pool| {
            let learner = by_code_point("learner", PG);
            sqlx::query_scalar(&format!(
                "SELECT learner FROM learners WHERE class_id = $1 AND {learner} > $2 \
                 ORDER BY {learner} LIMIT $3"
            ))
            .bind(class_id)
            .bind(after.unwrap_or(""))
            .bind(i64::from(limit) + 1)
            .fetch_all(pool)
            .await?
        });
        let more = page.len() > limit as usize;
        page.truncate(limit as usize);
        let next_after = if more { page.last().cloned() } else { None };
        let grid = self
            .grid_of(class_id, assignment_id, Learners::Only(page))
            .await?;
        let learner_count = self.learner_count(class_id).await?;
        let totals = self.step_totals(class_id, &grid, learner_count).await?;
        Ok(GridPage {
            grid,
            learner_count,
            totals,
            next_after,
        })
    }

    /// How many learners a class has.
    pub async fn learner_count(&self, class_id: &str) -> Result<u32, StoreError> {
        let n: i64 = on_pool!(self.engine(), |pool| {
            sqlx::query_scalar("SELECT COUNT(*) FROM learners WHERE class_id = $1")
                .bind(class_id)
                .fetch_one(pool)
                .await?
        });
        Ok(u32::try_from(n).unwrap_or(u32::MAX))
    }

    /// The class totals of `grid`'s steps from the rollup: each step's learners by state.
    pub async fn step_totals(
        &self,
        class_id: &str,
        grid: &Grid,
        learner_count: u32,
    ) -> Result<Vec<StepTotals>, StoreError> {
        let rows: Vec<(String, String, i64)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT widget_id, state, learners FROM grid_totals \
                 WHERE class_id = $1 AND pathway_id = $2 AND learners > 0",
            )
            .bind(class_id)
            .bind(&grid.pathway_id)
            .fetch_all(pool)
            .await?
        });
        let mut by_step: HashMap<String, [u32; CellState::ALL.len()]> = HashMap::new();
        for (widget, state, n) in rows {
            let i = CellState::stored(&state)?.index();
            by_step.entry(widget).or_default()[i] = u32::try_from(n).unwrap_or(u32::MAX);
        }
        let not_started = CellState::NotStarted.index();
        Ok(grid
            .steps
            .iter()
            .map(|step| {
                let mut learners = by_step.remove(&step.widget_id).unwrap_or_default();
                let started: u32 = learners.iter().sum();
                learners[not_started] = learner_count.saturating_sub(started);
                StepTotals {
                    widget_id: step.widget_id.clone(),
                    learners,
                }
            })
            .collect())
    }

    /// The grid's rows of some learners (or all): the same queries, narrowed.
    pub async fn grid_of(
        &self,
        class_id: &str,
        assignment_id: &str,
        which: Learners,
    ) -> Result<Grid, StoreError> {
        let pathway_id = self.assignment_pathway(class_id, assignment_id).await?;
        let steps = self.pathway_steps(&pathway_id).await?;
        let only = which.json();
        let learners: Vec<String> = match &only {
            None => self.learners(class_id).await?,
            Some(ids) => on_pool!(self.engine(), |pool| {
                let list = json_list("$2", PG);
                sqlx::query_scalar(&format!(
                    "SELECT learner FROM learners WHERE class_id = $1 AND learner IN ({list}) \
                     ORDER BY {}",
                    by_code_point("learner", PG)
                ))
                .bind(class_id)
                .bind(ids)
                .fetch_all(pool)
                .await?
            }),
        };
        let cells: Vec<(String, String, String, i64, i64)> = on_pool!(self.engine(), |pool| {
            let sql = narrowed(
                "SELECT learner, widget_id, state, completions, incorrect FROM grid_cells \
                 WHERE class_id = $1 AND pathway_id = $2",
                &only,
                PG,
            );
            let mut q = sqlx::query_as(&sql).bind(class_id).bind(&pathway_id);
            // Bound only when the statement has it: PostgreSQL refuses a parameter too many.
            if let Some(only) = &only {
                q = q.bind(only);
            }
            q.fetch_all(pool).await?
        });
        let mut stored: HashMap<(String, String), GridCell> = HashMap::with_capacity(cells.len());
        for (learner, widget, state, completions, incorrect) in cells {
            let state = CellState::stored(&state)?;
            stored.insert(
                (learner, widget),
                GridCell {
                    state,
                    completions: u32::try_from(completions).unwrap_or(u32::MAX),
                    incorrect: u32::try_from(incorrect).unwrap_or(u32::MAX),
                },
            );
        }

        let empty = GridCell {
            state: CellState::NotStarted,
            completions: 0,
            incorrect: 0,
        };
        let rows = learners
            .into_iter()
            .map(|learner| {
                let cells = steps
                    .iter()
                    .map(|s| {
                        // A lookup by borrowed pair would need a custom key; the clone is per
                        // cell of a grid the UI redraws anyway.
                        stored
                            .get(&(learner.clone(), s.widget_id.clone()))
                            .unwrap_or(&empty)
                            .clone()
                    })
                    .collect();
                GridRow { learner, cells }
            })
            .collect();
        Ok(Grid {
            class_id: class_id.to_string(),
            assignment_id: assignment_id.to_string(),
            pathway_id,
            steps,
            rows,
            learners: which,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> CellFacts {
        CellFacts::default()
    }

    #[test]
    fn the_newest_completion_key_orders_by_time_then_verdict_and_reads_back() {
        for at in [-1_000_001, -1, 0, 1, 1_800_000_000_123] {
            for correct in [None, Some(true), Some(false)] {
                assert_eq!(from_newest_key(newest_key(at, correct)), (at, correct));
                assert!(newest_key(at, correct) < newest_key(at + 1, None), "{at}");
            }
            assert!(newest_key(at, None) < newest_key(at, Some(true)));
            assert!(newest_key(at, Some(true)) < newest_key(at, Some(false)));
        }
    }

    #[test]
    fn facts_added_in_two_parts_equal_facts_added_at_once() {
        let rows = [
            (5, Some(true)),
            (9, None),
            (9, Some(false)),
            (7, Some(false)),
        ];
        let mut whole = facts();
        for (at, c) in rows {
            whole.add_completion(at, c);
        }
        whole.add_struggle(8);
        let (mut first, mut second) = (facts(), facts());
        for (at, c) in &rows[..2] {
            first.add_completion(*at, *c);
        }
        for (at, c) in &rows[2..] {
            second.add_completion(*at, *c);
        }
        second.add_struggle(8);
        first.add(&second);
        assert_eq!(first, whole);
        assert_eq!(whole.last_completion, Some((9, Some(false))));
        assert_eq!((whole.completions, whole.incorrect), (4, 2));
        // Control: one part alone is not the whole.
        assert_ne!(second, whole);
    }

    #[test]
    fn golden_cell_states() {
        let cases: Vec<(CellFacts, CellState)> = vec![
            (facts(), CellState::NotStarted),
            (
                CellFacts {
                    calls: 1,
                    ..facts()
                },
                CellState::InProgress,
            ),
            (
                CellFacts {
                    last_completion: Some((10, Some(true))),
                    completions: 1,
                    ..facts()
                },
                CellState::CompletedCorrect,
            ),
            (
                CellFacts {
                    last_completion: Some((10, Some(false))),
                    completions: 1,
                    incorrect: 1,
                    ..facts()
                },
                CellState::CompletedIncorrect,
            ),
            (
                CellFacts {
                    last_completion: Some((10, None)),
                    completions: 1,
                    calls: 3,
                    ..facts()
                },
                CellState::Completed,
            ),
            // A struggle before the completion is history; after it (a new run), it is current.
            (
                CellFacts {
                    last_completion: Some((10, Some(true))),
                    last_struggle_at: Some(5),
                    ..facts()
                },
                CellState::CompletedCorrect,
            ),
            (
                CellFacts {
                    last_completion: Some((10, Some(false))),
                    last_struggle_at: Some(20),
                    ..facts()
                },
                CellState::Struggling,
            ),
            (
                CellFacts {
                    last_struggle_at: Some(5),
                    calls: 2,
                    ..facts()
                },
                CellState::Struggling,
            ),
            // An open help request wins over everything.
            (
                CellFacts {
                    last_completion: Some((10, Some(true))),
                    last_struggle_at: Some(20),
                    open_assist: true,
                    calls: 1,
                    ..facts()
                },
                CellState::WaitingForHelp,
            ),
            // A missed request to follow up wins over a struggle and a completion...
            (
                CellFacts {
                    last_completion: Some((10, Some(true))),
                    last_struggle_at: Some(20),
                    follow_up: true,
                    calls: 1,
                    ..facts()
                },
                CellState::FollowUp,
            ),
            // ...but not over a request waiting now.
            (
                CellFacts {
                    follow_up: true,
                    open_assist: true,
                    calls: 2,
                    ..facts()
                },
                CellState::WaitingForHelp,
            ),
        ];
        for (i, (f, want)) in cases.into_iter().enumerate() {
            assert_eq!(cell_state(&f), want, "case {i}: {f:?}");
        }
    }

    #[test]
    fn every_state_is_stored_by_its_name_at_its_place() {
        for (i, state) in CellState::ALL.into_iter().enumerate() {
            assert_eq!(state.index(), i);
            assert_eq!(CellState::stored(state.as_str()).unwrap(), state);
        }
        assert!(CellState::stored("finished").is_err());
    }

    #[test]
    fn every_state_has_a_distinct_name() {
        let mut names: Vec<&str> = CellState::ALL.iter().map(|s| s.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CellState::ALL.len());
    }
}
