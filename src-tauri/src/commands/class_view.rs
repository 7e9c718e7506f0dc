//! The class view's commands: the live grid, the evidence behind a cell, mastery by standard,
//! who needs me now, the timeline, assignments and the catalog, the roster import and the
//! suppression threshold. Learners are labelled only through `progress::names::Labeler`; in
//! projector-safe mode no name, anonymous id or free text leaves the core.

use a2learn_teacher::progress::assign::{self, FieldError};
use a2learn_teacher::progress::attention::Reason;
use a2learn_teacher::progress::grid::CellState;
use a2learn_teacher::progress::names::{Labeler, Privacy};
use a2learn_teacher::progress::suppression::Visibility;
use a2learn_teacher::roster::parse_roster_csv;
use a2learn_teacher::{ErrorCode, Store, UiError};
use serde::{Deserialize, Serialize};
use tauri::State;

use crate::AppState;

async fn labeler(store: &Store, class_id: &str, privacy: Privacy) -> Result<Labeler, UiError> {
    let learners = store.learners(class_id).await?;
    // The roster is only read when names may be shown.
    let roster = match privacy {
        Privacy::Names => store.roster(class_id).await?,
        Privacy::Projector { .. } => Default::default(),
    };
    Ok(Labeler::new(&learners, &roster, privacy))
}

