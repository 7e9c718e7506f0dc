//! Did the help work? For a help request the teacher answered (or came over for) or declined:
//! how the learner's next run of that step went — or, when the learner had already finished the
//! step before the help came, their next step's. One rule, used by the help desk's history, the
//! step report, the student page and the after-class report.

use std::collections::HashMap;

use serde::Serialize;

use super::grid::GridStep;
use super::steps::RunFacts;
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// What the learner did after the help.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum AfterHelp {
    RightFirstTry,
    RightAfterRetries,
    Wrong,
    /// Finished, with no verdict (a step that is not assessed).
    NoVerdict,
    /// Not finished since.
    NotYet,
}

impl AfterHelp {
    /// Whether the learner then got it right.
    pub fn right(self) -> bool {
        matches!(self, Self::RightFirstTry | Self::RightAfterRetries)
    }
}

/// One help request that got the teacher's answer, visit or refusal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HelpGiven {
    pub call_id: String,
    pub learner: String,
    pub widget_id: String,
    pub asked_at_ms: i64,
    pub closed_at_ms: i64,
}

/// The rule. `steps` are the pathway's in order; `runs` any of the pathway's completions (other
/// learners' are skipped). The step the help counts on is the help's own, unless the learner
/// finished it between asking and the help (then the next step in the pathway); its first
/// completion at or after the help decides.
pub fn after_help(help: &HelpGiven, steps: &[GridStep], runs: &[RunFacts]) -> AfterHelp {
    let mine = || runs.iter().filter(|r| r.learner == help.learner);
    let finished_before_help = mine().any(|r| {
        r.widget_id == help.widget_id && r.at_ms >= help.asked_at_ms && r.at_ms < help.closed_at_ms
    });
    let step = if finished_before_help {
        let at = steps.iter().position(|s| s.widget_id == help.widget_id);
        match at.and_then(|i| steps.get(i + 1)) {
            Some(next) => next.widget_id.as_str(),
            // The last step, already done: nothing after it to tell by.
            None => return AfterHelp::NotYet,
        }
    } else {
        help.widget_id.as_str()
    };
    let next = mine()
        .filter(|r| r.widget_id == step && r.at_ms >= help.closed_at_ms)
        .min_by(|a, b| (a.at_ms, &a.widget_run_id).cmp(&(b.at_ms, &b.widget_run_id)));
    match next {
        None => AfterHelp::NotYet,
        Some(r) => match r.correct {
            Some(true) if r.attempts <= 1 => AfterHelp::RightFirstTry,
            Some(true) => AfterHelp::RightAfterRetries,
            Some(false) => AfterHelp::Wrong,
            None => AfterHelp::NoVerdict,
        },
    }
}

/// Per step of a pathway: how many help requests on it were helped, and how many of those the
/// learner then got right.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct HelpedCounts {
    pub helped: u32,
    pub then_right: u32,
}

/// [`HelpedCounts`] by widget id, over `helps` on a pathway.
pub fn helped_by_step(
    helps: &[HelpGiven],
    steps: &[GridStep],
    runs: &[RunFacts],
) -> HashMap<String, HelpedCounts> {
    let mut out: HashMap<String, HelpedCounts> = HashMap::new();
    for help in helps {
        let counts = out.entry(help.widget_id.clone()).or_default();
        counts.helped += 1;
        if after_help(help, steps, runs).right() {
            counts.then_right += 1;
        }
    }
    out
}

/// The help requests the teacher answered or declined on a pathway of a class (assist calls:
/// a score request is not a learner asking for help).
const HELPS_GIVEN_SQL: &str = "SELECT call_id, learner, widget_id, at_ms, closed_at_ms FROM calls \
     WHERE class_id = $1 AND pathway_id = $2 AND function = 'assist' \
     AND state IN ('answered', 'declined') AND closed_at_ms IS NOT NULL";

