//! What the class did on each step, and where each student is — both derived from the stored
//! results (and, for "last seen", struggles and calls), with no new telemetry: the contract's
//! quiet reporting stays law.
//!
//! # The step report
//!
//! Per step of an assignment's pathway, each learner of the class falls in exactly one of five
//! groups, decided by their **newest** run of the step (`at_ms`, then `widget_run_id`, both
//! descending, as the grid and the exports order runs; a redone step counts by its newest run):
//!
//! | group | newest run |
//! |---|---|
//! | `first_try` | completed, `correct: true`, `attempts == 1` |
//! | `after_retries` | completed, `correct: true`, `attempts > 1` |
//! | `incorrect` | completed, `correct: false` |
//! | `no_verdict` | completed, `correct: null` (a step that does not assess, or no check ran) |
//! | `not_reached` | no completion |
//!
//! so the five add up to the class's learners. Mean attempts and hints are over those same
//! newest runs (`None` when nobody completed the step), and the common responses count the
//! newest runs whose `detail` carries a string `response`: the top [`TOP_RESPONSES`], most
//! frequent first, ties by response text.
//!
//! # Where each student is
//!
//! Per learner and assignment, each step is `done` (completed), `current` or `upcoming`. The
//! current step is the first step, in pathway order, that is not done and whose prerequisites
//! are all done: a step's `requires` (the catalog's prerequisite edges, `pathway-host.md` §1),
//! or, where a step has none, the step before it. With the default chain this is simply the
//! first step not done. The stored catalog keeps no `requires` today, so the store passes
//! `None` and pathway order decides; [`placement`] takes them for when it does. The learner's
//! last event (completion, struggle or call on the pathway) and the caller's `now` say how long
//! they have been quiet; [`is_idle`] flags a learner past the teacher's threshold.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::grid::{Grid, GridStep, Learners, narrowed};
use super::help_after::{HelpGiven, HelpedCounts, helped_by_step};
use super::mastery::StandardCounts;
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// How many common responses a step lists.
pub const TOP_RESPONSES: usize = 5;

/// One stored completion, as the step report reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunFacts {
    pub learner: String,
    pub widget_id: String,
    pub widget_run_id: String,
    pub at_ms: i64,
    pub standard: Option<String>,
    pub correct: Option<bool>,
    pub attempts: i64,
    pub hints: i64,
    /// `detail.response` when it is a string.
    pub response: Option<String>,
}

impl RunFacts {
    /// Whether this run is newer than `other` (time, then run id, both descending).
    fn newer_than(&self, other: &RunFacts) -> bool {
        (self.at_ms, self.widget_run_id.as_str()) > (other.at_ms, other.widget_run_id.as_str())
    }
}

/// The group a learner's newest run of a step puts them in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    FirstTry,
    AfterRetries,
    Incorrect,
    NoVerdict,
    NotReached,
}

impl Outcome {
    pub const ALL: [Outcome; 5] = [
        Outcome::FirstTry,
        Outcome::AfterRetries,
        Outcome::Incorrect,
        Outcome::NoVerdict,
        Outcome::NotReached,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::FirstTry => "first_try",
            Outcome::AfterRetries => "after_retries",
            Outcome::Incorrect => "incorrect",
            Outcome::NoVerdict => "no_verdict",
            Outcome::NotReached => "not_reached",
        }
    }
}

/// The group of a learner whose newest run of the step is `newest` (`None`: no completion).
pub fn outcome(newest: Option<&RunFacts>) -> Outcome {
    match newest {
        None => Outcome::NotReached,
        Some(r) => match r.correct {
            Some(true) if r.attempts <= 1 => Outcome::FirstTry,
            Some(true) => Outcome::AfterRetries,
            Some(false) => Outcome::Incorrect,
            None => Outcome::NoVerdict,
        },
    }
}

/// A response and how many learners gave it (as their newest run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResponseCount {
    pub response: String,
    pub count: u32,
}

/// The learners of each group, in id order.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct OutcomeLearners {
    pub first_try: Vec<String>,
    pub after_retries: Vec<String>,
    pub incorrect: Vec<String>,
    pub no_verdict: Vec<String>,
    pub not_reached: Vec<String>,
}

impl OutcomeLearners {
    pub fn get(&self, o: Outcome) -> &[String] {
        match o {
            Outcome::FirstTry => &self.first_try,
            Outcome::AfterRetries => &self.after_retries,
            Outcome::Incorrect => &self.incorrect,
            Outcome::NoVerdict => &self.no_verdict,
            Outcome::NotReached => &self.not_reached,
        }
    }

