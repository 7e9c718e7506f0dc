//! The class's pathway map: each assigned pathway as its plan — steps as nodes, in pathway order
//! — with how many learners are done, current or upcoming on each step, and the class's pacing
//! limit marked when the host reports one.
//!
//! Where a learner is comes from [`Store::placement`] alone (`progress::steps`: the current step
//! is the first step not done, in pathway order): the map counts its statuses and adds no rule
//! of its own, so it agrees with the step strips of the report and with every other view of
//! "current".
//!
//! **Edges.** A step's `requires` (prerequisite edges, `pathway-host.md` §1) would be the plan's
//! edges, but the stored catalog keeps none (`pathway_steps` has no such column, and
//! `Store::placement` passes `requires: None`): every edge is a `sequence` edge from a step to the
//! next one in pathway order. When the store keeps `requires`, they become edges of their own
//! kind here and the placement follows them (`progress::steps::placement` already takes them).
//!
//! The teacher's own screen sees every count; projector-safe mode sees them through the
//! small-cell suppression (each step a row: done, current, upcoming, and the class size as its
//! published total, as the knowledge map does). The learners behind a node are listed by their
//! labels (roster names where the teacher imported one; aliases in projector-safe mode).

use std::collections::HashMap;

use serde::Serialize;

use super::ViewError;
use crate::dto::count_i32 as n32;
use crate::groups::Scope;
use crate::progress::grid::GridStep;
use crate::progress::names::Privacy;
use crate::progress::steps::{Placement, StepStatus};
use crate::progress::suppression::{Table, Visibility, suppress};
use crate::store::{Store, StoreError};

/// The three statuses in the map's column order.
pub const STATUSES: [StepStatus; 3] = [StepStatus::Done, StepStatus::Current, StepStatus::Upcoming];

/// What the window prints for a status.
pub fn status_label(status: StepStatus) -> &'static str {
    match status {
        StepStatus::Done => "Done",
        StepStatus::Current => "Current",
        StepStatus::Upcoming => "Upcoming",
    }
}

/// One status's count on a step; `count` is `None` when suppressed (`shown` says why).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StatusCountView {
    pub status: StepStatus,
    pub label: String,
    pub count: Option<i32>,
    pub visibility: Visibility,
    /// What to print: the count, or the suppression's wording.
    pub shown: String,
}

/// One step of a pathway.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct PathwayNodeView {
    pub widget_id: String,
    /// The catalog's title of the step (its widget id when the host gives none).
    pub title: String,
    pub standard: Option<String>,
    /// 1-based place in the pathway.
    pub position: i32,
    /// Done, current, upcoming, in that order.
    pub counts: Vec<StatusCountView>,
    /// The class's learners (the three counts add up to it).
    pub learners: i32,
    /// The class's pacing limit is this step: learners open no step after it.
    pub pacing_limit: bool,
    /// The step lies after the pacing limit (learners cannot open it yet).
    pub beyond_pacing: bool,
}

/// Why one step leads to another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum PathwayEdgeKind {
    /// The next step in pathway order (the store keeps no `requires`; see the module docs).
    Sequence,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct PathwayEdgeView {
    pub from: String,
    pub to: String,
    pub kind: PathwayEdgeKind,
}

/// One assigned pathway's map.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct PathwayGraphView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub title: String,
    pub nodes: Vec<PathwayNodeView>,
    pub edges: Vec<PathwayEdgeView>,
    /// The pacing limit's step (widget id), when the class is paced on this pathway.
    pub up_to: Option<String>,
    pub up_to_title: Option<String>,
    /// The limit as a 1-based step number; `None` when unpaced or the step is not in the
    /// stored pathway.
    pub up_to_step: Option<i32>,
    /// Learners who have done every step.
    pub finished: Option<i32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct PathwayMapView {
    /// One per assigned pathway, in assignment order (a pathway assigned twice appears once).
    pub pathways: Vec<PathwayGraphView>,
    /// The class's learners.
    pub learners: i32,
    /// The threshold the counts were suppressed with; `None` on the teacher's own screen.
    pub k: Option<i32>,
}

/// A step's title, or its widget id when the host gives none.
fn step_title(step: &GridStep) -> String {
    if step.title.trim().is_empty() {
        step.widget_id.clone()
    } else {
        step.title.clone()
    }
}

