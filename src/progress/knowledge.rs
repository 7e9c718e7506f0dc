//! The class's knowledge map: for each learner and standard a state derived from the stored
//! events — never stored, so the ledger stays the truth and `db rebuild` has nothing to redo.
//!
//! The rule (issue 16, from the related codebase's "taught / known / missed / dont-know /
//! candidate", adapted to a class where watching is weaker evidence than a check): over the
//! learner's events on standard S in time order — completions of steps whose standard is S,
//! struggles and help requests on S — the latest *decisive* event decides: a completion with
//! `correct: true` is **known**, `correct: false` **missed**, a struggle or a help request
//! **dont-know**. With no decisive event but a completion whose `correct` is null: **taught**.
//! With no event at all: **candidate**. A redone step counts by its newest run (older
//! completions of the same step are set aside); events at the same `at` keep feed order.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// A learner's state on one standard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum NodeState {
    Known,
    Missed,
    DontKnow,
    Taught,
    Candidate,
}

impl NodeState {
    /// Every state, in the order the map shows them.
    pub const ALL: [NodeState; 5] = [
        NodeState::Known,
        NodeState::Missed,
        NodeState::DontKnow,
        NodeState::Taught,
        NodeState::Candidate,
    ];

    pub fn label(self) -> &'static str {
        match self {
            NodeState::Known => "known",
            NodeState::Missed => "missed",
            NodeState::DontKnow => "doesn't know yet",
            NodeState::Taught => "taught",
            NodeState::Candidate => "not met yet",
        }
    }
}

/// What happened on a standard, as the rule reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Evidence {
    /// A completion of `widget_id` (a step whose standard is S).
    Completed {
        widget_id: String,
        correct: Option<bool>,
    },
    Struggle,
    HelpRequest,
}

/// One event on a standard: when, its place in the feed (`None`: a backfilled result, which
/// came before anything the feed carried), and what it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StandardEvent {
    pub at_ms: i64,
    pub seq: Option<i64>,
    pub evidence: Evidence,
}

/// The rule, for one learner and one standard.
pub fn node_state(events: &[StandardEvent]) -> NodeState {
    let mut ordered: Vec<&StandardEvent> = events.iter().collect();
    // Time order; at the same `at`, feed order (a backfilled result first).
    ordered.sort_by_key(|e| (e.at_ms, e.seq.is_some(), e.seq));
    // A redone step counts by its newest run: only the last completion of each step stays.
    let mut newest: HashMap<&str, usize> = HashMap::new();
    for (i, e) in ordered.iter().enumerate() {
        if let Evidence::Completed { widget_id, .. } = &e.evidence {
            newest.insert(widget_id.as_str(), i);
        }
    }
    let counts = |i: usize, e: &StandardEvent| match &e.evidence {
        Evidence::Completed { widget_id, .. } => newest.get(widget_id.as_str()) == Some(&i),
        _ => true,
    };
    let mut taught = false;
    for (i, e) in ordered.iter().enumerate().rev() {
        if !counts(i, e) {
            continue;
        }
        match &e.evidence {
            Evidence::Completed {
                correct: Some(true),
                ..
            } => return NodeState::Known,
            Evidence::Completed {
                correct: Some(false),
                ..
            } => return NodeState::Missed,
            Evidence::Struggle | Evidence::HelpRequest => return NodeState::DontKnow,
            Evidence::Completed { correct: None, .. } => taught = true,
        }
    }
    if taught {
        NodeState::Taught
    } else {
        NodeState::Candidate
    }
}

/// The class's states: for every standard of its assigned pathways (and any other standard its
/// events name), each learner's state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassKnowledge {
    /// Standard code -> learner -> state. Every learner of the class appears under every
    /// standard (as `Candidate` when nothing happened).
    pub states: BTreeMap<String, BTreeMap<String, NodeState>>,
    /// Misconceptions shown (a completion's `detail.misconception`): (standard, name) -> the
    /// learners who showed it.
    pub misconceptions: BTreeMap<(String, String), BTreeSet<String>>,
}