    fn push(&mut self, o: Outcome, learner: String) {
        match o {
            Outcome::FirstTry => self.first_try.push(learner),
            Outcome::AfterRetries => self.after_retries.push(learner),
            Outcome::Incorrect => self.incorrect.push(learner),
            Outcome::NoVerdict => self.no_verdict.push(learner),
            Outcome::NotReached => self.not_reached.push(learner),
        }
    }

    /// How many learners are in group `o`.
    pub fn count(&self, o: Outcome) -> u32 {
        u32::try_from(self.get(o).len()).unwrap_or(u32::MAX)
    }
}

/// One step's row of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StepReport {
    pub step: GridStep,
    pub learners: OutcomeLearners,
    pub mean_attempts: Option<f64>,
    pub mean_hints: Option<f64>,
    pub common_responses: Vec<ResponseCount>,
    /// The median of the learners' [`step_times`] on this step (none on the first step, and
    /// where nobody has one yet).
    pub median_time_ms: Option<i64>,
    /// Help requests on the step the teacher answered or declined, and how many of those
    /// learners then got it right ([`super::help_after`]); zero until [`with_help`] fills it.
    pub help: HelpedCounts,
}

/// The newest run of each (learner, step) among `runs`.
pub fn newest_runs(runs: &[RunFacts]) -> HashMap<(&str, &str), &RunFacts> {
    let mut newest: HashMap<(&str, &str), &RunFacts> = HashMap::new();
    for r in runs {
        newest
            .entry((r.learner.as_str(), r.widget_id.as_str()))
            .and_modify(|kept| {
                if r.newer_than(kept) {
                    *kept = r;
                }
            })
            .or_insert(r);
    }
    newest
}

/// The top `n` responses, most frequent first, ties by response text.
pub fn top_responses<'a>(
    responses: impl IntoIterator<Item = &'a str>,
    n: usize,
) -> Vec<ResponseCount> {
    let mut counts: HashMap<&str, u32> = HashMap::new();
    for r in responses {
        *counts.entry(r).or_default() += 1;
    }
    let mut all: Vec<(&str, u32)> = counts.into_iter().collect();
    all.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    all.into_iter()
        .take(n)
        .map(|(response, count)| ResponseCount {
            response: response.to_string(),
            count,
        })
        .collect()
}

/// How long each learner took on each step: from their first completion of the step before it
/// (in pathway order) to their first completion of this one. The contract has no "step shown"
/// event, so the first step has no time, and a step finished before the one before it (out of
/// order) has none either. Keyed by (learner, widget id).
pub fn step_times<'a>(
    steps: &[GridStep],
    runs: &'a [RunFacts],
) -> HashMap<(&'a str, &'a str), i64> {
    let mut first: HashMap<(&str, &str), i64> = HashMap::new();
    for r in runs {
        first
            .entry((r.learner.as_str(), r.widget_id.as_str()))
            .and_modify(|at| *at = (*at).min(r.at_ms))
            .or_insert(r.at_ms);
    }
    let mut times = HashMap::new();
    for (&(learner, widget_id), &done) in &first {
        let Some(i) = steps.iter().position(|s| s.widget_id == widget_id) else {
            continue;
        };
        let Some(before) = i.checked_sub(1).map(|b| steps[b].widget_id.as_str()) else {
            continue;
        };
        if let Some(&started) = first.get(&(learner, before))
            && done > started
        {
            times.insert((learner, widget_id), done - started);
        }
    }
    times
}

/// The median of `values` (the mean of the middle two for an even count).
pub fn median(values: &mut [i64]) -> Option<i64> {
    values.sort_unstable();
    let n = values.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(values[n / 2]),
        _ => Some((values[n / 2 - 1] + values[n / 2]) / 2),
    }
}

