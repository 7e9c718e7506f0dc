//! The two engines a store runs on: SQLite (one teacher's file, the default) and PostgreSQL (a
//! school's shared store), chosen by the location a store is opened at.
//!
//! The store's SQL is written once, in the dialect both engines read (`$1` parameters,
//! `ON CONFLICT`, `CAST(… AS BIGINT)`), and compiled once per engine by [`on_pool!`] and
//! [`on_conn!`]: each expands its body into one `match` arm per engine, where the connection
//! has its engine's concrete sqlx type. So there is no generic database code to bound and no
//! runtime translation layer (sqlx's `Any` driver converts every row, and its query builder
//! writes SQLite's `?` placeholders on PostgreSQL): SQLite keeps its speed, and a query reads
//! the same in both arms. Inside an arm, `Db` names the engine's sqlx database type and `PG`
//! says which arm it is, for the few statements the two engines spell differently (a JSON list
//! of ids, the write lock, an order Rust relies on: [`by_code_point`]).

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use sqlx::{PgConnection, PgPool, Postgres, Sqlite, SqliteConnection, SqlitePool, Transaction};

/// Where a store lives: a SQLite file, or a PostgreSQL database given by its URL.
#[derive(Clone, PartialEq, Eq)]
pub enum Location {
    Sqlite(PathBuf),
    Postgres(PgUrl),
}

impl Location {
    /// The location named by a `--db` value or `A2LEARN_TEACHER_DB`: a `postgres://` or
    /// `postgresql://` URL, or else a file path.
    pub fn parse(value: &str) -> Result<Self, LocationError> {
        if value.trim().is_empty() {
            return Err(LocationError::Empty);
        }
        let lower = value.to_ascii_lowercase();
        if lower.starts_with("postgres://") || lower.starts_with("postgresql://") {
            return PgUrl::parse(value).map(Location::Postgres);
        }
        if lower.contains("://") && !lower.starts_with("sqlite://") {
            let scheme = value.split("://").next().unwrap_or_default();
            return Err(LocationError::Scheme(scheme.to_string()));
        }
        let path = value.strip_prefix("sqlite://").unwrap_or(value);
        Ok(Location::Sqlite(PathBuf::from(path)))
    }

    /// The file of a SQLite store.
    pub fn path(&self) -> Option<&Path> {
        match self {
            Location::Sqlite(path) => Some(path),
            Location::Postgres(_) => None,
        }
    }
}

impl From<PathBuf> for Location {
    fn from(path: PathBuf) -> Self {
        Location::Sqlite(path)
    }
}

impl From<&Path> for Location {
    fn from(path: &Path) -> Self {
        Location::Sqlite(path.to_path_buf())
    }
}

/// What a location prints as: the file's path, or the URL with its password replaced.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => write!(f, "{url}"),
        }
    }
}

impl fmt::Debug for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            Location::Postgres(url) => f.debug_tuple("Postgres").field(url).finish(),
        }
    }
}

impl FromStr for Location {
    type Err = LocationError;

    fn from_str(value: &str) -> Result<Self, Self::Err> {
        Self::parse(value)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LocationError {
    #[error("no database given: pass --db PATH (or a postgres:// URL), or set A2LEARN_TEACHER_DB")]
    Empty,
    #[error(
        "a database is a file path or a postgres:// URL; \"{0}://\" is neither (SQLite and \
         PostgreSQL are the engines a2learn Teacher runs on)"
    )]
    Scheme(String),
    /// The URL is not whole. The message never repeats the URL: it may hold a password.
    #[error("the PostgreSQL URL cannot be read ({0}); expected postgres://USER:PASSWORD@HOST/DB")]
    Url(String),
    /// The desktop app was given a shared store (shown with its password redacted).
    #[error(
        "the desktop app opens a local SQLite file, not the shared store at {0}: follow that \
         store with `a2learn-teacher --db URL sync`, read it with `a2learn-teacher --db URL \
         export`; give the app a file path (--db PATH or A2LEARN_TEACHER_DB)"
    )]
    SharedStoreInApp(PgUrl),
}

