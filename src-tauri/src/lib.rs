//! The a2learn Teacher desktop shell. It only adapts: typed commands and events (tauri-specta)
//! over the core crate, the window, and logging. Nothing a teacher relies on lives here.

pub mod commands;
pub mod demo;
pub mod events;
pub mod recovery;
pub mod state;

use std::process::ExitCode;
use std::sync::Arc;

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::host::settings::HostMode;
use a2learn_teacher::live::{COALESCE_WINDOW, HostTarget, Live, coalesce};
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::{Store, SystemClock, paths};
use tauri::Manager;
use tauri_specta::Event;

pub use state::AppState;

/// The one tauri-specta builder, for any runtime: the app uses it with Wry, the tests with
/// `tauri::test::MockRuntime`, and the bindings test exports TypeScript from it.
#[macro_export]
macro_rules! specta_builder {
    ($runtime:ty) => {
        tauri_specta::Builder::<$runtime>::new()
            // One TypeScript type per Rust type: the IPC only ever serializes from Rust to the UI
            // (and deserializes the other way), so per-phase variants add names, not safety.
            .disable_serde_phases()
            // Limits the UI shows and checks as the core does, typed once, in Rust.
            .constant("MAX_ANSWER_CHARS", a2learn_teacher::desk::MAX_ANSWER_CHARS)
            .constant(
                "MAX_REPLY_TITLE_CHARS",
                a2learn_teacher::desk::replies::MAX_REPLY_TITLE_CHARS,
            )
            .constant(
                "MAX_PAUSE_MESSAGE_CHARS",
                a2learn_teacher::store::MAX_PAUSE_MESSAGE_CHARS,
            )
            .constant(
                "MAX_NOTE_CHARS",
                a2learn_teacher::progress::assign::MAX_NOTE_CHARS,
            )
            .commands(tauri_specta::collect_commands![
                $crate::commands::app_status,
                $crate::commands::list_classes,
                $crate::commands::create_class,
                $crate::commands::host_settings,
                $crate::commands::save_host_settings,
                $crate::commands::results_store,
                $crate::commands::save_results_store,
                $crate::commands::restart_app::<$runtime>,
                $crate::commands::diagnostics,
                $crate::commands::check_new_host,
                $crate::commands::check_followed_host,
                $crate::commands::host_classes,
                $crate::commands::host_offers,
                $crate::commands::follow_host_class,
                $crate::commands::set_language,
                $crate::commands::set_projector_safe,
                $crate::commands::projector::open_projector::<$runtime>,
                $crate::commands::projector::projector_view,
                $crate::commands::projector::show_work_pick,
                $crate::commands::projector::show_work_unpick,
                $crate::commands::projector::show_work_clear,
                $crate::commands::projector::show_work_picked,
                $crate::commands::class_view::class_grid,
                $crate::commands::class_view::class_grid_rows,
                $crate::commands::class_view::cell_evidence,
                $crate::commands::class_view::class_mastery,
                $crate::commands::class_view::needs_me,
                $crate::commands::class_view::class_timeline,
                $crate::commands::class_view::pathway_catalog,
                $crate::commands::class_view::class_assignments,
                $crate::commands::class_view::assign_pathway,
                $crate::commands::class_view::import_roster,
                $crate::commands::class_view::roster_size,
                $crate::commands::class_view::suppression_k,
                $crate::commands::class_view::set_suppression_k,
                $crate::commands::class_view::knowledge_map,
                $crate::commands::class_view::knowledge_node,
                $crate::commands::class_view::idle_after_minutes,
                $crate::commands::class_view::set_idle_after_minutes,
                $crate::commands::class_view::student_page,
                $crate::commands::class_view::class_report,
                $crate::commands::class_view::pathway_map,
                $crate::commands::class_view::pathway_node,
                $crate::commands::room::class_room,
                $crate::commands::room::class_freshness,
                $crate::commands::class_view::class_groups,
                $crate::commands::class_view::save_group,
                $crate::commands::class_view::delete_group,
                $crate::commands::class_view::set_group_filter,
                $crate::commands::room::pause_class,
                $crate::commands::room::resume_class,
                $crate::commands::room::set_pacing,
                $crate::commands::desk::desk_queue,
                $crate::commands::desk::desk_claim,
                $crate::commands::desk::desk_answer,
                $crate::commands::desk::desk_coming_over,
                $crate::commands::desk::desk_decline,
                $crate::commands::desk::desk_answer_group,
                $crate::commands::desk::desk_room,
                $crate::commands::desk::desk_follow_up_done,
                $crate::commands::desk::desk_visit_done,
                $crate::commands::desk::desk_replies,
                $crate::commands::desk::desk_create_reply,
                $crate::commands::desk::desk_update_reply,
                $crate::commands::desk::desk_delete_reply,
                $crate::commands::desk::desk_set_draft,
                $crate::commands::desk::desk_settings,
                $crate::commands::desk::desk_set_muted,
                $crate::commands::export::export_settings,
                $crate::commands::export::set_export_home_page,
                $crate::commands::export::export_class,
                $crate::commands::export::cancel_export,
                $crate::recovery::recovery_view,
                $crate::recovery::recovery_restore,
                $crate::recovery::recovery_start_empty,
                $crate::recovery::recovery_use_this_computer,
                $crate::recovery::recovery_restart::<$runtime>,
            ])
            .events(tauri_specta::collect_events![
                $crate::events::ConnectionChanged,
                $crate::events::StoreChanged,
                $crate::events::HelpRequestArrived,
            ])
    };
}

