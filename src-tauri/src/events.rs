//! Typed events from the shell to the UI.

use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::live::CoalescedChanges;
use a2learn_teacher::store::RowsTouched;
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
    /// Per class, the learners whose grid rows changed (anonymous ids), so the grid refetches
    /// those rows only. A class of `class_ids` not listed here: every row. Empty unless the
    /// window shows names and no projector window is open ([`StoreChanged::new`]).
    pub rows: Vec<RowsChanged>,
}

/// The learners of one class whose rows changed (none: the change was not about rows).
#[derive(Debug, Clone, Default, Serialize, specta::Type)]
pub struct RowsChanged {
    pub class_id: String,
    pub learners: Vec<String>,
}

impl StoreChanged {
    /// The event for `changes`. Learner ids go out only when `may_name_rows`: the teacher's
    /// window shows names (in projector-safe mode it shows no id to match rows by) and no
    /// projector window is open (it hears every StoreChanged, and the room's window gets no
    /// id, not even in memory). Otherwise the views reload whole, as they did before rows.
    pub fn new(changes: CoalescedChanges, may_name_rows: bool) -> Self {
        let mut out = StoreChanged::default();
        for (class_id, c) in changes {
            if may_name_rows {
                match c.rows {
                    RowsTouched::All => {}
                    RowsTouched::None => out.rows.push(RowsChanged {
                        class_id: class_id.clone(),
                        learners: Vec::new(),
                    }),
                    RowsTouched::Learners(ids) => out.rows.push(RowsChanged {
                        class_id: class_id.clone(),
                        learners: ids.into_iter().collect(),
                    }),
                }
            }
            let c = c.changes;
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly
    use super::*;
    use a2learn_teacher::live::ClassChanges;
    use a2learn_teacher::store::Changes;

    fn changes() -> CoalescedChanges {
        let results = Changes {
            results: true,
            ..Changes::default()
        };
        [
            ("a", RowsTouched::learners(["anon_1", "anon_2"])),
            ("b", RowsTouched::All),
            ("c", RowsTouched::None),
        ]
        .into_iter()
        .map(|(class, rows)| {
            (
                class.to_string(),
                ClassChanges {
                    changes: results,
                    rows,
                },
            )
        })
        .collect()
    }

    #[test]
    fn rows_are_named_only_when_the_windows_may_hear_ids() {
        let named = StoreChanged::new(changes(), true);
        let rows: Vec<(&str, Vec<&str>)> = named
            .rows
            .iter()
            .map(|r| {
                (
                    r.class_id.as_str(),
                    r.learners.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            rows,
            vec![("a", vec!["anon_1", "anon_2"]), ("c", vec![])],
            "class b: every row (not listed)"
        );
        let hidden = StoreChanged::new(changes(), false);
        assert!(hidden.rows.is_empty());
        let json = serde_json::to_string(&hidden).unwrap();
        assert!(!json.contains("anon_"), "{json}");
        assert!(hidden.results && hidden.class_ids.len() == 3);
    }
}