/// Counts each step's statuses over the placement (no rule of its own).
pub fn status_counts(placement: &Placement) -> Vec<[u32; 3]> {
    let mut counts = vec![[0_u32; 3]; placement.steps.len()];
    for learner in &placement.learners {
        for (i, status) in learner.steps.iter().enumerate() {
            if let (Some(row), Some(col)) =
                (counts.get_mut(i), STATUSES.iter().position(|s| s == status))
            {
                row[col] += 1;
            }
        }
    }
    counts
}

/// One pathway's map from the class's placement. `up_to`: the pacing limit the feed reported
/// for the pathway; `k`: suppress with it (projector-safe mode), or show every count (`None`).
pub fn graph_view(
    assignment_id: &str,
    title: &str,
    placement: &Placement,
    up_to: Option<&str>,
    k: Option<u32>,
) -> PathwayGraphView {
    let counts = status_counts(placement);
    let class = u32::try_from(placement.learners.len()).unwrap_or(u32::MAX);
    let mut table = Table::new(counts.len(), STATUSES.len());
    for (row, c) in counts.iter().enumerate() {
        for (col, n) in c.iter().enumerate() {
            table.set(row, col, *n);
        }
        // Every learner has one status per step: the row total is the class size, which the
        // room knows anyway, so it counts as published and the suppression protects against it.
        table.set_row_total(row, class);
    }
    let suppression = k.map(|k| suppress(&table, k));
    let limit = up_to.and_then(|w| placement.steps.iter().position(|s| s.widget_id == w));
    let nodes = placement
        .steps
        .iter()
        .enumerate()
        .map(|(row, step)| {
            let counts = STATUSES
                .iter()
                .enumerate()
                .map(|(col, status)| {
                    let n = counts[row][col];
                    let visibility = suppression
                        .as_ref()
                        .map_or(Visibility::Shown, |s| s.cell(row, col));
                    let hidden = visibility.is_hidden();
                    StatusCountView {
                        status: *status,
                        label: status_label(*status).to_owned(),
                        count: (!hidden).then(|| n32(n)),
                        visibility,
                        shown: match (hidden, k) {
                            (true, Some(k)) => visibility.placeholder(k).unwrap_or_default(),
                            _ => n.to_string(),
                        },
                    }
                })
                .collect();
            PathwayNodeView {
                widget_id: step.widget_id.clone(),
                title: step_title(step),
                standard: step.standard.clone(),
                position: n32(row + 1),
                counts,
                learners: n32(class),
                pacing_limit: limit == Some(row),
                beyond_pacing: limit.is_some_and(|l| row > l),
            }
        })
        .collect();
    // Pathway order: the store keeps no `requires` (see the module docs).
    let edges = placement
        .steps
        .windows(2)
        .map(|w| PathwayEdgeView {
            from: w[0].widget_id.clone(),
            to: w[1].widget_id.clone(),
            kind: PathwayEdgeKind::Sequence,
        })
        .collect();
    let finished = placement
        .learners
        .iter()
        .filter(|l| l.current.is_none() && !placement.steps.is_empty())
        .count();
    // "Finished" is the last step's "done" plus those who did it out of order; a small group is
    // not printed where the counts are suppressed.
    let finished = match k {
        Some(k) if finished > 0 && finished < k as usize => None,
        _ => Some(n32(finished)),
    };
    PathwayGraphView {
        assignment_id: assignment_id.to_owned(),
        pathway_id: placement.pathway_id.clone(),
        title: title.to_owned(),
        nodes,
        edges,
        up_to: up_to.map(str::to_owned),
        up_to_title: limit.map(|i| step_title(&placement.steps[i])),
        up_to_step: limit.map(|i| n32(i + 1)),
        finished,
    }
}

/// Every assigned pathway of the class with its placement, the pacing limits and titles.
struct Placed {
    assignment_id: String,
    title: String,
    placement: Placement,
    up_to: Option<String>,
}

async fn placed(store: &Store, class_id: &str, scope: &Scope) -> Result<Vec<Placed>, StoreError> {
    let room = store.room_state(class_id).await?;
    let pacing: HashMap<&str, &str> = room
        .pacing
        .iter()
        .map(|p| (p.pathway_id.as_str(), p.up_to.as_str()))
        .collect();
    let now = store.now_ms();
    let mut out: Vec<Placed> = Vec::new();
    for a in store.assignments(class_id).await? {
        if out.iter().any(|p| p.placement.pathway_id == a.pathway_id) {
            continue;
        }
        // Nobody is flagged idle here: the map counts places, not quiet time.
        let mut placement = store
            .placement(class_id, &a.assignment_id, now, i64::MAX)
            .await?;
        placement.learners.retain(|p| scope.includes(&p.learner));
        let title = store.pathway_title(&a.pathway_id).await?;
        out.push(Placed {
            title: title
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| a.pathway_id.clone()),
            up_to: pacing.get(a.pathway_id.as_str()).map(|w| (*w).to_owned()),
            assignment_id: a.assignment_id,
            placement,
        });
    }
    Ok(out)
}