/// Where the generated TypeScript bindings live (relative to this crate).
pub const BINDINGS_PATH: &str = "../ui/src/ipc/bindings.ts";

/// The exporter settings for the bindings, shared by the export test and anyone regenerating.
pub fn typescript() -> specta_typescript::Typescript {
    specta_typescript::Typescript::default().header(
        "// Generated by `cargo test -p a2learn-teacher-app` (export_bindings). Do not edit.",
    )
}

/// Points the live feeds at the host the settings name: the embedded demo host (started on
/// first use, with a demo class on a first start) or the teacher's own.
pub async fn apply_host_settings(state: &AppState) -> anyhow::Result<()> {
    let settings = state.store.host_settings().await?;
    match settings.mode {
        HostMode::Demo => {
            let host_id = state.store.demo_host_id().await?;
            let mut demo = state.demo.lock().await;
            if demo.is_none() {
                // Beside the teacher's file (a shared store's home), never the working folder.
                let dir = state
                    .store
                    .teachers_path()
                    .and_then(std::path::Path::parent)
                    .map(std::path::Path::to_path_buf)
                    .unwrap_or_default();
                *demo = Some(demo::DemoHost::start(&dir, &host_id).await?);
            }
            let target = demo.as_ref().map(|d| d.target(&host_id));
            drop(demo);
            state.live.set_target(target).await?;
            let created = state.live.ensure_demo_class().await?;
            #[cfg(feature = "test-hooks")]
            crate::demo::test_hook::on_demo_class(state, created.as_ref()).await?;
            #[cfg(not(feature = "test-hooks"))]
            drop(created); // only the test hook needs to know that a first start made the class
        }
        HostMode::Custom => {
            if let Some(demo) = state.demo.lock().await.take() {
                demo.shutdown().await;
            }
            let target = match (settings.url, settings.token) {
                (Some(url), Some(token)) => Some(HostTarget::at(&url, &token)),
                _ => None,
            };
            state.live.set_target(target).await?;
        }
    }
    Ok(())
}

/// The app's context (config and embedded assets), generated once for both ways the app runs.
fn context() -> tauri::Context<tauri::Wry> {
    tauri::generate_context!()
}

/// Opens the teacher's window (tauri.conf.json's "main", which is not created by itself) on
/// `page`: the app's own page, or the recovery page when the database cannot be opened.
fn open_main_window(app: &tauri::App, page: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut config = app
        .config()
        .app
        .windows
        .iter()
        .find(|w| w.label == "main")
        .cloned()
        .ok_or("tauri.conf.json has no \"main\" window")?;
    config.url = tauri::WebviewUrl::App(page.into());
    tauri::WebviewWindowBuilder::from_config(app.handle(), &config)?
        .initialization_script(system_language_script())
        .build()?;
    Ok(())
}

