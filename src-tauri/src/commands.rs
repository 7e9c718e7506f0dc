//! Typed commands. Each is a thin adapter: it calls the core and maps errors to `{code, message}`.

use a2learn_teacher::UiError;
use a2learn_teacher::host::ConnectionState;
use serde::Serialize;
use tauri::State;

use crate::AppState;

/// What the frame shows before anything else: which build, which database, which host state.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct AppStatus {
    pub version: String,
    pub db_path: String,
    pub schema_version: i32,
    pub connection: ConnectionState,
    pub connection_label: String,
}

/// A class as the sidebar lists it.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ClassSummary {
    pub class_id: String,
    pub title: String,
    pub join_code: Option<String>,
}

#[tauri::command]
#[specta::specta]
pub async fn app_status(state: State<'_, AppState>) -> Result<AppStatus, UiError> {
    let schema_version = state.store.schema_version().await?;
    let connection = state.connection();
    Ok(AppStatus {
        version: env!("CARGO_PKG_VERSION").to_string(),
        db_path: state.store.path().display().to_string(),
        // Migration versions are timestamps (YYYYMMDDNNNNNN) and do not fit an i32; the UI
        // shows the date part, which does.
        schema_version: i32::try_from(schema_version / 1_000_000).unwrap_or(i32::MAX),
        connection_label: connection.label(),
        connection,
    })
}

#[tauri::command]
#[specta::specta]
pub async fn list_classes(state: State<'_, AppState>) -> Result<Vec<ClassSummary>, UiError> {
    let classes = state.store.classes().await?;
    Ok(classes
        .into_iter()
        .map(|c| ClassSummary {
            class_id: c.class_id,
            title: c.title,
            join_code: c.join_code,
        })
        .collect())
}
