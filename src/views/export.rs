//! The export view: what the dialog offers (formats, the remembered folder, the xAPI home page)
//! and one export run to the file the teacher chose, with progress reported as rows go by and a
//! cancel that leaves nothing under the chosen name. One export at a time: [`ExportSlot`].

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use tokio_util::sync::CancellationToken;

use super::ViewError;
use crate::dto::total;
use crate::export::{
    DEFAULT_HOME_PAGE, ExportRequest, Format, HOME_PAGE_SETTING, LAST_FOLDER_SETTING,
    check_home_page, export_to_path,
};
use crate::store::{Store, StoreError};

/// What the teacher asked for in the export dialog.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ExportOptions {
    pub class_id: String,
    pub assignment_id: Option<String>,
    pub format: Format,
    /// Names joined from the local roster: the UI asks for an explicit confirmation first.
    pub identified: bool,
    /// The file the save dialog returned.
    pub path: String,
    /// Only the learners of this group of the class (the teacher's own groups); `None` for
    /// everyone.
    pub group: Option<String>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportProgress {
    pub rows_done: f64,
    pub rows_total: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportDone {
    pub path: String,
    pub rows: f64,
    pub bytes: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportFormatInfo {
    pub id: Format,
    pub extension: String,
    /// Whether an export with names exists for it (the class summary is aggregates only).
    pub names_possible: bool,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ExportSettings {
    /// Where the save dialog opens: the folder of the last export.
    pub last_folder: Option<String>,
    pub home_page: String,
    pub formats: Vec<ExportFormatInfo>,
}

/// The export running now, if any: one at a time (the dialog is modal). Held by the app, so a
/// second window or a test gets its own.
#[derive(Debug, Default)]
pub struct ExportSlot(Mutex<Option<CancellationToken>>);

impl ExportSlot {
    fn take_slot(&self) -> Result<CancellationToken, ViewError> {
        let mut running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if running.is_some() {
            return Err(crate::error::Said::refused("error-export-running").into());
        }
        let cancel = CancellationToken::new();
        *running = Some(cancel.clone());
        Ok(cancel)
    }

    fn release(&self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Cancels the running export; true when there was one.
    pub fn cancel(&self) -> bool {
        let running = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        running.as_ref().map(CancellationToken::cancel).is_some()
    }
}

async fn home_page(store: &Store) -> Result<String, StoreError> {
    Ok(store
        .setting(HOME_PAGE_SETTING)
        .await?
        .unwrap_or_else(|| DEFAULT_HOME_PAGE.to_string()))
}

pub async fn settings(store: &Store) -> Result<ExportSettings, ViewError> {
    Ok(ExportSettings {
        last_folder: store.setting(LAST_FOLDER_SETTING).await?,
        home_page: home_page(store).await?,
        formats: Format::ALL
            .iter()
            .map(|f| ExportFormatInfo {
                id: *f,
                extension: f.extension().to_string(),
                names_possible: f.per_learner(),
            })
            .collect(),
    })
}

/// Checks, normalises and keeps the xAPI home page.
pub async fn set_home_page(store: &Store, home_page: &str) -> Result<String, ViewError> {
    let home_page = check_home_page(home_page)?;
    store.set_setting(HOME_PAGE_SETTING, &home_page).await?;
    Ok(home_page)
}

/// Runs one export to `options.path`, calling `report` as rows go by.
pub async fn run(
    store: &Store,
    slot: &ExportSlot,
    options: ExportOptions,
    report: &mut (dyn FnMut(ExportProgress) + Send),
) -> Result<ExportDone, ViewError> {
    let path = PathBuf::from(&options.path);
    if !path.is_absolute() {
        return Err(crate::error::Said::refused("error-export-full-path").into());
    }
    let req = ExportRequest {
        class_id: options.class_id,
        assignment_id: options.assignment_id,
        format: options.format,
        identified: options.identified,
        home_page: home_page(store).await?,
        // The same k as the class view (the teacher's setting).
        k: store.suppression_k().await?,
        group: options.group,
    };
    let cancel = slot.take_slot()?;
    let mut progress = |p: crate::export::ExportProgress| {
        report(ExportProgress {
            rows_done: total(p.rows_done),
            rows_total: total(p.rows_total),
        });
    };
    let result = export_to_path(store, &req, &path, &mut progress, &cancel).await;
    slot.release();
    let summary = result?;
    if let Some(folder) = summary.path.parent() {
        store
            .set_setting(LAST_FOLDER_SETTING, &folder.to_string_lossy())
            .await?;
    }
    Ok(ExportDone {
        path: summary.path.to_string_lossy().into_owned(),
        rows: total(summary.rows),
        bytes: total(summary.bytes),
    })
}
