//! How errors reach the UI: `{code, message}`, with only the codes the UI branches on, and the
//! message in the window's language.

use std::sync::atomic::{AtomicU8, Ordering};

use a2learn_i18n::{Arg, Lang, Words, words};
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

    /// The message in `c`'s language, for an error whose words are ours (a [`Said`], or a
    /// fixed sentence). `None` for words that are not: a database's or the network's own.
    fn localized(&self, _c: &Words) -> Option<String> {
        None
    }
}

/// The language the window reads: set by the shell when the teacher's choice reaches it (the
/// window tells it before it renders). Read only where Rust words something for the window and
/// has no window at hand: an error becoming a [`UiError`], the sentences a view builds, the
/// projector-safe aliases, the canned answers and the notification. Code that can take the
/// words as an argument does (`report::to_html`, `student::result_text`), so tests pass a
/// language instead of setting this. English until set, and in every program with no window.
static WINDOW_LANGUAGE: AtomicU8 = AtomicU8::new(0);

pub fn set_window_language(lang: Lang) {
    let n = match lang {
        Lang::En => 0,
        Lang::Es => 1,
        Lang::Ar => 2,
        Lang::EnXa => 3,
    };
    WINDOW_LANGUAGE.store(n, Ordering::Relaxed);
}

/// The words of the window's language: what Rust says to the window is said with these.
pub fn window_words() -> &'static Words {
    words(window_language())
}

pub fn window_language() -> Lang {
    match WINDOW_LANGUAGE.load(Ordering::Relaxed) {
        1 => Lang::Es,
        2 => Lang::Ar,
        3 => Lang::EnXa,
        _ => Lang::En,
    }
}

impl<E: Coded> From<E> for UiError {
    fn from(err: E) -> Self {
        let c = window_words();
        let code = err.code();
        let message = err
            .localized(c)
            .unwrap_or_else(|| in_words_of(code, &err.to_string(), c));
        UiError::new(code, message)
    }
}

/// Words no catalog holds (a database's, the network's) under a sentence of ours that says what
/// kind of failure it is; in English the detail alone, as it always read.
fn in_words_of(code: ErrorCode, detail: &str, c: &Words) -> String {
    let id = match code {
        ErrorCode::InvalidInput => "error-invalid-input",
        ErrorCode::NotFound => "error-not-found",
        ErrorCode::Storage => "error-storage",
        ErrorCode::Host => "error-host",
        ErrorCode::Internal => "error-internal",
        ErrorCode::Expired => "error-expired",
        ErrorCode::AlreadyAnswered => "error-already-answered",
        ErrorCode::AlreadyClaimed => "error-already-claimed",
        ErrorCode::PrivacyBlocked => "error-privacy-blocked",
        ErrorCode::Cancelled => "error-cancelled",
        ErrorCode::TextBlocked => "error-text-blocked",
    };
    c.t_args(id, &[("detail", detail.into())])
}

impl UiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

/// A sentence for the teacher — an input refused, a thing not found — kept as its catalog id
/// and arguments, so the window reads it in its language. `Display` is the English one (the
/// command line); `Debug` names the arguments but not their text, which can quote a word the
/// teacher typed (a name refused): a `{:?}` in a log cannot leak it.
#[derive(Clone, PartialEq)]
pub struct Said {
    code: ErrorCode,
    id: &'static str,
    args: Vec<(&'static str, SaidArg)>,
}

#[derive(Debug, Clone, PartialEq)]
enum SaidArg {
    Text(String),
    Number(f64),
    /// Another message of the catalog, said in the same language (a field's name).
    Message(&'static str),
}

impl std::fmt::Debug for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.args.iter().map(|(k, _)| *k).collect();
        f.debug_struct("Said")
            .field("code", &self.code)
            .field("id", &self.id)
            .field("args", &names)
            .finish()
    }
}

impl Said {
    /// The teacher's input, refused (`invalid_input`).
    pub fn refused(id: &'static str) -> Self {
        Self::with_code(ErrorCode::InvalidInput, id)
    }

    /// A view that names students, asked for in projector-safe mode (`privacy_blocked`).
    pub fn hidden_from_room(id: &'static str) -> Self {
        Self::with_code(ErrorCode::PrivacyBlocked, id)
    }

    pub fn with_code(code: ErrorCode, id: &'static str) -> Self {
        Self {
            code,
            id,
            args: Vec::new(),
        }
    }

    /// Something asked for that does not exist (`not_found`).
    pub fn not_found(id: &'static str) -> Self {
        Self::with_code(ErrorCode::NotFound, id)
    }

    /// A text argument: a title, an id, a path (put in as it is).
    pub fn with(mut self, name: &'static str, text: impl std::fmt::Display) -> Self {
        self.args.push((name, SaidArg::Text(text.to_string())));
        self
    }

    /// An argument that is itself a message of the catalog (a field's name).
    pub fn message(mut self, name: &'static str, id: &'static str) -> Self {
        self.args.push((name, SaidArg::Message(id)));
        self
    }

    /// A number argument (plurals choose their form by it).
    pub fn count(mut self, name: &'static str, n: impl Into<f64>) -> Self {
        self.args.push((name, SaidArg::Number(n.into())));
        self
    }

    pub fn code(&self) -> ErrorCode {
        self.code
    }

    /// The sentence in `c`'s language.
    pub fn in_language(&self, c: &Words) -> String {
        let args: Vec<(&str, Arg<'_>)> = self
            .args
            .iter()
            .map(|(k, v)| {
                (
                    *k,
                    match v {
                        SaidArg::Text(t) => Arg::Text(t),
                        SaidArg::Number(n) => Arg::Number(*n),
                        SaidArg::Message(id) => Arg::Owned(c.t(id)),
                    },
                )
            })
            .collect();
        c.t_args(self.id, &args)
    }
}

impl std::fmt::Display for Said {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.in_language(words(Lang::En)))
    }
}

impl std::error::Error for Said {}

/// As its English sentence (the command line's JSON, logs).
impl Serialize for Said {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl Coded for Said {
    fn code(&self) -> ErrorCode {
        self.code
    }

    fn localized(&self, c: &Words) -> Option<String> {
        Some(self.in_language(c))
    }
}
