//! The gate for text the teacher writes that leaves the machine: help-desk answers (one or a
//! group, typed or from a saved reply), the teacher note of an assignment, a class title, a pause
//! message. Every host tool that carries such text takes an [`OutgoingText`], and the only way to
//! make one from runtime text is [`check`]: the compiler refuses a send that skipped the scan.
//!
//! A hit blocks the send before any network call. Unlike an export's refusal, the error names
//! the word that matched: it is the teacher's own text, shown back on the teacher's own screen
//! so they can rephrase. That word is a name, so the error's `Debug` hides it and nothing logs
//! its `Display`.

use serde::Serialize;

use super::{HitKind, Scanner};
use crate::store::{Store, StoreError};

/// Free text checked for roster names and e-mail addresses, ready to send to a host.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutgoingText(String);

impl OutgoingText {
    /// Text fixed in the program (a canned answer): it cannot carry a name from the roster.
    pub fn fixed(text: &'static str) -> Self {
        Self(text.to_string())
    }

    /// A sentence of the catalogs (the canned answers, in the teacher's language): ours, so it
    /// cannot carry a name from the roster either.
    pub fn from_catalog(text: String) -> Self {
        Self(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

/// Which piece of the teacher's writing a check is about (it names the field in the message).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum TextField {
    Answer,
    TeacherNote,
    ClassTitle,
    PauseMessage,
    /// A student's response the teacher picked to show the class on the projector.
    ShownResponse,
}

impl TextField {
    fn label_id(self) -> &'static str {
        match self {
            TextField::Answer => "error-field-answer",
            TextField::TeacherNote => "error-field-teacher-note",
            TextField::ClassTitle => "error-field-class-title",
            TextField::PauseMessage => "error-field-pause-message",
            TextField::ShownResponse => "error-field-response",
        }
    }
}

/// A send refused because the text names someone. `Display` quotes the word for the teacher's
/// own window; `Debug` does not, so a `{:?}` in a log cannot leak it.
#[derive(Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.message_in(a2learn_i18n::words(a2learn_i18n::Lang::En)))]
pub struct TextBlocked {
    pub field: TextField,
    pub what: HitKind,
    /// The word that matched, exactly as the teacher wrote it.
    pub word: String,
}

impl TextBlocked {
    /// The refusal, quoting the word: for the teacher's own window only.
    pub fn said(&self) -> crate::error::Said {
        let id = match (self.field == TextField::ShownResponse, self.what) {
            // Not the teacher's words but a student's: it stays on the teacher's screen.
            (true, HitKind::RosterName) => "error-shown-names-someone",
            (true, HitKind::Email) => "error-shown-email",
            (false, HitKind::RosterName) => "error-text-names-someone",
            (false, HitKind::Email) => "error-text-email",
        };
        crate::error::Said::with_code(crate::ErrorCode::TextBlocked, id)
            .message("field", self.field.label_id())
            .with("word", &self.word)
    }

    fn message_in(&self, c: &a2learn_i18n::Words) -> String {
        self.said().in_language(c)
    }
}

impl std::fmt::Debug for TextBlocked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TextBlocked")
            .field("field", &self.field)
            .field("what", &self.what)
            .field("word", &"<redacted>")
            .finish()
    }
}

/// The one check: `text` is sent as it is, or not at all.
pub fn check(scanner: &Scanner, field: TextField, text: &str) -> Result<OutgoingText, TextBlocked> {
    match scanner.find(text) {
        None => Ok(OutgoingText(text.to_string())),
        Some((what, range)) => Err(TextBlocked {
            field,
            what,
            word: text[range].to_string(),
        }),
    }
}

/// Why a text could not be made ready to send.
#[derive(Debug, thiserror::Error)]
pub enum OutgoingError {
    #[error(transparent)]
    Blocked(#[from] TextBlocked),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl crate::error::Coded for TextBlocked {
    fn code(&self) -> crate::ErrorCode {
        crate::ErrorCode::TextBlocked
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        Some(self.message_in(c))
    }
}

impl crate::error::Coded for OutgoingError {
    fn code(&self) -> crate::ErrorCode {
        match self {
            OutgoingError::Blocked(b) => b.code(),
            OutgoingError::Store(s) => s.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            OutgoingError::Blocked(b) => b.localized(c),
            OutgoingError::Store(s) => s.localized(c),
        }
    }
}

impl Store {
    /// A scanner over every name of every class's roster: a learner named in another class's
    /// text is still a name.
    pub async fn name_scanner(&self) -> Result<Scanner, StoreError> {
        Ok(Scanner::new(self.all_roster_names().await?))
    }

    /// [`check`] against this store's rosters.
    pub async fn outgoing_text(
        &self,
        field: TextField,
        text: &str,
    ) -> Result<OutgoingText, OutgoingError> {
        Ok(check(&self.name_scanner().await?, field, text)?)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn scanner() -> Scanner {
        Scanner::new(["Quillon Brasswhistle", "Hope Ngata"])
    }

    #[test]
    fn a_name_part_blocks_and_the_message_names_the_word() {
        let err = check(
            &scanner(),
            TextField::Answer,
            "Quillon, count three halves from zero.",
        )
        .unwrap_err();
        assert_eq!(err.word, "Quillon");
        assert_eq!(err.what, HitKind::RosterName);
        let shown = err.to_string();
        assert!(
            shown.contains("“Quillon”") && shown.contains("answer"),
            "{shown}"
        );
        // The Debug form is what a careless log would print: no name there.
        assert!(!format!("{err:?}").contains("Quillon"));
    }

    #[test]
    fn whole_names_emails_and_every_field_are_checked() {
        let s = scanner();
        let err = check(&s, TextField::TeacherNote, "ask quillon brasswhistle").unwrap_err();
        assert_eq!(err.word, "quillon brasswhistle");
        assert!(err.to_string().contains("note for the class"));
        let err = check(&s, TextField::ClassTitle, "Mail hope@school.org").unwrap_err();
        assert_eq!(
            (err.what, err.word.as_str()),
            (HitKind::Email, "hope@school.org")
        );
    }

    #[test]
    fn clean_text_passes_unchanged() {
        let s = scanner();
        // Controls: ordinary words that share letters with names are not names.
        for text in [
            "Count three halves from zero.",
            "I hope this helps",
            "quill on paper",
        ] {
            assert_eq!(check(&s, TextField::Answer, text).unwrap().as_str(), text);
        }
        assert_eq!(OutgoingText::fixed("On my way").into_string(), "On my way");
    }
}
