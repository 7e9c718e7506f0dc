//! What the window shows when the database cannot be opened: what is wrong in words, and — for
//! a damaged file, or a lost one whose backups are still there — the newest automatic backup,
//! which the teacher can restore with one button (or, for a lost file, start afresh).
//! A file from a newer app is never offered a restore: an older backup would silently drop
//! whatever the newer app stored; the answer is to update the app.

use std::path::Path;

use serde::Serialize;

use crate::dto::ms;
use crate::store::{Restored, StoreError, list_backups, restore};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum RecoveryProblem {
    /// Not a whole SQLite database (overwritten, cut short).
    Damaged,
    /// Written by a newer version of the app.
    Newer,
    /// Gone, while its automatic backups are not (deleted, a disk swapped).
    Missing,
    /// The school's shared store the teacher's file names does not answer, refuses the
    /// password (or its password cannot be read from the credential store), or was written by a
    /// newer app: try again, or keep results on this computer.
    SharedStore,
    /// Anything else (permissions, a missing folder): the message says what.
    Other,
}

/// The backup a restore would bring back.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct BackupChoice {
    pub file_name: String,
    /// When it was made (epoch ms, from its name).
    pub taken_at_ms: f64,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct RecoveryView {
    pub problem: RecoveryProblem,
    /// The store's own message (says what is wrong and what was not changed).
    pub message: String,
    /// Where the database is.
    pub database: String,
    /// The newest automatic backup, offered for a damaged or a missing file only.
    pub backup: Option<BackupChoice>,
}

/// The view for a store that failed to open at `db` with `error`.
pub fn view(db: &Path, error: &StoreError) -> RecoveryView {
    let problem = match error {
        StoreError::Damaged { .. } => RecoveryProblem::Damaged,
        StoreError::Newer { .. } => RecoveryProblem::Newer,
        StoreError::Missing { .. } => RecoveryProblem::Missing,
        // At a start, a credential error is the shared store's password that cannot be read.
        StoreError::Connect { .. }
        | StoreError::MigrateShared { .. }
        | StoreError::NewerShared { .. }
        | StoreError::Credentials(_) => RecoveryProblem::SharedStore,
        _ => RecoveryProblem::Other,
    };
    let offered = matches!(problem, RecoveryProblem::Damaged | RecoveryProblem::Missing);
    let backup = offered
        .then(|| newest_backup(db))
        .flatten()
        .map(|(at, path)| BackupChoice {
            file_name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            taken_at_ms: ms(at),
        });
    RecoveryView {
        problem,
        message: {
            use crate::error::Coded as _;
            error
                .localized(crate::error::window_words())
                .unwrap_or_else(|| error.to_string())
        },
        database: db.display().to_string(),
        backup,
    }
}

fn newest_backup(db: &Path) -> Option<(i64, std::path::PathBuf)> {
    list_backups(db).pop()
}

/// Restores the newest automatic backup over the damaged (or in place of the missing) database at
/// `db`; a damaged file is kept beside it as `<name>.before-restore`. Refused when there is no
/// backup.
pub async fn restore_newest(db: &Path) -> Result<Restored, StoreError> {
    let Some((_, newest)) = newest_backup(db) else {
        return Err(StoreError::Restore {
            from: crate::paths::backup_dir(db),
            reason: "there is no automatic backup to restore".into(),
        });
    };
    restore(db, &newest).await
}

/// Creates a new, empty database at `db` where the file is missing (the teacher chose to start
/// afresh over restoring). The backups stay where they are. Refused when a file is there.
pub async fn start_empty(db: &Path, clock: crate::clock::SharedClock) -> Result<(), StoreError> {
    if db.exists() {
        return Err(StoreError::Invalid(format!(
            "{} exists: a new database is only started in place of a missing one",
            db.display()
        )));
    }
    let open = crate::store::OpenOptions {
        start_empty: true,
        ..Default::default()
    };
    crate::store::Store::open_with(db, clock, open)
        .await?
        .close()
        .await;
    Ok(())
}

/// Points the teacher's file at `db` back at itself (the shared store it named could not be
/// opened): from the next start results are kept on this computer. The shared store keeps what
/// it holds, and Settings can name it again.
pub async fn use_this_computer(
    db: &Path,
    clock: crate::clock::SharedClock,
) -> Result<(), StoreError> {
    let file = crate::store::Store::open(db, clock).await?;
    let forgotten = file.forget_shared_store().await;
    file.close().await;
    forgotten
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a start that could not open the teacher's store shows: a shared store's problems
    /// (no answer, a password that cannot be read) offer this computer, never a backup; a
    /// damaged file is still a damaged file.
    #[test]
    fn a_shared_store_that_does_not_open_is_its_own_problem() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("teacher.db");
        let unreachable = StoreError::Connect {
            location: "postgres://teacher:***@db.school.example/results".into(),
            source: sqlx::Error::PoolTimedOut,
        };
        let unreadable = StoreError::Credentials(
            crate::host::credentials::CredentialError::System("locked".into()),
        );
        for error in [unreachable, unreadable] {
            let view = view(&db, &error);
            assert_eq!(view.problem, RecoveryProblem::SharedStore, "{error}");
            assert_eq!(view.backup, None);
        }
        let damaged = StoreError::Damaged {
            path: db.clone(),
            reason: "cut short".into(),
            backups: dir.path().join("backups"),
        };
        assert_eq!(view(&db, &damaged).problem, RecoveryProblem::Damaged);
    }
}
