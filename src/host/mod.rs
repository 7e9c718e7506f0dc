//! The dashboard's side of the pathway host: connection state now; the MCP client and the AG-UI
//! feed reader join it.

pub mod check;
pub mod credentials;
pub mod feed;
pub mod mcp;
pub mod offers;
pub mod settings;
/// The feed's SSE parser lives in the I/O-free crate, where the fuzz target drives it.
pub use a2learn_proto::sse;

use serde::Serialize;

/// The host connection as the status bar shows it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ConnectionState {
    /// No host URL is set.
    NotConfigured,
    /// A first connection is being made.
    Connecting,
    /// The feed is open.
    Connected,
    /// The feed dropped; the next try is in `next_try_s` seconds.
    Reconnecting { next_try_s: f64 },
    /// The host cannot be reached; stored data is still shown.
    Offline,
    /// The host refused the token; nothing is retried until the teacher changes it.
    TokenRefused,
}

impl ConnectionState {
    /// A short label for people ("no host configured", "reconnecting in 3 s").
    pub fn label(&self) -> String {
        match self {
            Self::NotConfigured => "no host configured".into(),
            Self::Connecting => "connecting".into(),
            Self::Connected => "connected".into(),
            Self::Reconnecting { next_try_s } => format!("reconnecting in {next_try_s:.0} s"),
            Self::Offline => "offline".into(),
            Self::TokenRefused => "token refused".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn states_serialize_with_a_tag_the_ui_switches_on() {
        let json = serde_json::to_value(ConnectionState::Reconnecting { next_try_s: 2.5 }).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"state": "reconnecting", "next_try_s": 2.5})
        );
        let json = serde_json::to_value(ConnectionState::NotConfigured).unwrap();
        assert_eq!(json, serde_json::json!({"state": "not_configured"}));
    }

    #[test]
    fn labels_say_what_a_teacher_needs() {
        assert_eq!(ConnectionState::NotConfigured.label(), "no host configured");
        assert_eq!(
            ConnectionState::Reconnecting { next_try_s: 3.2 }.label(),
            "reconnecting in 3 s"
        );
    }
}
