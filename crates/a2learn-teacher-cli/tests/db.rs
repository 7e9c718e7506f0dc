//! `a2learn-teacher db backup` and `db restore`, run as a teacher runs them.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::path::Path;
use std::process::{Command, Output};
use std::sync::Arc;

use a2learn_teacher::{FixedClock, Store};

fn cli(db: &Path) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"));
    cmd.env_remove("A2LEARN_TEACHER_DB").arg("--db").arg(db);
    cmd
}

fn ok(out: Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `db info --json`'s row counts, by table.
fn counts(db: &Path) -> serde_json::Value {
    let json = ok(cli(db).args(["db", "info", "--json"]).output().unwrap());
    let info: serde_json::Value = serde_json::from_str(&json).unwrap();
    info["row_counts"].clone()
}

fn rt() -> tokio::runtime::Runtime {
    tokio::runtime::Runtime::new().unwrap()
}

/// A database with `classes` classes and a setting.
fn fill(db: &Path, classes: &[&str]) {
    rt().block_on(async {
        let store = Store::open(db, Arc::new(FixedClock::at(1_000)))
            .await
            .unwrap();
        for id in classes {
            store.upsert_class(id, "Period", None).await.unwrap();
        }
        store.set_setting("host_url", "http://x").await.unwrap();
        // Everything into the main file before the tests read or damage its bytes: closing the
        // pool may leave pages in the WAL, from which SQLite would read a page the test
        // overwrote (seen: a zeroed header that still opened in CI).
        let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(store.sqlite().unwrap())
            .await
            .unwrap();
        assert_eq!(busy, 0, "the checkpoint ran to the end");
        store.close().await;
    });
}

#[test]
fn backup_then_restore_brings_every_row_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a", "b", "c"]);
    let at_backup = counts(&db);
    let copy = dir.path().join("saved/copy.db");
    let text = ok(cli(&db)
        .args(["db", "backup", "--out"])
        .arg(&copy)
        .output()
        .unwrap());
    assert!(text.contains("backed up"), "{text}");
    // A second backup to the same file is refused.
    let again = cli(&db)
        .args(["db", "backup", "--out"])
        .arg(&copy)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));

    fill(&db, &["d", "e"]);
    let changed = counts(&db);
    assert_ne!(changed, at_backup, "negative control: the rows differ now");

    let text = ok(cli(&db)
        .args(["db", "restore", "--from"])
        .arg(&copy)
        .output()
        .unwrap());
    assert!(text.contains("restored"), "{text}");
    assert!(text.contains("before-restore"), "{text}");
    assert_eq!(counts(&db), at_backup, "every table's rows as backed up");
    let kept = dir.path().join("teacher.db.before-restore");
    assert_eq!(counts(&kept), changed, "the replaced file is kept whole");
}

#[test]
fn restoring_a_damaged_file_is_refused_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a", "b"]);
    let copy = dir.path().join("copy.db");
    ok(cli(&db)
        .args(["db", "backup", "--out"])
        .arg(&copy)
        .output()
        .unwrap());
    let mut bytes = std::fs::read(&copy).unwrap();
    let bad = dir.path().join("bad.db");
    let cut = dir.path().join("cut.db");
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    bytes[..100].fill(0x5a);
    std::fs::write(&bad, &bytes).unwrap();

    // Close everything so the main file is all there is, then remember it.
    let before = std::fs::read(&db).unwrap();
    for from in [&bad, &cut] {
        let out = cli(&db)
            .args(["db", "restore", "--from"])
            .arg(from)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{from:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("damaged"), "{err}");
        assert!(err.contains("was not changed"), "{err}");
        assert_eq!(std::fs::read(&db).unwrap(), before, "{from:?}");
        assert!(!dir.path().join("teacher.db.before-restore").exists());
    }
    // Negative control: the intact copy restores.
    ok(cli(&db)
        .args(["db", "restore", "--from"])
        .arg(&copy)
        .output()
        .unwrap());
}

