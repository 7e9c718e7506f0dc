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
    payload_key: Option<String>,
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

    /// What the frame carried, whichever way it came: the event's name and its `value` in one
    /// canonical JSON form (keys sorted), when the frame is a JSON event with both. The same
    /// broken payload from the backfill (no seq) and from the feed (its seq) has the same key,
    /// and is kept aside once.
    pub fn payload_key(&self) -> Option<&str> {
        self.payload_key.as_deref()
    }
}

/// See [`QuarantineRow::payload_key`]: the SHA-256 of the name and the value, in hex (a
/// payload may be megabytes; its key is 64 characters). `serde_json` without `preserve_order`
/// keeps an object's keys sorted, so two spellings of one payload print, and hash, the same.
fn payload_key(raw: &str) -> Option<String> {
    use sha2::{Digest, Sha256};
    let event: serde_json::Value = serde_json::from_str(raw).ok()?;
    let name = event.get("name")?.as_str()?;
    let value = event.get("value")?;
    let digest = Sha256::new()
        .chain_update(name.as_bytes())
        .chain_update(b"\n")
        .chain_update(value.to_string().as_bytes())
        .finalize();
    Some(digest.iter().map(|b| format!("{b:02x}")).collect())
}

pub fn quarantine_row(seq: Option<i64>, rule_id: &str, message: &str, raw: &str) -> QuarantineRow {
    QuarantineRow {
        seq,
        rule_id: rule_id.to_string(),
        message: message.to_string(),
        raw: truncate_utf8(raw, QUARANTINE_RAW_BYTES).to_string(),
        raw_bytes: i64::try_from(raw.len()).unwrap_or(i64::MAX),
        payload_key: payload_key(raw),
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

    #[test]
    fn one_payload_has_one_key_however_it_is_spelled() {
        let feed =
            r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{"prose":"","at":"x"}}"#;
        let backfill =
            r#"{"value":{"at":"x","prose":""},"name":"a2learn.widget_completed","type":"CUSTOM"}"#;
        let key = |raw| {
            quarantine_row(Some(1), "r", "m", raw)
                .payload_key()
                .map(str::to_owned)
        };
        assert!(key(feed).is_some_and(|k| k.len() == 64));
        assert_eq!(key(feed), key(backfill));
        let other =
            r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{"prose":" ","at":"x"}}"#;
        assert_ne!(key(feed), key(other), "another payload, another key");
        let struggle =
            r#"{"type":"CUSTOM","name":"a2learn.widget_struggle","value":{"prose":"","at":"x"}}"#;
        assert_ne!(key(feed), key(struggle), "another verb, another key");
        assert_eq!(key("not json"), None);
    }
}