/// A PostgreSQL URL whose password never prints: `Display`, `Debug` and every error show
/// `postgres://user:***@host/db`. Only [`PgUrl::connect_options`] reads the whole URL.
#[derive(Clone, PartialEq, Eq)]
pub struct PgUrl {
    url: String,
    /// A password kept apart from the URL (the app's, from the credential store).
    password: Option<String>,
}

impl PgUrl {
    pub fn parse(value: &str) -> Result<Self, LocationError> {
        // sqlx reads the URL the same way when it connects: a URL it cannot read is refused
        // here, before anything tries to print it.
        sqlx::postgres::PgConnectOptions::from_str(value).map_err(|e| {
            // sqlx's message may quote the URL; say only what kind of mistake it is.
            let kind = match e {
                sqlx::Error::Configuration(_) => "a part of it is not valid",
                _ => "it is not a URL",
            };
            LocationError::Url(kind.to_string())
        })?;
        Ok(Self {
            url: value.to_string(),
            password: None,
        })
    }

    /// Whether the URL itself holds a password (`user:password@`, or `?password=`).
    pub fn has_password(&self) -> bool {
        redact(&self.url) != self.url
    }

    /// This URL, connecting with `password` (which it never prints either).
    pub fn with_password(mut self, password: &str) -> Self {
        self.password = Some(password.to_string());
        self
    }

    pub(crate) fn connect_options(&self) -> Result<sqlx::postgres::PgConnectOptions, sqlx::Error> {
        let options = sqlx::postgres::PgConnectOptions::from_str(&self.url)?;
        Ok(match &self.password {
            Some(password) => options.password(password),
            None => options,
        })
    }

    /// The URL with the password (if any) replaced by `***`.
    pub fn redacted(&self) -> String {
        redact(&self.url)
    }
}

/// Replaces the password of `scheme://user:password@host…` with `***`; a URL without one is
/// returned as it is. A password in the query (`?password=…`) is replaced too.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    // The authority ends at the first '/', '?' or '#'; its credentials, at its last '@'.
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let authority = match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{user}:***@{host}"),
            None => format!("{userinfo}@{host}"),
        },
        None => authority.to_string(),
    };
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let query: Vec<String> = query
                .split('&')
                .map(|pair| match pair.split_once('=') {
                    Some((key, _)) if key.eq_ignore_ascii_case("password") => {
                        format!("{key}=***")
                    }
                    _ => pair.to_string(),
                })
                .collect();
            format!("{path}?{}", query.join("&"))
        }
        None => tail.to_string(),
    };
    format!("{scheme}://{authority}{tail}")
}

impl fmt::Display for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.redacted())
    }
}

impl fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PgUrl({})", self.redacted())
    }
}

/// A store's connection pool, on its engine.
#[derive(Debug, Clone)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Pool {
    pub async fn close(&self) {
        match self {
            Pool::Sqlite(pool) => pool.close().await,
            Pool::Postgres(pool) => pool.close().await,
        }
    }

    /// A write transaction. On SQLite it takes the database's write lock first (`BEGIN
    /// IMMEDIATE`), so two writers queue instead of failing on upgrade; on PostgreSQL rows lock
    /// as they are written, and a writer that must see a class alone takes [`lock_class`].
    ///
    /// The `BEGIN` runs in a task of its own, so that a caller dropped while it runs (a follower
    /// cancelled mid-write, a `select!` that took its other branch) cannot leak the transaction.
    /// After a custom `BEGIN` has run, sqlx awaits once more (to check the connection is in a
    /// transaction) before it makes the `Transaction`; a future dropped there leaves nothing to
    /// roll back, and its connection goes back to the pool still holding SQLite's write lock:
    /// every other writer then waits out the busy timeout and fails with "database is locked"
    /// (the `tests/hosts.rs` flake: a host switch cancels a follower while it saves its catalog).
    /// The task always runs to its end; a `Transaction` nobody awaits any more is dropped there,
    /// which rolls it back.
    pub async fn begin_write(&self) -> Result<Tx, sqlx::Error> {
        let pool = self.clone();
        tokio::spawn(async move {
            Ok(match pool {
                Pool::Sqlite(pool) => Tx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?),
                Pool::Postgres(pool) => Tx::Postgres(pool.begin().await?),
            })
        })
        .await
        .map_err(|e| sqlx::Error::Io(std::io::Error::other(format!("BEGIN's task ended: {e}"))))?
    }
}

