//! The store on a real SQLite file: settings it must open with, migrations, reopening.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::sync::Arc;

use a2learn_teacher::{FixedClock, Store};

async fn open(path: &std::path::Path) -> Store {
    Store::open(path, Arc::new(FixedClock::at(1_000)))
        .await
        .expect("open store")
}

#[tokio::test]
async fn opens_a_fresh_file_with_wal_normal_sync_and_foreign_keys() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("nested/folder/teacher.db");
    let store = open(&path).await;
    assert!(path.exists(), "the file and its folders are created");

    let journal: String = sqlx::query_scalar("PRAGMA journal_mode")
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap();
    assert_eq!(journal, "wal");
    let sync: i64 = sqlx::query_scalar("PRAGMA synchronous")
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap();
    assert_eq!(sync, 1, "synchronous=NORMAL");
    let fk: i64 = sqlx::query_scalar("PRAGMA foreign_keys")
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap();
    assert_eq!(fk, 1, "foreign keys enforced");
    let busy: i64 = sqlx::query_scalar("PRAGMA busy_timeout")
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap();
    assert!(busy >= 5_000, "writers wait for each other, got {busy} ms");
    store.close().await;
}

#[tokio::test]
async fn migrations_run_once_and_reopen_keeps_data() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    let store = open(&path).await;
    let version = store.schema_version().await.unwrap();
    assert!(
        version >= 20261129000001,
        "the foundation migration is applied: {version}"
    );
    store
        .upsert_class("class-a", "Period 3", Some("JOIN-1"))
        .await
        .unwrap();
    store
        .set_setting("host_url", "http://127.0.0.1:9")
        .await
        .unwrap();
    store.close().await;

    let store = open(&path).await;
    assert_eq!(
        store.schema_version().await.unwrap(),
        version,
        "no migration re-applied"
    );
    let classes = store.classes().await.unwrap();
    assert_eq!(classes.len(), 1);
    assert_eq!(classes[0].title, "Period 3");
    assert_eq!(classes[0].join_code.as_deref(), Some("JOIN-1"));
    assert_eq!(
        classes[0].created_at, 1_000,
        "time comes from the injected clock"
    );
    assert_eq!(
        store.setting("host_url").await.unwrap().as_deref(),
        Some("http://127.0.0.1:9")
    );
    assert_eq!(store.setting("missing").await.unwrap(), None);
}

#[tokio::test]
async fn info_counts_rows_per_table() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("t.db")).await;
    store.upsert_class("a", "A", None).await.unwrap();
    store.upsert_class("b", "B", None).await.unwrap();
    // An upsert of a known class is an update, not a second row, and keeps the join code.
    store.upsert_class("a", "A renamed", None).await.unwrap();
    let info = store.info().await.unwrap();
    let count = |name: &str| {
        info.row_counts
            .iter()
            .find(|(t, _)| t == name)
            .map(|(_, c)| *c)
    };
    assert_eq!(count("classes"), Some(2));
    assert_eq!(count("settings"), Some(0));
    assert_eq!(
        count("_sqlx_migrations"),
        None,
        "bookkeeping tables are not listed"
    );
    assert_eq!(store.classes().await.unwrap()[0].title, "A renamed");
}

#[tokio::test]
async fn bad_input_is_refused_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("t.db")).await;
    let err = store.upsert_class("c", "   ", None).await.unwrap_err();
    assert!(err.to_string().contains("title"), "{err}");
    let err = store
        .upsert_class("c", &"x".repeat(201), None)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("at most 200"), "{err}");
    assert!(
        store
            .upsert_class("c", &"x".repeat(200), None)
            .await
            .is_ok(),
        "200 is the limit"
    );
    let ui: a2learn_teacher::UiError = store.set_setting("", "v").await.unwrap_err().into();
    assert_eq!(ui.code, a2learn_teacher::ErrorCode::InvalidInput);
}

#[tokio::test]
async fn a_path_that_cannot_be_created_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("plain-file");
    std::fs::write(&file, b"not a folder").unwrap();
    let err = Store::open(&file.join("teacher.db"), Arc::new(FixedClock::at(0)))
        .await
        .unwrap_err();
    assert!(
        err.to_string().contains("cannot create the folder"),
        "{err}"
    );
}

#[tokio::test]
async fn assignments_made_in_the_same_millisecond_keep_the_order_they_were_made() {
    // The demo class assigns every pathway within a millisecond or two; its learners work
    // through them in that order, so the class page must open on the first one made (ids are
    // random: ordering by id showed a pathway nobody had reached yet).
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("t.db")).await;
    store.upsert_class("c1", "P3", None).await.unwrap();
    for (id, pathway) in [("asg-z", "first"), ("asg-m", "second"), ("asg-a", "third")] {
        store
            .upsert_assignment(id, "c1", pathway, None, None)
            .await
            .unwrap();
    }
    let order: Vec<String> = store
        .assignments("c1")
        .await
        .unwrap()
        .into_iter()
        .map(|a| a.pathway_id)
        .collect();
    assert_eq!(order, ["first", "second", "third"]);
}

#[tokio::test]
async fn a_roster_import_replaces_the_class_roster_whole() {
    use a2learn_teacher::roster::parse_roster_csv;
    let dir = tempfile::tempdir().unwrap();
    let store = open(&dir.path().join("t.db")).await;
    store.upsert_class("c1", "P3", None).await.unwrap();
    let first =
        parse_roster_csv("anonymous_id,display_name\nanon_aaaa1111,Ada\nanon_bbbb2222,Grace\n")
            .unwrap();
    store.import_roster("c1", &first).await.unwrap();
    let roster = store.roster("c1").await.unwrap();
    assert_eq!(roster.name("anon_aaaa1111"), Some("Ada"));
    assert_eq!(roster.len(), 2);
    let second = parse_roster_csv("anonymous_id,display_name\nanon_cccc3333,Alan\n").unwrap();
    store.import_roster("c1", &second).await.unwrap();
    let roster = store.roster("c1").await.unwrap();
    assert_eq!(roster.name("anon_aaaa1111"), None, "the old roster is gone");
    assert_eq!(roster.name("anon_cccc3333"), Some("Alan"));
    assert!(store.roster("other").await.unwrap().is_empty());
    assert_eq!(store.all_roster_names().await.unwrap(), vec!["Alan"]);
    // A roster for a class the store does not know is refused (foreign key), and leaves the
    // existing roster alone.
    assert!(store.import_roster("nope", &first).await.is_err());
    assert_eq!(store.roster("c1").await.unwrap().len(), 1);
}