impl ClassKnowledge {
    /// The same, of the learners `keep` accepts only (a group's view of the map).
    pub fn only(mut self, keep: impl Fn(&str) -> bool) -> Self {
        for learners in self.states.values_mut() {
            learners.retain(|l, _| keep(l));
        }
        for learners in self.misconceptions.values_mut() {
            learners.retain(|l| keep(l));
        }
        self.misconceptions.retain(|_, l| !l.is_empty());
        self
    }

    /// How many learners are in each state on `standard` (all five, zeros included).
    pub fn counts(&self, standard: &str) -> BTreeMap<NodeState, usize> {
        let mut out: BTreeMap<NodeState, usize> = NodeState::ALL.iter().map(|s| (*s, 0)).collect();
        for state in self
            .states
            .get(standard)
            .into_iter()
            .flat_map(|m| m.values())
        {
            *out.entry(*state).or_default() += 1;
        }
        out
    }
}

/// Every event on a standard of the class, oldest first: completions, struggles, help
/// requests (with the learner and standard they belong to).
const EVENTS_SQL: &str = "\
    SELECT learner, standard, 'completed' AS what, widget_id, correct, at_ms, seq \
      FROM results WHERE class_id = $1 AND standard IS NOT NULL \
    UNION ALL \
    SELECT learner, standard, 'struggle', widget_id, NULL, at_ms, seq \
      FROM struggles WHERE class_id = $1 AND standard IS NOT NULL \
    UNION ALL \
    SELECT learner, standard, 'help', widget_id, NULL, at_ms, opened_seq \
      FROM calls WHERE class_id = $1 AND function = 'assist' AND standard IS NOT NULL";

/// The misconceptions a class's completions showed: `detail.misconception` where it is text.
const MISCONCEPTIONS_SQL: &str = "SELECT standard, \
     json_extract(payload, '$.widget_result.detail.misconception'), learner \
     FROM results_with_payload \
     WHERE class_id = $1 AND standard IS NOT NULL \
     AND json_type(payload, '$.widget_result.detail.misconception') = 'text'";

/// [`MISCONCEPTIONS_SQL`] on PostgreSQL, whose JSON operators differ.
const MISCONCEPTIONS_SQL_PG: &str = "SELECT standard, \
     payload::json #>> '{widget_result,detail,misconception}', learner \
     FROM results_with_payload \
     WHERE class_id = $1 AND standard IS NOT NULL \
     AND json_typeof(payload::json #> '{widget_result,detail,misconception}') = 'string'";

type EventRow = (
    String,
    String,
    String,
    String,
    Option<bool>,
    i64,
    Option<i64>,
);

