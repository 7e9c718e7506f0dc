//! The class header's room controls and freshness line: one-line adapters over
//! `a2learn_teacher::views::room` and `::freshness`.

use a2learn_teacher::UiError;
use a2learn_teacher::views::freshness::{self, FreshnessView};
use a2learn_teacher::views::room::{self, PacingInput, RoomView};
use tauri::State;

use crate::AppState;

/// The class header's freshness line: the newest work, when the host was last heard.
#[tauri::command]
#[specta::specta]
pub async fn class_freshness(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<FreshnessView, UiError> {
    Ok(freshness::freshness(state.live.store(), Some(&state.live), &class_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn class_room(state: State<'_, AppState>, class_id: String) -> Result<RoomView, UiError> {
    Ok(room::room_view(&state.live, &class_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn pause_class(
    state: State<'_, AppState>,
    class_id: String,
    message: Option<String>,
) -> Result<(), UiError> {
    Ok(room::pause(&state.live, &class_id, message.as_deref()).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn resume_class(state: State<'_, AppState>, class_id: String) -> Result<(), UiError> {
    Ok(room::resume(&state.live, &class_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_pacing(state: State<'_, AppState>, input: PacingInput) -> Result<(), UiError> {
    Ok(room::set_pacing(&state.live, input).await?)
}