/// The map of every pathway assigned to the class, suppressed with `k` when given.
pub async fn map_with_k(
    store: &Store,
    class_id: &str,
    k: Option<u32>,
    scope: &Scope,
) -> Result<PathwayMapView, StoreError> {
    let learners = scope.narrow(store.learners(class_id).await?).len();
    let pathways = placed(store, class_id, scope)
        .await?
        .iter()
        .map(|p| {
            graph_view(
                &p.assignment_id,
                &p.title,
                &p.placement,
                p.up_to.as_deref(),
                k,
            )
        })
        .collect();
    Ok(PathwayMapView {
        pathways,
        learners: n32(learners),
        k: k.map(n32),
    })
}

/// The class's pathway map as the window shows it under `privacy`.
pub async fn pathway_map(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    scope: &Scope,
) -> Result<PathwayMapView, ViewError> {
    let k = match privacy {
        Privacy::Names => None,
        Privacy::Projector { .. } => Some(store.suppression_k().await?),
    };
    Ok(map_with_k(store, class_id, k, scope).await?)
}

/// The learners of one status on a step.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StepLearnersView {
    pub status: StepStatus,
    pub label: String,
    /// Labels (names where the teacher imported a roster; aliases in projector-safe mode), in
    /// label order.
    pub learners: Vec<String>,
}

