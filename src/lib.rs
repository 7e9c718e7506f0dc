//! a2learn Teacher core: everything the dashboard relies on, with no Tauri in it.
//!
//! The Tauri shell (`src-tauri`) and the `a2learn-teacher` CLI (`crates/a2learn-teacher-cli`) are
//! thin adapters over this crate; tests drive it directly.

pub mod clock;
pub mod desk;
pub mod dto;
pub mod error;
pub mod export;
pub mod groups;
pub mod host;
pub mod live;
pub mod paths;
pub mod privacy;
pub mod progress;
pub mod room;
pub mod roster;
pub mod store;
pub mod sync;
pub mod views;

/// The words, in the teacher's language: the catalogs the window shares (see `a2learn_i18n`).
pub use a2learn_i18n as i18n;
pub use clock::{Clock, FixedClock, SystemClock};
pub use error::{ErrorCode, UiError};
pub use store::{DbInfo, Store, StoreError};
