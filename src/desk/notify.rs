//! Which new help requests deserve a desktop notification, and its text: fixed here, never a
//! question or a name (a notification shows on a shared screen or a lock screen). The shell only
//! shows what this says.

use std::collections::HashSet;
use std::sync::{Mutex, PoisonError};

use super::{Desk, DeskError, HelpRequest};
use crate::store::Store;

/// The fixed text of the desktop notification: it is visible on a shared screen or a lock
/// screen, so it never holds a question or a name.
pub fn notification_text(waiting: i32, w: &a2learn_i18n::Words) -> String {
    w.t_args(
        "view-notify-new-request",
        &[("waiting", waiting.max(1).into())],
    )
}

/// Shows a desktop notification when a help request arrives, from Rust: the text is fixed
/// here (never a question or a name), and the webview needs no notification permission at all.
pub struct DeskNotifier {
    /// Requests asked before the app started are not news.
    since_ms: i64,
    notified: Mutex<HashSet<String>>,
}

impl DeskNotifier {
    pub fn new(now_ms: i64) -> Self {
        Self {
            since_ms: now_ms,
            notified: Default::default(),
        }
    }

    /// The notification to show after the calls changed, if any: `Some(text)` when a request
    /// asked since the app started is seen for the first time and the desk is not muted.
    pub async fn check(&self, store: &Store) -> Result<Option<String>, DeskError> {
        let desk = Desk::new(store);
        let queue = desk.queue(None).await?;
        let waiting: Vec<&HelpRequest> = queue.iter().filter(|r| r.state.is_waiting()).collect();
        let fresh = {
            let mut notified = self.notified.lock().unwrap_or_else(PoisonError::into_inner);
            waiting
                .iter()
                .filter(|r| r.asked_at_ms >= self.since_ms as f64)
                .filter(|r| notified.insert(r.call_id.clone()))
                .count()
        };
        if fresh == 0 || desk.muted().await? {
            return Ok(None);
        }
        let count = i32::try_from(waiting.len()).unwrap_or(i32::MAX);
        Ok(Some(notification_text(count, crate::error::window_words())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notification_names_no_one_and_quotes_nothing() {
        let en = a2learn_i18n::words(a2learn_i18n::Lang::En);
        assert_eq!(notification_text(1, en), "New help request");
        assert_eq!(notification_text(3, en), "New help request (3 waiting)");
        let es = a2learn_i18n::words(a2learn_i18n::Lang::Es);
        assert_eq!(
            notification_text(3, es),
            "Nueva petición de ayuda (3 en espera)"
        );
    }
}
