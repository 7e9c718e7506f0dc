//! The class page's views: the live grid, the evidence behind a cell, mastery by standard, who
//! needs me now, the timeline, assignments and the catalog, the roster import. Each function
//! returns exactly what the window draws — labelled, ordered, privacy applied, IPC-safe numbers
//! — so a Tauri command is a one-line adapter and tests check what the teacher sees. Learners
//! are labelled only through [`Labeler`]; under [`Privacy::Projector`] no name, anonymous id or
//! free text leaves here.

use serde::{Deserialize, Serialize};

use super::ViewError;
use crate::dto::{count_i32 as n32, ms};
use crate::error::window_words;
use crate::groups::Scope;
use crate::live::Live;
use crate::progress::assign::{self, FieldError};
use crate::progress::attention::Reason;
use crate::progress::evidence::{DetailField, detail_fields};
use crate::progress::grid::{CellState, Learners, totals_of_rows};
use crate::progress::names::Privacy;
use crate::progress::suppression::Visibility;
use crate::roster::parse_roster_csv;
use crate::store::{Store, StoreError};

/// One step of a pathway as the views show it: a column of the grid, a step in the catalog.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StepView {
    pub widget_id: String,
    pub title: String,
    pub kind: String,
    pub standard: Option<String>,
    pub assesses: bool,
}

impl From<crate::progress::grid::GridStep> for StepView {
    fn from(s: crate::progress::grid::GridStep) -> Self {
        Self {
            widget_id: s.widget_id,
            title: s.title,
            kind: s.kind,
            standard: s.standard,
            assesses: s.assesses,
        }
    }
}

