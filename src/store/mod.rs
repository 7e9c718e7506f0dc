//! The store: one teacher's SQLite file (the default), opened with the settings this app relies
//! on and migrated by the embedded `migrations/` folder; or a school's shared PostgreSQL
//! database, migrated by `migrations-postgres/` (see [`engine`] for how the two share the SQL).

mod backup;
mod catalog;
mod classes;
mod diagnostics;
pub(crate) mod engine;
mod health;
mod ingest;
pub(crate) mod rollup;
mod school;
mod settings;
mod standards;

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::PgPoolOptions;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, SqlitePool};

use crate::clock::SharedClock;

pub use backup::{Compacted, DAILY_MS, KEEP_BACKUPS, Restored, list_backups, restore};
pub(crate) use catalog::registry_of;
pub use catalog::{AssignmentRow, Pathway, PathwayStep};
pub use classes::{ClassRow, DEMO_HOST_ID};
pub use diagnostics::{ClassCounts, QuarantinedFrame};
pub use engine::{Location, LocationError, PgUrl, RawPool};
use engine::{Pool, on_pool};
pub use health::newest_known;
pub use ingest::{
    Accepted, BatchOutcome, Changes, CheckedBatch, ClassMemory, Incoming, IngestError,
    MAX_PAUSE_MESSAGE_CHARS, QUARANTINE_RAW_BYTES, QuarantineRow, ROWS_PER_STATEMENT,
    RebuildOutcome, RowsTouched, check_batch, stored_message, truncate_utf8,
};
pub use rollup::CellCache;
pub use standards::CatalogStandard;

/// The embedded migrations (the repository's `migrations/` folder, compiled in).
pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The shared store's migrations on PostgreSQL (`migrations-postgres/`): its own sequence, as
/// it starts from the schema SQLite's reached when it was added.
pub static PG_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations-postgres");

/// Connections a process keeps to a shared PostgreSQL store (a follower writes one batch at a
/// time per class; a district runs several followers against one server).
const PG_CONNECTIONS: u32 = 4;

