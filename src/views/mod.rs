//! What each screen shows, made in the core: labelled, ordered, privacy applied (the
//! [`Privacy`](crate::progress::names::Privacy) the caller is under), numbers the IPC can carry.
//! The Tauri commands are one-line adapters over these functions, and the tests check the same
//! views the window draws.
//!
//! - [`app`]: the frame (status bar, class list, host settings, diagnostics).
//! - [`class`]: the class page (grid, evidence, mastery, who needs me, timeline, assignments,
//!   catalog, roster).
//! - [`export`]: the export dialog and one export run.
//! - [`host_check`]: Settings' verdict on a host before it is saved, and Diagnostics' full list.
//! - [`projector`]: the projector window (aggregates and fresh aliases only).
//! - [`room`]: the class header's room controls (pause, pacing).
//! - [`knowledge`]: the class's knowledge map (standards, prerequisites, misconceptions).
//! - [`pathway_map`]: the class's pathway map (each assigned pathway's steps, who is done,
//!   current or upcoming on each, the pacing limit).
//! - [`report`]: the after-class report (JSON and printable HTML).
//! - [`student`]: a page per student (their strip, evidence, help history, timeline).

pub mod app;
pub mod class;
pub mod export;
pub mod freshness;
pub mod groups;
pub mod host_check;
pub mod knowledge;
pub mod pathway_map;
pub mod projector;
pub mod recovery;
pub mod report;
pub mod room;
pub mod shown_work;
pub mod student;

use crate::ErrorCode;
use crate::error::Coded;
use crate::export::ExportError;
use crate::host::mcp::HostError;
use crate::live::ActionError;
use crate::store::StoreError;

/// Why a view could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ViewError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    Action(#[from] ActionError),
    #[error(transparent)]
    Export(#[from] ExportError),
    /// A per-student view asked for under projector-safe mode: the room sees no one's page.
    /// A view that names students, asked for in projector-safe mode; or another sentence of
    /// ours the window translates.
    #[error(transparent)]
    Said(#[from] crate::error::Said),
    #[error(transparent)]
    Desk(#[from] crate::desk::DeskError),
}

impl Coded for ViewError {
    fn code(&self) -> ErrorCode {
        match self {
            ViewError::Store(e) => e.code(),
            ViewError::Host(e) => e.code(),
            ViewError::Action(e) => e.code(),
            ViewError::Export(e) => e.code(),
            ViewError::Said(s) => s.code(),
            ViewError::Desk(e) => e.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            ViewError::Store(e) => e.localized(c),
            ViewError::Host(e) => e.localized(c),
            ViewError::Action(e) => e.localized(c),
            ViewError::Export(e) => e.localized(c),
            ViewError::Said(s) => Some(s.in_language(c)),
            ViewError::Desk(e) => e.localized(c),
        }
    }
}
