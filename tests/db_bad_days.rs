//! The database's bad days, on real files: a file from a newer app, a damaged file, backups
//! (on demand, before a migration, daily with rotation).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::path::{Path, PathBuf};
use std::sync::Arc;

use a2learn_teacher::error::Coded;
use a2learn_teacher::store::{KEEP_BACKUPS, list_backups, newest_known};
use a2learn_teacher::{ErrorCode, FixedClock, Store, StoreError};
use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

/// 2026-12-01T14:00:00Z.
const T0: i64 = 1_796_133_600_000;
const DAY: i64 = 24 * 60 * 60 * 1000;
const FUTURE: i64 = 20270101000000;

async fn open_at(path: &Path, clock: &FixedClock) -> Result<Store, StoreError> {
    Store::open(path, Arc::new(clock.clone())).await
}

/// Moves every committed page into the main file. sqlx's `close` returns before SQLite's own
/// close (which checkpoints) is done on the worker thread, so a test reading the file's bytes
/// checkpoints first.
async fn checkpoint(conn: &mut SqliteConnection) {
    let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(busy, 0, "checkpointed");
}

/// A database with a few rows, closed, everything in the main file.
async fn filled(path: &Path) {
    let store = open_at(path, &FixedClock::at(T0)).await.unwrap();
    store.upsert_class("c1", "Period 3", None).await.unwrap();
    store.upsert_class("c2", "Period 4", None).await.unwrap();
    checkpoint(&mut store.sqlite().unwrap().acquire().await.unwrap()).await;
    store.close().await;
}

/// The ids of the store's classes, in its order.
async fn class_ids(store: &Store) -> Vec<String> {
    store
        .classes()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.class_id)
        .collect()
}

/// A plain connection that follows the file's own journal mode and runs no migration.
async fn raw(path: &Path) -> SqliteConnection {
    SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .unwrap()
}

/// Records a migration this build does not know, as a newer app would, all in the main file.
async fn from_the_future(path: &Path) {
    let mut conn = raw(path).await;
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (?, 'from the future', 1, X'00', 0)",
    )
    .bind(FUTURE)
    .execute(&mut conn)
    .await
    .unwrap();
    checkpoint(&mut conn).await;
    conn.close().await.unwrap();
}

fn side(path: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}{ext}", path.display()))
}

async fn version_of(path: &Path) -> i64 {
    let mut conn = raw(path).await;
    let v: i64 = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    v
}

#[tokio::test]
async fn a_database_from_a_newer_app_is_refused_and_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    // Negative control: the same file, without the future migration, opens (twice).
    open_at(&path, &FixedClock::at(T0))
        .await
        .unwrap()
        .close()
        .await;

    from_the_future(&path).await;
    let before = std::fs::read(&path).unwrap();
    let backups_before = list_backups(&path);

    // A day later, so a daily backup would be due if the open got that far.
    let err = open_at(&path, &FixedClock::at(T0 + 2 * DAY))
        .await
        .unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, StoreError::Newer { .. }), "{err:?}");
    assert_eq!(err.code(), ErrorCode::Storage);
    for needle in [
        "written by a newer version of a2learn Teacher",
        &format!("schema {FUTURE}"),
        &format!("this app knows up to {}", newest_known()),
        "Update the app; the file was not changed.",
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the main file is byte for byte what it was"
    );
    let wal = std::fs::metadata(side(&path, "-wal")).map_or(0, |m| m.len());
    assert_eq!(
        wal, 0,
        "no WAL frames left to be checkpointed into it later"
    );
    assert_eq!(
        list_backups(&path),
        backups_before,
        "no backup either: nothing ran"
    );

    // What sqlx alone says about that file (on a copy): not what the teacher should read.
    let copy = dir.path().join("copy.db");
    std::fs::copy(&path, &copy).unwrap();
    let mut conn = raw(&copy).await;
    let sqlx_err = a2learn_teacher::store::MIGRATOR
        .run(&mut conn)
        .await
        .unwrap_err();
    assert!(
        matches!(
            sqlx_err,
            sqlx::migrate::MigrateError::VersionMissing(FUTURE)
        ),
        "{sqlx_err:?}"
    );
    assert!(!sqlx_err.to_string().contains("newer version"));
}