impl Store {
    pub async fn helps_given(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<Vec<HelpGiven>, StoreError> {
        let rows: Vec<(String, String, String, i64, i64)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(HELPS_GIVEN_SQL)
                .bind(class_id)
                .bind(pathway_id)
                .fetch_all(pool)
                .await?
        });
        Ok(rows
            .into_iter()
            .map(
                |(call_id, learner, widget_id, asked_at_ms, closed_at_ms)| HelpGiven {
                    call_id,
                    learner,
                    widget_id,
                    asked_at_ms,
                    closed_at_ms,
                },
            )
            .collect())
    }

    /// [`after_help`] of each help request of a pathway of a class, by call id.
    pub async fn after_help_on(
        &self,
        class_id: &str,
        pathway_id: &str,
    ) -> Result<HashMap<String, AfterHelp>, StoreError> {
        let helps = self.helps_given(class_id, pathway_id).await?;
        if helps.is_empty() {
            return Ok(HashMap::new());
        }
        let steps = self.pathway_steps(pathway_id).await?;
        let runs = self.step_runs(class_id, pathway_id).await?;
        Ok(helps
            .iter()
            .map(|h| (h.call_id.clone(), after_help(h, &steps, &runs)))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn step(id: &str) -> GridStep {
        GridStep {
            widget_id: id.into(),
            title: id.into(),
            kind: "k".into(),
            standard: None,
            assesses: true,
        }
    }

    fn run(learner: &str, widget: &str, at: i64, correct: Option<bool>, attempts: i64) -> RunFacts {
        RunFacts {
            learner: learner.into(),
            widget_id: widget.into(),
            widget_run_id: format!("{learner}-{widget}-{at}"),
            at_ms: at,
            standard: None,
            correct,
            attempts,
            hints: 0,
            response: None,
        }
    }

    fn help(learner: &str, widget: &str, asked: i64, closed: i64) -> HelpGiven {
        HelpGiven {
            call_id: format!("{learner}-{widget}-{asked}"),
            learner: learner.into(),
            widget_id: widget.into(),
            asked_at_ms: asked,
            closed_at_ms: closed,
        }
    }

    #[test]
    fn the_first_finish_of_the_step_after_the_help_decides() {
        let steps = [step("w1"), step("w2")];
        let runs = [
            // Before the help: not counted.
            run("a", "w1", 50, Some(false), 3),
            run("a", "w1", 200, Some(true), 1),
            run("a", "w1", 300, Some(false), 1),
            run("b", "w1", 200, Some(true), 2),
            run("c", "w1", 200, Some(false), 1),
            run("d", "w1", 200, None, 1),
        ];
        let after = |l: &str| after_help(&help(l, "w1", 60, 100), &steps, &runs);
        assert_eq!(after("a"), AfterHelp::RightFirstTry);
        assert_eq!(after("b"), AfterHelp::RightAfterRetries);
        assert_eq!(after("c"), AfterHelp::Wrong);
        assert_eq!(after("d"), AfterHelp::NoVerdict);
        assert_eq!(
            after("e"),
            AfterHelp::NotYet,
            "another learner's runs do not count"
        );
    }

    #[test]
    fn a_step_finished_before_the_help_came_is_judged_by_the_next_step() {
        let steps = [step("w1"), step("w2")];
        let runs = [
            // Finished w1 between asking (60) and the answer (100).
            run("a", "w1", 80, Some(true), 1),
            run("a", "w2", 150, Some(false), 2),
        ];
        assert_eq!(
            after_help(&help("a", "w1", 60, 100), &steps, &runs),
            AfterHelp::Wrong
        );
        // The last step, finished before the help: nothing after it.
        let last = [run("a", "w2", 80, Some(true), 1)];
        assert_eq!(
            after_help(&help("a", "w2", 60, 100), &steps, &last),
            AfterHelp::NotYet
        );
    }

    #[test]
    fn each_step_counts_its_helps_and_those_then_right() {
        let steps = [step("w1"), step("w2")];
        let runs = [
            run("a", "w1", 200, Some(true), 1),
            run("b", "w1", 200, Some(false), 1),
        ];
        let helps = [
            help("a", "w1", 10, 100),
            help("b", "w1", 10, 100),
            help("c", "w2", 10, 100),
        ];
        let by_step = helped_by_step(&helps, &steps, &runs);
        assert_eq!(
            by_step.get("w1"),
            Some(&HelpedCounts {
                helped: 2,
                then_right: 1
            })
        );
        assert_eq!(
            by_step.get("w2"),
            Some(&HelpedCounts {
                helped: 1,
                then_right: 0
            })
        );
    }
}