#[test]
fn a_damaged_database_is_named_with_the_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a"]);
    let mut bytes = std::fs::read(&db).unwrap();
    bytes[..100].fill(0);
    std::fs::write(&db, &bytes).unwrap();
    let out = cli(&db).args(["db", "info"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&db.display().to_string()), "{err}");
    assert!(err.contains("is damaged"), "{err}");
    assert!(err.contains("a2learn-teacher db restore"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn restoring_a_backup_from_a_newer_app_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a"]);
    let newer = dir.path().join("newer.db");
    ok(cli(&db)
        .args(["db", "backup", "--out"])
        .arg(&newer)
        .output()
        .unwrap());
    // Negative control: before it is made newer, the backup restores.
    ok(cli(&db)
        .args(["db", "restore", "--from"])
        .arg(&newer)
        .output()
        .unwrap());
    rt().block_on(async {
        use sqlx::Connection;
        let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&newer);
        let mut conn = sqlx::SqliteConnection::connect_with(&options)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO _sqlx_migrations (version, description, success, checksum, \
             execution_time) VALUES (20270101000000, 'future', 1, X'00', 0)",
        )
        .execute(&mut conn)
        .await
        .unwrap();
        conn.close().await.unwrap();
    });
    let before = std::fs::read(&db).unwrap();
    let out = cli(&db)
        .args(["db", "restore", "--from"])
        .arg(&newer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("newer version of a2learn Teacher"), "{err}");
    assert!(err.contains("schema 20270101000000"), "{err}");
    assert_eq!(
        std::fs::read(&db).unwrap(),
        before,
        "the current file stays"
    );
}

/// A lost database file whose automatic backups are still there is not silently replaced by an
/// empty one: the command fails and names the restore to run, which brings the rows back.
#[test]
fn a_lost_database_is_named_with_its_newest_backup() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a", "b"]);
    // The CLI's first open of the day makes the automatic backup.
    ok(cli(&db).args(["db", "info"]).output().unwrap());
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(format!("{}{ext}", db.display()));
    }
    let out = cli(&db).args(["db", "info"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("is missing"), "{err}");
    assert!(!db.exists(), "no empty database in its place");
    let from = err
        .split("db restore --from ")
        .nth(1)
        .and_then(|rest| rest.split('`').next())
        .unwrap_or_else(|| panic!("names the restore to run: {err}"));
    ok(cli(&db)
        .args(["db", "restore", "--from", from])
        .output()
        .unwrap());
    let classes = counts(&db)
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row[0] == "classes")
        .map(|row| row[1].clone());
    assert_eq!(classes, Some(2.into()), "the backup's classes are back");
}

/// The bytes of a database file and its WAL.
fn on_disk(db: &Path) -> u64 {
    let wal = db.with_extension("db-wal");
    [db, wal.as_path()]
        .iter()
        .map(|p| std::fs::metadata(p).map_or(0, |m| m.len()))
        .sum()
}

#[test]
fn compact_gives_freed_pages_back_and_keeps_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    fill(&db, &["a", "b", "c"]);
    // Eight megabytes written, then replaced: SQLite keeps their pages free inside the file.
    rt().block_on(async {
        let store = Store::open(&db, Arc::new(FixedClock::at(2_000)))
            .await
            .unwrap();
        store
            .set_setting("scratch", &"x".repeat(8_000_000))
            .await
            .unwrap();
        store.set_setting("scratch", "kept").await.unwrap();
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(store.sqlite().unwrap())
            .await
            .unwrap();
        store.close().await;
    });
    let at_compact = counts(&db);
    let before = on_disk(&db);
    assert!(
        before > 8_000_000,
        "control: the free pages are in the file ({before})"
    );

    let out = ok(cli(&db).args(["db", "compact"]).output().unwrap());
    assert!(
        out.contains("MB before") && out.contains("MB after"),
        "{out}"
    );
    let after = on_disk(&db);
    assert!(after < 1_000_000, "{before} -> {after} bytes");
    assert_eq!(counts(&db), at_compact, "every row kept");
    rt().block_on(async {
        let store = Store::open(&db, Arc::new(FixedClock::at(3_000)))
            .await
            .unwrap();
        assert_eq!(
            store.setting("scratch").await.unwrap().as_deref(),
            Some("kept")
        );
        store.close().await;
    });
}

#[test]
fn compact_refuses_a_shared_store_and_names_the_way_instead() {
    let out = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .env_remove("A2LEARN_TEACHER_DB")
        .args([
            "--db",
            "postgres://teacher:s3cret-pw@127.0.0.1:9/district",
            "db",
            "compact",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("`db compact`") && err.contains("VACUUM FULL"),
        "{err}"
    );
    assert!(
        !err.contains("s3cret-pw"),
        "the password stays out of the message: {err}"
    );
}