impl From<crate::store::PathwayStep> for StepView {
    fn from(s: crate::store::PathwayStep) -> Self {
        Self {
            widget_id: s.widget_id,
            title: s.entry.title,
            kind: s.entry.kind,
            standard: s.entry.standard,
            assesses: s.entry.assesses,
        }
    }
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GridCellView {
    pub state: CellState,
    pub completions: i32,
    pub incorrect: i32,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GridRowView {
    /// The anonymous id, for the drill-down; `None` in projector-safe mode.
    pub learner: Option<String>,
    pub label: String,
    pub cells: Vec<GridCellView>,
    /// The step the learner is working on (index into `steps`): the first not completed
    /// ([`crate::progress::steps::placement`]); `None` when every step is done.
    pub current_step: Option<i32>,
    /// How long since the learner's last event on this pathway; `None` before their first
    /// event, and in projector-safe mode (a room sees no one's quiet time).
    pub quiet_ms: Option<f64>,
    /// Working on a step and quiet for the teacher's idle threshold or longer; never set in
    /// projector-safe mode.
    pub idle: bool,
}

/// A step's class totals (every learner of the class, not only the rows sent).
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StepTotalsView {
    pub widget_id: String,
    /// Completed, correct or not.
    pub done: i32,
    /// Waiting for help, owed a follow-up, or struggling.
    pub needs_teacher: i32,
    /// Nothing stored on the step yet.
    pub not_started: i32,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GridView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub steps: Vec<StepView>,
    pub rows: Vec<GridRowView>,
    pub projector_safe: bool,
    /// The teacher's idle threshold, in minutes.
    pub idle_after_minutes: i32,
    /// Every learner of the class; more than `rows` when the grid comes a page at a time.
    pub learner_count: i32,
    /// Per step, over the whole class.
    pub totals: Vec<StepTotalsView>,
    /// The rows are one page of a class bigger than [`GRID_PAGE`], in id order.
    pub paged: bool,
    /// The cursor of the next page (pass it as `after`); `None` on the last page, for a whole
    /// class, and in projector-safe mode (it is an anonymous id).
    pub next_after: Option<String>,
    /// The group the grid is narrowed to (its rows, count and totals are the group's).
    pub group: Option<String>,
}

/// Learners the grid shows at once. A class up to this size comes whole (the window sorts it
/// by name, state or place); a bigger one a page at a time in id order, with the class totals,
/// so its first page costs what a classroom does.
pub const GRID_PAGE: u32 = 500;

/// The live grid of one assignment: every learner by every step (a page of them after `after`
/// for a class bigger than [`GRID_PAGE`]), each row with where the learner is (the current
/// step, time since their last event, idle) at the store's clock, and the class totals.
pub async fn grid(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    assignment_id: &str,
    after: Option<String>,
    scope: &Scope,
) -> Result<GridView, ViewError> {
    if let Scope::Group { learners, .. } = scope {
        let grid = store
            .grid_of(
                class_id,
                assignment_id,
                Learners::Only(learners.iter().cloned().collect()),
            )
            .await?;
        let in_class = u32::try_from(grid.rows.len()).unwrap_or(u32::MAX);
        return view_of(store, privacy, grid, in_class, false, None, scope).await;
    }
    let learner_count = store.learner_count(class_id).await?;
    if learner_count <= GRID_PAGE {
        let grid = store
            .grid_of(class_id, assignment_id, Learners::All)
            .await?;
        return view_of(store, privacy, grid, learner_count, false, None, scope).await;
    }
    // A room's screen gets no cursor: it is a learner's id.
    let after = after.filter(|_| privacy == Privacy::Names);
    let page = store
        .grid_page(class_id, assignment_id, after.as_deref(), GRID_PAGE)
        .await?;
    let next = page.next_after.filter(|_| privacy == Privacy::Names);
    view_of(
        store,
        privacy,
        page.grid,
        page.learner_count,
        true,
        next,
        scope,
    )
    .await
}

/// Most learners [`grid_rows`] reads at once; a longer list is a whole-grid reload's job.
pub const MAX_GRID_ROWS: usize = 1_000;

/// Rows of the live grid, of the learners named (anonymous ids; those the class does not have
/// are left out), as [`grid`] makes them, with the class totals: the window refetches the rows
/// a change touched (`StoreChanged.rows`) instead of the whole class. Not in projector-safe
/// mode, where rows carry no id to be matched by (the window reloads the whole grid there).
pub async fn grid_rows(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    assignment_id: &str,
    learners: Vec<String>,
    scope: &Scope,
) -> Result<GridView, ViewError> {
    if privacy != Privacy::Names {
        return Err(crate::error::Said::hidden_from_room("error-hidden-rows").into());
    }
    let learners = scope.narrow(learners);
    if learners.len() > MAX_GRID_ROWS {
        return Err(StoreError::Invalid(format!(
            "{} learners asked for; at most {MAX_GRID_ROWS} rows at once",
            learners.len()
        ))
        .into());
    }
    let grid = store
        .grid_of(class_id, assignment_id, Learners::Only(learners))
        .await?;
    let learner_count = match scope {
        Scope::Class => store.learner_count(class_id).await?,
        Scope::Group { .. } => group_size(store, class_id, scope).await?,
    };
    view_of(store, privacy, grid, learner_count, false, None, scope).await
}

/// How many of the class's learners a group holds.
async fn group_size(store: &Store, class_id: &str, scope: &Scope) -> Result<u32, ViewError> {
    let in_class = scope.narrow(store.learners(class_id).await?).len();
    Ok(u32::try_from(in_class).unwrap_or(u32::MAX))
}

async fn view_of(
    store: &Store,
    privacy: Privacy,
    grid: crate::progress::grid::Grid,
    learner_count: u32,
    paged: bool,
    next_after: Option<String>,
    scope: &Scope,
) -> Result<GridView, ViewError> {
    let class_id = grid.class_id.as_str();
    let labels = store.labeler_of(class_id, privacy, &grid.learners).await?;
    let idle_after = store.idle_after_minutes().await?;
    let placement = store
        .placement_of_grid(&grid, store.now_ms(), i64::from(idle_after) * 60_000)
        .await?;
    // A group's totals are over its own learners (a grid_rows call holds only some of them:
    // the group is read whole for its totals); the class's come from the rollup.
    let totals = match scope {
        Scope::Class => store.step_totals(class_id, &grid, learner_count).await?,
        Scope::Group { learners, .. } if grid.rows.len() == learners.len() => totals_of_rows(&grid),
        Scope::Group { learners, .. } => totals_of_rows(
            &store
                .grid_of(
                    class_id,
                    &grid.assignment_id,
                    Learners::Only(learners.iter().cloned().collect()),
                )
                .await?,
        ),
    };
    let totals = totals
        .into_iter()
        .map(|t| StepTotalsView {
            done: n32(t.of(CellState::Completed)
                + t.of(CellState::CompletedCorrect)
                + t.of(CellState::CompletedIncorrect)),
            needs_teacher: n32(t.of(CellState::WaitingForHelp)
                + t.of(CellState::FollowUp)
                + t.of(CellState::Struggling)),
            not_started: n32(t.of(CellState::NotStarted)),
            widget_id: t.widget_id,
        })
        .collect();
    let places: std::collections::HashMap<&str, &crate::progress::steps::LearnerPlace> =
        placement.iter().map(|p| (p.learner.as_str(), p)).collect();
    let room = labels.projector_safe();
    let mut rows: Vec<GridRowView> = grid
        .rows
        .into_iter()
        .map(|r| {
            let place = places.get(r.learner.as_str());
            GridRowView {
                label: labels.label(&r.learner),
                learner: labels.visible_id(&r.learner),
                current_step: place.and_then(|p| p.current).map(n32),
                quiet_ms: place.and_then(|p| p.quiet_ms).filter(|_| !room).map(ms),
                idle: !room && place.is_some_and(|p| p.idle),
                cells: r
                    .cells
                    .into_iter()
                    .map(|c| GridCellView {
                        state: c.state,
                        completions: n32(c.completions),
                        incorrect: n32(c.incorrect),
                    })
                    .collect(),
            }
        })
        .collect();
    // In projector-safe mode rows go in alias order, so the order says nothing about ids.
    if labels.projector_safe() {
        rows.sort_by(|a, b| a.label.cmp(&b.label));
    }
    Ok(GridView {
        assignment_id: grid.assignment_id,
        pathway_id: grid.pathway_id,
        steps: grid.steps.into_iter().map(StepView::from).collect(),
        rows,
        projector_safe: labels.projector_safe(),
        idle_after_minutes: n32(idle_after),
        learner_count: n32(learner_count),
        totals,
        paged,
        next_after,
        // On a projected screen the filter shows, but not a group name that could name someone.
        group: scope.group_name().map(|g| {
            if privacy == Privacy::Names {
                g.to_owned()
            } else {
                "a group".to_owned()
            }
        }),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct EvidenceResultView {
    pub kind: String,
    pub standard: Option<String>,
    pub correct: Option<bool>,
    pub attempts: i32,
    pub hints: i32,
    pub score: Option<f64>,
    pub at_ms: f64,
    /// Untrusted text from the widget: render as text.
    pub prose: String,
    /// Untrusted JSON text from the widget: render as text.
    /// The widget's `detail` as key/value rows (never a raw JSON block); empty in projector-safe
    /// mode.
    pub detail: Vec<DetailField>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct EvidenceStruggleView {
    pub failed_checks: i32,
    pub hints: i32,
    pub at_ms: f64,
    pub prose: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct EvidenceView {
    pub label: String,
    pub learner: String,
    pub step_title: String,
    pub results: Vec<EvidenceResultView>,
    pub struggles: Vec<EvidenceStruggleView>,
    pub open_requests: i32,
}

/// What lies behind one cell: the learner's results and struggles on one step.
pub async fn evidence(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    assignment_id: &str,
    learner: &str,
    widget_id: &str,
) -> Result<EvidenceView, ViewError> {
    let pathway_id = store.assignment_pathway(class_id, assignment_id).await?;
    let step_title = store
        .pathway_steps(&pathway_id)
        .await?
        .into_iter()
        .find(|s| s.widget_id == widget_id)
        .map_or_else(|| widget_id.to_string(), |s| s.title);
    let ev = store
        .evidence(class_id, &pathway_id, learner, widget_id)
        .await?;
    let labels = store.labeler(class_id, privacy).await?;
    // A room sees the counts behind a cell, never what the learner wrote.
    let text = |t: String| {
        if labels.projector_safe() {
            String::new()
        } else {
            t
        }
    };
    Ok(EvidenceView {
        label: labels.label(learner),
        learner: labels.visible_id(learner).unwrap_or_default(),
        step_title,
        results: ev
            .results
            .into_iter()
            .map(|r| EvidenceResultView {
                kind: r.kind,
                standard: r.standard,
                correct: r.correct,
                attempts: n32(r.attempts),
                hints: n32(r.hints),
                score: r.score,
                at_ms: ms(r.at_ms),
                prose: text(r.prose),
                detail: if labels.projector_safe() {
                    Vec::new()
                } else {
                    detail_fields(&r.detail)
                },
            })
            .collect(),
        struggles: ev
            .struggles
            .into_iter()
            .map(|s| EvidenceStruggleView {
                failed_checks: n32(s.failed_checks),
                hints: n32(s.hints),
                at_ms: ms(s.at_ms),
                prose: text(s.prose),
            })
            .collect(),
        open_requests: n32(ev.open_requests),
    })
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct MasteryCellView {
    pub standard: Option<String>,
    pub visibility: Visibility,
    pub not_enough_evidence: bool,
    pub results: Option<i32>,
    pub checked: Option<i32>,
    pub correct: Option<i32>,
    pub attempts: Option<i32>,
    pub hints: Option<i32>,
    pub learners: Option<i32>,
    pub summary: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct MasteryView {
    /// The suppression threshold applied, or none on the teacher's own screen.
    pub k: Option<i32>,
    pub standards: Vec<MasteryCellView>,
    pub total: MasteryCellView,
}

pub(crate) fn mastery_cell(c: crate::progress::mastery::MasteryCell) -> MasteryCellView {
    MasteryCellView {
        standard: c.standard,
        visibility: c.visibility,
        not_enough_evidence: c.not_enough_evidence,
        results: c.results.map(n32),
        checked: c.checked.map(n32),
        correct: c.correct.map(n32),
        attempts: c.attempts.map(n32),
        hints: c.hints.map(n32),
        learners: c.learners.map(n32),
        summary: c.summary,
    }
}

/// Mastery by standard, suppressed where it leaves the teacher's own screen.
pub async fn mastery(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    scope: &Scope,
) -> Result<MasteryView, ViewError> {
    let m = match scope {
        Scope::Class => store.class_mastery(class_id, privacy).await?,
        // A group's figures from its learners' runs on every assigned pathway, suppressed
        // where they leave the teacher's own screen.
        Scope::Group { .. } => {
            let learners = scope.narrow(store.learners(class_id).await?);
            let mut runs = Vec::new();
            let mut seen = std::collections::HashSet::new();
            for a in store.assignments(class_id).await? {
                if seen.insert(a.pathway_id.clone()) {
                    runs.extend(store.step_runs(class_id, &a.pathway_id).await?);
                }
            }
            let (standards, total) = crate::progress::steps::standard_counts(&runs, &learners);
            match privacy {
                Privacy::Names => {
                    crate::progress::mastery::mastery_unsuppressed(&standards, &total)
                }
                Privacy::Projector { .. } => crate::progress::mastery::mastery(
                    &standards,
                    &total,
                    store.suppression_k().await?,
                ),
            }
        }
    };
    Ok(MasteryView {
        k: m.k.map(n32),
        standards: m.standards.into_iter().map(mastery_cell).collect(),
        total: mastery_cell(m.total),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct NeedsMeView {
    pub reason: Reason,
    /// How many failed checks (struggling) or incorrect completions (repeated failures); 0 for
    /// a help request or a follow-up. The window says the reason in its language from these two.
    pub count: i32,
    pub label: String,
    /// `None` in projector-safe mode.
    pub learner: Option<String>,
    pub step_title: String,
    pub widget_id: String,
    pub pathway_id: String,
    pub since_ms: f64,
    /// How long ago, by the injected clock.
    pub waited_ms: f64,
}

/// Who needs the teacher now, most urgent first, with the reason as a sentence.
pub async fn needs_me(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    scope: &Scope,
) -> Result<Vec<NeedsMeView>, ViewError> {
    let mut items = store.needs_me(class_id).await?;
    items.retain(|i| scope.includes(&i.learner));
    let labels = store.labeler(class_id, privacy).await?;
    let catalog = store.catalog().await?;
    let title = |pathway_id: &str, widget_id: &str| {
        catalog
            .iter()
            .filter(|p| p.pathway_id == pathway_id)
            .flat_map(|p| &p.steps)
            .find(|s| s.widget_id == widget_id)
            .map_or_else(|| widget_id.to_string(), |s| s.entry.title.clone())
    };
    let now = store.now_ms();
    Ok(items
        .into_iter()
        .map(|i| NeedsMeView {
            count: n32(i.count),
            reason: i.reason,
            label: labels.label(&i.learner),
            learner: labels.visible_id(&i.learner),
            step_title: title(&i.pathway_id, &i.widget_id),
            widget_id: i.widget_id,
            pathway_id: i.pathway_id,
            since_ms: ms(i.since_ms),
            waited_ms: ms((now - i.since_ms).max(0)),
        })
        .collect())
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct TimelineView {
    pub bucket_ms: f64,
    pub starts_ms: Vec<f64>,
    pub completions: Vec<i32>,
    pub struggles: Vec<i32>,
    pub help_requests: Vec<i32>,
    pub other: Vec<i32>,
}

/// The class's events over time, in buckets.
pub async fn timeline(
    store: &Store,
    class_id: &str,
    scope: &Scope,
) -> Result<TimelineView, ViewError> {
    let t = store.timeline_of(class_id, scope.learners_json()).await?;
    let v = |xs: Vec<u32>| xs.into_iter().map(n32).collect();
    Ok(TimelineView {
        bucket_ms: ms(t.bucket_ms),
        starts_ms: t.starts_ms.into_iter().map(ms).collect(),
        completions: v(t.completions),
        struggles: v(t.struggles),
        help_requests: v(t.help_requests),
        other: v(t.other),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct CatalogPathwayView {
    pub pathway_id: String,
    pub title: String,
    pub version: String,
    pub steps: Vec<StepView>,
}

/// The host's catalog: asked afresh when the host answers, the stored snapshot otherwise.
pub async fn catalog(live: &Live) -> Result<Vec<CatalogPathwayView>, ViewError> {
    let store = live.store();
    if let Ok(client) = live.client().await {
        let fresh = client.list_catalog().await;
        client.close().await;
        match fresh {
            Ok(catalog) => {
                store.save_catalog(&catalog.pathways).await?;
                store.save_standards(&catalog.standards).await?;
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot refresh the catalog; using the stored one")
            }
        }
    }
    Ok(store
        .catalog()
        .await?
        .into_iter()
        .map(|p| CatalogPathwayView {
            pathway_id: p.pathway_id,
            title: p.title,
            version: p.version,
            steps: p.steps.into_iter().map(StepView::from).collect(),
        })
        .collect())
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct AssignmentView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub pathway_title: String,
    pub due_at_ms: Option<f64>,
    pub note: Option<String>,
    pub created_at_ms: f64,
    /// Learners with any result, struggle or call on the pathway ("who has started").
    pub started: i32,
}

/// The class's assignments, with how many learners have started each.
pub async fn assignments(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
) -> Result<Vec<AssignmentView>, ViewError> {
    let catalog = store.catalog().await?;
    let mut out = Vec::new();
    for a in store.assignments(class_id).await? {
        let started = store.started_learners(class_id, &a.pathway_id).await?;
        out.push(AssignmentView {
            pathway_title: catalog
                .iter()
                .find(|p| p.pathway_id == a.pathway_id)
                .map_or_else(|| a.pathway_id.clone(), |p| p.title.clone()),
            assignment_id: a.assignment_id,
            pathway_id: a.pathway_id,
            due_at_ms: a.due_at.map(ms),
            // The teacher's note is free text: not for a room.
            note: a.teacher_note.filter(|_| privacy == Privacy::Names),
            created_at_ms: ms(a.created_at),
            started: n32(started),
        });
    }
    Ok(out)
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct FieldErrorView {
    pub field: String,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct AssignOutcomeView {
    pub assignment_id: Option<String>,
    pub field_errors: Vec<FieldErrorView>,
}

#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct AssignInput {
    pub class_id: String,
    pub pathway_id: String,
    /// UTC milliseconds, or none.
    pub due_at_ms: Option<f64>,
    pub note: Option<String>,
}

/// Checks the input, asks the host (the note through the privacy gate), stores the assignment.
pub async fn assign(live: &Live, input: AssignInput) -> Result<AssignOutcomeView, ViewError> {
    let outcome = assign::assign_pathway(
        live,
        &input.class_id,
        &input.pathway_id,
        input.due_at_ms.map(|d| d as i64),
        input.note.as_deref(),
    )
    .await?;
    Ok(AssignOutcomeView {
        assignment_id: outcome.assignment_id,
        field_errors: outcome
            .field_errors
            .into_iter()
            .map(|FieldError { field, message }| FieldErrorView {
                field,
                // The view is the window's: its words are in the window's language.
                message: message.in_language(window_words()),
            })
            .collect(),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RowErrorView {
    pub line: i32,
    pub message: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RosterImportView {
    /// Rows stored; 0 when anything was wrong (nothing is half-imported).
    pub imported: i32,
    pub errors: Vec<RowErrorView>,
}

/// Imports a roster CSV whole, or reports every bad row by line and stores nothing.
pub async fn import_roster(
    live: &Live,
    class_id: &str,
    csv_text: &str,
) -> Result<RosterImportView, ViewError> {
    let store = live.store();
    match parse_roster_csv(csv_text) {
        Err(errors) => Ok(RosterImportView {
            imported: 0,
            errors: errors
                .0
                .into_iter()
                .map(|e| RowErrorView {
                    line: n32(e.line),
                    message: e.message,
                })
                .collect(),
        }),
        Ok(entries) => {
            store.ensure_class(class_id).await?;
            store.import_roster(class_id, &entries).await?;
            // Counts only: never a name in a log line.
            tracing::info!(class_id, rows = entries.len(), "roster imported");
            // New labels for every row: the views of the class reload whole (the change names
            // no learner), not only the rows of the learners who act next.
            live.notify_changed(
                class_id,
                crate::store::Changes {
                    learners: true,
                    ..Default::default()
                },
            );
            Ok(RosterImportView {
                imported: n32(entries.len()),
                errors: Vec::new(),
            })
        }
    }
}

/// How many names the class's roster holds (the UI says whether names are available).
pub async fn roster_size(store: &Store, class_id: &str) -> Result<i32, ViewError> {
    Ok(n32(store.roster(class_id).await?.len()))
}

/// The teacher's k for small-cell suppression.
pub async fn suppression_k(store: &Store) -> Result<i32, ViewError> {
    Ok(n32(store.suppression_k().await?))
}

/// Sets k (5-30; the store refuses anything else with a message for the field).
/// The idle threshold the grid flags learners by, in minutes.
pub async fn idle_after_minutes(store: &Store) -> Result<i32, ViewError> {
    Ok(n32(store.idle_after_minutes().await?))
}

pub async fn set_idle_after_minutes(store: &Store, minutes: i32) -> Result<i32, ViewError> {
    let minutes = u32::try_from(minutes).unwrap_or(0);
    Ok(n32(store.set_idle_after_minutes(minutes).await?))
}

pub async fn set_suppression_k(store: &Store, k: i32) -> Result<i32, ViewError> {
    let k = u32::try_from(k).map_err(|_| StoreError::Invalid("k must be positive".into()))?;
    Ok(n32(store.set_suppression_k(k).await?))
}
