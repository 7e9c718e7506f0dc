//! The shell's commands through Tauri's IPC, on the mock runtime: the same invoke handler the
//! window uses, a real SQLite file behind it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::sync::Arc;

use a2learn_teacher::{FixedClock, Store};
use a2learn_teacher_app::AppState;
use tauri::ipc::{CallbackFn, InvokeBody};
use tauri::test::{
    INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
};
use tauri::webview::InvokeRequest;
use tauri::{App, WebviewWindow, WebviewWindowBuilder};

fn app_with(store: Store) -> (App<MockRuntime>, WebviewWindow<MockRuntime>) {
    let builder = a2learn_teacher_app::specta_builder!(MockRuntime);
    let (live, _state, _changes) = tauri::async_runtime::block_on(async {
        a2learn_teacher::live::Live::new(store.clone(), Arc::new(FixedClock::at(0)))
    });
    // `.setup()` does not run in mock apps, so state is managed by hand.
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

fn invoke(
    webview: &WebviewWindow<MockRuntime>,
    cmd: &str,
) -> Result<serde_json::Value, serde_json::Value> {
    invoke_with(webview, cmd, serde_json::json!({}))
}

fn invoke_with(
    webview: &WebviewWindow<MockRuntime>,
    cmd: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, serde_json::Value> {
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
    .map(|body| body.deserialize::<serde_json::Value>().expect("json body"))
}

fn open_store(dir: &tempfile::TempDir) -> Store {
    tauri::async_runtime::block_on(Store::open(
        &dir.path().join("teacher.db"),
        Arc::new(FixedClock::at(1_764_000_000_000)),
    ))
    .expect("store")
}

#[test]
fn app_status_reports_the_database_and_no_host() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir));
    let status = invoke(&webview, "app_status").expect("app_status succeeds");
    assert_eq!(
        status["connection"],
        serde_json::json!({"state": "not_configured"})
    );
    assert_eq!(status["connection_label"], "no host configured");
    assert!(
        status["db_path"].as_str().unwrap().ends_with("teacher.db"),
        "the path of the file we opened: {status}"
    );
    assert_eq!(
        status["schema_version"], 20261129,
        "date part of the newest migration"
    );
}

#[test]
fn list_classes_returns_what_the_store_holds() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir);
    let (_app, webview) = app_with(store.clone());
    assert_eq!(
        invoke(&webview, "list_classes").unwrap(),
        serde_json::json!([])
    );

    tauri::async_runtime::block_on(store.upsert_class("c-1", "Period 3", Some("QX7"))).unwrap();
    assert_eq!(
        invoke(&webview, "list_classes").unwrap(),
        serde_json::json!([{"class_id": "c-1", "title": "Period 3", "join_code": "QX7",
                            "learners": 0, "open_requests": 0}])
    );
}

#[test]
fn a_failing_store_reaches_the_ui_as_code_and_message() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir);
    let (_app, webview) = app_with(store.clone());
    // A closed pool makes every query fail, as a vanished disk would.
    tauri::async_runtime::block_on(store.pool().close());
    let err = invoke(&webview, "list_classes").expect_err("list_classes fails");
    assert_eq!(err["code"], "storage", "error shape: {err}");
    assert!(
        err["message"].as_str().is_some_and(|m| !m.is_empty()),
        "a message: {err}"
    );
}

#[test]
fn unknown_commands_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir));
    assert!(
        invoke(&webview, "drop_all_tables").is_err(),
        "only registered commands run"
    );
}

#[test]
fn host_settings_default_to_the_demo_and_never_return_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir);
    let (_app, webview) = app_with(store.clone());
    let settings = invoke(&webview, "host_settings").unwrap();
    assert_eq!(
        settings,
        serde_json::json!({"mode": "demo", "url": "", "token_set": false})
    );

    tauri::async_runtime::block_on(store.save_host_settings(
        a2learn_teacher::host::settings::HostMode::Custom,
        Some("http://127.0.0.1:9/"),
        Some("very-secret-token"),
    ))
    .unwrap();
    let settings = invoke(&webview, "host_settings").unwrap();
    assert_eq!(settings["token_set"], true);
    assert_eq!(settings["url"], "http://127.0.0.1:9");
    assert!(
        !settings.to_string().contains("very-secret-token"),
        "the token stays in the store"
    );
}

#[test]
fn a_bad_host_address_is_refused_next_to_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir));
    let err = invoke_with(
        &webview,
        "save_host_settings",
        serde_json::json!({"input": {"mode": "custom", "url": "ftp://host", "token": "t"}}),
    )
    .expect_err("refused");
    assert_eq!(err["code"], "invalid_input", "{err}");
    assert!(err["message"].as_str().unwrap().contains("http"), "{err}");
    // Nothing was half-saved.
    assert_eq!(invoke(&webview, "host_settings").unwrap()["mode"], "demo");
}

#[test]
fn diagnostics_report_quarantined_frames() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir);
    tauri::async_runtime::block_on(async {
        store.upsert_class("c-1", "P3", None).await.unwrap();
        let registry = a2learn_contract::Registry::new(vec![]).unwrap();
        store
            .ingest(
                "c-1",
                &registry,
                vec![a2learn_teacher::store::Incoming::Frame {
                    id: Some("4".into()),
                    data: "<img src=x onerror=alert(1)>".into(),
                }],
            )
            .await
            .unwrap();
    });
    let (_app, webview) = app_with(store);
    let d = invoke(&webview, "diagnostics").unwrap();
    assert_eq!(
        d["by_rule"],
        serde_json::json!([{"rule_id": "bad-frame", "count": 1}])
    );
    assert_eq!(d["recent"][0]["seq"], 4.0);
    assert_eq!(
        d["recent"][0]["raw"], "<img src=x onerror=alert(1)>",
        "kept as text"
    );
}
