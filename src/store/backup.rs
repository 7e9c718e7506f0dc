//! Backups: `VACUUM INTO` copies of the live database, made on demand (`db backup`), before a
//! migration changes an existing file's schema, and once a day on open; `db restore`; and
//! `db compact`, the same rewrite in place.
//!
//! Automatic backups go to `backups/` beside the database, named `<stem>-<UTC time>.db`
//! (`teacher-20261201T140000Z.db`, or `…Z-before-migration.db`), so their names sort by time
//! and the time is read from the name, never from the file system's clock. The last
//! [`KEEP_BACKUPS`] are kept.

use std::path::{Path, PathBuf};

use sqlx::SqlitePool;
use time::macros::format_description;

use super::{Store, StoreError, health};

/// How many automatic backups are kept; older ones are deleted.
pub const KEEP_BACKUPS: usize = 7;

/// A daily backup is made on open when the newest is at least this old.
pub const DAILY_MS: i64 = 24 * 60 * 60 * 1000;

const STAMP: &[time::format_description::BorrowedFormatItem<'static>] =
    format_description!("[year][month][day]T[hour][minute][second]Z");

/// Why an automatic backup was made (it shows in the file name).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Why {
    Daily,
    BeforeMigration,
}

fn failed(path: &Path, reason: impl std::fmt::Display) -> StoreError {
    StoreError::Backup {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// `YYYYMMDDTHHMMSSZ` for epoch milliseconds.
fn stamp(ms: i64) -> Option<String> {
    time::OffsetDateTime::from_unix_timestamp(ms.div_euclid(1000))
        .ok()?
        .format(STAMP)
        .ok()
}

/// The automatic backups of `db`, oldest first, with the time in each name (epoch ms).
pub fn list_backups(db: &Path) -> Vec<(i64, PathBuf)> {
    let stem = db
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let prefix = format!("{stem}-");
    let Ok(entries) = std::fs::read_dir(crate::paths::backup_dir(db)) else {
        return Vec::new();
    };
    let mut found: Vec<(i64, PathBuf)> = entries
        .filter_map(|entry| {
            let entry = entry.ok()?;
            let name = entry.file_name().into_string().ok()?;
            let rest = name.strip_prefix(&prefix)?;
            let tail = rest.get(16..)?;
            if !(tail == ".db" || (tail.starts_with('-') && tail.ends_with(".db"))) {
                return None;
            }
            let at = time::PrimitiveDateTime::parse(rest.get(..16)?, STAMP).ok()?;
            let ms = at.assume_utc().unix_timestamp().checked_mul(1000)?;
            Some((ms, entry.path()))
        })
        .collect();
    found.sort();
    found
}

/// Copies the database behind `pool` into `dest` with `VACUUM INTO` (a consistent snapshot of
/// a live database), through a temporary file beside `dest` renamed into place, so `dest` is
/// either whole or absent. Refuses to overwrite an existing `dest`.
pub(crate) async fn vacuum_into(pool: &SqlitePool, dest: &Path) -> Result<(), StoreError> {
    if dest.exists() {
        return Err(failed(dest, "the file already exists"));
    }
    let dir = dest
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| failed(dest, e))?;
    // VACUUM INTO accepts an existing file only when it is empty: the temporary one is.
    let part = tempfile::Builder::new()
        .prefix(".backup-")
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(|e| failed(dest, e))?;
    let target = part
        .path()
        .to_str()
        .ok_or_else(|| failed(dest, "the path is not valid UTF-8"))?
        .to_string();
    // VACUUM INTO gives the copy the connection's page cache size: with the pool's 64 MiB the
    // process grew by about the database's size (234 MB RSS for a 209 MB file), with SQLite's
    // default 2 MiB it stays small. The pooled connection gets its own size back after.
    let mut conn = pool.acquire().await.map_err(|e| failed(dest, e))?;
    let small = sqlx::query("PRAGMA cache_size = -2000")
        .execute(&mut *conn)
        .await;
    let copied = match small {
        Ok(_) => sqlx::query("VACUUM INTO ?")
            .bind(target)
            .execute(&mut *conn)
            .await
            .map(|_| ()),
        Err(e) => Err(e),
    };
    let restored = sqlx::query(&format!("PRAGMA cache_size = {}", super::CACHE_SIZE))
        .execute(&mut *conn)
        .await;
    if restored.is_err() {
        // A connection with the wrong cache does not go back to the pool.
        drop(conn.detach());
    }
    copied.map_err(|e| failed(dest, e))?;
    part.as_file().sync_all().map_err(|e| failed(dest, e))?;
    part.persist_noclobber(dest)
        .map_err(|e| failed(dest, e.error))?;
    Ok(())
}

/// Makes an automatic backup of `db` (open in `pool`) in its `backups/` folder, named for
/// `now_ms`, then deletes all but the newest [`KEEP_BACKUPS`].
pub(crate) async fn automatic(
    pool: &SqlitePool,
    db: &Path,
    now_ms: i64,
    why: Why,
) -> Result<PathBuf, StoreError> {
    let stem = db
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let at = stamp(now_ms).ok_or_else(|| failed(db, "the clock is out of range"))?;
    let name = match why {
        Why::Daily => format!("{stem}-{at}.db"),
        Why::BeforeMigration => format!("{stem}-{at}-before-migration.db"),
    };
    let dest = crate::paths::backup_dir(db).join(name);
    vacuum_into(pool, &dest).await?;
    tracing::info!(backup = %dest.display(), ?why, "database backed up");
    let backups = list_backups(db);
    let excess = backups.len().saturating_sub(KEEP_BACKUPS);
    for (_, old) in backups.into_iter().take(excess) {
        match std::fs::remove_file(&old) {
            Ok(()) => tracing::info!(backup = %old.display(), "old backup deleted"),
            Err(e) => {
                tracing::warn!(backup = %old.display(), error = %e, "cannot delete an old backup")
            }
        }
    }
    Ok(dest)
}

/// The daily backup: made when the newest automatic backup is [`DAILY_MS`] old or there is
/// none. Returns the new file, if one was made.
pub(crate) async fn daily(store: &Store) -> Result<Option<PathBuf>, StoreError> {
    let now = store.now_ms();
    let path = store.file("a daily backup")?;
    let newest = list_backups(path).last().map(|(at, _)| *at);
    if newest.is_some_and(|at| now.saturating_sub(at) < DAILY_MS) {
        return Ok(None);
    }
    automatic(store.sqlite()?, path, now, Why::Daily)
        .await
        .map(Some)
}

impl Store {
    /// Writes a consistent copy of the database to `dest` (`VACUUM INTO`: works while the
    /// database is in use). Refuses to overwrite an existing file.
    pub async fn backup_to(&self, dest: &Path) -> Result<(), StoreError> {
        vacuum_into(self.sqlite()?, dest).await
    }

    /// Rewrites the file without its free pages (`VACUUM`, then a checkpoint that truncates the
    /// WAL). A migration that drops a column or copies a table, or a rebuild, leaves pages free
    /// that SQLite reuses only as the store grows; this gives them back to the disk. It holds the
    /// write lock while it runs, so the app's sync waits for it (and it for the sync's batch).
    pub async fn compact(&self) -> Result<Compacted, StoreError> {
        let pool = self.sqlite()?;
        let size = || self.path().map_or(0, file_and_wal_len);
        let before_bytes = size();
        let mut conn = pool.acquire().await?;
        sqlx::query("VACUUM").execute(&mut *conn).await?;
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut *conn)
            .await?;
        drop(conn);
        Ok(Compacted {
            before_bytes,
            after_bytes: size(),
        })
    }

    /// The automatic backups in `backups/` beside this database, oldest first.
    /// None on a shared store: its backups are the database server's (pg_dump, WAL archiving).
    pub fn backups(&self) -> Vec<PathBuf> {
        let Some(path) = self.path() else {
            return Vec::new();
        };
        list_backups(path).into_iter().map(|(_, p)| p).collect()
    }
}