/// Opens a damaged file and checks the error (its reason holds `why`), and that the file was
/// not touched.
async fn assert_damaged(path: &Path, why: &str) {
    let before = std::fs::read(path).unwrap();
    let err = open_at(path, &FixedClock::at(T0 + 2 * DAY))
        .await
        .unwrap_err();
    let message = err.to_string();
    assert!(matches!(err, StoreError::Damaged { .. }), "{err:?}");
    assert_eq!(err.code(), ErrorCode::Storage);
    for needle in [
        &path.display().to_string(),
        "is damaged",
        "a2learn-teacher db restore",
        "backups",
        why,
    ] {
        assert!(message.contains(needle), "{needle:?} in {message}");
    }
    assert_eq!(std::fs::read(path).unwrap(), before, "left as it was");
}

#[tokio::test]
async fn a_file_with_a_garbage_header_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    let mut bytes = std::fs::read(&path).unwrap();
    // Negative control: an intact copy opens.
    let intact = dir.path().join("intact.db");
    std::fs::write(&intact, &bytes).unwrap();
    open_at(&intact, &FixedClock::at(T0))
        .await
        .unwrap()
        .close()
        .await;

    for (i, b) in bytes.iter_mut().take(100).enumerate() {
        *b = (i as u8).wrapping_mul(37).wrapping_add(11);
    }
    std::fs::write(&path, &bytes).unwrap();
    assert_damaged(&path, "does not start with a SQLite header").await;
}

#[tokio::test]
async fn a_file_cut_to_half_its_length_is_damaged() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    let bytes = std::fs::read(&path).unwrap();
    assert!(bytes.len() >= 8 * 4096, "{} bytes", bytes.len());
    let intact = dir.path().join("intact.db");
    std::fs::write(&intact, &bytes).unwrap();
    open_at(&intact, &FixedClock::at(T0))
        .await
        .unwrap()
        .close()
        .await;

    std::fs::write(&path, &bytes[..bytes.len() / 2]).unwrap();
    assert_damaged(&path, "it was cut short").await;
}

#[tokio::test]
async fn backup_to_copies_a_live_database_and_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    let store = open_at(&path, &FixedClock::at(T0)).await.unwrap();
    store.upsert_class("c3", "Period 5", None).await.unwrap();
    let dest = dir.path().join("out/copy.db");
    store.backup_to(&dest).await.unwrap();
    // Negative control: a change after the backup is not in it.
    store.upsert_class("c4", "Period 6", None).await.unwrap();
    let err = store.backup_to(&dest).await.unwrap_err();
    assert!(err.to_string().contains("already exists"), "{err}");
    store.close().await;

    let copy = Store::open_with(
        &dest,
        Arc::new(FixedClock::at(T0)),
        a2learn_teacher::store::OpenOptions {
            automatic_backups: false,
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let titles: Vec<String> = copy
        .classes()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.title)
        .collect();
    assert_eq!(titles.len(), 3, "{titles:?}");
    assert!(!titles.iter().any(|t| t == "Period 6"), "{titles:?}");
}

#[tokio::test]
async fn a_daily_backup_on_open_keeps_the_last_seven() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    let clock = FixedClock::at(T0);
    filled(&path).await;
    assert!(
        list_backups(&path).is_empty(),
        "a new file is not backed up"
    );

    let mut made = Vec::new();
    for day in 1..=9 {
        clock.advance(DAY);
        let store = open_at(&path, &clock).await.unwrap();
        store
            .upsert_class(&format!("d{day}"), "Day", None)
            .await
            .unwrap();
        store.close().await;
        let backups = list_backups(&path);
        assert_eq!(
            backups.len(),
            day.min(KEEP_BACKUPS),
            "after day {day}: {backups:?}"
        );
        made.push(backups.last().unwrap().1.clone());
        // Negative control: a second open an hour later makes none.
        clock.advance(60 * 60 * 1000);
        open_at(&path, &clock).await.unwrap().close().await;
        assert_eq!(list_backups(&path).len(), day.min(KEEP_BACKUPS));
        clock.advance(-60 * 60 * 1000);
    }
    let kept: Vec<PathBuf> = list_backups(&path).into_iter().map(|(_, p)| p).collect();
    assert_eq!(kept, made[2..].to_vec(), "the two oldest were deleted");
    let first = kept[0].file_name().unwrap().to_str().unwrap().to_string();
    assert_eq!(first, "teacher-20261204T140000Z.db");
    // Each holds the rows as they were that morning.
    let mut conn = raw(&kept[0]).await;
    let classes: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM classes")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(classes, 2 + 2, "c1, c2, d1, d2");
}

