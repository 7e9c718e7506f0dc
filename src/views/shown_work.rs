//! Students' work shown to the class: responses the teacher picks (from a step's common
//! responses or a learner's evidence) go to the projector as "Response A, B, C…". Each passes
//! the same scanner as the teacher's outgoing text first (a response that names a classmate is
//! refused, with the word shown to the teacher only). Only the text is kept — no learner, no id,
//! no step — in this app's memory: picks are never stored, never sent to a host, and gone when
//! the app closes. The projector orders them by the projection's seed, not by when or from whom
//! they were picked, so the order tells nobody who wrote what.

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};

use serde::Serialize;

use crate::error::Said;
use crate::privacy::outgoing::{OutgoingError, TextField};
use crate::store::{Store, StoreError};

/// How many responses one class can have on show: one letter each.
pub const MAX_SHOWN: usize = 26;

/// The longest response that can be shown (a projector shows a sentence or two, not an essay).
pub const MAX_SHOWN_CHARS: usize = 500;

/// One picked response, as the teacher's window lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct PickedResponse {
    pub text: String,
}

/// One response as the projector shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct ShownResponse {
    /// "A", "B"…: the window says "Response A" in its language.
    pub letter: String,
    pub text: String,
}

/// Why a response cannot be put on show.
#[derive(Debug, thiserror::Error)]
pub enum ShowError {
    #[error(transparent)]
    Outgoing(#[from] OutgoingError),
    /// The pick refused, in words the window translates.
    #[error(transparent)]
    Said(#[from] crate::error::Said),
}

impl From<StoreError> for ShowError {
    fn from(e: StoreError) -> Self {
        Self::Outgoing(OutgoingError::Store(e))
    }
}

impl crate::error::Coded for ShowError {
    fn code(&self) -> crate::ErrorCode {
        match self {
            ShowError::Outgoing(e) => e.code(),
            ShowError::Said(s) => s.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            ShowError::Outgoing(e) => e.localized(c),
            ShowError::Said(s) => Some(s.in_language(c)),
        }
    }
}

/// The picks of every class, for the life of the app.
#[derive(Debug, Default)]
pub struct ShownWork {
    picks: Mutex<HashMap<String, Vec<String>>>,
}

impl ShownWork {
    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, Vec<String>>) -> T) -> T {
        f(&mut self.picks.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Puts `text` on show for `class_id` once it passes the scanner (a response already on
    /// show is not added twice). Returns the class's picks.
    pub async fn pick(
        &self,
        store: &Store,
        class_id: &str,
        text: &str,
    ) -> Result<Vec<PickedResponse>, ShowError> {
        let text = text.trim();
        if text.is_empty() {
            return Err(Said::refused("error-show-empty").into());
        }
        if text.chars().count() > MAX_SHOWN_CHARS {
            return Err(Said::refused("error-show-too-long")
                .count("max", MAX_SHOWN_CHARS as f64)
                .into());
        }
        let checked = store
            .outgoing_text(TextField::ShownResponse, text)
            .await?
            .into_string();
        self.with(|picks| {
            let class = picks.entry(class_id.to_string()).or_default();
            if !class.contains(&checked) {
                if class.len() >= MAX_SHOWN {
                    return Err(Said::refused("error-show-full")
                        .count("max", MAX_SHOWN as f64)
                        .into());
                }
                class.push(checked);
            }
            Ok(Self::listed(class))
        })
    }

    /// Takes `text` off show.
    pub fn unpick(&self, class_id: &str, text: &str) -> Vec<PickedResponse> {
        self.with(|picks| {
            let class = picks.entry(class_id.to_string()).or_default();
            class.retain(|t| t != text.trim());
            Self::listed(class)
        })
    }

    /// Takes every response of the class off show.
    pub fn clear(&self, class_id: &str) {
        self.with(|picks| picks.remove(class_id));
    }

    /// The class's picks, in the order the teacher picked them (the teacher's window only).
    pub fn picked(&self, class_id: &str) -> Vec<PickedResponse> {
        self.with(|picks| {
            picks
                .get(class_id)
                .map(|c| Self::listed(c))
                .unwrap_or_default()
        })
    }

    /// What the projector shows: the picks in an order drawn from the projection's `seed`,
    /// lettered from A.
    pub fn projected(&self, class_id: &str, seed: u32) -> Vec<ShownResponse> {
        let mut texts = self.with(|picks| picks.get(class_id).cloned().unwrap_or_default());
        texts.sort_by_key(|t| (mix(seed, t), t.clone()));
        texts
            .into_iter()
            .zip('A'..='Z')
            .map(|(text, letter)| ShownResponse {
                letter: letter.to_string(),
                text,
            })
            .collect()
    }

    fn listed(class: &[String]) -> Vec<PickedResponse> {
        class
            .iter()
            .map(|text| PickedResponse { text: text.clone() })
            .collect()
    }
}

/// An order key for `text` under `seed` (FNV-1a over both): the same projection keeps one order,
/// another projection another, and neither follows the order of picking.
fn mix(seed: u32, text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(text.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
