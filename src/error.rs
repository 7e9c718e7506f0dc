//! How errors reach the UI: `{code, message}`, with only the codes the UI branches on.

use serde::Serialize;

/// The error codes the UI distinguishes. Everything else is `internal`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// The input was rejected (bad field, bad file); the message says which and why.
    InvalidInput,
    /// The thing asked for does not exist.
    NotFound,
    /// The local database could not be read or written.
    Storage,
    /// The pathway host could not be reached or refused the request.
    Host,
    /// A bug or an unexpected failure.
    Internal,
    /// A help request's deadline passed: it can no longer be answered.
    Expired,
    /// A help request already has its one response.
    AlreadyAnswered,
    /// A co-teacher holds the help request.
    AlreadyClaimed,
    /// A default export was refused because it contained a roster name or an e-mail address;
    /// the message names the row and field (never the name).
    PrivacyBlocked,
    /// The teacher cancelled a long operation; nothing was written.
    Cancelled,
    /// Text the teacher wrote for a host (an answer, a note, a title) names someone from a
    /// roster or holds an e-mail address: nothing was sent. The message quotes the word, for the
    /// teacher's own window only.
    TextBlocked,
}

/// An error as the UI receives it. The message is for people: it never carries a token or a
/// student's free text, and a learner's name only in a `text_blocked` error, which quotes the
/// teacher's own word back to the teacher's own window. So the shell never logs a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type, thiserror::Error)]
#[error("{code:?}: {message}")]
pub struct UiError {
    pub code: ErrorCode,
    pub message: String,
}

/// An error that knows the code the UI gets for it. Every core module's error enum implements
/// it; a Tauri command's `?` then converts through the one `From` below, so the mapping from
/// errors to codes lives beside each error, and nowhere in the shell.
pub trait Coded: std::error::Error {
    fn code(&self) -> ErrorCode;
}

impl<E: Coded> From<E> for UiError {
    fn from(err: E) -> Self {
        UiError::new(err.code(), err.to_string())
    }
}

impl UiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}