/// How long a writer waits for another connection's lock before giving up. Two sync processes
/// on one database must queue, not fail.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The page cache of each pooled connection (negative: KiB), 64 MiB.
const CACHE_SIZE: &str = "-65536";

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot create the folder for the database at {path}: {source}")]
    CreateDir {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot take the migration lock {path}: {source}")]
    MigrationLock {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("cannot open the database at {path}: {source}")]
    Open {
        path: PathBuf,
        #[source]
        source: sqlx::Error,
    },
    /// A shared store could not be reached. `location` is printed with its password replaced.
    #[error("cannot open the shared store at {location}: {source}")]
    Connect {
        location: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("cannot migrate the shared store at {location}: {source}")]
    MigrateShared {
        location: String,
        #[source]
        source: sqlx::migrate::MigrateError,
    },
    /// What a teacher's SQLite file does that a shared PostgreSQL store does not do (yet).
    #[error("{0} is not available on a shared PostgreSQL store; it works on a SQLite file")]
    NotOnShared(&'static str),
    /// The shared store's schema is newer than this build knows; nothing was written.
    #[error(
        "The shared store at {location} was written by a newer version of a2learn Teacher \
         (schema {found}; this app knows up to {known}). Update the app; nothing was changed."
    )]
    NewerShared {
        location: String,
        found: i64,
        known: i64,
    },
    #[error("cannot migrate the database at {path}: {source}")]
    Migrate {
        path: PathBuf,
        #[source]
        source: sqlx::migrate::MigrateError,
    },
    /// The file's schema is newer than this build knows: it is refused before anything is
    /// written to it.
    #[error(
        "This database ({path}) was written by a newer version of a2learn Teacher (schema {found}; \
         this app knows up to {known}). Update the app; the file was not changed."
    )]
    Newer {
        path: PathBuf,
        found: i64,
        known: i64,
    },
    /// The file is not a whole SQLite database (overwritten, cut short).
    #[error(
        "The database file {path} is damaged ({reason}). Restore a backup with \
         `a2learn-teacher db restore --from FILE` (automatic backups are in {backups})."
    )]
    Damaged {
        path: PathBuf,
        reason: String,
        backups: PathBuf,
    },
    /// The file is gone but its automatic backups are not: it was lost (deleted, a disk
    /// swapped), and a new empty database in its place would hide that. Nothing is created.
    #[error(
        "The database file {path} is missing, but its automatic backups are in {backups}; \
         nothing was created in its place. Restore the newest with \
         `a2learn-teacher db restore --from {}`, or start with an empty database.",
        newest.display()
    )]
    Missing {
        path: PathBuf,
        backups: PathBuf,
        newest: PathBuf,
    },
    #[error("cannot back up the database to {path}: {reason}")]
    Backup { path: PathBuf, reason: String },
    #[error("cannot restore the database from {from}: {reason}")]
    Restore { from: PathBuf, reason: String },
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("{0}")]
    Invalid(String),
    /// The row asked for does not exist (a missing row, not a failed query).
    #[error("{0}")]
    NotFound(String),
    /// The host token could not be kept or read (the credential store, or its file).
    #[error(transparent)]
    Credentials(#[from] crate::host::credentials::CredentialError),
    /// The teacher's input refused, or a thing not found, in words the window translates.
    #[error(transparent)]
    Said(#[from] crate::error::Said),
}

impl From<IngestError> for StoreError {
    /// A payload that will not encode or decode is bad data, as [`StoreError::Invalid`] says.
    fn from(err: IngestError) -> Self {
        StoreError::Invalid(err.to_string())
    }
}

impl crate::error::Coded for StoreError {
    fn code(&self) -> crate::ErrorCode {
        match self {
            StoreError::Invalid(_) => crate::ErrorCode::InvalidInput,
            StoreError::NotFound(_) => crate::ErrorCode::NotFound,
            StoreError::Said(s) => s.code(),
            _ => crate::ErrorCode::Storage,
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        let path = |p: &std::path::Path| p.display().to_string();
        match self {
            StoreError::Said(s) => Some(s.in_language(c)),
            StoreError::Newer {
                path: p,
                found,
                known,
            } => Some(c.t_args(
                "error-store-newer",
                &[
                    ("path", path(p).into()),
                    ("found", (*found).into()),
                    ("known", (*known).into()),
                ],
            )),
            StoreError::NewerShared {
                location,
                found,
                known,
            } => Some(c.t_args(
                "error-store-newer-shared",
                &[
                    ("location", location.into()),
                    ("found", (*found).into()),
                    ("known", (*known).into()),
                ],
            )),
            StoreError::Damaged {
                path: p,
                reason,
                backups,
            } => Some(c.t_args(
                "error-store-damaged",
                &[
                    ("path", path(p).into()),
                    ("reason", reason.into()),
                    ("backups", path(backups).into()),
                ],
            )),
            StoreError::Missing {
                path: p,
                backups,
                newest,
            } => Some(c.t_args(
                "error-store-missing",
                &[
                    ("path", path(p).into()),
                    ("backups", path(backups).into()),
                    ("newest", path(newest).into()),
                ],
            )),
            _ => None,
        }
    }
}

/// What `a2learn-teacher db info` reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct DbInfo {
    /// The file, or the shared store's URL with its password replaced.
    pub path: PathBuf,
    /// The newest applied migration's version, or 0 for an empty database.
    pub schema_version: i64,
    /// Row counts of every table the migrations made, by name.
    pub row_counts: Vec<(String, i64)>,
}

/// A handle to the local database. Cheap to clone (it holds a connection pool).
#[derive(Debug, Clone)]
pub struct Store {
    pool: Pool,
    location: Location,
    clock: SharedClock,
    /// Beside a shared store: the teacher's own file, where names (rosters) live. See
    /// [`Store::with_home`].
    home: Option<Box<Store>>,
}

/// Waits for, and holds until dropped, the exclusive lock on `<database>-migrate.lock`.
async fn migration_lock(path: &Path) -> Result<std::fs::File, StoreError> {
    let lock_path = PathBuf::from(format!("{}-migrate.lock", path.display()));
    let failed = |source: std::io::Error| StoreError::MigrationLock {
        path: lock_path.clone(),
        source,
    };
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(failed)?;
    // Blocks while another process migrates: off the async workers.
    tokio::task::spawn_blocking(move || file.lock().map(|()| file))
        .await
        .map_err(|e| failed(std::io::Error::other(e)))?
        .map_err(failed)
}

/// How [`Store::open_with`] opens a database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OpenOptions {
    /// Make the automatic backups (before a migration of an existing file, and daily).
    pub automatic_backups: bool,
    /// Create a new, empty database even where the file is missing but backups of it exist
    /// (the teacher chose to start afresh); otherwise that is [`StoreError::Missing`].
    pub start_empty: bool,
}

