//! The bridge to the upstream project's classes (`adamstankiewicz/interactive-learning-experiences`):
//! its PostgreSQL database, read-only, served as a pathway host (`pathway-host.md` §1-2). What maps
//! to what is `a2learn_contract::dialect::ile`; this crate reads the database and serves.
//!
//! - [`source`]: the few reads it makes (never a name column), on read-only connections;
//! - [`horizon`]: `interactions` read in an order that never skips a row that commits late;
//! - [`pseudonym`]: learners' pseudonyms, a keyed hash of the upstream's student ids;
//! - `classes`: each class's messages, folded once and kept, for the feed and the results alike;
//! - `server` and `tools`: the pathway-host interface over them.

mod classes;
pub mod horizon;
pub mod pseudonym;
mod server;
pub mod source;
mod tools;

pub use server::{BridgeConfig, BridgeError, RunningBridge, start};
