//! The export linter: every default export is scanned, prose and free text included, for roster
//! names (every class's roster, not only the exported class's: a learner named in another class's
//! prose is still a name) and e-mail addresses before it is written under the chosen name.
//!
//! A hit names the row and the field, never the text that matched: the error travels to the UI,
//! the CLI's stderr and possibly a log, and repeating the name there would be the leak itself.
//!
//! Matching rules (chosen to catch real leaks without blocking every export):
//! - the whole display name, case-insensitive, at word boundaries ("zephyrine quabbelwick");
//! - each part of a multi-part name that is at least [`MIN_PART_CHARS`] characters long,
//!   case-sensitive (as written in the roster) and at word boundaries ("Zephyrine compared...").
//!   Case-sensitive so that a learner called "Hope" does not block every "I hope" in prose;
//!   shorter parts ("Al", "Jo") are skipped because they occur inside too many ordinary words;
//! - an e-mail address by the contract's own detector ([`a2learn_contract::rules::contains_email`]).
//!
//! The same scanner guards what the teacher writes to a host ([`outgoing`]): answers, teacher
//! notes, class titles. There a hit does name the word, on the teacher's own screen only.

pub mod outgoing;

use std::ops::Range;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};

/// Shortest name part scanned on its own.
pub const MIN_PART_CHARS: usize = 4;

/// What was found (never the matched text itself).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitKind {
    RosterName,
    Email,
}

impl std::fmt::Display for HitKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            HitKind::RosterName => "a roster name",
            HitKind::Email => "an e-mail address",
        })
    }
}

/// Where a scan found identifying text: the row (1-based: a data row, a JSON line or a statement
/// number, as the format counts them) and the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what} found in {place} {row}, field {field}; the export was not written")]
pub struct PrivacyHit {
    pub what: HitKind,
    /// "row", "line" or "statement": how the format counts.
    pub place: &'static str,
    pub row: u64,
    pub field: String,
}

