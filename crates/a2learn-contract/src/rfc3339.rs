//! RFC 3339 time stamps (the contract's `at` and `deadline`), formatted in one place for every
//! crate of the workspace. Pure functions: no clock is read here.

use time::format_description::well_known::Rfc3339;
use time::{OffsetDateTime, UtcOffset};

/// Epoch milliseconds as RFC 3339 UTC, e.g. `2026-03-02T10:15:00.25Z`; `None` outside the range
/// RFC 3339 can write (years 0 to 9999). Callers choose their own fallback.
pub fn format_ms(ms: i64) -> Option<String> {
    let t = OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()?;
    format(t)
}

/// A time as RFC 3339; `None` when it has no RFC 3339 form.
pub fn format(t: OffsetDateTime) -> Option<String> {
    t.format(&Rfc3339).ok()
}

/// Epoch milliseconds of an RFC 3339 time.
pub fn parse_ms(text: &str) -> Option<i64> {
    let t = OffsetDateTime::parse(text, &Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

/// The same instant as RFC 3339 UTC (`Z`), for a time written in any offset: how a reader keeps
/// a host's `+05:30` (`contract.md` §1). `None` when `text` is not RFC 3339.
pub fn to_utc(text: &str) -> Option<String> {
    let t = OffsetDateTime::parse(text, &Rfc3339).ok()?;
    format(t.to_offset(UtcOffset::UTC))
}

/// Does this RFC 3339 time carry an offset other than UTC? (`Z`, `+00:00` and `-00:00` are UTC.)
pub fn has_offset(text: &str) -> bool {
    OffsetDateTime::parse(text, &Rfc3339).is_ok_and(|t| !t.offset().is_utc())
}

/// The same instant written in an offset of `minutes` from UTC (`330` is `+05:30`): what a host
/// that writes local times sends. `None` when `text` is not RFC 3339 or the offset is out of
/// range.
pub fn in_offset(text: &str, minutes: i16) -> Option<String> {
    let t = OffsetDateTime::parse(text, &Rfc3339).ok()?;
    let offset = UtcOffset::from_whole_seconds(i32::from(minutes) * 60).ok()?;
    format(t.to_offset(offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses_milliseconds() {
        let s = format_ms(1_772_446_500_250).expect("in range");
        assert_eq!(s, "2026-03-02T10:15:00.25Z", "UTC, trailing zeros dropped");
        assert_eq!(parse_ms(&s), Some(1_772_446_500_250), "round trip");
    }

    #[test]
    fn an_offset_is_the_same_instant_kept_as_utc() {
        let local = in_offset("2026-03-02T10:15:00.25Z", 330).expect("valid");
        assert_eq!(local, "2026-03-02T15:45:00.25+05:30");
        assert!(has_offset(&local));
        assert_eq!(parse_ms(&local), parse_ms("2026-03-02T10:15:00.25Z"));
        assert_eq!(to_utc(&local).as_deref(), Some("2026-03-02T10:15:00.25Z"));
        assert_eq!(
            to_utc("2026-03-02T10:15:00Z").as_deref(),
            Some("2026-03-02T10:15:00Z")
        );
        assert!(!has_offset("2026-03-02T10:15:00+00:00"), "+00:00 is UTC");
        assert!(!has_offset("2026-03-02T10:15:00Z"));
        assert_eq!(to_utc("yesterday"), None);
    }

    #[test]
    fn out_of_range_is_none_not_a_panic() {
        assert_eq!(format_ms(i64::MAX), None, "year far past 9999");
    }
}