#[tokio::test]
async fn an_older_schema_is_backed_up_before_it_is_migrated() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    let clock = FixedClock::at(T0);
    filled(&path).await;
    let before_migration = |path: &Path| -> Vec<PathBuf> {
        list_backups(path)
            .into_iter()
            .map(|(_, p)| p)
            .filter(|p| p.to_string_lossy().ends_with("-before-migration.db"))
            .collect()
    };
    // Negative control: an up-to-date file reopened makes no pre-migration backup (only the
    // day's first backup).
    open_at(&path, &clock).await.unwrap().close().await;
    assert!(before_migration(&path).is_empty());
    assert_eq!(list_backups(&path).len(), 1);

    // Make it the file the previous release left: the last migration undone and unrecorded (it
    // makes the learner groups' tables: without them, it runs again as it did).
    let newest = newest_known();
    let mut conn = raw(&path).await;
    for undo in [
        "DROP TABLE learner_group_members",
        "DROP TABLE learner_groups",
    ] {
        sqlx::query(undo).execute(&mut conn).await.unwrap();
    }
    sqlx::query("DELETE FROM _sqlx_migrations WHERE version = ?")
        .bind(newest)
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let older = version_of(&path).await;
    assert!(older < newest);

    let store = open_at(&path, &clock).await.unwrap();
    assert_eq!(store.schema_version().await.unwrap(), newest, "migrated");
    store.close().await;
    let backups = before_migration(&path);
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert_eq!(
        backups[0].file_name().unwrap().to_str().unwrap(),
        "teacher-20261201T140000Z-before-migration.db"
    );
    assert_eq!(
        version_of(&backups[0]).await,
        older,
        "taken before the migration ran"
    );
    assert_eq!(list_backups(&path).len(), 2, "no daily one: today's exists");
    open_at(&path, &clock).await.unwrap().close().await;
    assert_eq!(before_migration(&path).len(), 1, "nothing more to migrate");
}

#[tokio::test]
async fn a_damaged_file_is_offered_its_newest_backup_and_a_newer_file_none() {
    use a2learn_teacher::views::recovery::{self, RecoveryProblem};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    // A day later the open makes a daily backup (of c1 and c2); c3 comes after it.
    let store = open_at(&path, &FixedClock::at(T0 + DAY)).await.unwrap();
    store.upsert_class("c3", "Period 5", None).await.unwrap();
    checkpoint(&mut store.sqlite().unwrap().acquire().await.unwrap()).await;
    store.close().await;
    let backups = list_backups(&path);
    let (newest_at, newest) = backups.last().cloned().expect("a daily backup");
    assert_eq!(newest_at, T0 + DAY);

    let mut bytes = std::fs::read(&path).unwrap();
    bytes[..16].copy_from_slice(b"not a database!!");
    std::fs::write(&path, &bytes).unwrap();
    let err = open_at(&path, &FixedClock::at(T0 + 2 * DAY))
        .await
        .unwrap_err();
    let view = recovery::view(&path, &err);
    assert_eq!(view.problem, RecoveryProblem::Damaged);
    assert!(view.message.contains("is damaged"), "{}", view.message);
    let offered = view.backup.expect("the newest backup is offered");
    assert_eq!(
        offered.file_name,
        newest.file_name().unwrap().to_string_lossy()
    );
    assert_eq!(offered.taken_at_ms, newest_at as f64);

    recovery::restore_newest(&path).await.unwrap();
    let store = open_at(&path, &FixedClock::at(T0 + 2 * DAY)).await.unwrap();
    let ids = class_ids(&store).await;
    assert_eq!(ids, ["c1", "c2"], "the backup's classes, as of its day");
    store.close().await;
    assert!(
        a2learn_teacher::paths::before_restore_path(&path).exists(),
        "the damaged file is kept"
    );

    // A file from a newer app is not offered a restore, even with backups beside it.
    from_the_future(&path).await;
    let err = open_at(&path, &FixedClock::at(T0 + 2 * DAY))
        .await
        .unwrap_err();
    assert!(!list_backups(&path).is_empty());
    let view = recovery::view(&path, &err);
    assert_eq!(view.problem, RecoveryProblem::Newer);
    assert_eq!(view.backup, None);
}

