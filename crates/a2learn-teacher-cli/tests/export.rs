//! The `export` command as a user runs it: a file written, a warning for names, its own exit
//! code when the privacy check refuses.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/export_class.rs"]
mod export_class;
#[path = "../../../tests/support/mod.rs"]
mod support;

use std::process::Command;

use a2learn_teacher::Store;
use export_class::{CANARY_A, CLASS, class_store, no_canary};

#[tokio::test]
async fn the_cli_exports_and_refuses_with_its_own_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let db = store.path().expect("a SQLite store").to_path_buf();
    store.close().await;
    let bin = env!("CARGO_BIN_EXE_a2learn-teacher");
    let out = dir.path().join("x.json");
    let run = |extra: &[&str]| {
        Command::new(bin)
            .arg("--db")
            .arg(&db)
            .args(["export", "--class", CLASS, "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let ok = run(&["--format", "xapi", "--home-page", "https://school.example"]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    no_canary(&text);
    assert!(text.contains("https://school.example/pathways"));
    let named = run(&["--format", "csv", "--identified"]);
    assert!(named.status.success());
    assert!(String::from_utf8_lossy(&named.stderr).contains("warning"));
    assert!(std::fs::read_to_string(&out).unwrap().contains(CANARY_A));
    let bad = run(&["--format", "pdf"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("standards-csv"));

    // A leaky prose: exit code 3, the message names line and field, not the name.
    let store = Store::open(&db, std::sync::Arc::new(a2learn_teacher::SystemClock))
        .await
        .unwrap();
    sqlx::query(
        "UPDATE results SET payload = json_set(payload, '$.prose', 'Bartholomew Snorkeldink did it')",
    )
    .execute(store.sqlite().unwrap())
    .await
    .unwrap();
    store.close().await;
    let blocked = run(&["--format", "jsonl"]);
    assert_eq!(blocked.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&blocked.stderr);
    assert!(stderr.contains("line 1, field payload.prose"), "{stderr}");
    no_canary(&stderr);
}
