//! Running the room (`pathway-host.md` §3): pause, resume and pacing through the host's
//! optional tools, and their state as the class's feed reports it.
//!
//! The state is the host's: this dashboard changes it only by calling a tool, and shows what the
//! feed says (the `STATE_SNAPSHOT` of each connection, then the echoes), which the ingest keeps in
//! `room_pause` / `room_pacing`. So every dashboard watching the class — a co-teacher's too —
//! shows the same header, and a tool call that the host refused changes nothing here.
//!
//! Nothing here names a learner; the pause message is the teacher's text and passes the outgoing
//! privacy gate like an answer does.

use crate::live::{ActionError, Live};
use crate::privacy::outgoing::TextField;
use crate::store::engine::on_pool;
use crate::store::{MAX_PAUSE_MESSAGE_CHARS, Store, StoreError};

pub const PAUSE_CLASS: &str = "pause_class";
pub const RESUME_CLASS: &str = "resume_class";
pub const SET_PACING: &str = "set_pacing";

/// One pathway's pacing limit: learners open no step after `up_to`.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct Pacing {
    pub pathway_id: String,
    pub up_to: String,
}

/// A class's room state, as its feed last reported it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoomState {
    pub paused: bool,
    /// What the paused widgets show, when the pause came with a message.
    pub message: Option<String>,
    /// Since when (this machine's clock, when the feed told it); `None` if never reported.
    pub updated_at_ms: Option<i64>,
    pub pacing: Vec<Pacing>,
}

/// `room_pause`'s row: paused, the message, when.
type PauseRow = (bool, Option<String>, i64);

impl Store {
    /// The room state of a class (not paused, no pacing, when the host never said otherwise).
    pub async fn room_state(&self, class_id: &str) -> Result<RoomState, StoreError> {
        let (pause, pacing): (Option<PauseRow>, Vec<Pacing>) = on_pool!(self.engine(), |pool| {
            let pause = sqlx::query_as(
                "SELECT paused, message, updated_at_ms FROM room_pause WHERE class_id = $1",
            )
            .bind(class_id)
            .fetch_optional(pool)
            .await?;
            let pacing = sqlx::query_as(
                "SELECT pathway_id, up_to FROM room_pacing WHERE class_id = $1 \
                     ORDER BY pathway_id",
            )
            .bind(class_id)
            .fetch_all(pool)
            .await?;
            (pause, pacing)
        });
        let (paused, message, updated_at_ms) = match pause {
            Some((paused, message, at)) => (paused, message, Some(at)),
            None => (false, None, None),
        };
        Ok(RoomState {
            paused,
            message,
            updated_at_ms,
            pacing,
        })
    }
}

/// Checks a pause message: trimmed, empty is none, at most [`MAX_PAUSE_MESSAGE_CHARS`].
pub fn check_pause_message(message: Option<&str>) -> Result<Option<&str>, ActionError> {
    let Some(message) = message.map(str::trim).filter(|m| !m.is_empty()) else {
        return Ok(None);
    };
    let n = message.chars().count();
    if n > MAX_PAUSE_MESSAGE_CHARS {
        return Err(ActionError::Invalid(format!(
            "the message is {n} characters; at most {MAX_PAUSE_MESSAGE_CHARS}"
        )));
    }
    Ok(Some(message))
}

/// Pauses the class at the host: its widgets show `message` and emit nothing until resumed.
/// The message passes the privacy gate first (a roster name in it: nothing is sent).
pub async fn pause(live: &Live, class_id: &str, message: Option<&str>) -> Result<(), ActionError> {
    let message = match check_pause_message(message)? {
        Some(text) => Some(
            live.store()
                .outgoing_text(TextField::PauseMessage, text)
                .await?,
        ),
        None => None,
    };
    let host_class_id = live.store().host_class_id(class_id).await?;
    let client = live.client().await?;
    let answer = client.pause_class(&host_class_id, message.as_ref()).await;
    client.close().await;
    answer?;
    tracing::info!(class_id, "class paused");
    Ok(())
}

/// Lets the class go on.
pub async fn resume(live: &Live, class_id: &str) -> Result<(), ActionError> {
    let host_class_id = live.store().host_class_id(class_id).await?;
    let client = live.client().await?;
    let answer = client.resume_class(&host_class_id).await;
    client.close().await;
    answer?;
    tracing::info!(class_id, "class resumed");
    Ok(())
}

/// Paces one pathway of the class: learners open no step after `up_to` (`None`: no limit).
pub async fn set_pacing(
    live: &Live,
    class_id: &str,
    pathway_id: &str,
    up_to: Option<&str>,
) -> Result<(), ActionError> {
    if pathway_id.trim().is_empty() {
        return Err(ActionError::Invalid("choose a pathway".into()));
    }
    let up_to = up_to.map(str::trim).filter(|w| !w.is_empty());
    // The step must be one of the pathway's, as far as the local catalog knows (the host checks
    // again): a typo is refused here with a clear message rather than by the host.
    if let Some(widget_id) = up_to {
        let catalog = live.store().catalog().await?;
        let known = catalog
            .iter()
            .find(|p| p.pathway_id == pathway_id)
            .map(|p| p.steps.iter().any(|s| s.widget_id == widget_id));
        if known == Some(false) {
            return Err(ActionError::Invalid(
                "that step is not in the pathway".into(),
            ));
        }
    }
    let host_class_id = live.store().host_class_id(class_id).await?;
    let client = live.client().await?;
    let answer = client.set_pacing(&host_class_id, pathway_id, up_to).await;
    client.close().await;
    answer?;
    tracing::info!(
        class_id,
        pathway_id,
        limited = up_to.is_some(),
        "pacing set"
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pause_messages_are_checked() {
        assert!(matches!(check_pause_message(None), Ok(None)));
        assert!(matches!(check_pause_message(Some("   ")), Ok(None)));
        assert!(matches!(
            check_pause_message(Some("  Eyes up here ")),
            Ok(Some("Eyes up here"))
        ));
        let long = "x".repeat(MAX_PAUSE_MESSAGE_CHARS + 1);
        let err = check_pause_message(Some(&long)).unwrap_err();
        assert!(err.to_string().contains("at most 200"), "{err}");
        let exact = "é".repeat(MAX_PAUSE_MESSAGE_CHARS);
        assert!(
            check_pause_message(Some(&exact)).is_ok(),
            "characters, not bytes"
        );
    }
}