fn mean(values: &[i64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let sum: i64 = values.iter().sum();
    Some(sum as f64 / values.len() as f64)
}

/// The step report of one pathway: `steps` in pathway order, `learners` the class (in id
/// order), `runs` every stored completion of the pathway by the class. Runs by a learner not in
/// `learners` are not counted, so the five groups always add up to `learners.len()`.
pub fn step_reports(steps: &[GridStep], learners: &[String], runs: &[RunFacts]) -> Vec<StepReport> {
    let newest = newest_runs(runs);
    let times = step_times(steps, runs);
    steps
        .iter()
        .map(|step| {
            let mut groups = OutcomeLearners::default();
            let mut attempts = Vec::new();
            let mut hints = Vec::new();
            let mut responses = Vec::new();
            let mut took = Vec::new();
            for learner in learners {
                if let Some(&t) = times.get(&(learner.as_str(), step.widget_id.as_str())) {
                    took.push(t);
                }
                let run = newest
                    .get(&(learner.as_str(), step.widget_id.as_str()))
                    .copied();
                if let Some(r) = run {
                    attempts.push(r.attempts);
                    hints.push(r.hints);
                    if let Some(text) = &r.response {
                        responses.push(text.as_str());
                    }
                }
                groups.push(outcome(run), learner.clone());
            }
            StepReport {
                step: step.clone(),
                learners: groups,
                mean_attempts: mean(&attempts),
                mean_hints: mean(&hints),
                common_responses: top_responses(responses, TOP_RESPONSES),
                median_time_ms: median(&mut took),
                help: HelpedCounts::default(),
            }
        })
        .collect()
}

/// Fills each step's [`StepReport::help`] from the help requests given on the pathway.
pub fn with_help(
    reports: &mut [StepReport],
    helps: &[HelpGiven],
    steps: &[GridStep],
    runs: &[RunFacts],
) {
    let by_step = helped_by_step(helps, steps, runs);
    for r in reports {
        r.help = by_step.get(&r.step.widget_id).copied().unwrap_or_default();
    }
}

/// Evidence by standard over every run of the pathway by the class (as the class view's mastery
/// counts results), standards in name order, steps without a standard left out; and the total
/// over those standards.
pub fn standard_counts(
    runs: &[RunFacts],
    learners: &[String],
) -> (Vec<StandardCounts>, StandardCounts) {
    let class: HashSet<&str> = learners.iter().map(String::as_str).collect();
    let mut by: std::collections::BTreeMap<&str, (StandardCounts, HashSet<&str>)> =
        Default::default();
    let mut total = StandardCounts::default();
    let mut everyone: HashSet<&str> = HashSet::new();
    for r in runs {
        let (Some(standard), true) = (r.standard.as_deref(), class.contains(r.learner.as_str()))
        else {
            continue;
        };
        let (c, who) = by.entry(standard).or_insert_with(|| {
            (
                StandardCounts {
                    standard: Some(standard.to_string()),
                    ..Default::default()
                },
                HashSet::new(),
            )
        });
        for c in [c, &mut total] {
            c.results += 1;
            if let Some(correct) = r.correct {
                c.checked += 1;
                c.correct += u32::from(correct);
            }
            c.attempts = c
                .attempts
                .saturating_add(u32::try_from(r.attempts).unwrap_or(0));
            c.hints = c.hints.saturating_add(u32::try_from(r.hints).unwrap_or(0));
        }
        who.insert(r.learner.as_str());
        everyone.insert(r.learner.as_str());
    }
    total.learners = u32::try_from(everyone.len()).unwrap_or(u32::MAX);
    let standards = by
        .into_values()
        .map(|(mut c, who)| {
            c.learners = u32::try_from(who.len()).unwrap_or(u32::MAX);
            c
        })
        .collect();
    (standards, total)
}

/// A step of a learner's strip.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum StepStatus {
    Done,
    Current,
    Upcoming,
}

/// A step and its prerequisites: `None` is the default, the step before it (none for the first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StepDeps {
    pub widget_id: String,
    pub requires: Option<Vec<String>>,
}

/// Each step's status for a learner who has completed `done` (see the module docs). At most one
/// step is current; none when every step is done. When no undone step has its prerequisites
/// done (edges that contradict each other), the first undone step is current, so a learner with
/// work left always has a place.
pub fn placement(steps: &[StepDeps], done: &HashSet<&str>) -> Vec<StepStatus> {
    let ready = |i: usize| -> bool {
        match &steps[i].requires {
            Some(reqs) => reqs.iter().all(|r| done.contains(r.as_str())),
            None => i == 0 || done.contains(steps[i - 1].widget_id.as_str()),
        }
    };
    let undone = |i: &usize| !done.contains(steps[*i].widget_id.as_str());
    let current = (0..steps.len())
        .filter(undone)
        .find(|&i| ready(i))
        .or_else(|| (0..steps.len()).find(undone));
    steps
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if done.contains(s.widget_id.as_str()) {
                StepStatus::Done
            } else if Some(i) == current {
                StepStatus::Current
            } else {
                StepStatus::Upcoming
            }
        })
        .collect()
}

/// Whether a learner is idle: working on a step (one is current), last heard from at
/// `last_event_ms`, and quiet for at least `threshold_ms` by `now_ms`. A learner with no event
/// yet has not started (the grid says so); one with every step done has finished: neither is
/// idle.
pub fn is_idle(
    has_current: bool,
    last_event_ms: Option<i64>,
    now_ms: i64,
    threshold_ms: i64,
) -> bool {
    match last_event_ms {
        Some(last) if has_current => now_ms.saturating_sub(last) >= threshold_ms,
        _ => false,
    }
}

