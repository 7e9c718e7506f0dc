//! The projector window: a second window that shows only what a class may see of itself
//! (`views::projector`: aggregates and fresh aliases). Its capability
//! (`capabilities/projector.json`) grants it `projector_view` and its events, nothing else, so a
//! page there cannot ask for a name even if it tried.

use a2learn_teacher::views::projector::ProjectorView;
use a2learn_teacher::views::shown_work::PickedResponse;
use a2learn_teacher::{ErrorCode, UiError};
use tauri::{AppHandle, Manager, Runtime, State, WebviewUrl, WebviewWindowBuilder};

use crate::AppState;

/// The projector window's label (its capability names it).
pub const PROJECTOR_LABEL: &str = "projector";

/// A monitor's top-left corner, in physical pixels.
pub type Origin = (i32, i32);

/// Where the projector goes: the first monitor that is not the one the teacher's window is on,
/// or none when there is only one (then it opens as an ordinary window beside the main one).
pub fn projector_monitor(main: Option<Origin>, monitors: &[Origin]) -> Option<usize> {
    if monitors.len() < 2 {
        return None;
    }
    monitors.iter().position(|m| Some(*m) != main)
}

/// Opens (or re-aims) the projector window on `class_id`, with aliases fresh for this
/// projection.
#[tauri::command]
#[specta::specta]
pub async fn open_projector<R: Runtime>(
    app: AppHandle<R>,
    state: State<'_, AppState>,
    class_id: String,
) -> Result<(), UiError> {
    if !state
        .store
        .classes()
        .await?
        .iter()
        .any(|c| c.class_id == class_id)
    {
        return Err(UiError::new(ErrorCode::NotFound, "no such class"));
    }
    state.project(&class_id);
    let failed = |e: tauri::Error| UiError::new(ErrorCode::Internal, format!("projector: {e}"));
    if let Some(window) = app.get_webview_window(PROJECTOR_LABEL) {
        // The page asks for its view again, for the new class and aliases.
        window.eval("window.location.reload()").map_err(failed)?;
        return window.set_focus().map_err(failed);
    }
    let window = WebviewWindowBuilder::new(
        &app,
        PROJECTOR_LABEL,
        WebviewUrl::App("projector.html".into()),
    )
    .title(a2learn_teacher::error::window_words().t("view-projector-window-title"))
    .initialization_script(crate::system_language_script())
    .inner_size(1280.0, 720.0)
    .build()
    .map_err(failed)?;
    let main = app
        .get_webview_window("main")
        .and_then(|w| w.current_monitor().ok().flatten())
        .map(|m| (m.position().x, m.position().y));
    let monitors = window.available_monitors().unwrap_or_default();
    let origins: Vec<Origin> = monitors
        .iter()
        .map(|m| (m.position().x, m.position().y))
        .collect();
    if let Some(i) = projector_monitor(main, &origins)
        && let Some(monitor) = monitors.get(i)
    {
        window.set_position(*monitor.position()).map_err(failed)?;
        window.set_fullscreen(true).map_err(failed)?;
    }
    Ok(())
}

/// The projector's view of the projected class.
#[tauri::command]
#[specta::specta]
pub async fn projector_view(state: State<'_, AppState>) -> Result<ProjectorView, UiError> {
    let projection = state.projection().ok_or_else(|| {
        UiError::new(
            ErrorCode::NotFound,
            "Nothing is on the projector: choose a class and \u{201c}Show on projector\u{201d}.",
        )
    })?;
    let mut view = state
        .store
        .projector_view(&projection.class_id, projection.seed)
        .await?;
    view.shown_work = state
        .shown_work
        .projected(&projection.class_id, projection.seed);
    Ok(view)
}

/// Puts a student's response on show (after the name scanner); returns the class's picks.
#[tauri::command]
#[specta::specta]
pub async fn show_work_pick(
    state: State<'_, AppState>,
    class_id: String,
    text: String,
) -> Result<Vec<PickedResponse>, UiError> {
    let picked = state
        .shown_work
        .pick(&state.store, &class_id, &text)
        .await?;
    state.projector_changed(&class_id);
    Ok(picked)
}

/// Takes a response off show; returns the class's picks.
#[tauri::command]
#[specta::specta]
pub async fn show_work_unpick(
    state: State<'_, AppState>,
    class_id: String,
    text: String,
) -> Result<Vec<PickedResponse>, UiError> {
    let picked = state.shown_work.unpick(&class_id, &text);
    state.projector_changed(&class_id);
    Ok(picked)
}

/// Takes every response of the class off show.
#[tauri::command]
#[specta::specta]
pub async fn show_work_clear(state: State<'_, AppState>, class_id: String) -> Result<(), UiError> {
    state.shown_work.clear(&class_id);
    state.projector_changed(&class_id);
    Ok(())
}

/// The class's picks, as the teacher's window lists them.
#[tauri::command]
#[specta::specta]
pub async fn show_work_picked(
    state: State<'_, AppState>,
    class_id: String,
) -> Result<Vec<PickedResponse>, UiError> {
    Ok(state.shown_work.picked(&class_id))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_projector_goes_to_another_display_when_there_is_one() {
        assert_eq!(projector_monitor(Some((0, 0)), &[(0, 0)]), None);
        assert_eq!(projector_monitor(Some((0, 0)), &[]), None);
        assert_eq!(
            projector_monitor(Some((0, 0)), &[(0, 0), (1920, 0)]),
            Some(1)
        );
        assert_eq!(
            projector_monitor(Some((1920, 0)), &[(0, 0), (1920, 0)]),
            Some(0)
        );
        // The main window's monitor unknown: the first of several.
        assert_eq!(projector_monitor(None, &[(0, 0), (1920, 0)]), Some(0));
    }
}
