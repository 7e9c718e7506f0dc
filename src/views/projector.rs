//! What a class may see of itself: the projector window's view. Aggregates only — how many
//! learners finished each step, mastery by standard through the small-cell suppression, the
//! knowledge and pathway maps' counts through it too, how many wait for help — and, for the help
//! queue, aliases drawn afresh for each projection. The types here have no field for a learner
//! id or a name, so nothing the projector window receives can carry one; the roster is never
//! read. The one free text is the students' work the teacher picked to show, which passed the
//! name scanner and carries no learner ([`super::shown_work`]).

use serde::Serialize;

use crate::dto::count_i32 as n32;
use crate::progress::grid::CellState;
use crate::progress::mastery::mastery;
use crate::progress::names::{Labeler, Privacy};
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// One step of a pathway as the room sees it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectedStep {
    pub title: String,
    /// Learners who completed the step (any verdict).
    pub done: i32,
    /// Learners at work on it: started, struggling or waiting for help.
    pub working: i32,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectedPathway {
    pub title: String,
    pub steps: Vec<ProjectedStep>,
}

/// One standard of the knowledge map as the room sees it: the title and each state's count
/// through the suppression (the window says "fewer than k" from the visibility).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectedKnowledge {
    pub title: String,
    /// Each state's count in the map's order, suppressed.
    pub states: Vec<crate::views::knowledge::StateCountView>,
}

/// One step of the pathway map as the room sees it: its title, done / current / upcoming
/// through the suppression, and whether the class's pacing limit is this step.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectedPlace {
    pub title: String,
    /// Done, current, upcoming: each count, suppressed.
    pub states: Vec<crate::views::pathway_map::StatusCountView>,
    pub pacing_limit: bool,
}

/// One assigned pathway of the pathway map, suppressed.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectedPathwayMap {
    pub title: String,
    /// The pacing limit as a 1-based step number, when the class is paced.
    pub up_to_step: Option<i32>,
    pub steps: Vec<ProjectedPlace>,
}

/// The projector window's whole view.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ProjectorView {
    pub learners: i32,
    pub pathways: Vec<ProjectedPathway>,
    /// Mastery per standard, suppressed with `k` (a standard of `None`: the steps without one).
    pub mastery: Vec<crate::views::class::MasteryCellView>,
    /// The knowledge map's counts per standard, suppressed.
    pub knowledge: Vec<ProjectedKnowledge>,
    /// The pathway map: where the class is on each assigned pathway, suppressed.
    pub pathway_map: Vec<ProjectedPathwayMap>,
    /// The threshold the mastery figures were suppressed with.
    pub k: i32,
    pub waiting_for_help: i32,
    /// "Learner 07", … (in the window's language) in the order they asked: fresh aliases for
    /// this projection only.
    pub help_queue: Vec<String>,
    /// Responses the teacher put on show (lettered A, B, …), in an order drawn from the
    /// projection (filled by whoever holds the picks: [`super::shown_work::ShownWork`]).
    pub shown_work: Vec<super::shown_work::ShownResponse>,
}

fn is_done(state: CellState) -> bool {
    matches!(
        state,
        CellState::Completed | CellState::CompletedCorrect | CellState::CompletedIncorrect
    )
}

fn is_working(state: CellState) -> bool {
    matches!(
        state,
        CellState::InProgress | CellState::Struggling | CellState::WaitingForHelp
    )
}

impl Store {
    /// The projector's view of one class. `seed` is the projection's: the same seed gives the
    /// same aliases, a new projection a new seed.
    pub async fn projector_view(
        &self,
        class_id: &str,
        seed: u32,
    ) -> Result<ProjectorView, StoreError> {
        let learners = self.learners(class_id).await?;
        let catalog = self.catalog().await?;
        let mut pathways = Vec::new();
        for a in self.assignments(class_id).await? {
            let grid = self.grid(class_id, &a.assignment_id).await?;
            let steps = grid
                .steps
                .iter()
                .enumerate()
                .map(|(i, step)| {
                    let states = grid
                        .rows
                        .iter()
                        .filter_map(|r| r.cells.get(i).map(|c| c.state));
                    ProjectedStep {
                        title: step.title.clone(),
                        done: n32(states.clone().filter(|s| is_done(*s)).count()),
                        working: n32(states.filter(|s| is_working(*s)).count()),
                    }
                })
                .collect();
            pathways.push(ProjectedPathway {
                title: catalog
                    .iter()
                    .find(|p| p.pathway_id == a.pathway_id)
                    .map_or_else(|| a.pathway_id.clone(), |p| p.title.clone()),
                steps,
            });
        }

        let k = self.suppression_k().await?;
        let (standards, total) = self.standard_counts(class_id).await?;
        let m = mastery(&standards, &total, k);
        let projected = m
            .standards
            .into_iter()
            .map(crate::views::class::mastery_cell)
            .collect();

        let map = crate::views::knowledge::map_view(
            &self.class_knowledge(class_id).await?,
            &self.standards().await?,
            Some(k),
        );
        let knowledge = map
            .nodes
            .into_iter()
            .map(|n| ProjectedKnowledge {
                title: n.title,
                states: n.counts,
            })
            .collect();

        let pathway_map = crate::views::pathway_map::map_with_k(
            self,
            class_id,
            Some(k),
            &crate::groups::Scope::Class,
        )
        .await?
        .pathways
        .into_iter()
        .map(|p| ProjectedPathwayMap {
            title: p.title,
            up_to_step: p.up_to_step,
            steps: p
                .nodes
                .into_iter()
                .map(|n| ProjectedPlace {
                    title: n.title,
                    pacing_limit: n.pacing_limit,
                    states: n.counts,
                })
                .collect(),
        })
        .collect();

        // Waiting: open, before the deadline, and not answered from this desk yet.
        let waiting: Vec<String> = on_pool!(self.engine(), |pool| {
            sqlx::query_scalar(
                "SELECT c.learner FROM calls c \
                 LEFT JOIN desk_sent s ON s.class_id = c.class_id AND s.call_id = c.call_id \
                 WHERE c.class_id = $1 AND c.function = 'assist' AND c.state = 'open' \
                 AND c.deadline_ms > $2 AND s.call_id IS NULL ORDER BY c.at_ms, c.call_id",
            )
            .bind(class_id)
            .bind(self.now_ms())
            .fetch_all(pool)
            .await?
        });
        let aliases = Labeler::new(&learners, &Default::default(), Privacy::Projector { seed });
        let mut help_queue: Vec<String> = Vec::with_capacity(waiting.len());
        for learner in &waiting {
            let alias = aliases.label(learner);
            if !help_queue.contains(&alias) {
                help_queue.push(alias);
            }
        }
        Ok(ProjectorView {
            learners: n32(learners.len()),
            pathways,
            mastery: projected,
            knowledge,
            pathway_map,
            k: n32(k),
            waiting_for_help: n32(waiting.len()),
            help_queue,
            shown_work: Vec::new(),
        })
    }
}
