//! The I/O-free half of a2learn Teacher's core: functions from bytes or text to values, with no
//! runtime, database or network.
//!
//! - [`sse`]: the class feed's Server-Sent Events parser, fed chunks as they arrive.
//! - [`ingest`]: a batch of feed frames through the frame level (dedupe by seq, AG-UI parse,
//!   room controls) and the contract level (the sequence state machine over what the store
//!   knows), up to what would be written. The core's `Store::ingest` loads that knowledge,
//!   runs these stages and writes the outcome in one transaction.
//! - [`roster`]: the roster CSV a teacher imports.
//!
//! The fuzz targets (`fuzz/`) drive exactly these functions, so a fuzz build needs this crate
//! and the contract only.

pub mod ingest;
pub mod roster;
pub mod sse;
