//! What the store checks before it writes to a file: that it is a whole SQLite database, and
//! that its schema is not newer than this build knows. Both checks only read.

use std::io::Read;
use std::path::Path;

use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};

use super::{MIGRATOR, PG_MIGRATOR, StoreError};

/// SQLite's header size and magic string (https://www.sqlite.org/fileformat.html).
const HEADER_LEN: usize = 100;
const MAGIC: &[u8; 16] = b"SQLite format 3\0";

/// The newest migration this build carries.
pub fn newest_known() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// The newest migration this build carries for a shared PostgreSQL store.
pub fn newest_known_shared() -> i64 {
    PG_MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// The newest migration recorded in a shared store, or 0 before its first migration.
pub(crate) async fn read_version_shared(pool: &sqlx::PgPool) -> Result<i64, sqlx::Error> {
    let table: Option<String> = sqlx::query_scalar(
        "SELECT tablename::TEXT FROM pg_tables \
         WHERE schemaname = current_schema() AND tablename = '_sqlx_migrations'",
    )
    .fetch_optional(pool)
    .await?;
    if table.is_none() {
        return Ok(0);
    }
    let version: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(pool)
        .await?;
    Ok(version.unwrap_or(0))
}

pub(crate) fn damaged(path: &Path, reason: impl Into<String>) -> StoreError {
    StoreError::Damaged {
        path: path.to_path_buf(),
        reason: reason.into(),
        backups: crate::paths::backup_dir(path),
    }
}

/// A SQLite error that means the file is not a (whole) database: `SQLITE_CORRUPT` (11) or
/// `SQLITE_NOTADB` (26), primary or extended.
pub(crate) fn is_damage(err: &sqlx::Error) -> bool {
    let sqlx::Error::Database(db) = err else {
        return false;
    };
    db.code()
        .and_then(|c| c.parse::<i64>().ok())
        .is_some_and(|code| matches!(code & 0xff, 11 | 26))
}

/// Maps a SQLite error on `path` to [`StoreError::Damaged`] when it says the file is damaged.
pub(crate) fn classify(path: &Path, err: sqlx::Error) -> Result<sqlx::Error, StoreError> {
    if is_damage(&err) {
        Err(damaged(path, "SQLite cannot read it"))
    } else {
        Ok(err)
    }
}

/// Reads the 100-byte header of an existing, non-empty file and refuses one that is not a
/// SQLite database or is shorter than its header says. `Ok(false)` when the file is missing or
/// empty (a new database).
pub fn check_header(path: &Path) -> Result<bool, StoreError> {
    let io = |source: std::io::Error| StoreError::Open {
        path: path.to_path_buf(),
        source: sqlx::Error::Io(source),
    };
    let mut file = match std::fs::File::open(path) {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(io(e)),
    };
    let len = file.metadata().map_err(io)?.len();
    if len == 0 {
        return Ok(false);
    }
    if len < HEADER_LEN as u64 {
        return Err(damaged(path, format!("it is only {len} bytes long")));
    }
    let mut header = [0u8; HEADER_LEN];
    file.read_exact(&mut header).map_err(io)?;
    if &header[..16] != MAGIC {
        return Err(damaged(path, "it does not start with a SQLite header"));
    }
    let be32 = |at: usize| {
        u32::from_be_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    let page_size = match u16::from_be_bytes([header[16], header[17]]) {
        1 => 65_536u64,
        n if n >= 512 && n.is_power_of_two() => u64::from(n),
        _ => return Err(damaged(path, "its header holds no valid page size")),
    };
    // The in-header page count is valid when it is non-zero and the change counter matches
    // "version valid for" (SQLite's own rule). A WAL with frames may still hold pages a crashed
    // checkpoint had not written: then the file may legitimately be shorter, and SQLite decides.
    let pages = u64::from(be32(28));
    let valid = pages != 0 && be32(24) == be32(92);
    let wal = std::fs::metadata(super::backup::beside(path, "-wal")).map_or(0, |m| m.len());
    if valid && wal == 0 && len < pages * page_size {
        return Err(damaged(
            path,
            format!(
                "it is {len} bytes long, its header says {} bytes: it was cut short",
                pages * page_size
            ),
        ));
    }
    Ok(true)
}

/// Looks at an existing file without writing to it: its header, then (read-only) the newest
/// migration recorded in it. `None` for a missing or empty file; `Some(0)` for a database with
/// no migrations table.
pub async fn recorded_version(path: &Path) -> Result<Option<i64>, StoreError> {
    if !check_header(path)? {
        return Ok(None);
    }
    let options = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false);
    let opened = |source: sqlx::Error| match classify(path, source) {
        Ok(source) => StoreError::Open {
            path: path.to_path_buf(),
            source,
        },
        Err(damaged) => damaged,
    };
    let mut conn = SqliteConnection::connect_with(&options)
        .await
        .map_err(opened)?;
    let version = read_version(&mut conn).await.map_err(opened);
    // Closing a read-only connection never checkpoints: the main file is not written.
    let _ = conn.close().await;
    version.map(Some)
}

/// The newest migration recorded in `_sqlx_migrations` (applied or failed: sqlx refuses both
/// when it does not know them), or 0 without that table.
pub(crate) async fn read_version(conn: &mut SqliteConnection) -> Result<i64, sqlx::Error> {
    let table: Option<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    if table.is_none() {
        return Ok(0);
    }
    let version: Option<i64> = sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations")
        .fetch_one(&mut *conn)
        .await?;
    Ok(version.unwrap_or(0))
}

/// `PRAGMA quick_check` on a read-only connection: for a file about to replace the database.
pub(crate) async fn quick_check(path: &Path) -> Result<i64, StoreError> {
    let version = recorded_version(path)
        .await?
        .ok_or_else(|| damaged(path, "it is empty"))?;
    let options = SqliteConnectOptions::new()
        .filename(path)
        .read_only(true)
        .create_if_missing(false);
    let mut conn = SqliteConnection::connect_with(&options)
        .await
        .map_err(|source| StoreError::Open {
            path: path.to_path_buf(),
            source,
        })?;
    let verdict: Result<Vec<String>, sqlx::Error> = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_all(&mut conn)
        .await;
    let _ = conn.close().await;
    match verdict {
        Ok(lines) if lines.len() == 1 && lines[0] == "ok" => Ok(version),
        Ok(_) => Err(damaged(path, "SQLite's check of it failed")),
        Err(e) => match classify(path, e) {
            Err(damaged) => Err(damaged),
            Ok(source) => Err(StoreError::Open {
                path: path.to_path_buf(),
                source,
            }),
        },
    }
}
