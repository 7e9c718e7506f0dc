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

/// Rewrites the `at` and `deadline` of every a2learn payload in `value` (an AG-UI event, or a
/// `get_pathway_results` answer) in an offset of `minutes` from UTC: the same instants, as a host
/// that writes local times sends them ([`crate::Faults::utc_offset_minutes`]). `0` leaves them.
pub fn write_times_in_offset(value: &mut serde_json::Value, minutes: i16) {
    use serde_json::Value;
    if minutes == 0 {
        return;
    }
    match value {
        Value::Object(map) => {
            for (key, v) in map.iter_mut() {
                match v {
                    Value::String(text) if key == "at" || key == "deadline" => {
                        if let Some(local) = a2learn_contract::rfc3339::in_offset(text, minutes) {
                            *text = local;
                        }
                    }
                    other => write_times_in_offset(other, minutes),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                write_times_in_offset(item, minutes);
            }
        }
        _ => {}
    }
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

    #[test]
    fn times_are_rewritten_in_an_offset_wherever_they_are() {
        let mut event = serde_json::json!({"type": "CUSTOM", "timestamp": 1,
            "value": {"at": "2026-03-02T10:15:00Z", "deadline": "2026-03-02T10:20:00Z",
                      "prose": "at 2026-03-02T10:15:00Z"}});
        let original = event.clone();
        write_times_in_offset(&mut event, 0);
        assert_eq!(event, original, "0 is off");
        write_times_in_offset(&mut event, 330);
        assert_eq!(event["value"]["at"], "2026-03-02T15:45:00+05:30");
        assert_eq!(event["value"]["deadline"], "2026-03-02T15:50:00+05:30");
        assert_eq!(
            event["value"]["prose"], "at 2026-03-02T10:15:00Z",
            "only the time fields"
        );
    }
}
