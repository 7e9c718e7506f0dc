//! The export commands: one-line adapters over `a2learn_teacher::views::export`, with progress
//! over a channel. The core writes atomically: a cancelled or refused export leaves nothing
//! under the chosen name.

use a2learn_teacher::UiError;
use a2learn_teacher::views::export::{
    self, ExportDone, ExportOptions, ExportProgress, ExportSettings,
};
use tauri::State;
use tauri::ipc::Channel;

use crate::AppState;

#[tauri::command]
#[specta::specta]
pub async fn export_settings(state: State<'_, AppState>) -> Result<ExportSettings, UiError> {
    Ok(export::settings(&state.store).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn set_export_home_page(
    state: State<'_, AppState>,
    home_page: String,
) -> Result<String, UiError> {
    Ok(export::set_home_page(&state.store, &home_page).await?)
}

/// Runs one export to `options.path`, streaming progress on `on_progress`.
#[tauri::command]
#[specta::specta]
pub async fn export_class(
    state: State<'_, AppState>,
    options: ExportOptions,
    on_progress: Channel<ExportProgress>,
) -> Result<ExportDone, UiError> {
    // A closed channel (the dialog went away) must not stop the export.
    let mut report = |p| drop(on_progress.send(p));
    Ok(export::run(&state.store, &state.export, options, &mut report).await?)
}

/// Cancels the running export; true when there was one.
#[tauri::command]
#[specta::specta]
pub fn cancel_export(state: State<'_, AppState>) -> bool {
    state.export.cancel()
}