/// Who is done, current and upcoming on one step of an assignment (clicking a node).
pub async fn pathway_node(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    assignment_id: &str,
    widget_id: &str,
    scope: &Scope,
) -> Result<Vec<StepLearnersView>, ViewError> {
    let mut placement = store
        .placement(class_id, assignment_id, store.now_ms(), i64::MAX)
        .await?;
    placement.learners.retain(|p| scope.includes(&p.learner));
    let Some(index) = placement
        .steps
        .iter()
        .position(|s| s.widget_id == widget_id)
    else {
        return Err(StoreError::NotFound("no such step in this pathway".into()).into());
    };
    let labeler = store.labeler(class_id, privacy).await?;
    Ok(STATUSES
        .iter()
        .map(|status| {
            let mut learners: Vec<String> = placement
                .learners
                .iter()
                .filter(|l| l.steps.get(index) == Some(status))
                .map(|l| labeler.label(&l.learner))
                .collect();
            learners.sort();
            StepLearnersView {
                status: *status,
                label: status_label(*status).to_owned(),
                learners,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::steps::LearnerPlace;

    use StepStatus::{Current as C, Done as D, Upcoming as U};

    fn step(id: &str, title: &str) -> GridStep {
        GridStep {
            widget_id: id.into(),
            title: title.into(),
            kind: "k".into(),
            standard: Some("STD.A".into()),
            assesses: true,
        }
    }

    fn place(learner: &str, steps: Vec<StepStatus>) -> LearnerPlace {
        LearnerPlace {
            learner: learner.into(),
            current: steps.iter().position(|s| *s == C),
            steps,
            last_event_ms: None,
            quiet_ms: None,
            idle: false,
        }
    }

    /// 14 learners on three steps: 11 on the first step, 2 on the second, 1 finished.
    fn placement() -> Placement {
        let mut learners: Vec<LearnerPlace> = (0..11)
            .map(|i| place(&format!("anon_{i:02}"), vec![C, U, U]))
            .collect();
        learners.push(place("anon_11", vec![D, C, U]));
        learners.push(place("anon_12", vec![D, C, D]));
        learners.push(place("anon_13", vec![D, D, D]));
        Placement {
            pathway_id: "p".into(),
            steps: vec![step("w1", "Compare"), step("w2", ""), step("w3", "Reflect")],
            learners,
        }
    }

    fn counts(node: &PathwayNodeView) -> Vec<Option<i32>> {
        node.counts.iter().map(|c| c.count).collect()
    }

    #[test]
    fn the_teacher_sees_every_count_titles_and_sequence_edges() {
        let view = graph_view("as-1", "Fractions", &placement(), None, None);
        let titles: Vec<&str> = view.nodes.iter().map(|n| n.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Compare", "w2", "Reflect"],
            "the title, the widget id only when there is none"
        );
        assert_eq!(counts(&view.nodes[0]), [Some(3), Some(11), Some(0)]);
        // anon_12 did the third step out of order: done there, current on the second; those
        // still on the first step are upcoming on the second.
        assert_eq!(counts(&view.nodes[1]), [Some(1), Some(2), Some(11)]);
        assert_eq!(counts(&view.nodes[2]), [Some(2), Some(0), Some(12)]);
        for node in &view.nodes {
            let sum: i32 = node.counts.iter().filter_map(|c| c.count).sum();
            assert_eq!(
                sum, 14,
                "every learner has one status on {}",
                node.widget_id
            );
            assert_eq!(node.learners, 14);
        }
        let labels: Vec<&str> = view.nodes[0]
            .counts
            .iter()
            .map(|c| c.label.as_str())
            .collect();
        assert_eq!(labels, ["Done", "Current", "Upcoming"]);
        let edges: Vec<(&str, &str)> = view
            .edges
            .iter()
            .map(|e| (e.from.as_str(), e.to.as_str()))
            .collect();
        assert_eq!(edges, [("w1", "w2"), ("w2", "w3")]);
        assert!(
            view.edges
                .iter()
                .all(|e| e.kind == PathwayEdgeKind::Sequence)
        );
        assert_eq!(view.finished, Some(1));
        assert_eq!((view.up_to.as_deref(), view.up_to_step), (None, None));
        assert!(
            view.nodes
                .iter()
                .all(|n| !n.pacing_limit && !n.beyond_pacing)
        );
        assert_eq!(view.nodes[2].position, 3);
    }

    #[test]
    fn the_pacing_limit_marks_its_step_and_those_beyond() {
        let view = graph_view("as-1", "Fractions", &placement(), Some("w2"), None);
        assert_eq!(view.up_to_step, Some(2));
        assert_eq!(
            view.up_to_title.as_deref(),
            Some("w2"),
            "its title, or its id"
        );
        let marks: Vec<(bool, bool)> = view
            .nodes
            .iter()
            .map(|n| (n.pacing_limit, n.beyond_pacing))
            .collect();
        assert_eq!(marks, [(false, false), (true, false), (false, true)]);
        // A limit on a step the stored pathway lacks marks nothing but is still reported.
        let stale = graph_view("as-1", "Fractions", &placement(), Some("w9"), None);
        assert_eq!(stale.up_to.as_deref(), Some("w9"));
        assert_eq!(stale.up_to_step, None);
        assert!(stale.nodes.iter().all(|n| !n.pacing_limit));
    }

    #[test]
    fn projector_safe_counts_go_through_the_suppression() {
        let view = graph_view("as-1", "Fractions", &placement(), None, Some(5));
        // The first step: 3 done (fewer than 5), 11 current, 0 upcoming; with the class size
        // published, 11 would give the 3 away: it is hidden too.
        let node = &view.nodes[0];
        assert_eq!(counts(node), [None, None, Some(0)]);
        assert_eq!(node.counts[0].shown, "fewer than 5");
        assert_eq!(node.counts[0].visibility, Visibility::Primary);
        assert_eq!(node.counts[1].visibility, Visibility::Complementary);
        assert_eq!(node.counts[2].visibility, Visibility::Empty);
        for node in &view.nodes {
            for c in &node.counts {
                assert!(
                    c.count.is_none_or(|n| n == 0 || n >= 5),
                    "{} on {} printed a small group",
                    c.label,
                    node.widget_id
                );
            }
        }
        assert_eq!(view.finished, None, "one finished learner is a small group");
        // Negative control: with k = 1 nothing is hidden.
        let open = graph_view("as-1", "Fractions", &placement(), None, Some(1));
        assert_eq!(counts(&open.nodes[0]), [Some(3), Some(11), Some(0)]);
    }

    #[test]
    fn status_counts_follow_the_placement_exactly() {
        let p = placement();
        let c = status_counts(&p);
        assert_eq!(c, vec![[3, 11, 0], [1, 2, 11], [2, 0, 12]]);
        let empty = Placement {
            pathway_id: "p".into(),
            steps: vec![],
            learners: vec![place("anon_00", vec![])],
        };
        let view = graph_view("as-1", "Empty", &empty, None, None);
        assert!(view.nodes.is_empty() && view.edges.is_empty());
        assert_eq!(
            view.finished,
            Some(0),
            "a pathway without steps finishes nobody"
        );
    }
}
