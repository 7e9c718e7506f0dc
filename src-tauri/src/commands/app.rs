//! Typed commands. Each is a thin adapter: it calls the core and maps errors to `{code, message}`.

use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::host::credentials::SecretStorage;
use a2learn_teacher::host::settings::{HostMode, HostSettings};
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::{ErrorCode, UiError};
use serde::{Deserialize, Serialize};
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
    pub learners: i32,
    pub open_requests: i32,
}

/// The host settings as the UI sees them: never the token itself.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct HostSettingsView {
    pub mode: HostMode,
    pub url: String,
    pub token_set: bool,
    /// Where the token is kept: the system's credential store, or (none answered) a private
    /// file. Settings says which.
    pub token_storage: Option<SecretStorage>,
}

impl From<HostSettings> for HostSettingsView {
    fn from(s: HostSettings) -> Self {
        Self {
            mode: s.mode,
            url: s.url.unwrap_or_default(),
            token_set: s.token.is_some(),
            token_storage: s.token_storage,
        }
    }
}

#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct HostSettingsInput {
    pub mode: HostMode,
    pub url: String,
    /// Empty keeps the stored token.
    pub token: String,
}

/// A quarantined frame for the diagnostics page. `raw` is shown as text, never as markup.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct QuarantineEntry {
    pub id: f64,
    pub class_id: String,
    pub seq: Option<f64>,
    pub rule_id: String,
    pub message: String,
    pub raw: String,
    pub raw_bytes: i32,
    pub received_at_ms: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RuleCount {
    pub rule_id: String,
    pub count: i32,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct Diagnostics {
    pub by_rule: Vec<RuleCount>,
    pub recent: Vec<QuarantineEntry>,
}

fn count(n: i64) -> i32 {
    i32::try_from(n).unwrap_or(i32::MAX)
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
    let classes = state.store.class_counts().await?;
    Ok(classes
        .into_iter()
        .map(|c| ClassSummary {
            class_id: c.class_id,
            title: c.title,
            join_code: c.join_code,
            learners: count(c.learners),
            open_requests: count(c.open_requests),
        })
        .collect())
}

#[tauri::command]
#[specta::specta]
pub async fn create_class(
    state: State<'_, AppState>,
    title: String,
) -> Result<ClassSummary, UiError> {
    let class = state.live.create_class(&title).await?;
    Ok(ClassSummary {
        class_id: class.class_id,
        title: class.title,
        join_code: class.join_code,
        learners: 0,
        open_requests: 0,
    })
}

#[tauri::command]
#[specta::specta]
pub async fn host_settings(state: State<'_, AppState>) -> Result<HostSettingsView, UiError> {
    Ok(state.store.host_settings().await?.into())
}

#[tauri::command]
#[specta::specta]
pub async fn save_host_settings(
    state: State<'_, AppState>,
    input: HostSettingsInput,
) -> Result<HostSettingsView, UiError> {
    let token = (!input.token.trim().is_empty()).then_some(input.token.as_str());
    let saved = state
        .store
        .save_host_settings(input.mode, Some(&input.url), token)
        .await?;
    crate::apply_host_settings(&state)
        .await
        .map_err(|e| UiError::new(ErrorCode::Host, e.to_string()))?;
    Ok(saved.into())
}

#[tauri::command]
#[specta::specta]
pub async fn diagnostics(state: State<'_, AppState>) -> Result<Diagnostics, UiError> {
    let by_rule = state.store.quarantine_by_rule().await?;
    let recent = state.store.quarantined(200).await?;
    // A rejected frame is whatever a widget sent, free text included: not for a room.
    let shown = state.privacy() == Privacy::Names;
    Ok(Diagnostics {
        by_rule: by_rule
            .into_iter()
            .map(|(rule_id, n)| RuleCount {
                rule_id,
                count: count(n),
            })
            .collect(),
        recent: recent
            .into_iter()
            .map(|q| QuarantineEntry {
                id: q.id as f64,
                class_id: q.class_id,
                seq: q.seq.map(|s| s as f64),
                rule_id: q.rule_id,
                message: q.message,
                raw: if shown { q.raw } else { String::new() },
                raw_bytes: count(q.raw_bytes),
                received_at_ms: q.received_at as f64,
            })
            .collect(),
    })
}

/// Switches projector-safe mode for the teacher's window; the views refetch after it. Held in
/// the core's state, so no command returns a name, an id or free text while it is on.
#[tauri::command]
#[specta::specta]
pub async fn set_projector_safe(state: State<'_, AppState>, on: bool) -> Result<bool, UiError> {
    Ok(state.set_projector_safe(on) != Privacy::Names)
}