/// Tells the page the operating system's language as the Rust side reads it (`LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES`, `LANG`): the webview reports English when that locale is not
/// installed (a minimal image, a container), though the teacher's system asks for another
/// language. Nothing when the variables name none we ship (Windows, macOS: the webview's own
/// `navigator.languages` decides there).
pub(crate) fn system_language_script() -> String {
    match a2learn_teacher::i18n::Lang::named_by_env() {
        Some(lang) => format!("window.__A2LEARN_SYSTEM_LANGUAGE__ = {:?};", lang.tag()),
        None => String::new(),
    }
}

/// Starts the app: opens the store, then the window. Returns when the window closes.
pub fn run() -> ExitCode {
    a2learn_logging::init_logging();
    let flag = paths::db_flag(std::env::args());
    let db_path = match paths::default_db_location(flag.as_deref()).and_then(paths::app_db_file) {
        Ok(path) => path,
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };
    let clock: SharedClock = Arc::new(SystemClock);
    // Live spawns its tasks on the runtime Tauri runs commands on.
    let opened = tauri::async_runtime::block_on(async {
        // The teacher's file, or the school's shared store it names (with the file as its home).
        let store = Store::open_teachers(&db_path, clock.clone()).await?;
        let (live, state_rx, changes_rx) = Live::new(store.clone(), clock.clone());
        Ok::<_, a2learn_teacher::StoreError>((store, live, state_rx, changes_rx))
    });
    let (store, live, mut state_rx, changes_rx) = match opened {
        Ok(parts) => parts,
        // A file (or a shared store) the teacher can do something about: a window says what, and
        // offers a backup, or this computer in place of a shared store that does not answer.
        Err(
            err @ (a2learn_teacher::StoreError::Damaged { .. }
            | a2learn_teacher::StoreError::Missing { .. }
            | a2learn_teacher::StoreError::Newer { .. }
            | a2learn_teacher::StoreError::Connect { .. }
            | a2learn_teacher::StoreError::MigrateShared { .. }
            | a2learn_teacher::StoreError::NewerShared { .. }
            | a2learn_teacher::StoreError::Credentials(_)),
        ) => {
            return recovery::run(db_path, err, clock);
        }
        Err(err) => {
            eprintln!("error: {err}");
            return ExitCode::FAILURE;
        }
    };

    let builder = specta_builder!(tauri::Wry);
    let notifier = Arc::new(a2learn_teacher::desk::notify::DeskNotifier::new(
        store.now_ms(),
    ));
    // The latency measurement's trace of the notification path (test builds only).
    #[cfg(feature = "test-hooks")]
    let trace = crate::demo::test_hook::ChangeTrace::from_env(&store);
    let app = tauri::Builder::default()
        // Used from Rust only (commands::desk::notify_new_requests); the window's capability
        // grants the page no notification permission.
        .plugin(tauri_plugin_notification::init())
        .plugin(tauri_plugin_dialog::init())
        .invoke_handler(builder.invoke_handler())
        .manage(AppState::new(store, live))
        .setup(move |app| {
            // The OS's language until the window tells its choice (its first call).
            a2learn_teacher::error::set_window_language(a2learn_teacher::i18n::Lang::from_env());
            open_main_window(app, "index.html")?;
            builder.mount_events(app);
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                loop {
                    let state = state_rx.borrow_and_update().clone();
                    if let Err(e) = events::ConnectionChanged::from(state).emit(&handle) {
                        tracing::warn!(error = %e, "cannot emit the connection state");
                    }
                    if state_rx.changed().await.is_err() {
                        return;
                    }
                }
            });
            let handle = app.handle().clone();
            #[cfg(feature = "test-hooks")]
            let changes_rx = match &trace {
                Some(trace) => trace.clone().forward(changes_rx),
                None => changes_rx,
            };
            tauri::async_runtime::spawn(coalesce(changes_rx, COALESCE_WINDOW, move |changes| {
                let calls = changes.values().any(|c| c.changes.calls);
                #[cfg(feature = "test-hooks")]
                if let Some(trace) = &trace {
                    trace.emitted();
                }
                // Learner ids only where no room can see them (`StoreChanged::new`).
                let may_name_rows = handle.state::<AppState>().privacy() == Privacy::Names
                    && handle
                        .get_webview_window(commands::projector::PROJECTOR_LABEL)
                        .is_none();
                if let Err(e) = events::StoreChanged::new(changes, may_name_rows).emit(&handle) {
                    tracing::warn!(error = %e, "cannot emit a store change");
                }
                if calls {
                    let (handle, notifier) = (handle.clone(), notifier.clone());
                    tauri::async_runtime::spawn(async move {
                        commands::desk::notify_new_requests(&handle, &notifier).await;
                    });
                }
            }));
            let handle = app.handle().clone();
            tauri::async_runtime::spawn(async move {
                let state = handle.state::<AppState>();
                if let Err(e) = apply_host_settings(&state).await {
                    tracing::error!(error = %e, "cannot reach the configured host");
                }
                // The first class may have just been created: tell the sidebar.
                let _ = events::StoreChanged {
                    classes: true,
                    ..Default::default()
                }
                .emit(&handle);
            });
            Ok(())
        })
        .build(context());
    let app = match app {
        Ok(app) => app,
        Err(err) => {
            eprintln!("error: the window could not start: {err}");
            return ExitCode::FAILURE;
        }
    };
    app.run(|handle, event| {
        if let tauri::RunEvent::Exit = event {
            let state = handle.state::<AppState>();
            tauri::async_runtime::block_on(async {
                state.live.shutdown().await;
                if let Some(demo) = state.demo.lock().await.take() {
                    demo.shutdown().await;
                }
            });
        }
    });
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The committed TypeScript bindings must be what the commands generate: this test compares,
    /// and fails on a difference (a Rust change that alters the IPC without committing
    /// regenerated bindings). `A2LEARN_REGENERATE=1 cargo test -p a2learn-teacher-app --lib
    /// export_bindings` rewrites the committed file.
    #[test]
    fn export_bindings() {
        let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(BINDINGS_PATH);
        let dir = tempfile::tempdir().expect("temp dir");
        let fresh = dir.path().join("bindings.ts");
        specta_builder!(tauri::Wry)
            .export(typescript(), &fresh)
            .expect("bindings export");
        let text = std::fs::read_to_string(&fresh).expect("bindings written");
        assert!(
            text.contains("appStatus"),
            "the app_status command is in the bindings"
        );
        assert!(
            text.contains("connectionChanged"),
            "the event is in the bindings"
        );
        if std::env::var_os("A2LEARN_REGENERATE").is_some() {
            std::fs::write(&committed, &text).expect("bindings rewritten");
        }
        let old = std::fs::read_to_string(&committed).unwrap_or_default();
        assert!(
            old == text,
            "{} is stale (or missing): the commands generate other bindings. Regenerate them with \
             `A2LEARN_REGENERATE=1 cargo test -p a2learn-teacher-app --lib export_bindings` and \
             commit them.",
            committed.display()
        );
    }

    /// Every registered command is declared to the ACL (`commands.in`) and nothing else is: a
    /// command missing there would be denied to every window, a stale one would grant nothing.
    #[test]
    fn the_acl_lists_exactly_the_registered_commands() {
        const DECLARED: &[&str] = &include!("../commands.in");
        // The builder's own bindings, written to a file of this test's.
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("bindings.ts");
        specta_builder!(tauri::Wry)
            .export(typescript(), &path)
            .expect("bindings export");
        let text = std::fs::read_to_string(&path).expect("bindings");
        // Each command's binding calls `__TAURI_INVOKE("<name>"` (or `__TAURI_INVOKE<T>("<name>"`
        // for a command that cannot fail).
        let mut registered: Vec<&str> = text
            .split("__TAURI_INVOKE")
            .skip(1)
            .filter_map(|rest| rest.split_once("(\"")?.1.split('"').next())
            .collect();
        registered.sort_unstable();
        registered.dedup();
        let mut declared = DECLARED.to_vec();
        declared.sort_unstable();
        assert_eq!(declared, registered);
        assert!(registered.len() > 30, "the parse found the commands");
    }
}
