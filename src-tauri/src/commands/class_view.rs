//! The class page's commands: one-line adapters over `a2learn_teacher::views::class`, under the
//! window's privacy (projector-safe mode, held in `AppState`).

use a2learn_teacher::UiError;
use a2learn_teacher::groups::Scope;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::views::ViewError;
use a2learn_teacher::views::class::{
    self, AssignInput, AssignOutcomeView, AssignmentView, CatalogPathwayView, EvidenceView,
    GridView, MasteryView, NeedsMeView, RosterImportView, TimelineView,
};
use a2learn_teacher::views::groups::{self, GroupsView};
use a2learn_teacher::views::knowledge::{self, KnowledgeMapView, NodeLearnersView};
use a2learn_teacher::views::pathway_map::{self, PathwayMapView, StepLearnersView};
use a2learn_teacher::views::report::{self, ReportNames, ReportRequest, ReportView};
use a2learn_teacher::views::student::{self, StudentPageView};
use tauri::State;

use crate::AppState;

#[tauri::command]
#[specta::specta]
pub async fn class_grid(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: String,
    after: Option<String>,
) -> Result<GridView, UiError> {
    Ok(class::grid(
        &state.store,
        state.privacy(),
        &class_id,
        &assignment_id,
        after,
        &state.scope(&class_id).await?,
    )
    .await?)
}

/// The grid's rows of some learners, for a live change that named them (`StoreChanged.rows`).
#[tauri::command]
#[specta::specta]
pub async fn class_grid_rows(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: String,
    learners: Vec<String>,
) -> Result<GridView, UiError> {
    Ok(class::grid_rows(
        &state.store,
        state.privacy(),
        &class_id,
        &assignment_id,
        learners,
        &state.scope(&class_id).await?,
    )
    .await?)
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
    let privacy = state.privacy();
    Ok(class::evidence(
        &state.store,
        privacy,
        &class_id,
        &assignment_id,
        &learner,
        &widget_id,
    )
    .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn class_mastery(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<MasteryView, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(class::mastery(&state.store, state.privacy(), &class_id, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn needs_me(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<Vec<NeedsMeView>, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(class::needs_me(&state.store, state.privacy(), &class_id, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn class_timeline(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<TimelineView, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(class::timeline(&state.store, &class_id, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn pathway_catalog(
    state: State<'_, AppState>,
) -> Result<Vec<CatalogPathwayView>, UiError> {
    Ok(class::catalog(&state.live).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn class_assignments(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<Vec<AssignmentView>, UiError> {
    Ok(class::assignments(&state.store, state.privacy(), &class_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn assign_pathway(
    state: State<'_, AppState>,
    input: AssignInput,
) -> Result<AssignOutcomeView, UiError> {
    Ok(class::assign(&state.live, input).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn import_roster(
    state: State<'_, AppState>,
    class_id: String,
    csv_text: String,
) -> Result<RosterImportView, UiError> {
    Ok(class::import_roster(&state.live, &class_id, &csv_text).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn roster_size(state: State<'_, AppState>, class_id: String) -> Result<i32, UiError> {
    Ok(class::roster_size(&state.store, &class_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn suppression_k(state: State<'_, AppState>) -> Result<i32, UiError> {
    Ok(class::suppression_k(&state.store).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_suppression_k(state: State<'_, AppState>, k: i32) -> Result<i32, UiError> {
    Ok(class::set_suppression_k(&state.store, k).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn knowledge_map(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<KnowledgeMapView, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(knowledge::knowledge_map(&state.store, state.privacy(), &class_id, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn knowledge_node(
    state: State<'_, AppState>,
    class_id: String,
    code: String,
) -> Result<Vec<NodeLearnersView>, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(knowledge::node_learners(&state.store, state.privacy(), &class_id, &code, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn idle_after_minutes(state: State<'_, AppState>) -> Result<i32, UiError> {
    Ok(class::idle_after_minutes(&state.store).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_idle_after_minutes(
    state: State<'_, AppState>,
    minutes: i32,
) -> Result<i32, UiError> {
    Ok(class::set_idle_after_minutes(&state.store, minutes).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn student_page(
    state: State<'_, AppState>,
    class_id: String,
    learner: String,
) -> Result<StudentPageView, UiError> {
    Ok(student::student_page(&state.store, state.privacy(), &class_id, &learner).await?)
}

/// The after-class report for the window to show and print: anonymous ids unless the teacher
/// asks for names (then, like `report --identified`, not scanned); never in projector-safe mode.
#[tauri::command]
#[specta::specta]
pub async fn class_report(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: Option<String>,
    identified: bool,
) -> Result<ReportView, UiError> {
    if state.privacy() != Privacy::Names {
        return Err(
            ViewError::from(a2learn_teacher::error::Said::hidden_from_room(
                "error-hidden-report",
            ))
            .into(),
        );
    }
    let req = ReportRequest {
        group: state.group_filter(&class_id),
        class_id,
        assignment_id,
        names: if identified {
            ReportNames::Identified
        } else {
            ReportNames::Anonymous
        },
    };
    Ok(report::report(&state.store, &req).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn pathway_map(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<PathwayMapView, UiError> {
    let scope = state.scope(&class_id).await?;
    Ok(pathway_map::pathway_map(&state.store, state.privacy(), &class_id, &scope).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn pathway_node(
    state: State<'_, AppState>,
    class_id: String,
    assignment_id: String,
    widget_id: String,
) -> Result<Vec<StepLearnersView>, UiError> {
    let privacy = state.privacy();
    let scope = state.scope(&class_id).await?;
    Ok(pathway_map::pathway_node(
        &state.store,
        privacy,
        &class_id,
        &assignment_id,
        &widget_id,
        &scope,
    )
    .await?)
}

/// The class's groups (kept in the teacher's own file).
#[tauri::command]
#[specta::specta]
pub async fn class_groups(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<GroupsView, UiError> {
    groups_now(&state, &class_id).await
}

/// Makes (or refills) a group; returns the class's groups.
#[tauri::command]
#[specta::specta]
pub async fn save_group(
    state: State<'_, AppState>,
    class_id: String,
    name: String,
    learners: Vec<String>,
) -> Result<GroupsView, UiError> {
    groups::save_group(&state.store, state.privacy(), &class_id, &name, &learners).await?;
    groups_now(&state, &class_id).await
}

/// Deletes a group (and drops the filter when it was that group); returns the class's groups.
#[tauri::command]
#[specta::specta]
pub async fn delete_group(
    state: State<'_, AppState>,
    class_id: String,
    name: String,
) -> Result<GroupsView, UiError> {
    state.store.delete_group(&class_id, &name).await?;
    if state.group_filter(&class_id).as_deref() == Some(name.trim()) {
        state.set_group_filter(&class_id, None);
    }
    groups_now(&state, &class_id).await
}

/// Narrows every view of the class to a group (`None`: the whole class).
#[tauri::command]
#[specta::specta]
pub async fn set_group_filter(
    state: State<'_, AppState>,
    class_id: String,
    group: Option<String>,
) -> Result<GroupsView, UiError> {
    let scope = Scope::of(&state.store, &class_id, group.as_deref()).await?;
    state.set_group_filter(&class_id, scope.group_name().map(str::to_owned));
    groups_now(&state, &class_id).await
}

/// The class's groups as the page shows them, with the filter in force.
async fn groups_now(state: &AppState, class_id: &str) -> Result<GroupsView, UiError> {
    Ok(groups::groups_view(
        &state.store,
        state.privacy(),
        class_id,
        state.group_filter(class_id),
    )
    .await?)
}
