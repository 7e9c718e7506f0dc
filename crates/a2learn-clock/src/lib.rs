//! The one clock of the workspace, injected. Business logic never reads the time itself; it is
//! handed a [`Clock`] so tests can pin or step time and stay deterministic. The core (which
//! re-exports it as `a2learn_teacher::clock`) and the reference host (`pathway_host::clock`) both
//! take theirs from here; [`SystemClock`] is the one sanctioned reader of the system time.

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

/// A source of the current time as UTC milliseconds since the Unix epoch (the unit the store
/// keeps times in).
pub trait Clock: Send + Sync + std::fmt::Debug {
    fn now_ms(&self) -> i64;
}

/// The real wall clock. The only place in the workspace that reads the system time.
#[derive(Debug, Default, Clone, Copy)]
pub struct SystemClock;

impl Clock for SystemClock {
    #[expect(
        clippy::disallowed_methods,
        reason = "this is the one sanctioned reader of the system time"
    )]
    fn now_ms(&self) -> i64 {
        let now = std::time::SystemTime::now();
        match now.duration_since(std::time::UNIX_EPOCH) {
            Ok(elapsed) => i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX),
            // A system clock before 1970 is broken; report the epoch rather than panic.
            Err(_) => 0,
        }
    }
}

/// A clock that stands still until told to move: for tests and replays.
#[derive(Debug, Clone)]
pub struct FixedClock(Arc<AtomicI64>);

impl FixedClock {
    pub fn at(ms: i64) -> Self {
        Self(Arc::new(AtomicI64::new(ms)))
    }

    pub fn advance(&self, ms: i64) {
        self.0.fetch_add(ms, Ordering::SeqCst);
    }
}

impl Clock for FixedClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

/// Shared handle to a clock, as the core passes it around.
pub type SharedClock = Arc<dyn Clock>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_clock_moves_only_when_told() {
        let clock = FixedClock::at(1_000);
        assert_eq!(clock.now_ms(), 1_000);
        clock.advance(250);
        assert_eq!(clock.now_ms(), 1_250, "advance adds to the pinned time");
        let copy = clock.clone();
        copy.advance(1);
        assert_eq!(clock.now_ms(), 1_251, "clones share one time source");
    }

    #[test]
    fn system_clock_is_after_2020() {
        // 2020-01-01T00:00:00Z; a wall clock reading before it means the conversion is wrong.
        assert!(SystemClock.now_ms() > 1_577_836_800_000);
    }
}
