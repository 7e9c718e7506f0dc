//! The shell's commands through Tauri's IPC, on the mock runtime: the same invoke handler the
//! window uses, a real SQLite file behind it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod common;

use tauri::WebviewWindow;
use tauri::test::MockRuntime;

use common::{app_with, invoke_with, open_store};

fn invoke(
    webview: &WebviewWindow<MockRuntime>,
    cmd: &str,
) -> Result<serde_json::Value, serde_json::Value> {
    invoke_with(webview, cmd, serde_json::json!({}))
}

#[test]
fn app_status_reports_the_database_and_no_host() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir, 1_764_000_000_000), 0);
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
    // The date part (YYYYMMDD) of the newest migration file's version.
    let newest = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations"))
        .unwrap()
        .filter_map(|e| {
            e.unwrap()
                .file_name()
                .to_str()?
                .get(..8)?
                .parse::<i64>()
                .ok()
        })
        .max()
        .unwrap();
    assert_eq!(
        status["schema_version"], newest,
        "date part of the newest migration"
    );
}

#[test]
fn list_classes_returns_what_the_store_holds() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    let (_app, webview) = app_with(store.clone(), 0);
    assert_eq!(
        invoke(&webview, "list_classes").unwrap(),
        serde_json::json!([])
    );

    tauri::async_runtime::block_on(store.upsert_class("c-1", "Period 3", Some("QX7"))).unwrap();
    assert_eq!(
        invoke(&webview, "list_classes").unwrap(),
        serde_json::json!([{"class_id": "c-1", "title": "Period 3", "host": null,
                            "join_code": "QX7", "learners": 0, "open_requests": 0}])
    );
}

#[test]
fn a_failing_store_reaches_the_ui_as_code_and_message() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    let (_app, webview) = app_with(store.clone(), 0);
    // A closed pool makes every query fail, as a vanished disk would.
    tauri::async_runtime::block_on(store.sqlite().unwrap().close());
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
    let (_app, webview) = app_with(open_store(&dir, 1_764_000_000_000), 0);
    assert!(
        invoke(&webview, "drop_all_tables").is_err(),
        "only registered commands run"
    );
}

#[test]
fn host_settings_default_to_the_demo_and_never_return_the_token() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    let (_app, webview) = app_with(store.clone(), 0);
    let settings = invoke(&webview, "host_settings").unwrap();
    assert_eq!(
        settings,
        serde_json::json!({"mode": "demo", "url": "", "token_set": false, "token_storage": null})
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
    // No session bus in the test run: the private file, and Settings is told so.
    assert!(
        settings["token_storage"] == "file" || settings["token_storage"] == "system",
        "{settings}"
    );
    assert!(
        !settings.to_string().contains("very-secret-token"),
        "the token stays in the store"
    );
}

#[test]
fn a_bad_host_address_is_refused_next_to_its_field() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir, 1_764_000_000_000), 0);
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
    let store = open_store(&dir, 1_764_000_000_000);
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
    let (_app, webview) = app_with(store, 0);
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
