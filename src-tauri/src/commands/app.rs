//! The frame's commands: one-line adapters over `a2learn_teacher::views::app`.

use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::views::app::{
    self, AppStatus, ClassSummary, Diagnostics, HostClassView, HostOffersView, HostSettingsInput,
    HostSettingsView, ResultsStoreInput, ResultsStoreView,
};
use a2learn_teacher::views::host_check::{self, HostCheckInput, HostCheckView};
use a2learn_teacher::{ErrorCode, UiError};
use tauri::{AppHandle, State};

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

/// Where results are kept: this computer, or the school's shared store the teacher's file names.
#[tauri::command]
#[specta::specta]
pub async fn results_store(state: State<'_, AppState>) -> Result<ResultsStoreView, UiError> {
    Ok(app::results_store(&state.store).await?)
}

/// Saves where results are kept (after connecting to a shared store); the app uses it from its
/// next start ([`restart_app`]).
#[tauri::command]
#[specta::specta]
pub async fn save_results_store(
    state: State<'_, AppState>,
    input: ResultsStoreInput,
) -> Result<ResultsStoreView, UiError> {
    Ok(app::save_results_store(&state.store, &input).await?)
}

/// Starts the app again (on the store Settings now names).
#[tauri::command]
#[specta::specta]
pub fn restart_app<R: tauri::Runtime>(app: AppHandle<R>) {
    app.restart();
}

/// Settings: the classes the followed host lists, each followed or not.
#[tauri::command]
#[specta::specta]
pub async fn host_classes(state: State<'_, AppState>) -> Result<Vec<HostClassView>, UiError> {
    Ok(app::host_classes(&state.live).await?)
}

/// The sidebar and the class page: which write controls the host can honour.
#[tauri::command]
#[specta::specta]
pub async fn host_offers(state: State<'_, AppState>) -> Result<HostOffersView, UiError> {
    Ok(app::host_offers(&state.live).await)
}

/// Settings: follows a class the host lists.
#[tauri::command]
#[specta::specta]
pub async fn follow_host_class(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<(), UiError> {
    Ok(app::follow_host_class(&state.live, &class_id).await?)
}

/// Settings: the read-only checks on a host the teacher typed, before it is saved.
#[tauri::command]
#[specta::specta]
pub async fn check_new_host(
    state: State<'_, AppState>,
    input: HostCheckInput,
) -> Result<HostCheckView, UiError> {
    Ok(host_check::check_new_host(&state.store, &input).await?)
}

/// Diagnostics: every read-only check on the host the app follows now.
#[tauri::command]
#[specta::specta]
pub async fn check_followed_host(state: State<'_, AppState>) -> Result<HostCheckView, UiError> {
    Ok(host_check::check_followed_host(&state.live).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn diagnostics(state: State<'_, AppState>) -> Result<Diagnostics, UiError> {
    Ok(app::diagnostics(&state.store, state.privacy()).await?)
}

/// The language the teacher reads (the window's choice: the OS's, or Settings'). What Rust says
/// to the window from now on — errors, and the sentences views build — is in it; the window
/// renders anew after this answers, so nothing it shows is left in the language before.
#[tauri::command]
#[specta::specta]
pub async fn set_language(lang: a2learn_teacher::i18n::Lang) -> Result<(), UiError> {
    a2learn_teacher::error::set_window_language(lang);
    tracing::info!(lang = lang.tag(), "window language");
    Ok(())
}

/// Switches projector-safe mode for the teacher's window; the views refetch after it. Held in
/// the shell's state and applied by every command, so no name, id or free text reaches the page
/// while it is on.
#[tauri::command]
#[specta::specta]
pub async fn set_projector_safe(state: State<'_, AppState>, on: bool) -> Result<bool, UiError> {
    Ok(state.set_projector_safe(on) != Privacy::Names)
}
