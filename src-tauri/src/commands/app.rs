//! The frame's commands: one-line adapters over `a2learn_teacher::views::app`.

use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::views::app::{
    self, AppStatus, ClassSummary, Diagnostics, HostSettingsInput, HostSettingsView,
};
use a2learn_teacher::{ErrorCode, UiError};
use tauri::State;

use crate::AppState;

#[tauri::command]
#[specta::specta]
pub async fn app_status(state: State<'_, AppState>) -> Result<AppStatus, UiError> {
    Ok(app::status(&state.live, env!("CARGO_PKG_VERSION")).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn list_classes(state: State<'_, AppState>) -> Result<Vec<ClassSummary>, UiError> {
    Ok(app::classes(&state.store).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn create_class(
    state: State<'_, AppState>,
    title: String,
) -> Result<ClassSummary, UiError> {
    Ok(app::create_class(&state.live, &title).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn host_settings(state: State<'_, AppState>) -> Result<HostSettingsView, UiError> {
    Ok(app::host_settings(&state.store).await?)
}

/// Saves the settings, then points the live feeds (and the demo host) at them.
#[tauri::command]
#[specta::specta]
pub async fn save_host_settings(
    state: State<'_, AppState>,
    input: HostSettingsInput,
) -> Result<HostSettingsView, UiError> {
    let saved = app::save_host_settings(&state.store, &input).await?;
    crate::apply_host_settings(&state)
        .await
        .map_err(|e| UiError::new(ErrorCode::Host, e.to_string()))?;
    Ok(saved)
}

#[tauri::command]
#[specta::specta]
pub async fn diagnostics(state: State<'_, AppState>) -> Result<Diagnostics, UiError> {
    Ok(app::diagnostics(&state.store, state.privacy()).await?)
}

/// Switches projector-safe mode for the teacher's window; the views refetch after it. Held in
/// the shell's state and applied by every command, so no name, id or free text reaches the page
/// while it is on.
#[tauri::command]
#[specta::specta]
pub async fn set_projector_safe(state: State<'_, AppState>, on: bool) -> Result<bool, UiError> {
    Ok(state.set_projector_safe(on) != Privacy::Names)
}
