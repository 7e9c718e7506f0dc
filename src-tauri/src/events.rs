//! Typed events from the shell to the UI.

use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::live::CoalescedChanges;
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

/// A help request arrived that the teacher has not been told of, and the desk is not muted: the
/// page beeps. Decided in one place (`desk::notify::DeskNotifier`), with the desktop
/// notification; it carries nothing about the request.
#[derive(Debug, Clone, Default, Serialize, specta::Type, tauri_specta::Event)]
pub struct HelpRequestArrived {}

/// Stored data changed (coalesced over a short window): the views showing these classes
/// refetch what they show.
#[derive(Debug, Clone, Default, Serialize, specta::Type, tauri_specta::Event)]
pub struct StoreChanged {
    pub class_ids: Vec<String>,
    pub results: bool,
    pub calls: bool,
    pub learners: bool,
    pub assignments: bool,
    pub quarantine: bool,
    /// The host paused, resumed or paced a class (the class header redraws).
    pub room: bool,
    /// A class was added or renamed (the sidebar refetches).
    pub classes: bool,
}

impl From<CoalescedChanges> for StoreChanged {
    fn from(changes: CoalescedChanges) -> Self {
        let mut out = StoreChanged::default();
        for (class_id, c) in changes {
            out.results |= c.results || c.struggles;
            out.calls |= c.calls;
            out.learners |= c.learners;
            out.assignments |= c.assignments;
            out.quarantine |= c.quarantine;
            out.room |= c.room;
            out.class_ids.push(class_id);
        }
        // Learner and help-request counts are in the sidebar.
        out.classes = out.learners || out.calls;
        out
    }
}
