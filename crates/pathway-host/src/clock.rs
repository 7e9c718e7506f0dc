//! Wall time, in one place.
//!
//! The host reads the wall clock once, at start, to anchor its time stamps; everything after
//! that is the scheduler's elapsed time (see [`crate::HostConfig::time`]). Tests pass a
//! [`FixedClock`] so that two runs stamp the same times.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

/// A source of wall time in UTC epoch milliseconds.
pub trait WallClock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// The system clock.
#[derive(Debug, Clone, Copy, Default)]
pub struct SystemClock;

impl WallClock for SystemClock {
    // The one place this crate reads the wall clock: the workspace forbids it elsewhere so
    // that the simulation stays on its own (virtual, seeded) time.
    #[allow(clippy::disallowed_methods)]
    fn now_ms(&self) -> i64 {
        let now = OffsetDateTime::now_utc();
        i64::try_from(now.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
    }
}

/// A clock that always answers the same instant (tests, determinism).
#[derive(Debug, Clone, Copy)]
pub struct FixedClock(pub i64);

impl WallClock for FixedClock {
    fn now_ms(&self) -> i64 {
        self.0
    }
}

/// RFC 3339 UTC with millisecond precision, e.g. `2026-03-02T10:15:00.250Z`.
pub fn rfc3339(ms: i64) -> String {
    let nanos = i128::from(ms) * 1_000_000;
    match OffsetDateTime::from_unix_timestamp_nanos(nanos) {
        Ok(t) => t
            .format(&Rfc3339)
            .unwrap_or_else(|_| "1970-01-01T00:00:00Z".to_owned()),
        Err(_) => "1970-01-01T00:00:00Z".to_owned(),
    }
}

/// Epoch milliseconds of an RFC 3339 time.
pub fn parse_rfc3339_ms(text: &str) -> Option<i64> {
    let t = OffsetDateTime::parse(text, &Rfc3339).ok()?;
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_and_parses_milliseconds() {
        let s = rfc3339(1_772_446_500_250);
        assert_eq!(s, "2026-03-02T10:15:00.25Z");
        assert_eq!(parse_rfc3339_ms(&s), Some(1_772_446_500_250));
    }
}
