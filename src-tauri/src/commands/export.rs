//! The export commands: write a class (or an assignment) to a file the teacher chose in the save
//! dialog, with progress over a channel and a cancel command. The core does the work
//! (`a2learn_teacher::export`), atomically: a cancelled or refused export leaves nothing under
//! the chosen name.

use std::path::PathBuf;
use std::sync::Mutex;

use a2learn_teacher::export::{
    DEFAULT_HOME_PAGE, ExportRequest, Format, HOME_PAGE_SETTING, LAST_FOLDER_SETTING,
    check_home_page, export_to_path,
};
use a2learn_teacher::{ErrorCode, UiError};
use serde::{Deserialize, Serialize};
use tauri::State;
use tauri::ipc::Channel;
use tokio_util::sync::CancellationToken;

use crate::AppState;

/// The export running now, if any: one at a time (the dialog is modal).
static RUNNING: Mutex<Option<CancellationToken>> = Mutex::new(None);

/// What the teacher asked for in the export dialog.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ExportOptions {
    pub class_id: String,
    pub assignment_id: Option<String>,
    /// One of the `formats` of [`ExportSettings`].
    pub format: String,
    /// Names joined from the local roster: the UI asks for an explicit confirmation first.
    pub identified: bool,
    /// The file the save dialog returned.
    pub path: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportProgress {
    pub rows_done: f64,
    pub rows_total: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportDone {
    pub path: String,
    pub rows: f64,
    pub bytes: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportFormatInfo {
    pub id: String,
    pub extension: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportSettings {
    /// Where the save dialog opens: the folder of the last export.
    pub last_folder: Option<String>,
    pub home_page: String,
    pub formats: Vec<ExportFormatInfo>,
}

fn internal(message: &str) -> UiError {
    UiError::new(ErrorCode::Internal, message)
}

#[tauri::command]
#[specta::specta]
pub async fn export_settings(state: State<'_, AppState>) -> Result<ExportSettings, UiError> {
    let store = &state.store;
    Ok(ExportSettings {
        last_folder: store.setting(LAST_FOLDER_SETTING).await?,
        home_page: store
            .setting(HOME_PAGE_SETTING)
            .await?
            .unwrap_or_else(|| DEFAULT_HOME_PAGE.to_string()),
        formats: Format::ALL
            .iter()
            .map(|f| ExportFormatInfo {
                id: f.as_str().to_string(),
                extension: f.extension().to_string(),
            })
            .collect(),
    })
}

#[tauri::command]
#[specta::specta]
pub async fn set_export_home_page(
    state: State<'_, AppState>,
    home_page: String,
) -> Result<String, UiError> {
    let home_page = check_home_page(&home_page)?;
    state
        .store
        .set_setting(HOME_PAGE_SETTING, &home_page)
        .await?;
    Ok(home_page)
}

/// Runs one export to `options.path`, streaming progress on `on_progress`.
#[tauri::command]
#[specta::specta]
pub async fn export_class(
    state: State<'_, AppState>,
    options: ExportOptions,
    on_progress: Channel<ExportProgress>,
) -> Result<ExportDone, UiError> {
    let format = Format::parse(&options.format).ok_or_else(|| {
        UiError::new(
            ErrorCode::InvalidInput,
            format!("unknown export format {:?}", options.format),
        )
    })?;
    let path = PathBuf::from(&options.path);
    if !path.is_absolute() {
        return Err(UiError::new(
            ErrorCode::InvalidInput,
            "the export needs a full file path",
        ));
    }
    let store = &state.store;
    let home_page = store
        .setting(HOME_PAGE_SETTING)
        .await?
        .unwrap_or_else(|| DEFAULT_HOME_PAGE.to_string());
    // The same k as the class view (the teacher's setting).
    let k = store.suppression_k().await?;
    let req = ExportRequest {
        class_id: options.class_id,
        assignment_id: options.assignment_id,
        format,
        identified: options.identified,
        home_page,
        k,
    };
    let cancel = CancellationToken::new();
    {
        let mut running = RUNNING.lock().map_err(|_| internal("export lock"))?;
        if running.is_some() {
            return Err(UiError::new(
                ErrorCode::InvalidInput,
                "an export is running already",
            ));
        }
        *running = Some(cancel.clone());
    }
    let mut report = |p: a2learn_teacher::export::ExportProgress| {
        // A closed channel (the dialog went away) must not stop the export.
        let _ = on_progress.send(ExportProgress {
            rows_done: p.rows_done as f64,
            rows_total: p.rows_total as f64,
        });
    };
    let result = export_to_path(store, &req, &path, &mut report, &cancel).await;
    if let Ok(mut running) = RUNNING.lock() {
        *running = None;
    }
    let summary = result?;
    if let Some(folder) = summary.path.parent() {
        store
            .set_setting(LAST_FOLDER_SETTING, &folder.to_string_lossy())
            .await?;
    }
    Ok(ExportDone {
        path: summary.path.to_string_lossy().into_owned(),
        rows: summary.rows as f64,
        bytes: summary.bytes as f64,
    })
}

/// Cancels the running export; true when there was one.
#[tauri::command]
#[specta::specta]
pub fn cancel_export() -> bool {
    match RUNNING.lock() {
        Ok(running) => running.as_ref().map(|c| c.cancel()).is_some(),
        Err(_) => false,
    }
}