/// Where one learner is on one assignment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LearnerPlace {
    pub learner: String,
    /// One per step, in pathway order.
    pub steps: Vec<StepStatus>,
    /// The index of the current step; `None` when every step is done.
    pub current: Option<usize>,
    pub last_event_ms: Option<i64>,
    /// `now - last_event` (never negative); `None` before the first event.
    pub quiet_ms: Option<i64>,
    pub idle: bool,
}

/// Where every learner of a class is on one assignment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Placement {
    pub pathway_id: String,
    pub steps: Vec<GridStep>,
    /// Every learner of the class, in id order.
    pub learners: Vec<LearnerPlace>,
}

/// The stored catalog keeps no `requires`: each step builds on the one before it.
fn pathway_order(steps: &[GridStep]) -> Vec<StepDeps> {
    steps
        .iter()
        .map(|s| StepDeps {
            widget_id: s.widget_id.clone(),
            requires: None,
        })
        .collect()
}

/// Places every learner: `done` is each learner's completed steps, `last_event` their newest
/// event on the pathway.
pub fn place_learners(
    deps: &[StepDeps],
    learners: &[String],
    done: &HashMap<String, HashSet<String>>,
    last_event: &HashMap<String, i64>,
    now_ms: i64,
    idle_after_ms: i64,
) -> Vec<LearnerPlace> {
    let none = HashSet::new();
    learners
        .iter()
        .map(|learner| {
            let done: HashSet<&str> = done
                .get(learner)
                .unwrap_or(&none)
                .iter()
                .map(String::as_str)
                .collect();
            let steps = placement(deps, &done);
            let current = steps.iter().position(|s| *s == StepStatus::Current);
            let last = last_event.get(learner).copied();
            LearnerPlace {
                learner: learner.clone(),
                current,
                last_event_ms: last,
                quiet_ms: last.map(|l| now_ms.saturating_sub(l).max(0)),
                idle: is_idle(current.is_some(), last, now_ms, idle_after_ms),
                steps,
            }
        })
        .collect()
}

/// The step report's SQL: every completion of a pathway by a class, with `detail.response` when
/// it is a string (kept as a column by ingest: no payload is read). The same on both engines.
pub const STEP_RUNS_SQL: &str = "SELECT learner, widget_id, widget_run_id, at_ms, standard, \
     correct, attempts, hints, response FROM results WHERE class_id = $1 AND pathway_id = $2";

/// Each learner's newest event on a pathway: completion, struggle or call (the same statement
/// on both engines).
pub const LAST_EVENT_SQL: &str = "SELECT learner, MAX(at) FROM (\
     SELECT learner, MAX(at_ms) AS at FROM results WHERE class_id = $1 AND pathway_id = $2 \
     GROUP BY learner \
     UNION ALL SELECT learner, MAX(at_ms) FROM struggles WHERE class_id = $1 AND pathway_id = $2 \
     GROUP BY learner \
     UNION ALL SELECT learner, MAX(at_ms) FROM calls WHERE class_id = $1 AND pathway_id = $2 \
     GROUP BY learner) AS newest GROUP BY learner";

pub type RunRow = (
    String,
    String,
    String,
    i64,
    Option<String>,
    Option<bool>,
    i64,
    i64,
    Option<String>,
);

impl Store {
    /// Every completion of a pathway by a class (the step report's input).
    pub async fn step_runs(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<Vec<RunFacts>, StoreError> {
        let rows: Vec<RunRow> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(STEP_RUNS_SQL)
                .bind(class_id)
                .bind(pathway_id)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(
                |(
                    learner,
                    widget_id,
                    widget_run_id,
                    at_ms,
                    standard,
                    correct,
                    attempts,
                    hints,
                    response,
                )| {
                    RunFacts {
                        learner,
                        widget_id,
                        widget_run_id,
                        at_ms,
                        standard,
                        correct,
                        attempts,
                        hints,
                        response,
                    }
                },
            )
            .collect())
    }

    /// The step report of one assignment: its pathway, the class's learners, one row per step.
    pub async fn step_report(
        &self,
        class_id: &str,
        assignment_id: &str,
    ) -> Result<(String, Vec<String>, Vec<StepReport>), StoreError> {
        let pathway_id = self.assignment_pathway(class_id, assignment_id).await?;
        let steps = self.pathway_steps(&pathway_id).await?;
        let learners = self.learners(class_id).await?;
        let runs = self.step_runs(class_id, &pathway_id).await?;
        let mut report = step_reports(&steps, &learners, &runs);
        let helps = self.helps_given(class_id, &pathway_id).await?;
        with_help(&mut report, &helps, &steps, &runs);
        Ok((pathway_id, learners, report))
    }