impl Store {
    /// The knowledge map's states for a class, derived from the stored events (on both
    /// engines).
    pub async fn class_knowledge(&self, class_id: &str) -> Result<ClassKnowledge, StoreError> {
        let learners = self.learners(class_id).await?;
        let (assigned, rows): (Vec<String>, Vec<EventRow>) = on_pool!(self.engine(), |pool| {
            let assigned = sqlx::query_scalar(
                "SELECT DISTINCT s.standard FROM assignments a \
                 JOIN pathway_steps s ON s.pathway_id = a.pathway_id \
                 WHERE a.class_id = $1 AND s.standard IS NOT NULL",
            )
            .bind(class_id)
            .fetch_all(pool)
            .await?;
            let rows = sqlx::query_as(EVENTS_SQL)
                .bind(class_id)
                .fetch_all(pool)
                .await?;
            (assigned, rows)
        });
        let mut events: HashMap<(String, String), Vec<StandardEvent>> = HashMap::new();
        let mut standards: BTreeSet<String> = assigned.into_iter().collect();
        let mut everyone: BTreeSet<String> = learners.into_iter().collect();
        for (learner, standard, what, widget_id, correct, at_ms, seq) in rows {
            let evidence = match what.as_str() {
                "completed" => Evidence::Completed { widget_id, correct },
                "struggle" => Evidence::Struggle,
                _ => Evidence::HelpRequest,
            };
            standards.insert(standard.clone());
            everyone.insert(learner.clone());
            events
                .entry((learner, standard))
                .or_default()
                .push(StandardEvent {
                    at_ms,
                    seq,
                    evidence,
                });
        }
        let mut out = ClassKnowledge::default();
        for standard in &standards {
            let per_learner = out.states.entry(standard.clone()).or_default();
            for learner in &everyone {
                let state = events
                    .get(&(learner.clone(), standard.clone()))
                    .map_or(NodeState::Candidate, |e| node_state(e));
                per_learner.insert(learner.clone(), state);
            }
        }
        let shown: Vec<(String, String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(if PG {
                MISCONCEPTIONS_SQL_PG
            } else {
                MISCONCEPTIONS_SQL
            })
            .bind(class_id)
            .fetch_all(pool)
            .await?
        });
        for (standard, name, learner) in shown {
            let name = name.trim().to_owned();
            if !name.is_empty() {
                out.misconceptions
                    .entry((standard, name))
                    .or_default()
                    .insert(learner);
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(at_ms: i64, seq: i64, widget_id: &str, correct: Option<bool>) -> StandardEvent {
        StandardEvent {
            at_ms,
            seq: Some(seq),
            evidence: Evidence::Completed {
                widget_id: widget_id.into(),
                correct,
            },
        }
    }

    fn other(at_ms: i64, seq: i64, evidence: Evidence) -> StandardEvent {
        StandardEvent {
            at_ms,
            seq: Some(seq),
            evidence,
        }
    }

    #[test]
    fn no_event_is_a_candidate() {
        assert_eq!(node_state(&[]), NodeState::Candidate);
    }

    #[test]
    fn the_latest_decisive_event_decides() {
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(true))]),
            NodeState::Known
        );
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(false))]),
            NodeState::Missed
        );
        assert_eq!(
            node_state(&[other(1, 1, Evidence::Struggle)]),
            NodeState::DontKnow
        );
        assert_eq!(
            node_state(&[other(1, 1, Evidence::HelpRequest)]),
            NodeState::DontKnow
        );
        // Right, then stuck on another step of the same standard: doesn't know (yet).
        assert_eq!(
            node_state(&[
                done(1, 1, "w1", Some(true)),
                other(2, 2, Evidence::Struggle)
            ]),
            NodeState::DontKnow
        );
        // Stuck, asked, then right: known. Given out of order: time order still decides.
        assert_eq!(
            node_state(&[
                done(9, 9, "w2", Some(true)),
                other(1, 1, Evidence::Struggle),
                other(2, 2, Evidence::HelpRequest),
            ]),
            NodeState::Known
        );
    }

    #[test]
    fn a_completion_without_a_verdict_is_taught_and_never_decides() {
        assert_eq!(node_state(&[done(1, 1, "w1", None)]), NodeState::Taught);
        // A later verdict-less completion does not hide an earlier verdict.
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(false)), done(2, 2, "w2", None)]),
            NodeState::Missed
        );
    }

    #[test]
    fn a_redone_step_counts_by_its_newest_run() {
        // Wrong, then redone right: known.
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(false)), done(5, 5, "w1", Some(true))]),
            NodeState::Known
        );
        // Right, then redone without a verdict: the old verdict is set aside -> taught.
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(true)), done(5, 5, "w1", None)]),
            NodeState::Taught
        );
        // Control: the same on two different steps keeps the verdict.
        assert_eq!(
            node_state(&[done(1, 1, "w1", Some(true)), done(5, 5, "w2", None)]),
            NodeState::Known
        );
    }

    #[test]
    fn at_the_same_time_feed_order_decides() {
        let right = done(7, 10, "w1", Some(true));
        let stuck = other(7, 11, Evidence::Struggle);
        assert_eq!(
            node_state(&[right.clone(), stuck.clone()]),
            NodeState::DontKnow
        );
        assert_eq!(
            node_state(&[stuck, right]),
            NodeState::DontKnow,
            "input order does not matter"
        );
        let stuck_first = other(7, 10, Evidence::Struggle);
        let right_after = done(7, 11, "w1", Some(true));
        assert_eq!(node_state(&[right_after, stuck_first]), NodeState::Known);
        // A backfilled result (no seq) came before the feed's events at the same time.
        let backfilled = StandardEvent {
            at_ms: 7,
            seq: None,
            evidence: Evidence::Completed {
                widget_id: "w1".into(),
                correct: Some(true),
            },
        };
        assert_eq!(
            node_state(&[other(7, 3, Evidence::HelpRequest), backfilled]),
            NodeState::DontKnow
        );
    }
}