fn n32(n: impl TryInto<i32>) -> i32 {
    n.try_into().unwrap_or(i32::MAX)
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GridStepView {
    pub widget_id: String,
    pub title: String,
    pub kind: String,
    pub standard: Option<String>,
    pub assesses: bool,
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
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GridView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub steps: Vec<GridStepView>,
    pub rows: Vec<GridRowView>,
    pub projector_safe: bool,
}

#[tauri::command]
#[specta::specta]
pub async fn class_grid(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: String,
) -> Result<GridView, UiError> {
    let grid = state
        .store
        .grid(&class_id, &assignment_id)
        .await
        .map_err(|e| UiError::new(ErrorCode::NotFound, e.to_string()))?;
    let labels = labeler(&state.store, &class_id, state.privacy()).await?;
    let mut rows: Vec<GridRowView> = grid
        .rows
        .into_iter()
        .map(|r| GridRowView {
            label: labels.label(&r.learner),
            learner: labels.visible_id(&r.learner),
            cells: r
                .cells
                .into_iter()
                .map(|c| GridCellView {
                    state: c.state,
                    completions: n32(c.completions),
                    incorrect: n32(c.incorrect),
                })
                .collect(),
        })
        .collect();
    // In projector-safe mode rows go in alias order, so the order says nothing about ids.
    if labels.projector_safe() {
        rows.sort_by(|a, b| a.label.cmp(&b.label));
    }
    Ok(GridView {
        assignment_id: grid.assignment_id,
        pathway_id: grid.pathway_id,
        steps: grid
            .steps
            .into_iter()
            .map(|s| GridStepView {
                widget_id: s.widget_id,
                title: s.title,
                kind: s.kind,
                standard: s.standard,
                assesses: s.assesses,
            })
            .collect(),
        rows,
        projector_safe: labels.projector_safe(),
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
    pub detail: String,
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

#[tauri::command]
#[specta::specta]
pub async fn cell_evidence(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: String,
    learner: String,
    widget_id: String,
) -> Result<EvidenceView, UiError> {
    let store = &state.store;
    let pathway_id = store
        .assignment_pathway(&class_id, &assignment_id)
        .await
        .map_err(|e| UiError::new(ErrorCode::NotFound, e.to_string()))?;
    let step_title = store
        .pathway_steps(&pathway_id)
        .await?
        .into_iter()
        .find(|s| s.widget_id == widget_id)
        .map(|s| s.title)
        .unwrap_or_else(|| widget_id.clone());
    let ev = store
        .evidence(&class_id, &pathway_id, &learner, &widget_id)
        .await?;
    let privacy = state.privacy();
    let labels = labeler(store, &class_id, privacy).await?;
    // A room sees the counts behind a cell, never what the learner wrote.
    let text = |t: String| {
        if labels.projector_safe() {
            String::new()
        } else {
            t
        }
    };
    Ok(EvidenceView {
        label: labels.label(&learner),
        learner: labels.visible_id(&learner).unwrap_or_default(),
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
                at_ms: r.at_ms as f64,
                prose: text(r.prose),
                detail: text(r.detail),
            })
            .collect(),
        struggles: ev
            .struggles
            .into_iter()
            .map(|s| EvidenceStruggleView {
                failed_checks: n32(s.failed_checks),
                hints: n32(s.hints),
                at_ms: s.at_ms as f64,
                prose: text(s.prose),
            })
            .collect(),
        open_requests: n32(ev.open_requests),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
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

fn mastery_cell(c: a2learn_teacher::progress::mastery::MasteryCell) -> MasteryCellView {
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

#[tauri::command]
#[specta::specta]
pub async fn class_mastery(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<MasteryView, UiError> {
    let m = state
        .store
        .class_mastery(&class_id, state.privacy())
        .await?;
    Ok(MasteryView {
        k: m.k.map(n32),
        standards: m.standards.into_iter().map(mastery_cell).collect(),
        total: mastery_cell(m.total),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct NeedsMeView {
    pub reason: Reason,
    /// The reason as a sentence ("asked for help", "struggling: 3 failed checks").
    pub reason_text: String,
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

#[tauri::command]
#[specta::specta]
pub async fn needs_me(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<Vec<NeedsMeView>, UiError> {
    let store = &state.store;
    let items = store.needs_me(&class_id).await?;
    let labels = labeler(store, &class_id, state.privacy()).await?;
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
            reason_text: match i.reason {
                Reason::HelpRequest => "asked for help".to_string(),
                Reason::Struggling => format!("struggling: {} failed checks", i.count),
                Reason::RepeatedFailures => format!("{} incorrect completions", i.count),
            },
            reason: i.reason,
            label: labels.label(&i.learner),
            learner: labels.visible_id(&i.learner),
            step_title: title(&i.pathway_id, &i.widget_id),
            widget_id: i.widget_id,
            pathway_id: i.pathway_id,
            since_ms: i.since_ms as f64,
            waited_ms: (now - i.since_ms).max(0) as f64,
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

#[tauri::command]
#[specta::specta]
pub async fn class_timeline(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<TimelineView, UiError> {
    let t = state.store.timeline(&class_id).await?;
    let v = |xs: Vec<u32>| xs.into_iter().map(n32).collect();
    Ok(TimelineView {
        bucket_ms: t.bucket_ms as f64,
        starts_ms: t.starts_ms.into_iter().map(|s| s as f64).collect(),
        completions: v(t.completions),
        struggles: v(t.struggles),
        help_requests: v(t.help_requests),
        other: v(t.other),
    })
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct CatalogStepView {
    pub widget_id: String,
    pub title: String,
    pub kind: String,
    pub standard: Option<String>,
    pub assesses: bool,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct CatalogPathwayView {
    pub pathway_id: String,
    pub title: String,
    pub version: String,
    pub steps: Vec<CatalogStepView>,
}

/// The host's catalog: asked afresh when the host answers, the stored snapshot otherwise.
#[tauri::command]
#[specta::specta]
pub async fn pathway_catalog(
    state: State<'_, AppState>,
) -> Result<Vec<CatalogPathwayView>, UiError> {
    if let Ok(client) = state.live.client().await {
        let fresh = client.list_pathways().await;
        client.close().await;
        match fresh {
            Ok(pathways) => state.store.save_catalog(&pathways).await?,
            Err(e) => {
                tracing::warn!(error = %e, "cannot refresh the catalog; using the stored one")
            }
        }
    }
    Ok(state
        .store
        .catalog()
        .await?
        .into_iter()
        .map(|p| CatalogPathwayView {
            pathway_id: p.pathway_id,
            title: p.title,
            version: p.version,
            steps: p
                .steps
                .into_iter()
                .map(|s| CatalogStepView {
                    widget_id: s.widget_id,
                    title: s.entry.title,
                    kind: s.entry.kind,
                    standard: s.entry.standard,
                    assesses: s.entry.assesses,
                })
                .collect(),
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

#[tauri::command]
#[specta::specta]
pub async fn class_assignments(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<Vec<AssignmentView>, UiError> {
    let store = &state.store;
    let catalog = store.catalog().await?;
    let mut out = Vec::new();
    for a in store.assignments(&class_id).await? {
        let started: i64 = sqlx_started(store, &class_id, &a.pathway_id).await?;
        out.push(AssignmentView {
            pathway_title: catalog
                .iter()
                .find(|p| p.pathway_id == a.pathway_id)
                .map_or_else(|| a.pathway_id.clone(), |p| p.title.clone()),
            assignment_id: a.assignment_id,
            pathway_id: a.pathway_id,
            due_at_ms: a.due_at.map(|d| d as f64),
            note: a.teacher_note.filter(|_| state.privacy() == Privacy::Names),
            created_at_ms: a.created_at as f64,
            started: n32(started),
        });
    }
    Ok(out)
}

async fn sqlx_started(store: &Store, class_id: &str, pathway_id: &str) -> Result<i64, UiError> {
    Ok(store.started_learners(class_id, pathway_id).await?)
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

#[tauri::command]
#[specta::specta]
pub async fn assign_pathway(
    state: State<'_, AppState>,
    input: AssignInput,
) -> Result<AssignOutcomeView, UiError> {
    let outcome = assign::assign_pathway(
        &state.live,
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
            .map(|FieldError { field, message }| FieldErrorView { field, message })
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

#[tauri::command]
#[specta::specta]
pub async fn import_roster(
    state: State<'_, AppState>,
    class_id: String,
    csv_text: String,
) -> Result<RosterImportView, UiError> {
    match parse_roster_csv(&csv_text) {
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
            state.store.ensure_class(&class_id).await?;
            state.store.import_roster(&class_id, &entries).await?;
            // Counts only: never a name in a log line.
            tracing::info!(class_id, rows = entries.len(), "roster imported");
            Ok(RosterImportView {
                imported: n32(entries.len()),
                errors: Vec::new(),
            })
        }
    }
}

/// How many names the class's roster holds (the UI says whether names are available).
#[tauri::command]
#[specta::specta]
pub async fn roster_size(state: State<'_, AppState>, class_id: String) -> Result<i32, UiError> {
    Ok(n32(state.store.roster(&class_id).await?.len()))
}

#[tauri::command]
#[specta::specta]
pub async fn suppression_k(state: State<'_, AppState>) -> Result<i32, UiError> {
    Ok(n32(state.store.suppression_k().await?))
}

#[tauri::command]
#[specta::specta]
pub async fn set_suppression_k(state: State<'_, AppState>, k: i32) -> Result<i32, UiError> {
    let k = u32::try_from(k)
        .map_err(|_| UiError::new(ErrorCode::InvalidInput, "k must be positive"))?;
    Ok(n32(state.store.set_suppression_k(k).await?))
}