/// The store's own pool on its engine, for tools and tests that read the database directly
/// (the code of a2learn Teacher itself goes through [`on_pool!`]).
#[derive(Debug, Clone, Copy)]
pub enum RawPool<'a> {
    Sqlite(&'a SqlitePool),
    Postgres(&'a PgPool),
}

impl Pool {
    pub(crate) fn raw(&self) -> RawPool<'_> {
        match self {
            Pool::Sqlite(pool) => RawPool::Sqlite(pool),
            Pool::Postgres(pool) => RawPool::Postgres(pool),
        }
    }
}

/// `column` sorted and compared in code point order on both engines: SQLite's own order, and
/// PostgreSQL's only when told (its database may collate by a language). For the orders Rust
/// relies on: a merge with another query's rows, a page's `>` boundary.
pub(crate) fn by_code_point(column: &str, pg: bool) -> String {
    if pg {
        format!("{column} COLLATE \"C\"")
    } else {
        column.to_string()
    }
}

/// The elements of the JSON array of strings bound at `param` (`$2`), as a subquery for
/// `x IN (...)`: one statement for a list of any length, on either engine.
pub(crate) fn json_list(param: &str, pg: bool) -> String {
    if pg {
        format!("SELECT json_array_elements_text({param}::json)")
    } else {
        format!("SELECT value FROM json_each({param})")
    }
}

/// A write transaction on either engine.
pub(crate) enum Tx {
    Sqlite(Transaction<'static, Sqlite>),
    Postgres(Transaction<'static, Postgres>),
}

impl Tx {
    pub fn conn(&mut self) -> Conn<'_> {
        match self {
            Tx::Sqlite(tx) => Conn::Sqlite(tx),
            Tx::Postgres(tx) => Conn::Postgres(tx),
        }
    }

    pub async fn commit(self) -> Result<(), sqlx::Error> {
        match self {
            Tx::Sqlite(tx) => tx.commit().await,
            Tx::Postgres(tx) => tx.commit().await,
        }
    }
}

/// A borrowed connection (most often a transaction's) on either engine.
pub(crate) enum Conn<'c> {
    Sqlite(&'c mut SqliteConnection),
    Postgres(&'c mut PgConnection),
}

impl<'c> From<&'c mut SqliteConnection> for Conn<'c> {
    fn from(conn: &'c mut SqliteConnection) -> Self {
        Conn::Sqlite(conn)
    }
}

impl<'c> From<&'c mut PgConnection> for Conn<'c> {
    fn from(conn: &'c mut PgConnection) -> Self {
        Conn::Postgres(conn)
    }
}

/// Runs `$body` with `$pool` bound to the store pool's engine-typed pool (`&SqlitePool` or
/// `&PgPool`); `Db` and `PG` name the engine inside (see the module's comment).
macro_rules! on_pool {
    ($pool:expr, |$p:ident| $body:expr) => {
        match $pool {
            $crate::store::engine::Pool::Sqlite($p) => {
                #[allow(dead_code)]
                type Db = ::sqlx::Sqlite;
                #[allow(dead_code)]
                const PG: bool = false;
                $body
            }
            $crate::store::engine::Pool::Postgres($p) => {
                #[allow(dead_code)]
                type Db = ::sqlx::Postgres;
                #[allow(dead_code)]
                const PG: bool = true;
                $body
            }
        }
    };
}