    /// Each learner's newest event on a pathway.
    pub async fn last_events(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<HashMap<String, i64>, StoreError> {
        self.last_events_of(class_id, pathway_id, &Learners::All)
            .await
    }

    /// [`Store::last_events`] of some learners.
    pub async fn last_events_of(
        &self,
        class_id: &str,
        pathway_id: &str,
        which: &Learners,
    ) -> Result<HashMap<String, i64>, StoreError> {
        let only = which.json();
        let rows: Vec<(String, i64)> = on_pool!(self.engine(), |pool| {
            let sql = narrowed(LAST_EVENT_SQL, &only, PG);
            let mut q = sqlx::query_as(&sql).bind(class_id).bind(pathway_id);
            // Bound only when the statement has it: PostgreSQL refuses a parameter too many.
            if let Some(only) = &only {
                q = q.bind(only);
            }
            q.fetch_all(pool).await?
        });
        Ok(rows.into_iter().collect())
    }

    /// Where each learner of a class is on one assignment, at `now_ms`, flagging those quiet
    /// for `idle_after_ms` or more. The stored catalog keeps no `requires`: pathway order.
    pub async fn placement(
        &self,
        class_id: &str,
        assignment_id: &str,
        now_ms: i64,
        idle_after_ms: i64,
    ) -> Result<Placement, StoreError> {
        let pathway_id = self.assignment_pathway(class_id, assignment_id).await?;
        let steps = self.pathway_steps(&pathway_id).await?;
        let learners = self.learners(class_id).await?;
        let rows: Vec<(String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT DISTINCT learner, widget_id FROM results \
                 WHERE class_id = $1 AND pathway_id = $2",
            )
            .bind(class_id)
            .bind(&pathway_id)
            .fetch_all(pool)
            .await?
        });
        let mut done: HashMap<String, HashSet<String>> = HashMap::new();
        for (learner, widget) in rows {
            done.entry(learner).or_default().insert(widget);
        }
        let last = self.last_events(class_id, &pathway_id).await?;
        let learners = place_learners(
            &pathway_order(&steps),
            &learners,
            &done,
            &last,
            now_ms,
            idle_after_ms,
        );
        Ok(Placement {
            pathway_id,
            steps,
            learners,
        })
    }

    /// [`Store::placement`] for a grid already read: the grid holds the class's learners and
    /// every completion by step, so only the newest events are read again. The live grid's
    /// refetch uses this (once per store change), instead of reading everything twice.
    pub async fn placement_of_grid(
        &self,
        grid: &Grid,
        now_ms: i64,
        idle_after_ms: i64,
    ) -> Result<Vec<LearnerPlace>, StoreError> {
        let learners: Vec<String> = grid.rows.iter().map(|r| r.learner.clone()).collect();
        let done: HashMap<String, HashSet<String>> = grid
            .rows
            .iter()
            .map(|r| {
                let completed = grid
                    .steps
                    .iter()
                    .zip(&r.cells)
                    .filter(|(_, c)| c.completions > 0)
                    .map(|(s, _)| s.widget_id.clone())
                    .collect();
                (r.learner.clone(), completed)
            })
            .collect();
        let last = self
            .last_events_of(&grid.class_id, &grid.pathway_id, &grid.learners)
            .await?;
        Ok(place_learners(
            &pathway_order(&grid.steps),
            &learners,
            &done,
            &last,
            now_ms,
            idle_after_ms,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(id: &str, standard: Option<&str>, assesses: bool) -> GridStep {
        GridStep {
            widget_id: id.into(),
            title: format!("Title of {id}"),
            kind: "k".into(),
            standard: standard.map(str::to_string),
            assesses,
        }
    }

    #[test]
    fn time_on_a_step_runs_from_finishing_the_step_before_the_first_time() {
        let steps = [
            step("w1", None, true),
            step("w2", None, true),
            step("w3", None, true),
        ];
        let runs = [
            run("a", "w1", "a1", 1_000, Some(true), 1),
            run("a", "w2", "a2", 61_000, Some(false), 1),
            // A retry later does not move the first finish.
            run("a", "w2", "a2b", 500_000, Some(true), 2),
            run("b", "w1", "b1", 2_000, Some(true), 1),
            run("b", "w2", "b2", 32_000, Some(true), 1),
            // c did w3 before w2: no time on w3, and none on w2 without w1.
            run("c", "w3", "c3", 5_000, Some(true), 1),
            run("c", "w2", "c2", 9_000, Some(true), 1),
        ];
        let times = step_times(&steps, &runs);
        assert_eq!(times.get(&("a", "w2")), Some(&60_000));
        assert_eq!(times.get(&("b", "w2")), Some(&30_000));
        assert_eq!(times.get(&("a", "w1")), None, "the first step has no start");
        assert_eq!(
            times.get(&("c", "w2")),
            None,
            "no finish of the step before"
        );
        assert_eq!(
            times.get(&("c", "w3")),
            None,
            "finished before the step before"
        );
        let report = step_reports(&steps, &["a".into(), "b".into(), "c".into()], &runs);
        assert_eq!(report[0].median_time_ms, None);
        assert_eq!(
            report[1].median_time_ms,
            Some(45_000),
            "the middle of 30 s and 60 s"
        );
        assert_eq!(report[2].median_time_ms, None);
    }

    #[test]
    fn the_median_is_the_middle_value() {
        assert_eq!(median(&mut []), None);
        assert_eq!(median(&mut [7]), Some(7));
        assert_eq!(median(&mut [9, 1, 5]), Some(5));
        assert_eq!(median(&mut [4, 1, 10, 2]), Some(3));
    }
    fn run(
        learner: &str,
        widget: &str,
        id: &str,
        at: i64,
        correct: Option<bool>,
        attempts: i64,
    ) -> RunFacts {
        RunFacts {
            learner: learner.into(),
            widget_id: widget.into(),
            widget_run_id: id.into(),
            at_ms: at,
            standard: Some("STD.A".into()),
            correct,
            attempts,
            hints: 0,
            response: None,
        }
    }

    fn learners(n: usize) -> Vec<String> {
        (0..n).map(|i| format!("anon_l{i:02}")).collect()
    }

    #[test]
    fn each_of_the_five_groups_and_they_add_up_to_the_class() {
        let steps = vec![step("w1", Some("STD.A"), true)];
        let ls = learners(6);
        let runs = vec![
            run("anon_l00", "w1", "r0", 10, Some(true), 1),
            run("anon_l01", "w1", "r1", 10, Some(true), 3),
            run("anon_l02", "w1", "r2", 10, Some(false), 4),
            run("anon_l03", "w1", "r3", 10, None, 0),
            // anon_l04 and anon_l05: nothing.
        ];
        let r = &step_reports(&steps, &ls, &runs)[0];
        assert_eq!(r.learners.first_try, vec!["anon_l00"]);
        assert_eq!(r.learners.after_retries, vec!["anon_l01"]);
        assert_eq!(r.learners.incorrect, vec!["anon_l02"]);
        assert_eq!(r.learners.no_verdict, vec!["anon_l03"]);
        assert_eq!(r.learners.not_reached, vec!["anon_l04", "anon_l05"]);
        let total: u32 = Outcome::ALL.iter().map(|o| r.learners.count(*o)).sum();
        assert_eq!(total, 6);
        // Means over the four completions: (1 + 3 + 4 + 0) / 4.
        assert_eq!(r.mean_attempts, Some(2.0));
        assert_eq!(r.mean_hints, Some(0.0));
        assert_eq!(r.step.title, "Title of w1");
    }

    #[test]
    fn outcome_boundaries() {
        assert_eq!(outcome(None), Outcome::NotReached);
        let r = |c, a| run("anon_l00", "w1", "r", 0, c, a);
        assert_eq!(outcome(Some(&r(Some(true), 1))), Outcome::FirstTry);
        assert_eq!(outcome(Some(&r(Some(true), 2))), Outcome::AfterRetries);
        assert_eq!(outcome(Some(&r(Some(false), 1))), Outcome::Incorrect);
        // A verdict is never first try by omission: a wrong first attempt is incorrect.
        assert_eq!(outcome(Some(&r(None, 3))), Outcome::NoVerdict);
        let names: HashSet<&str> = Outcome::ALL.iter().map(|o| o.as_str()).collect();
        assert_eq!(names.len(), 5);
    }

    #[test]
    fn a_redone_step_counts_by_its_newest_run() {
        let steps = vec![step("w1", Some("STD.A"), true)];
        let ls = learners(2);
        let runs = vec![
            // l00: wrong first, then right after retries: counts as after_retries.
            run("anon_l00", "w1", "r-old", 10, Some(false), 3),
            run("anon_l00", "w1", "r-new", 20, Some(true), 2),
            // l01: right, then wrong on a redo: counts as incorrect.
            run("anon_l01", "w1", "r-a", 30, Some(true), 1),
            run("anon_l01", "w1", "r-b", 40, Some(false), 1),
        ];
        let r = &step_reports(&steps, &ls, &runs)[0];
        assert_eq!(r.learners.after_retries, vec!["anon_l00"]);
        assert_eq!(r.learners.incorrect, vec!["anon_l01"]);
        assert_eq!(r.learners.first_try, Vec::<String>::new());
        // Means over the newest runs only: (2 + 1) / 2.
        assert_eq!(r.mean_attempts, Some(1.5));
        // Two runs at the same time: the greater run id is the newest (as the exports order).
        let tie = vec![
            run("anon_l00", "w1", "run-b", 10, Some(true), 1),
            run("anon_l00", "w1", "run-a", 10, Some(false), 1),
        ];
        let r = &step_reports(&steps, &ls[..1], &tie)[0];
        assert_eq!(r.learners.first_try, vec!["anon_l00"]);
        let reversed: Vec<RunFacts> = tie.into_iter().rev().collect();
        let r2 = &step_reports(&steps, &ls[..1], &reversed)[0];
        assert_eq!(r.learners, r2.learners, "input order does not matter");
    }

    #[test]
    fn a_step_nobody_completed_has_no_means_and_runs_outside_the_class_do_not_count() {
        let steps = vec![step("w1", None, false), step("w2", None, false)];
        let ls = learners(3);
        let runs = vec![
            run("anon_l00", "w1", "r0", 1, None, 0),
            run("anon_stranger", "w2", "r9", 1, None, 0),
        ];
        let r = step_reports(&steps, &ls, &runs);
        assert_eq!(r[0].learners.count(Outcome::NoVerdict), 1);
        assert_eq!(r[0].learners.count(Outcome::NotReached), 2);
        assert_eq!(r[1].learners.count(Outcome::NotReached), 3);
        assert_eq!(r[1].mean_attempts, None);
        assert_eq!(r[1].mean_hints, None);
        assert!(r[1].common_responses.is_empty());
    }

    #[test]
    fn common_responses_top_five_ties_by_text() {
        let got = top_responses(
            ["b", "a", "c", "a", "b", "d", "e", "f", "c", "z", "a"],
            TOP_RESPONSES,
        );
        let pairs: Vec<(&str, u32)> = got.iter().map(|r| (r.response.as_str(), r.count)).collect();
        // a:3; b, c: 2 (tie, by text); d, e, f, z: 1 (tie, by text; only d fits in five).
        assert_eq!(
            pairs,
            vec![("a", 3), ("b", 2), ("c", 2), ("d", 1), ("e", 1)]
        );
        assert!(top_responses(std::iter::empty(), 5).is_empty());
    }

    #[test]
    fn common_responses_come_from_newest_runs_with_a_response() {
        let steps = vec![step("w1", Some("STD.A"), true)];
        let ls = learners(4);
        let with = |mut r: RunFacts, text: &str| {
            r.response = Some(text.into());
            r
        };
        let runs = vec![
            with(run("anon_l00", "w1", "r0", 1, Some(false), 1), "1/2"),
            with(run("anon_l00", "w1", "r1", 2, Some(true), 2), "3/4"),
            with(run("anon_l01", "w1", "r2", 1, Some(true), 1), "3/4"),
            with(run("anon_l02", "w1", "r3", 1, Some(false), 1), "2/3"),
            run("anon_l03", "w1", "r4", 1, Some(true), 1),
        ];
        let r = &step_reports(&steps, &ls, &runs)[0];
        assert_eq!(
            r.common_responses,
            vec![
                ResponseCount {
                    response: "3/4".into(),
                    count: 2
                },
                ResponseCount {
                    response: "2/3".into(),
                    count: 1
                },
            ],
            "l00's old 1/2 is not counted, l03 gave no response"
        );
    }

    #[test]
    fn standard_counts_cover_every_run_of_the_class() {
        let mut other = run("anon_l01", "w2", "r3", 1, None, 0);
        other.standard = None;
        let runs = vec![
            run("anon_l00", "w1", "r0", 1, Some(false), 2),
            run("anon_l00", "w1", "r1", 2, Some(true), 1),
            run("anon_l01", "w1", "r2", 1, None, 0),
            other,
            run("anon_stranger", "w1", "r9", 1, Some(true), 1),
        ];
        let (c, total) = standard_counts(&runs, &learners(2));
        assert_eq!(c.len(), 1);
        assert_eq!((total.results, total.learners), (3, 2));
        assert_eq!(c[0].standard.as_deref(), Some("STD.A"));
        assert_eq!(
            (
                c[0].results,
                c[0].checked,
                c[0].correct,
                c[0].attempts,
                c[0].learners
            ),
            (3, 2, 1, 3, 2)
        );
    }

    fn deps(ids: &[&str]) -> Vec<StepDeps> {
        ids.iter()
            .map(|id| StepDeps {
                widget_id: id.to_string(),
                requires: None,
            })
            .collect()
    }

    use StepStatus::{Current as C, Done as D, Upcoming as U};

    #[test]
    fn current_is_the_first_step_not_done_in_pathway_order() {
        let d = deps(&["a", "b", "c", "d"]);
        assert_eq!(placement(&d, &HashSet::new()), vec![C, U, U, U]);
        assert_eq!(placement(&d, &HashSet::from(["a"])), vec![D, C, U, U]);
        // A step done out of order is done; the gap before it is current.
        assert_eq!(placement(&d, &HashSet::from(["a", "c"])), vec![D, C, D, U]);
        assert_eq!(
            placement(&d, &HashSet::from(["a", "b", "c", "d"])),
            vec![D, D, D, D]
        );
        // Negative control: a completion of a widget not in the pathway changes nothing.
        assert_eq!(placement(&d, &HashSet::from(["zz"])), vec![C, U, U, U]);
        assert!(placement(&[], &HashSet::new()).is_empty());
    }

    #[test]
    fn current_follows_requires_edges_when_the_catalog_has_them() {
        // b builds on c (listed after it); c builds on a.
        let mut d = deps(&["a", "b", "c"]);
        d[1].requires = Some(vec!["c".into()]);
        d[2].requires = Some(vec!["a".into()]);
        // Without requires, b would be current after a; with them, c is.
        assert_eq!(
            placement(&deps(&["a", "b", "c"]), &HashSet::from(["a"])),
            vec![D, C, U]
        );
        assert_eq!(placement(&d, &HashSet::from(["a"])), vec![D, U, C]);
        assert_eq!(placement(&d, &HashSet::from(["a", "c"])), vec![D, C, D]);
        // An empty requires list: the step is open from the start (after a, before b's chain).
        let mut free = deps(&["a", "b", "c"]);
        free[0].requires = Some(vec!["c".into()]);
        free[2].requires = Some(vec![]);
        assert_eq!(placement(&free, &HashSet::new()), vec![U, U, C]);
        // Edges that contradict each other: the first step not done is current anyway.
        let mut cycle = deps(&["a", "b"]);
        cycle[0].requires = Some(vec!["b".into()]);
        cycle[1].requires = Some(vec!["a".into()]);
        assert_eq!(placement(&cycle, &HashSet::new()), vec![C, U]);
    }

    #[test]
    fn idle_past_the_threshold_only_while_working() {
        let min = 60_000;
        // Quiet exactly the threshold: idle; a millisecond less: not.
        assert!(is_idle(true, Some(1_000), 1_000 + 5 * min, 5 * min));
        assert!(!is_idle(true, Some(1_000), 1_000 + 5 * min - 1, 5 * min));
        // Not started, or finished: never idle.
        assert!(!is_idle(true, None, 10 * min, 5 * min));
        assert!(!is_idle(false, Some(0), 10 * min, 5 * min));
    }

    #[test]
    fn learners_are_placed_with_how_long_they_have_been_quiet() {
        let d = deps(&["a", "b"]);
        let ls = learners(3);
        let done: HashMap<String, HashSet<String>> = HashMap::from([
            ("anon_l00".to_string(), HashSet::from(["a".to_string()])),
            (
                "anon_l01".to_string(),
                HashSet::from(["a".to_string(), "b".to_string()]),
            ),
        ]);
        let last = HashMap::from([
            ("anon_l00".to_string(), 1_000),
            ("anon_l01".to_string(), 1_000),
        ]);
        let places = place_learners(&d, &ls, &done, &last, 601_000, 300_000);
        assert_eq!(places[0].steps, vec![D, C]);
        assert_eq!(places[0].current, Some(1));
        assert_eq!(places[0].quiet_ms, Some(600_000));
        assert!(places[0].idle, "working and quiet for 10 minutes");
        assert_eq!(places[1].current, None);
        assert!(!places[1].idle, "finished");
        assert_eq!(places[2].steps, vec![C, U]);
        assert_eq!((places[2].last_event_ms, places[2].idle), (None, false));
        // A longer threshold: nobody idle.
        let calm = place_learners(&d, &ls, &done, &last, 601_000, 900_000);
        assert!(calm.iter().all(|p| !p.idle));
    }
}
