//! The help desk's commands: the queue, claim/answer/coming over/decline (one at a time or a
//! group), saved replies, drafts, and the mute switch. Each calls `a2learn_teacher::desk`; the
//! ones that reach the host open one MCP session for the command and close it after.

use a2learn_teacher::UiError;
use a2learn_teacher::desk::notify::DeskNotifier;
use a2learn_teacher::desk::room::Room;
use a2learn_teacher::desk::{Desk, DeskError, GroupOutcome, HelpRequest, SavedReply};
use a2learn_teacher::error::Coded;
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::store::Changes;
use serde::Serialize;
use tauri::State;

use crate::AppState;

/// The desk's switches.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct DeskSettings {
    /// No sound and no desktop notification on a new request.
    pub muted: bool,
}

/// Called on every coalesced store change that touched calls.
pub async fn notify_new_requests<R: tauri::Runtime>(
    app: &tauri::AppHandle<R>,
    notifier: &DeskNotifier,
) {
    use tauri::Manager;
    use tauri_plugin_notification::NotificationExt;
    use tauri_specta::Event;
    let state = app.state::<AppState>();
    match notifier.check(&state.store).await {
        Ok(Some(text)) => {
            let arrived = crate::events::HelpRequestArrived {};
            if let Err(e) = arrived.emit(app) {
                tracing::warn!(error = %e, "cannot tell the page a request arrived");
            }
            if let Err(e) = app
                .notification()
                .builder()
                .title("a2learn Teacher")
                .body(text)
                .show()
            {
                tracing::warn!(error = %e, "cannot show a desktop notification");
            }
        }
        Ok(None) => {}
        // The code only: a UI message may quote the teacher's own words.
        Err(e) => tracing::warn!(code = ?e.code(), "cannot read the help desk"),
    }
}

/// Tells the views (the queue, the sidebar's count) that a call changed here.
fn changed(state: &AppState, class_id: &str) {
    state.live.notify_changed(
        class_id,
        Changes {
            calls: true,
            ..Default::default()
        },
    );
}

/// Tells the views of `call_id`'s class that it changed here (the grid's follow-up cell, "who
/// needs me", the desk's lists).
async fn changed_call(state: &AppState, call_id: &str) {
    if let Ok(classes) = Desk::new(&state.store)
        .classes_of(&[call_id.to_string()])
        .await
    {
        for class_id in classes {
            changed(state, &class_id);
        }
    }
}