/// What [`Store::compact`] did: the database's bytes on disk (its WAL included) before and after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Compacted {
    pub before_bytes: u64,
    pub after_bytes: u64,
}

/// A file SQLite keeps beside a database: `ext` is `-wal` or `-shm` (`""`: the database).
pub(super) fn beside(path: &Path, ext: &str) -> PathBuf {
    PathBuf::from(format!("{}{ext}", path.display()))
}

/// The bytes of a database file and its WAL (an absent file counts as empty).
fn file_and_wal_len(path: &Path) -> u64 {
    let len = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
    len(path) + len(&beside(path, "-wal"))
}

/// What [`restore`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    /// The schema version of the restored file (migrated on the next open if older).
    pub schema_version: i64,
    /// Where the replaced database was kept, when there was one.
    pub kept: Option<PathBuf>,
}

fn restore_failed(from: &Path, reason: impl std::fmt::Display) -> StoreError {
    StoreError::Restore {
        from: from.to_path_buf(),
        reason: reason.to_string(),
    }
}

/// Replaces the database at `db` with the backup `from`. The backup must open, pass SQLite's
/// `quick_check`, hold this app's migrations table and be no newer than this build; otherwise
/// nothing changes. The current file is kept as `<name>.before-restore` (with its WAL, if one
/// is left), and the backup is copied beside it and renamed over it, so `db` is always either
/// the old file or the whole backup. The app must not have the database open meanwhile.
pub async fn restore(db: &Path, from: &Path) -> Result<Restored, StoreError> {
    if !from.is_file() {
        return Err(restore_failed(from, "there is no such file"));
    }
    let version = match health::quick_check(from).await {
        Ok(version) => version,
        Err(StoreError::Damaged { reason, .. }) => {
            return Err(restore_failed(
                from,
                format!("it is damaged ({reason}); the current database was not changed"),
            ));
        }
        Err(other) => return Err(other),
    };
    if version == 0 {
        return Err(restore_failed(
            from,
            "it is not an a2learn Teacher database; the current database was not changed",
        ));
    }
    let known = health::newest_known();
    if version > known {
        return Err(StoreError::Newer {
            path: from.to_path_buf(),
            found: version,
            known,
        });
    }
    let dir = db
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| restore_failed(from, e))?;
    // The copy lands beside the database first, so the final step is one rename.
    let part = tempfile::Builder::new()
        .prefix(".restore-")
        .suffix(".part")
        .tempfile_in(dir)
        .map_err(|e| restore_failed(from, e))?;
    std::fs::copy(from, part.path()).map_err(|e| restore_failed(from, e))?;
    part.as_file()
        .sync_all()
        .map_err(|e| restore_failed(from, e))?;

    let mut kept = None;
    if db.exists() {
        let before = crate::paths::before_restore_path(db);
        for ext in ["", "-wal", "-shm"] {
            match std::fs::remove_file(beside(&before, ext)) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(restore_failed(from, e)),
            }
        }
        // A hard link keeps the old file under its new name at no cost; a copy where the file
        // system has none.
        if std::fs::hard_link(db, &before).is_err() {
            std::fs::copy(db, &before).map_err(|e| restore_failed(from, e))?;
        }
        // A WAL left beside the old file belongs to it, not to the restored one.
        let wal = beside(db, "-wal");
        if wal.exists() {
            std::fs::rename(&wal, beside(&before, "-wal")).map_err(|e| restore_failed(from, e))?;
        }
        match std::fs::remove_file(beside(db, "-shm")) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(restore_failed(from, e)),
        }
        kept = Some(before);
    }
    part.persist(db)
        .map_err(|e| restore_failed(from, e.error))?;
    tracing::info!(db = %db.display(), from = %from.display(), version, "database restored");
    Ok(Restored {
        schema_version: version,
        kept,
    })
}