impl Default for OpenOptions {
    fn default() -> Self {
        Self {
            automatic_backups: true,
            start_empty: false,
        }
    }
}

impl Store {
    /// Opens (creating if needed) the database at `path` and brings its schema up to date,
    /// with the automatic backups ([`OpenOptions::default`]).
    ///
    /// Before anything is written, an existing file is checked: one that is not a whole SQLite
    /// database is [`StoreError::Damaged`], one whose schema is newer than this build is
    /// [`StoreError::Newer`]; a missing file that has automatic backups is
    /// [`StoreError::Missing`] (unless [`OpenOptions::start_empty`]). An existing file with an
    /// older schema is backed up before it is migrated; and when the newest automatic backup is
    /// a day old (by the injected clock), a new one is made.
    pub async fn open(path: &Path, clock: SharedClock) -> Result<Self, StoreError> {
        Self::open_with(path, clock, OpenOptions::default()).await
    }

    /// [`Store::open`] with explicit options.
    pub async fn open_with(
        path: &Path,
        clock: SharedClock,
        open: OpenOptions,
    ) -> Result<Self, StoreError> {
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|source| StoreError::CreateDir {
                path: parent.to_path_buf(),
                source,
            })?;
        }
        if !open.start_empty
            && !path.exists()
            && let Some((_, newest)) = backup::list_backups(path).pop()
        {
            return Err(StoreError::Missing {
                path: path.to_path_buf(),
                backups: crate::paths::backup_dir(path),
                newest,
            });
        }
        // Read-only first: a damaged file or a newer schema is refused before the read-write
        // connection (which would set WAL mode) or sqlx's migrator touch it.
        let known = health::newest_known();
        let recorded = health::recorded_version(path).await?;
        if let Some(found) = recorded.filter(|v| *v > known) {
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                found,
                known,
            });
        }
        // Two processes opening a new database at once (two syncs started together, or a sync
        // and `db info`) take turns, under an exclusive lock on a file beside the database:
        // sqlx's SQLite migrator takes no lock (the second would fail with "table already
        // exists"), and setting WAL mode on a file another process is creating can fail at once
        // with "database is locked", busy timeout or not (seen: a sync that never started while
        // `db info` opened the same new file). The second then finds the file made and migrated.
        let lock = migration_lock(path).await?;
        let options = SqliteConnectOptions::from_str("sqlite://")
            .map_err(|source| StoreError::Open {
                path: path.to_path_buf(),
                source,
            })?
            .filename(path)
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            // NORMAL in WAL mode: a crash loses no committed transaction that reached the WAL's
            // fsync at checkpoint; a power cut may lose the last few. The feed replays those.
            .synchronous(SqliteSynchronous::Normal)
            .foreign_keys(true)
            .busy_timeout(BUSY_TIMEOUT)
            .pragma("cache_size", CACHE_SIZE)
            .pragma("wal_autocheckpoint", "16384");
        let pool = SqlitePoolOptions::new()
            .max_connections(4)
            // An idle connection is never inside a transaction, except when sqlx lost count:
            // a COMMIT that failed on a full disk is rolled back by SQLite itself, the ROLLBACK
            // that sqlx then sends fails, and its count stays at one, so every later BEGIN on
            // that connection fails ("non-zero transaction depth") and the feed could never
            // store again once space returned. Such a connection is closed, not handed out.
            .before_acquire(|conn, _| {
                Box::pin(async move { Ok(!sqlx::Connection::is_in_transaction(conn)) })
            })
            .connect_with(options)
            .await
            .map_err(|source| match health::classify(path, source) {
                Ok(source) => StoreError::Open {
                    path: path.to_path_buf(),
                    source,
                },
                Err(damaged) => damaged,
            })?;
        // Again under the lock: another process may have migrated the file meanwhile.
        let applied = match pool.acquire().await {
            Ok(mut conn) => health::read_version(&mut conn).await,
            Err(e) => Err(e),
        };
        let applied = match applied {
            Ok(v) => v,
            Err(e) => {
                pool.close().await;
                return Err(match health::classify(path, e) {
                    Ok(source) => StoreError::Open {
                        path: path.to_path_buf(),
                        source,
                    },
                    Err(damaged) => damaged,
                });
            }
        };
        if applied > known {
            pool.close().await;
            return Err(StoreError::Newer {
                path: path.to_path_buf(),
                found: applied,
                known,
            });
        }
        if open.automatic_backups && applied > 0 && applied < known {
            // The schema is about to change: keep the file as it was first. No backup, no
            // migration.
            let made =
                backup::automatic(&pool, path, clock.now_ms(), backup::Why::BeforeMigration).await;
            if let Err(e) = made {
                pool.close().await;
                return Err(e);
            }
        }
        let migrated = MIGRATOR.run(&pool).await;
        if let Err(source) = migrated {
            drop(lock);
            pool.close().await;
            return Err(StoreError::Migrate {
                path: path.to_path_buf(),
                source,
            });
        }
        // Still under the lock: a rollup the migrations left to build is built once.
        let built = rollup::build_pending(&Pool::Sqlite(pool.clone())).await;
        drop(lock);
        if let Err(e) = built {
            pool.close().await;
            return Err(e);
        }
        tracing::debug!(path = %path.display(), "store opened");
        let store = Self {
            pool: Pool::Sqlite(pool),
            location: Location::Sqlite(path.to_path_buf()),
            clock,
            home: None,
        };
        // A token an earlier version kept in plain text goes to the credential store first.
        store.move_plaintext_token().await?;
        // The daily backup, of a file that held data before this open. A failure is logged, not
        // fatal: the teacher can still work, and the next open tries again.
        if open.automatic_backups
            && recorded.is_some()
            && let Err(e) = backup::daily(&store).await
        {
            tracing::warn!(error = %e, "the daily backup failed");
        }
        Ok(store)
    }

    /// Opens the store at `location`: a SQLite file ([`Store::open`]) or a shared PostgreSQL
    /// database ([`Store::open_shared`]).
    pub async fn open_at(location: &Location, clock: SharedClock) -> Result<Self, StoreError> {
        match location {
            Location::Sqlite(path) => Self::open(path, clock).await,
            Location::Postgres(url) => Self::open_shared(url, clock).await,
        }
    }

    /// Connects to a shared PostgreSQL store and brings its schema up to date. One whose schema
    /// is newer than this build is refused before anything is written; sqlx's PostgreSQL
    /// migrator holds an advisory lock while it migrates, so followers started together take
    /// turns. The URL's password never reaches an error or a log.
    pub async fn open_shared(url: &PgUrl, clock: SharedClock) -> Result<Self, StoreError> {
        let location = url.redacted();
        let connect = |source: sqlx::Error| StoreError::Connect {
            location: location.clone(),
            source,
        };
        // A custom plan for every execution: the ingest's statements bind lists of ids into
        // tables that grow from empty, and a generic plan PostgreSQL settles on while a table is
        // small (a sequential scan of `results` for the batch's state lookup) stays after it has
        // grown: measured 143 ms a batch at 72,000 results, against an index lookup.
        let options = url
            .connect_options()
            .map_err(connect)?
            .options([("plan_cache_mode", "force_custom_plan")]);
        let pool = PgPoolOptions::new()
            .max_connections(PG_CONNECTIONS)
            .connect_with(options)
            .await
            .map_err(connect)?;
        let known = health::newest_known_shared();
        let applied = health::read_version_shared(&pool).await.map_err(connect);
        let applied = match applied {
            Ok(v) => v,
            Err(e) => {
                pool.close().await;
                return Err(e);
            }
        };
        if applied > known {
            pool.close().await;
            return Err(StoreError::NewerShared {
                location,
                found: applied,
                known,
            });
        }
        if let Err(source) = PG_MIGRATOR.run(&pool).await {
            pool.close().await;
            return Err(StoreError::MigrateShared { location, source });
        }
        let pool = Pool::Postgres(pool);
        if let Err(e) = rollup::build_pending(&pool).await {
            pool.close().await;
            return Err(e);
        }
        tracing::debug!(location = %location, "shared store opened");
        Ok(Self {
            pool,
            location: Location::Postgres(url.clone()),
            clock,
            home: None,
        })
    }

    /// Where the store is: its file, or its shared database (whose URL prints without a
    /// password).
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// The file of a SQLite store; `None` on a shared PostgreSQL store.
    pub fn path(&self) -> Option<&Path> {
        self.location.path()
    }

    /// A shared store paired with the teacher's own file (`home`): results are read from and
    /// written to the shared store, names stay in the file — [`Store::roster`],
    /// [`Store::import_roster`] and [`Store::all_roster_names`] go there, so identified exports
    /// and reports can name learners while the shared database never holds a name. Refused for
    /// a teacher's file (its names are already its own) and for a home that is not a file.
    pub fn with_home(mut self, home: Store) -> Result<Self, StoreError> {
        if self.path().is_some() {
            return Err(StoreError::Invalid(
                "a teacher's file keeps its names itself: only a shared store takes a home".into(),
            ));
        }
        if home.path().is_none() {
            return Err(StoreError::Invalid(
                "names stay in a teacher's own file: a home must be a SQLite file, not a shared store"
                    .into(),
            ));
        }
        self.home = Some(Box::new(home));
        Ok(self)
    }

    /// Where what a teacher keeps to themselves lives — names (rosters), the desk's drafts, saved
    /// replies and promised visits, the desk's per-teacher settings: a teacher's own file, or
    /// the home beside a shared store; `None` for a shared store alone.
    pub(crate) fn home_pool(&self) -> Option<&SqlitePool> {
        match (&self.pool, &self.home) {
            (Pool::Sqlite(pool), _) => Some(pool),
            (Pool::Postgres(_), Some(home)) => home.home_pool(),
            (Pool::Postgres(_), None) => None,
        }
    }

    /// [`Store::home_pool`], or [`StoreError::NotOnShared`] naming `what` on a shared store
    /// without its home.
    pub(crate) fn own_pool(&self, what: &'static str) -> Result<&SqlitePool, StoreError> {
        self.home_pool().ok_or(StoreError::NotOnShared(what))
    }

    /// The teacher's file beside a shared store, if it was given one.
    pub(crate) fn home(&self) -> Option<&Store> {
        self.home.as_deref()
    }

    /// Whether this store can name learners (it has a roster to read): a teacher's file, or a
    /// shared store with its home.
    pub fn holds_names(&self) -> bool {
        self.home_pool().is_some()
    }

    /// The SQLite pool, for what only a teacher's file does (its rosters, the help desk, the
    /// views not yet written for both engines): [`StoreError::NotOnShared`] on PostgreSQL.
    pub fn sqlite(&self) -> Result<&SqlitePool, StoreError> {
        match &self.pool {
            Pool::Sqlite(pool) => Ok(pool),
            Pool::Postgres(_) => Err(StoreError::NotOnShared("this part of a2learn Teacher")),
        }
    }

    /// The store's pool on its engine, for reading the database directly (tests, tools).
    pub fn raw_pool(&self) -> RawPool<'_> {
        self.pool.raw()
    }

    /// The file of a SQLite store, for what only a file has (backups, the credential file
    /// beside it): [`StoreError::NotOnShared`] naming `what` on PostgreSQL.
    pub(crate) fn file(&self, what: &'static str) -> Result<&Path, StoreError> {
        self.path().ok_or(StoreError::NotOnShared(what))
    }

    /// The teacher's own file: this store's, or its home's beside a shared store (where the
    /// teacher's secrets sit beside it, [`crate::host::credentials::Credentials::beside`], and
    /// the demo host keeps its log); `None` for a shared store alone.
    pub fn teachers_path(&self) -> Option<&Path> {
        match self.home() {
            Some(home) => home.path(),
            None => self.path(),
        }
    }

    /// [`Store::teachers_path`], or [`StoreError::NotOnShared`] naming `what`.
    pub(crate) fn teachers_file(&self, what: &'static str) -> Result<&Path, StoreError> {
        self.teachers_path().ok_or(StoreError::NotOnShared(what))
    }

    pub(crate) fn engine(&self) -> &Pool {
        &self.pool
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The newest applied migration, or 0 when none is applied.
    pub async fn schema_version(&self) -> Result<i64, StoreError> {
        let version: Option<i64> = on_pool!(&self.pool, |pool| {
            sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(pool)
                .await?
        });
        Ok(version.unwrap_or(0))
    }

    /// Path (or redacted URL), schema version and the row count of every table.
    pub async fn info(&self) -> Result<DbInfo, StoreError> {
        let tables: Vec<String> = on_pool!(&self.pool, |pool| {
            let sql = if PG {
                "SELECT tablename::TEXT FROM pg_tables WHERE schemaname = current_schema() \
                 AND tablename NOT LIKE '\\_sqlx%' ESCAPE '\\' ORDER BY tablename"
            } else {
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_sqlx%' ESCAPE '\\' ORDER BY name"
            };
            sqlx::query_scalar(sql).fetch_all(pool).await?
        });
        let mut row_counts = Vec::with_capacity(tables.len());
        for table in tables {
            // The name comes from the catalog, not from a user; quoting keeps odd names safe.
            let sql = format!("SELECT COUNT(*) FROM \"{}\"", table.replace('"', "\"\""));
            let count: i64 = on_pool!(&self.pool, |pool| {
                sqlx::query(&sql).fetch_one(pool).await?.try_get(0)?
            });
            row_counts.push((table, count));
        }
        Ok(DbInfo {
            path: PathBuf::from(self.location.to_string()),
            schema_version: self.schema_version().await?,
            row_counts,
        })
    }

    /// Recomputes the grid's rollup from the derived tables, in one transaction (for a store
    /// whose derived tables were written directly, as the benchmark's fill does).
    pub async fn rebuild_grid_rollup(&self) -> Result<(), StoreError> {
        let mut tx = self.pool.begin_write().await?;
        rollup::rebuild(&mut tx.conn()).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Closes the pool, checkpointing the WAL.
    pub async fn close(self) {
        self.pool.close().await;
        if let Some(home) = self.home {
            Box::pin(home.close()).await;
        }
    }
}
