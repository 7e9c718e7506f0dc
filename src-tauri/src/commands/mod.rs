//! Typed commands, one module per area of the app. Each command is a thin adapter: it calls the
//! core and maps errors to `{code, message}`. Register new ones in `specta_builder!` (lib.rs).

pub mod app;
pub mod class_view;
pub mod desk;
pub mod export;
pub mod projector;
pub mod room;

pub use app::*;
