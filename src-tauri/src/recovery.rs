//! The window for a database that cannot be opened (damaged, lost while its backups are not, or
//! written by a newer app): it says what is wrong and, for a damaged or lost file, offers the
//! newest automatic backup (for a lost one, also a fresh start); for a school's shared store
//! that does not answer, a way back to this computer. Without it the app
//! would print the error to a terminal the teacher never sees and exit.
//!
//! It runs instead of the app (no store, no feeds): the same commands are registered, but only
//! the recovery commands find their state; the others answer "state not managed".

use std::path::PathBuf;
use std::process::ExitCode;

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::views::recovery::{self, RecoveryView};
use a2learn_teacher::{StoreError, UiError};
use tauri::{AppHandle, State};

/// The page's entry (ui/recovery.html).
const PAGE: &str = "recovery.html";

pub struct RecoveryState {
    db_path: PathBuf,
    /// Why the store did not open: the view says it in the window's language when asked.
    error: StoreError,
    clock: SharedClock,
}

/// What is wrong with the database, and the backup a restore would bring back.
#[tauri::command]
#[specta::specta]
pub fn recovery_view(state: State<'_, RecoveryState>) -> RecoveryView {
    recovery::view(&state.db_path, &state.error)
}

/// Restores the newest automatic backup over the damaged file (kept as `.before-restore`), or in
/// place of the missing one.
#[tauri::command]
#[specta::specta]
pub async fn recovery_restore(state: State<'_, RecoveryState>) -> Result<(), UiError> {
    let restored = recovery::restore_newest(&state.db_path).await?;
    tracing::info!(kept = ?restored.kept, "restored the newest backup");
    Ok(())
}

/// Creates a new, empty database in place of the missing one (the backups stay where they are).
#[tauri::command]
#[specta::specta]
pub async fn recovery_start_empty(state: State<'_, RecoveryState>) -> Result<(), UiError> {
    recovery::start_empty(&state.db_path, state.clock.clone()).await?;
    tracing::info!("started with an empty database in place of the missing one");
    Ok(())
}

/// Keeps results on this computer from the next start: the shared store the teacher's file named
/// could not be opened.
#[tauri::command]
#[specta::specta]
pub async fn recovery_use_this_computer(state: State<'_, RecoveryState>) -> Result<(), UiError> {
    recovery::use_this_computer(&state.db_path, state.clock.clone()).await?;
    tracing::info!("results are kept on this computer again");
    Ok(())
}

/// Starts the app again, now on the restored (or new) database.
#[tauri::command]
#[specta::specta]
pub fn recovery_restart<R: tauri::Runtime>(app: AppHandle<R>) {
    app.restart();
}

/// Shows the recovery window for `error` until the teacher closes it (or restarts the app).
pub fn run(db_path: PathBuf, error: StoreError, clock: SharedClock) -> ExitCode {
    tracing::error!(error = %error, "the database cannot be opened; showing the recovery window");
    let said = error.to_string();
    let builder = crate::specta_builder!(tauri::Wry);
    let app = tauri::Builder::default()
        .invoke_handler(builder.invoke_handler())
        .manage(RecoveryState {
            db_path,
            error,
            clock,
        })
        .setup(|app| {
            a2learn_teacher::error::set_window_language(a2learn_teacher::i18n::Lang::from_env());
            crate::open_main_window(app, PAGE)?;
            Ok(())
        })
        .build(crate::context());
    match app {
        Ok(app) => {
            app.run(|_, _| {});
            // The database is still not open: a script that started the app should know.
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("error: {said}\nerror: the window could not start: {err}");
            ExitCode::FAILURE
        }
    }
}