/// Runs `$body` with `$c` bound to `&mut SqliteConnection` or `&mut PgConnection`, from a
/// `&mut Conn`; `Db` and `PG` name the engine inside (see the module's comment). A helper that
/// takes a [`Conn`] is called from inside as `helper(&mut Conn::from(&mut *c))`.
macro_rules! on_conn {
    ($conn:expr, |$c:ident| $body:expr) => {
        match $conn {
            $crate::store::engine::Conn::Sqlite(inner) => {
                #[allow(dead_code)]
                type Db = ::sqlx::Sqlite;
                #[allow(dead_code)]
                const PG: bool = false;
                let $c: &mut ::sqlx::SqliteConnection = &mut **inner;
                $body
            }
            $crate::store::engine::Conn::Postgres(inner) => {
                #[allow(dead_code)]
                type Db = ::sqlx::Postgres;
                #[allow(dead_code)]
                const PG: bool = true;
                let $c: &mut ::sqlx::PgConnection = &mut **inner;
                $body
            }
        }
    };
}

pub(crate) use {on_conn, on_pool};

/// Holds a class's write lock on PostgreSQL until the transaction ends, so two followers of one
/// class (two `sync` processes, a shard overlap) apply its batches one at a time, as SQLite's
/// `BEGIN IMMEDIATE` makes them. A no-op on SQLite, whose write lock is the whole database.
pub(crate) async fn lock_class(conn: &mut Conn<'_>, class_id: &str) -> Result<(), sqlx::Error> {
    if let Conn::Postgres(conn) = conn {
        sqlx::query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
            .bind(class_id)
            .execute(&mut **conn)
            .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::future::Future;
    use std::task::{Context, Waker};

    use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions};
    use sqlx::{Connection, SqliteConnection};

    /// A file database in WAL mode, as the store opens one, with one pooled connection and a
    /// short busy timeout (so a held write lock shows as an error in half a second, not ten).
    async fn one_connection_pool(path: &std::path::Path) -> (SqlitePool, SqliteConnectOptions) {
        let options = SqliteConnectOptions::new()
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .busy_timeout(std::time::Duration::from_millis(500));
        let pool = SqlitePoolOptions::new()
            .max_connections(1)
            .min_connections(1)
            .test_before_acquire(false)
            .connect_with(options.clone())
            .await
            .unwrap();
        (pool, options)
    }

    /// Polls a `BEGIN IMMEDIATE` in the making (`begin`) until the database shows its write
    /// lock taken, polls once more (sqlx then has the `BEGIN`'s answer and checks that the
    /// custom statement opened a transaction, behind another await), and drops it there: a
    /// caller cancelled after the `BEGIN` ran and before a `Transaction` stood for it. An
    /// attempt that finished instead (its transaction made, so nothing can leak) is dropped and
    /// tried again.
    async fn drop_once_begun<F, T>(mut begin: impl FnMut() -> F, probe: &SqliteConnectOptions)
    where
        F: Future<Output = Result<T, sqlx::Error>>,
    {
        let probe = probe.clone().busy_timeout(std::time::Duration::ZERO);
        let mut cx = Context::from_waker(Waker::noop());
        for _ in 0..50 {
            let mut fut = Box::pin(begin());
            for _ in 0..100 {
                if fut.as_mut().poll(&mut cx).is_ready() {
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                if another_writer_can_begin(&probe).await.is_err() {
                    // The BEGIN ran and holds the lock: one more step, then cancelled.
                    if fut.as_mut().poll(&mut cx).is_ready() {
                        break;
                    }
                    drop(fut);
                    return;
                }
            }
        }
        panic!("no BEGIN was caught between running and answering");
    }

    /// Whether another connection can take the write lock now (it waits up to its busy timeout).
    async fn another_writer_can_begin(options: &SqliteConnectOptions) -> Result<(), sqlx::Error> {
        let mut other = SqliteConnection::connect_with(options).await?;
        let tx = other.begin_with("BEGIN IMMEDIATE").await?;
        tx.rollback().await
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_write_dropped_while_it_begins_leaves_no_lock_behind() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, options) = one_connection_pool(&dir.path().join("t.db")).await;
        let pool = Pool::Sqlite(pool);
        let probe = options.clone().busy_timeout(std::time::Duration::ZERO);
        let mut cx = Context::from_waker(Waker::noop());
        let mut dropped_holding_the_lock = 0;
        // Dropped after one to four polls, a few milliseconds apart: before, while and after
        // the BEGIN runs.
        for attempt in 0..40 {
            let mut fut = Box::pin(pool.begin_write());
            let mut finished = false;
            for _ in 0..=attempt % 4 {
                if fut.as_mut().poll(&mut cx).is_ready() {
                    finished = true;
                    break;
                }
                tokio::time::sleep(std::time::Duration::from_millis(2)).await;
            }
            if !finished && another_writer_can_begin(&probe).await.is_err() {
                dropped_holding_the_lock += 1;
            }
            drop(fut);
            // The presence first (a write through the same pool gets its connection and
            // commits), then the absence of a lock left held.
            let tx = pool
                .begin_write()
                .await
                .expect("the pool's connection is free again");
            tx.commit().await.unwrap();
            another_writer_can_begin(&options)
                .await
                .expect("no write lock was left held");
        }
        assert!(
            dropped_holding_the_lock > 0,
            "no attempt was dropped while its BEGIN held the lock"
        );
    }

    /// Negative control, and the flake's cause: sqlx's own `begin_with`, dropped after its
    /// `BEGIN` ran and before it made a `Transaction`, leaves its connection holding the write
    /// lock, and the other writer fails as `Live::create_class` did.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn control_a_bare_begin_dropped_while_it_begins_keeps_the_lock() {
        let dir = tempfile::tempdir().unwrap();
        let (pool, options) = one_connection_pool(&dir.path().join("t.db")).await;
        drop_once_begun(|| pool.begin_with("BEGIN IMMEDIATE"), &options).await;
        let err = another_writer_can_begin(&options)
            .await
            .expect_err("the lock is still held");
        assert!(err.to_string().contains("database is locked"), "{err}");
    }

    #[test]
    fn a_password_never_prints() {
        let at =
            Location::parse("postgres://teacher:s3cret-canary@db.school:5432/a2learn").unwrap();
        for shown in [format!("{at}"), format!("{at:?}")] {
            assert!(!shown.contains("s3cret-canary"), "{shown}");
            assert!(
                shown.contains("teacher:***@db.school:5432/a2learn"),
                "{shown}"
            );
        }
        let query = PgUrl::parse("postgresql://u@h/db?password=s3cret-canary&sslmode=disable")
            .unwrap()
            .redacted();
        assert_eq!(query, "postgresql://u@h/db?password=***&sslmode=disable");
        // Control: a URL without a password prints whole.
        let plain = Location::parse("postgres://teacher@localhost/a2learn").unwrap();
        assert_eq!(plain.to_string(), "postgres://teacher@localhost/a2learn");
    }

    #[test]
    fn a_path_is_sqlite_and_other_schemes_are_refused() {
        assert_eq!(
            Location::parse("/tmp/a.db").unwrap(),
            Location::Sqlite(PathBuf::from("/tmp/a.db"))
        );
        assert_eq!(
            Location::parse("sqlite:///tmp/a.db").unwrap(),
            Location::Sqlite(PathBuf::from("/tmp/a.db"))
        );
        assert!(matches!(
            Location::parse("mysql://u:p@h/db"),
            Err(LocationError::Scheme(s)) if s == "mysql"
        ));
        assert_eq!(Location::parse("  "), Err(LocationError::Empty));
        let bad = Location::parse("postgres://u:s3cret-canary@h:notaport/db").unwrap_err();
        assert!(!bad.to_string().contains("s3cret-canary"), "{bad}");
    }
}
