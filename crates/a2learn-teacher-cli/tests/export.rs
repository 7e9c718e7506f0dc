//! The `export` command as a user runs it: a file written, a warning for names, its own exit
//! code when the privacy check refuses.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/export_class.rs"]
mod export_class;
#[path = "../../../tests/support/mod.rs"]
mod support;

use std::process::Command;

use a2learn_teacher::Store;
use export_class::{A, CANARY_A, CANARY_B, CLASS, class_store, fill_class, no_canary};
use support::engines::{Engine, TestDb};

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
        "UPDATE ledger SET payload = json_set(payload, '$.prose', 'Bartholomew Snorkeldink did it') \
         WHERE name = 'a2learn.widget_completed'",
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

/// `--home FILE` beside `--db postgres://…`: the names come from the teacher's file, so an
/// identified export works and a default one stays anonymous; `--home` beside a teacher's own
/// file is refused (that file keeps its names itself).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_names_learners_from_the_home_beside_a_shared_store() {
    let Some(shared) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    fill_class(&shared.store).await;
    let dir = tempfile::tempdir().unwrap();
    let home = support::open_store(&dir).await;
    let roster = a2learn_teacher::roster::parse_roster_csv(&format!(
        "anonymous_id,display_name\n{A},{CANARY_A}\n"
    ))
    .unwrap();
    home.ensure_class(CLASS).await.unwrap();
    home.import_roster(CLASS, &roster).await.unwrap();
    let home_path = home.path().unwrap().to_path_buf();
    home.close().await;
    let out = dir.path().join("class.csv");
    let run = |db: &str, extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .env_remove("A2LEARN_TEACHER_DB")
            .args(["--db", db, "--home"])
            .arg(&home_path)
            .args(["export", "--class", CLASS, "--format", "csv", "--out"])
            .arg(&out)
            .args(extra)
            .output()
            .unwrap()
    };
    let named = run(&shared.location, &["--identified"]);
    let stderr = String::from_utf8_lossy(&named.stderr);
    assert!(named.status.success(), "{stderr}");
    assert!(std::fs::read_to_string(&out).unwrap().contains(CANARY_A));
    let anonymous = run(&shared.location, &[]);
    assert!(anonymous.status.success());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.contains(A), "{text}");
    no_canary(&text);
    assert!(!text.contains(CANARY_B));

    let file_db = dir.path().join("other.db");
    let refused = run(file_db.to_str().unwrap(), &[]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--home goes with a shared store"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
}