/// A compiled scan over a set of names. Cheap to call per field.
#[derive(Debug, Clone)]
pub struct Scanner {
    /// Whole names, lower-cased; matched against lower-cased text.
    whole: Option<AhoCorasick>,
    /// Name parts as written; matched against the text as is.
    parts: Option<AhoCorasick>,
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text[start..end]` stands at word boundaries.
fn at_boundaries(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    !before.is_some_and(is_word_char) && !after.is_some_and(is_word_char)
}

fn build(patterns: Vec<String>, ascii_ci: bool) -> Option<AhoCorasick> {
    if patterns.is_empty() {
        return None;
    }
    AhoCorasickBuilder::new()
        .ascii_case_insensitive(ascii_ci)
        // Overlapping is not needed: any boundary-respecting hit is enough, and leftmost-longest
        // prefers "Anna Maria" over "Anna" where both are names.
        .match_kind(MatchKind::LeftmostLongest)
        .build(patterns)
        .ok()
}

/// The first match of `ac` in `text` that stands at word boundaries.
fn find_bounded(ac: &AhoCorasick, text: &str) -> Option<Range<usize>> {
    // Leftmost-longest matches do not overlap; a rejected (mid-word) match could hide a good one
    // that starts inside it, so fall back to checking every start when the first try misses.
    for m in ac.find_iter(text) {
        if at_boundaries(text, m.start(), m.end()) {
            return Some(m.range());
        }
    }
    let mut offset = 0;
    while offset < text.len() {
        let m = ac.find(&text[offset..])?;
        let (start, end) = (offset + m.start(), offset + m.end());
        if at_boundaries(text, start, end) {
            return Some(start..end);
        }
        // Move one character past this match's start.
        offset = start + text[start..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// The whitespace-separated word of `text` that is an e-mail address, if any.
fn email_word(text: &str) -> Option<Range<usize>> {
    text.split_whitespace()
        .find(|w| w.contains('@') && a2learn_contract::rules::contains_email(w))
        .map(|w| {
            let start = w.as_ptr() as usize - text.as_ptr() as usize;
            start..start + w.len()
        })
}

/// Maps a range of the lower-cased text back to the original. Lower-casing keeps byte offsets
/// for ASCII and most scripts; where it does not, the match is mapped by character count.
fn original_range(text: &str, lower: Option<&str>, range: Range<usize>) -> Range<usize> {
    let Some(lower) = lower else {
        return range;
    };
    if lower.len() == text.len() {
        return range;
    }
    let chars_before = lower[..range.start].chars().count();
    let chars_in = lower[range.clone()].chars().count();
    let byte_at = |n: usize| text.char_indices().nth(n).map_or(text.len(), |(i, _)| i);
    byte_at(chars_before)..byte_at(chars_before + chars_in)
}

impl Scanner {
    /// A scanner for `names` (display names from the roster). Blank names are ignored.
    pub fn new<I, S>(names: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut whole = Vec::new();
        let mut parts = Vec::new();
        for name in names {
            let name = name.as_ref().trim();
            if name.is_empty() {
                continue;
            }
            whole.push(name.to_lowercase());
            let split: Vec<&str> = name
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|p| !p.is_empty())
                .collect();
            if split.len() > 1 {
                for part in split {
                    if part.chars().count() >= MIN_PART_CHARS {
                        parts.push(part.to_string());
                    }
                }
            }
        }
        whole.sort();
        whole.dedup();
        parts.sort();
        parts.dedup();
        Self {
            whole: build(whole, true),
            parts: build(parts, false),
        }
    }

    /// A scanner that only looks for e-mail addresses.
    pub fn emails_only() -> Self {
        Self {
            whole: None,
            parts: None,
        }
    }

    /// What `text` contains, if anything.
    pub fn scan(&self, text: &str) -> Option<HitKind> {
        self.find(text).map(|(what, _)| what)
    }

    /// What `text` contains and the word that matched: a range of `text` (for a whole name
    /// matched case-insensitively where lower-casing changed the text's length, the nearest
    /// whole word is not recoverable, so the range covers the word as far as it can).
    pub fn find(&self, text: &str) -> Option<(HitKind, Range<usize>)> {
        if text.is_empty() {
            return None;
        }
        if text.contains('@') && a2learn_contract::rules::contains_email(text) {
            let range = email_word(text).unwrap_or(0..text.len());
            return Some((HitKind::Email, range));
        }
        if let Some(whole) = &self.whole {
            let needs_lower = text
                .chars()
                .any(|c| !c.is_ascii() || c.is_ascii_uppercase());
            let lower = needs_lower.then(|| text.to_lowercase());
            if let Some(range) = find_bounded(whole, lower.as_deref().unwrap_or(text)) {
                return Some((
                    HitKind::RosterName,
                    original_range(text, lower.as_deref(), range),
                ));
            }
        }
        if let Some(parts) = &self.parts
            && let Some(range) = find_bounded(parts, text)
        {
            return Some((HitKind::RosterName, range));
        }
        None
    }

    /// Scans one field of one row; the error names both.
    pub fn check(
        &self,
        place: &'static str,
        row: u64,
        field: &str,
        text: &str,
    ) -> Result<(), PrivacyHit> {
        match self.scan(text) {
            None => Ok(()),
            Some(what) => Err(PrivacyHit {
                what,
                place,
                row,
                field: field.to_string(),
            }),
        }
    }

    /// Scans every string (and every object key) in a JSON value; the field is reported as a
    /// path below `prefix` (e.g. `payload.widget_result.detail.note`).
    pub fn check_json(
        &self,
        place: &'static str,
        row: u64,
        prefix: &str,
        value: &serde_json::Value,
    ) -> Result<(), PrivacyHit> {
        use serde_json::Value;
        match value {
            Value::String(s) => self.check(place, row, prefix, s),
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.check_json(place, row, &format!("{prefix}[{i}]"), item)?;
                }
                Ok(())
            }
            Value::Object(map) => {
                for (key, item) in map {
                    // A key is text a widget chose too. It is checked before it becomes part of a
                    // reported path, and a hit names only the parent, so no path repeats a name.
                    self.check(place, row, &format!("{prefix} (a key)"), key)?;
                    self.check_json(place, row, &format!("{prefix}.{key}"), item)?;
                }
                Ok(())
            }
            Value::Null | Value::Bool(_) | Value::Number(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    fn scanner() -> Scanner {
        Scanner::new(["Zephyrine Quabbelwick", "Al Bo", "Hope Ngata", "Émile Zoë"])
    }

    #[test]
    fn whole_names_are_found_in_any_case_at_word_boundaries() {
        let s = scanner();
        assert_eq!(
            s.scan("great work, zephyrine QUABBELWICK!"),
            Some(HitKind::RosterName)
        );
        assert_eq!(s.scan("ÉMILE ZOË compared"), Some(HitKind::RosterName));
        // Negative control: inside a longer word it is not a name.
        assert_eq!(s.scan("xzephyrine quabbelwicks"), None);
        assert_eq!(s.scan("compared 3/4 and 2/3"), None);
    }

    #[test]
    fn long_name_parts_are_found_as_written() {
        let s = scanner();
        assert_eq!(s.scan("Zephyrine compared"), Some(HitKind::RosterName));
        assert_eq!(s.scan("asked Quabbelwick."), Some(HitKind::RosterName));
        assert_eq!(s.scan("Ngata tried"), Some(HitKind::RosterName));
        // Case-sensitive parts: the ordinary word does not block an export.
        assert_eq!(s.scan("I hope this helps"), None);
        // Short parts are not scanned alone (the whole name still is).
        assert_eq!(s.scan("Al tried"), None);
        assert_eq!(s.scan("al bo tried"), Some(HitKind::RosterName));
    }

    #[test]
    fn find_returns_the_word_that_matched() {
        let s = scanner();
        let text = "Quillon? No: ask Zephyrine, count three halves.";
        let (what, range) = s.find(text).unwrap();
        assert_eq!((what, &text[range]), (HitKind::RosterName, "Zephyrine"));
        let text = "well done ÉMILE ZOË!";
        let (_, range) = s.find(text).unwrap();
        assert_eq!(&text[range], "ÉMILE ZOË");
        let text = "mail me at jo@school.org today";
        let (what, range) = s.find(text).unwrap();
        assert_eq!((what, &text[range]), (HitKind::Email, "jo@school.org"));
        assert_eq!(s.find("count three halves from zero"), None);
    }

    #[test]
    fn a_mid_word_match_does_not_hide_a_later_real_one() {
        let s = Scanner::new(["Anna Lee"]);
        assert_eq!(s.scan("Hannah and anna lee"), Some(HitKind::RosterName));
    }

    #[test]
    fn emails_are_found_and_the_hit_does_not_repeat_the_text() {
        let s = Scanner::emails_only();
        assert_eq!(s.scan("write to jo@school.org"), Some(HitKind::Email));
        assert_eq!(s.scan("3 @ 4"), None);
        let err = scanner()
            .check("row", 7, "prose", "Zephyrine Quabbelwick did it")
            .unwrap_err();
        let text = err.to_string();
        assert!(text.contains("row 7") && text.contains("prose"), "{text}");
        assert!(!text.contains("Zephyrine"), "{text}");
    }

    #[test]
    fn json_is_walked_with_paths_keys_included() {
        let s = scanner();
        let v = serde_json::json!({"a": [1, {"note": "ok"}], "detail": {"Quabbelwick": 1}});
        let err = s.check_json("line", 3, "payload", &v).unwrap_err();
        assert_eq!(err.field, "payload.detail (a key)");
        let v = serde_json::json!({"a": [1, {"note": "by Zephyrine"}]});
        assert_eq!(
            s.check_json("line", 3, "payload", &v).unwrap_err().field,
            "payload.a[1].note"
        );
        assert!(
            s.check_json("line", 3, "payload", &serde_json::json!({"x": "fine"}))
                .is_ok()
        );
    }
}
