//! Wall time: the workspace's one clock (`a2learn-clock`), and RFC 3339 time stamps.
//!
//! The host reads the wall clock once, at start, to anchor its time stamps; everything after
//! that is the scheduler's elapsed time (see [`crate::HostConfig::time`]). Tests pass a
//! [`FixedClock`] so that two runs stamp the same times.

pub use a2learn_clock::{Clock, FixedClock, SystemClock};

/// RFC 3339 UTC with millisecond precision, e.g. `2026-03-02T10:15:00.250Z` (the epoch when out
/// of range), through the workspace's one formatter ([`a2learn_contract::rfc3339`]).
pub fn rfc3339(ms: i64) -> String {
    a2learn_contract::rfc3339::format_ms(ms).unwrap_or_else(|| "1970-01-01T00:00:00Z".to_owned())
}

/// Epoch milliseconds of an RFC 3339 time.
pub fn parse_rfc3339_ms(text: &str) -> Option<i64> {
    a2learn_contract::rfc3339::parse_ms(text)
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
