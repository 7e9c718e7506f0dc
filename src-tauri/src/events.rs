//! Typed events from the shell to the UI.

use a2learn_teacher::host::ConnectionState;
use serde::Serialize;

/// The host connection changed; the status bar redraws from it.
#[derive(Debug, Clone, Serialize, specta::Type, tauri_specta::Event)]
pub struct ConnectionChanged {
    pub connection: ConnectionState,
    /// The label the status bar shows, made in one place (`ConnectionState::label`).
    pub label: String,
}

impl From<ConnectionState> for ConnectionChanged {
    fn from(connection: ConnectionState) -> Self {
        let label = connection.label();
        Self { connection, label }
    }
}
