//! Assigning a pathway to a class: the checks on the teacher's input (each error names its
//! field, so the form can show it next to the field), then `assign_pathway` on the host and the
//! assignment stored.

use serde::Serialize;

use crate::live::ActionError;
use crate::live::Live;
use crate::privacy::outgoing::{OutgoingError, OutgoingText, TextField};

/// Longest note for the class.
pub const MAX_NOTE_CHARS: usize = 2000;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldError {
    /// `pathway_id`, `due_at` or `note`.
    pub field: String,
    pub message: crate::error::Said,
}

fn field(field: &str, message: crate::error::Said) -> FieldError {
    FieldError {
        field: field.to_string(),
        message,
    }
}

use crate::error::Said;

/// Every problem with the input (empty when it is good). `now_ms` is the injected clock's.
pub fn check_assignment(
    now_ms: i64,
    pathway_id: &str,
    due_at_ms: Option<i64>,
    note: Option<&str>,
) -> Vec<FieldError> {
    let mut errors = Vec::new();
    if pathway_id.trim().is_empty() {
        errors.push(field(
            "pathway_id",
            Said::refused("error-assign-no-pathway"),
        ));
    }
    if let Some(due) = due_at_ms
        && due <= now_ms
    {
        errors.push(field("due_at", Said::refused("error-assign-due-past")));
    }
    if let Some(note) = note {
        let n = note.chars().count();
        if n > MAX_NOTE_CHARS {
            errors.push(field(
                "note",
                Said::refused("error-assign-note-too-long")
                    .count("chars", n as f64)
                    .count("max", MAX_NOTE_CHARS as f64),
            ));
        }
    }
    errors
}

/// RFC 3339 UTC for the host.
pub fn rfc3339(ms: i64) -> Result<String, ActionError> {
    a2learn_contract::rfc3339::format_ms(ms)
        .ok_or_else(|| crate::error::Said::refused("error-due-out-of-range").into())
}

/// What an assignment attempt gave: the new assignment's id, or the field errors.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AssignOutcome {
    pub assignment_id: Option<String>,
    pub field_errors: Vec<FieldError>,
}

/// Checks the input, asks the host, stores the assignment. Host failures are `Err` (shown at the
/// form); bad input is `Ok` with field errors (shown at the fields).
pub async fn assign_pathway(
    live: &Live,
    class_id: &str,
    pathway_id: &str,
    due_at_ms: Option<i64>,
    note: Option<&str>,
) -> Result<AssignOutcome, ActionError> {
    let store = live.store();
    let note = note.map(str::trim).filter(|n| !n.is_empty());
    let field_errors = check_assignment(store.now_ms(), pathway_id, due_at_ms, note);
    if !field_errors.is_empty() {
        return Ok(AssignOutcome {
            assignment_id: None,
            field_errors,
        });
    }
    // The note goes to the host: through the privacy gate first, and a name in it is shown at
    // the field like any other problem with it (nothing is sent).
    let note = match note {
        None => None,
        Some(text) => match store.outgoing_text(TextField::TeacherNote, text).await {
            Ok(text) => Some(text),
            Err(OutgoingError::Blocked(blocked)) => {
                return Ok(AssignOutcome {
                    assignment_id: None,
                    field_errors: vec![field("note", blocked.said())],
                });
            }
            Err(OutgoingError::Store(e)) => return Err(e.into()),
        },
    };
    let due = due_at_ms.map(rfc3339).transpose()?;
    // The host names the class its own way (the store's key may differ).
    let host_class_id = store.host_class_id(class_id).await?;
    let client = live.client().await?;
    let answer = client
        .assign_pathway(&host_class_id, pathway_id, due.as_deref(), note.as_ref())
        .await;
    client.close().await;
    let assignment_id = answer?;
    store
        .upsert_assignment(
            &assignment_id,
            class_id,
            pathway_id,
            due_at_ms,
            note.as_ref().map(OutgoingText::as_str),
        )
        .await?;
    tracing::info!(class_id, pathway_id, "pathway assigned");
    Ok(AssignOutcome {
        assignment_id: Some(assignment_id),
        field_errors: Vec::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_bad_field_is_named() {
        let now = 1_800_000_000_000;
        assert!(check_assignment(now, "p", Some(now + 1), Some("Bring a calculator")).is_empty());
        assert!(check_assignment(now, "p", None, None).is_empty());
        let errors = check_assignment(now, "", Some(now), Some(&"x".repeat(2001)));
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, vec!["pathway_id", "due_at", "note"]);
        // Exactly 2000 characters (not bytes) is fine.
        assert!(check_assignment(now, "p", None, Some(&"é".repeat(2000))).is_empty());
    }

    #[test]
    fn due_dates_go_to_the_host_as_rfc3339() {
        assert_eq!(rfc3339(0).unwrap(), "1970-01-01T00:00:00Z");
    }
}
