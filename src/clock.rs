//! The injected clock. Business logic never reads the time itself; it is handed a [`Clock`] so
//! tests can pin or step time and stay deterministic. The clock itself lives in the
//! `a2learn-clock` crate, shared with the reference host; this module keeps its paths.

pub use a2learn_clock::{Clock, FixedClock, SharedClock, SystemClock};
