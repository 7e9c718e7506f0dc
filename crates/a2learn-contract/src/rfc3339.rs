//! RFC 3339 time stamps (the contract's `at` and `deadline`), formatted in one place for every
//! crate of the workspace. Pure functions: no clock is read here.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

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
    fn out_of_range_is_none_not_a_panic() {
        assert_eq!(format_ms(i64::MAX), None, "year far past 9999");
    }
}
