//! The shell's commands through Tauri's IPC on the mock runtime: the same invoke handler the
//! window uses, state managed by hand (`.setup()` does not run in mock apps), a real store.
#![allow(dead_code)] // each test file uses a different part

use std::sync::Arc;

use a2learn_teacher::{FixedClock, Store};
use a2learn_teacher_app::AppState;
use serde_json::Value;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};

/// A mock app over `store`, its clock pinned at `now_ms`, with its main window.
pub fn app_with(store: Store, now_ms: i64) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let builder = a2learn_teacher_app::specta_builder!(MockRuntime);
    let (live, _state, _changes) = tauri::async_runtime::block_on(async {
        a2learn_teacher::live::Live::new(store.clone(), Arc::new(FixedClock::at(now_ms)))
    });
    let app = mock_builder()
        .invoke_handler(builder.invoke_handler())
        .manage(AppState::new(store, live))
        .build(mock_context(noop_assets()))
        .expect("mock app");
    let webview = WebviewWindowBuilder::new(&app, "main", Default::default())
        .build()
        .expect("mock window");
    (app, webview)
}

/// Invokes a command as the page would; `Err` holds the `{code, message}` the UI gets.
pub fn invoke_with(
    webview: &WebviewWindow<MockRuntime>,
    cmd: &str,
    args: Value,
) -> Result<Value, Value> {
    get_ipc_response(
        webview,
        InvokeRequest {
            cmd: cmd.into(),
            callback: CallbackFn(0),
            error: CallbackFn(1),
            // On Linux the ACL accepts this origin for the app's own pages.
            url: "tauri://localhost".parse().expect("url"),
            body: InvokeBody::Json(args),
            headers: Default::default(),
            invoke_key: INVOKE_KEY.to_string(),
        },
    )
    .map(|body| body.deserialize::<Value>().expect("json body"))
}

/// A store in `dir`, its clock pinned at `now_ms`.
pub fn open_store(dir: &tempfile::TempDir, now_ms: i64) -> Store {
    tauri::async_runtime::block_on(Store::open(
        &dir.path().join("teacher.db"),
        Arc::new(FixedClock::at(now_ms)),
    ))
    .expect("store")
}
