//! What breaks a rule, or cannot be read, is kept for diagnosis: quarantine rows, the raw frame
//! cut to a bounded size.

/// The most of a rejected frame that quarantine keeps. Enough to diagnose a widget; a frame of
/// megabytes is someone else's problem to keep.
pub const QUARANTINE_RAW_BYTES: usize = 4096;

/// One frame kept aside: its seq (when it had a usable one), the rule it broke and why, and the
/// frame as received, cut to [`QUARANTINE_RAW_BYTES`].
#[derive(Debug)]
pub struct QuarantineRow {
    seq: Option<i64>,
    rule_id: String,
    message: String,
    raw: String,
    raw_bytes: i64,
}

impl QuarantineRow {
    pub fn seq(&self) -> Option<i64> {
        self.seq
    }

    pub fn rule_id(&self) -> &str {
        &self.rule_id
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    pub fn raw(&self) -> &str {
        &self.raw
    }

    /// The frame's length before the cut.
    pub fn raw_bytes(&self) -> i64 {
        self.raw_bytes
    }
}

pub fn quarantine_row(seq: Option<i64>, rule_id: &str, message: &str, raw: &str) -> QuarantineRow {
    QuarantineRow {
        seq,
        rule_id: rule_id.to_string(),
        message: message.to_string(),
        raw: truncate_utf8(raw, QUARANTINE_RAW_BYTES).to_string(),
        raw_bytes: i64::try_from(raw.len()).unwrap_or(i64::MAX),
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
pub fn truncate_utf8(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truncation_keeps_whole_characters() {
        assert_eq!(
            truncate_utf8("héllo", 2),
            "h",
            "é is two bytes and does not fit"
        );
        assert_eq!(truncate_utf8("héllo", 3), "hé");
        assert_eq!(truncate_utf8("abc", 10), "abc");
    }
}