/// Runs one desk action against the configured host and closes the session after it.
async fn with_host<T>(
    state: &AppState,
    action: impl AsyncFnOnce(&Desk<'_>, &HostClient) -> Result<T, DeskError>,
) -> Result<T, UiError> {
    let client = state.live.client().await.map_err(DeskError::from)?;
    let desk = Desk::new(&state.store);
    let out = action(&desk, &client).await;
    client.close().await;
    Ok(out?)
}

async fn respond_with(
    state: &AppState,
    call_id: &str,
    action: impl AsyncFnOnce(&Desk<'_>, &HostClient) -> Result<HelpRequest, DeskError>,
) -> Result<HelpRequest, UiError> {
    let out = with_host(state, action).await;
    // Refusals can mean the stored view is behind (a co-teacher answered, the deadline
    // passed): refresh either way.
    let class_id = match &out {
        Ok(r) => Some(r.class_id.clone()),
        Err(_) => Desk::new(&state.store)
            .request(call_id)
            .await
            .ok()
            .map(|r| r.class_id),
    };
    if let Some(class_id) = class_id {
        changed(state, &class_id);
    }
    out
}

#[tauri::command]
#[specta::specta]
pub async fn desk_queue(
    state: State<'_, AppState>,
    class_id: Option<String>,
) -> Result<Vec<HelpRequest>, UiError> {
    Ok(Desk::new(&state.store)
        .queue_as(class_id.as_deref(), state.privacy())
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_claim(
    state: State<'_, AppState>,
    call_id: String,
) -> Result<HelpRequest, UiError> {
    respond_with(&state, &call_id, async |desk, host| {
        desk.claim(host, &call_id).await
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn desk_answer(
    state: State<'_, AppState>,
    call_id: String,
    text: String,
) -> Result<HelpRequest, UiError> {
    // Checked (bounds, then names) before a host session is opened: a bad text fails fast,
    // even offline, and a name never gets as far as a connection.
    let answer = Desk::new(&state.store).prepare_answer(&text).await?;
    respond_with(&state, &call_id, async |desk, host| {
        desk.send_answer(host, &call_id, answer).await
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn desk_coming_over(
    state: State<'_, AppState>,
    call_id: String,
) -> Result<HelpRequest, UiError> {
    respond_with(&state, &call_id, async |desk, host| {
        desk.coming_over(host, &call_id).await
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn desk_decline(
    state: State<'_, AppState>,
    call_id: String,
) -> Result<HelpRequest, UiError> {
    respond_with(&state, &call_id, async |desk, host| {
        desk.decline(host, &call_id).await
    })
    .await
}

#[tauri::command]
#[specta::specta]
pub async fn desk_answer_group(
    state: State<'_, AppState>,
    call_ids: Vec<String>,
    text: String,
) -> Result<Vec<GroupOutcome>, UiError> {
    let answer = Desk::new(&state.store).prepare_answer(&text).await?;
    let out = with_host(&state, async |desk, host| {
        desk.answer_group(host, &call_ids, answer).await
    })
    .await;
    for class_id in Desk::new(&state.store).classes_of(&call_ids).await? {
        changed(&state, &class_id);
    }
    out
}

/// Follow-ups (missed requests) and promised visits, labelled as the window's privacy allows.
#[tauri::command]
#[specta::specta]
pub async fn desk_room(
    state: State<'_, AppState>,
    class_id: Option<String>,
) -> Result<Room, UiError> {
    Ok(Desk::new(&state.store)
        .room(class_id.as_deref(), state.privacy())
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_follow_up_done(
    state: State<'_, AppState>,
    call_id: String,
) -> Result<(), UiError> {
    Desk::new(&state.store).follow_up_done(&call_id).await?;
    changed_call(&state, &call_id).await;
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn desk_visit_done(state: State<'_, AppState>, call_id: String) -> Result<(), UiError> {
    Desk::new(&state.store).visit_done(&call_id).await?;
    changed_call(&state, &call_id).await;
    Ok(())
}

#[tauri::command]
#[specta::specta]
pub async fn desk_replies(state: State<'_, AppState>) -> Result<Vec<SavedReply>, UiError> {
    Ok(Desk::new(&state.store).replies_as(state.privacy()).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_create_reply(
    state: State<'_, AppState>,
    title: String,
    body: String,
) -> Result<SavedReply, UiError> {
    Ok(Desk::new(&state.store).create_reply(&title, &body).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_update_reply(
    state: State<'_, AppState>,
    reply_id: i32,
    title: String,
    body: String,
) -> Result<SavedReply, UiError> {
    Ok(Desk::new(&state.store)
        .update_reply(reply_id, &title, &body)
        .await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_delete_reply(state: State<'_, AppState>, reply_id: i32) -> Result<(), UiError> {
    Ok(Desk::new(&state.store).delete_reply(reply_id).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_set_draft(
    state: State<'_, AppState>,
    call_id: String,
    body: String,
) -> Result<(), UiError> {
    Ok(Desk::new(&state.store).set_draft(&call_id, &body).await?)
}

#[tauri::command]
#[specta::specta]
pub async fn desk_settings(state: State<'_, AppState>) -> Result<DeskSettings, UiError> {
    Ok(DeskSettings {
        muted: Desk::new(&state.store).muted().await?,
    })
}

#[tauri::command]
#[specta::specta]
pub async fn desk_set_muted(
    state: State<'_, AppState>,
    muted: bool,
) -> Result<DeskSettings, UiError> {
    Desk::new(&state.store).set_muted(muted).await?;
    Ok(DeskSettings { muted })
}