#[tokio::test]
async fn with_no_backup_there_is_nothing_to_restore() {
    use a2learn_teacher::views::recovery;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    std::fs::write(&path, vec![7u8; 8192]).unwrap();
    let err = open_at(&path, &FixedClock::at(T0)).await.unwrap_err();
    let view = recovery::view(&path, &err);
    assert_eq!(view.backup, None);
    let refused = recovery::restore_newest(&path).await.unwrap_err();
    assert!(
        refused.to_string().contains("no automatic backup"),
        "{refused}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        vec![7u8; 8192],
        "left as it was"
    );
}

/// A database file that is gone while its automatic backups are not: no new empty file is made
/// in its place (the teacher would see empty classes and think the results lost); the newest
/// backup is offered, and restoring it brings the classes back. Or the teacher starts afresh.
#[tokio::test]
async fn a_lost_file_with_backups_is_not_replaced_by_an_empty_one() {
    use a2learn_teacher::views::recovery::{self, RecoveryProblem};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    filled(&path).await;
    // The next day's open makes the automatic backup (c1, c2).
    open_at(&path, &FixedClock::at(T0 + DAY))
        .await
        .unwrap()
        .close()
        .await;
    let backups = list_backups(&path);
    assert_eq!(backups.len(), 1);
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(side(&path, ext));
    }

    let err = open_at(&path, &FixedClock::at(T0 + 2 * DAY))
        .await
        .unwrap_err();
    assert!(matches!(err, StoreError::Missing { .. }), "{err:?}");
    let message = err.to_string();
    assert!(message.contains("is missing"), "{message}");
    assert!(
        message.contains(&format!("db restore --from {}", backups[0].1.display())),
        "names the newest backup: {message}"
    );
    assert!(!path.exists(), "nothing was created in its place");
    let view = recovery::view(&path, &err);
    assert_eq!(view.problem, RecoveryProblem::Missing);
    let offered = view.backup.expect("the newest backup is offered");
    assert_eq!(
        offered.file_name,
        backups[0].1.file_name().unwrap().to_string_lossy()
    );

    recovery::restore_newest(&path).await.unwrap();
    let store = open_at(&path, &FixedClock::at(T0 + 2 * DAY)).await.unwrap();
    let ids = class_ids(&store).await;
    assert_eq!(ids, ["c1", "c2"], "the backup's classes are back");
    store.close().await;

    // Lost again: the teacher starts afresh instead; the backups stay.
    for ext in ["", "-wal", "-shm"] {
        let _ = std::fs::remove_file(side(&path, ext));
    }
    let clock = Arc::new(FixedClock::at(T0 + 3 * DAY));
    recovery::start_empty(&path, clock.clone()).await.unwrap();
    let store = Store::open(&path, clock.clone()).await.unwrap();
    assert!(store.classes().await.unwrap().is_empty(), "a new database");
    store.close().await;
    assert!(!list_backups(&path).is_empty(), "the backups stay");
    // Negative control: never over a file that is there.
    let refused = recovery::start_empty(&path, clock).await.unwrap_err();
    assert!(refused.to_string().contains("exists"), "{refused}");
}

/// Negative control: a first start (no file, no backups) creates the database as always.
#[tokio::test]
async fn a_first_start_without_backups_creates_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    let store = open_at(&path, &FixedClock::at(T0)).await.unwrap();
    store.close().await;
    assert!(path.exists());
}
