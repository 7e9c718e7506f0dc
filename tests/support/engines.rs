//! Store-level tests on both engines: a fresh SQLite file, or a fresh database in the throwaway
//! PostgreSQL cluster that `scripts/test.sh` starts (`scripts/pg-test-cluster.sh`, its URL in
//! `A2LEARN_TEST_PG_URL`). Without that variable a PostgreSQL test says it was skipped and
//! passes, unless `CI` is set, where a missing server fails the test instead of hiding it
//! (`peers.rs`).
#![allow(dead_code, unused_macros, unused_imports)] // each test file uses a different part

// Included by path from the CLI's tests too, so the peers' rule comes along from here.
#[path = "peers.rs"]
pub mod peers;

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::store::Location;
use a2learn_teacher::{FixedClock, Store};
use sqlx::{Connection, PgPool, SqlitePool};

/// Runs `$body` with `$p` bound to the test database's own pool (`&SqlitePool` or `&PgPool`).
macro_rules! raw {
    ($db:expr, |$p:ident| $body:expr) => {
        match &$db.raw {
            $crate::support::engines::Raw::Sqlite($p) => $body,
            $crate::support::engines::Raw::Postgres($p) => $body,
        }
    };
}
pub(crate) use raw;

/// For each `name`, an `async fn name(db: TestDb)` of the test file runs as two tests,
/// `name::sqlite` and `name::postgres`, each on a fresh store of its engine.
macro_rules! on_both_engines {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                let db = $crate::support::engines::TestDb::open(
                    $crate::support::engines::Engine::Sqlite,
                )
                .await
                .expect("a SQLite store");
                super::$name(db).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                if let Some(db) = $crate::support::engines::TestDb::open(
                    $crate::support::engines::Engine::Postgres,
                )
                .await
                {
                    super::$name(db).await;
                }
            }
        }
    )*};
}
pub(crate) use on_both_engines;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// Raw access to the store's database, for a test's own checks (`raw!`).
pub enum Raw {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// A store on one engine, its raw pool, and what keeps it alive.
pub struct TestDb {
    pub store: Store,
    pub raw: Raw,
    pub engine: Engine,
    /// The store's location with its password: what a second process (a second sync) opens.
    pub location: String,
    /// The store's clock (fixed; a test moves it on).
    pub clock: FixedClock,
    _dir: tempfile::TempDir,
}

const CLOCK_MS: i64 = 1_800_000_000_000;

/// The URL of the test cluster's admin database, or `None` (the test is skipped) when it is not
/// set outside CI.
pub fn pg_admin_url() -> Option<String> {
    match std::env::var("A2LEARN_TEST_PG_URL") {
        Ok(url) if !url.trim().is_empty() => Some(url),
        _ => {
            peers::missing("PostgreSQL", "A2LEARN_TEST_PG_URL is not set");
            None
        }
    }
}

/// The whole shared database as `pg_dump --data-only` writes it (every table's rows), with the
/// tool Debian's PostgreSQL client installs.
pub fn pg_dump(url: &str) -> String {
    let out = std::process::Command::new("pg_dump")
        .args(["--data-only", "--no-owner"])
        .arg(url)
        .output()
        .expect("pg_dump runs (Debian's postgresql-client)");
    assert!(
        out.status.success(),
        "pg_dump: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("a dump in UTF-8")
}

/// A new, empty database in the test cluster, named for this process, a counter and `unique`
/// (a temporary folder's random name: test processes run one after another and share the
/// cluster); returns its URL.
pub async fn new_pg_database(unique: &std::path::Path) -> Option<String> {
    new_pg_database_with(unique, "").await
}

/// [`new_pg_database`] with `options` after `CREATE DATABASE name` (a collation, say).
pub async fn new_pg_database_with(unique: &std::path::Path, options: &str) -> Option<String> {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let admin = pg_admin_url()?;
    let unique: String = unique
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default()
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .collect();
    let name = format!(
        "t_{}_{}_{unique}",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed),
    );
    let mut conn = sqlx::PgConnection::connect(&admin)
        .await
        .expect("connect to the test cluster");
    sqlx::query(&format!("CREATE DATABASE {name} {options}"))
        .execute(&mut conn)
        .await
        .expect("create a test database");
    let _ = conn.close().await;
    let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
    Some(format!("{base}/{name}"))
}

impl TestDb {
    /// A fresh store on `engine` with the tests' fixed clock; `None` when PostgreSQL is not
    /// there outside CI.
    pub async fn open(engine: Engine) -> Option<Self> {
        Self::open_at(engine, "").await
    }

    /// A fresh PostgreSQL store whose database collates text by a language (ICU's English:
    /// `anon_a` sorts before `anon_B`, where code points put `B` first), as a school's server
    /// may; the test cluster's own databases collate by code point (C), as SQLite does.
    pub async fn open_language_collated() -> Option<Self> {
        Self::open_at(
            Engine::Postgres,
            "LOCALE_PROVIDER icu ICU_LOCALE 'en' TEMPLATE template0",
        )
        .await
    }

    async fn open_at(engine: Engine, pg_options: &str) -> Option<Self> {
        let clock = FixedClock::at(CLOCK_MS);
        let dir = tempfile::tempdir().expect("tempdir");
        let location = match engine {
            Engine::Sqlite => dir.path().join("teacher.db").display().to_string(),
            Engine::Postgres => new_pg_database_with(dir.path(), pg_options).await?,
        };
        let at = Location::parse(&location).expect("a location");
        let store = Store::open_at(&at, Arc::new(clock.clone()))
            .await
            .expect("open store");
        let raw = match engine {
            Engine::Sqlite => Raw::Sqlite(store.sqlite().expect("a SQLite store").clone()),
            Engine::Postgres => Raw::Postgres(PgPool::connect(&location).await.expect("connect")),
        };
        Some(Self {
            store,
            raw,
            engine,
            location,
            clock,
            _dir: dir,
        })
    }

    /// The store as a teacher's app opens it: a SQLite store is its own home; a shared store is
    /// paired with the teacher's file in this test's folder (`home.db`), where what the teacher
    /// keeps to themselves stays. Opened anew each call (the same databases): a restart.
    pub async fn teacher_store(&self) -> Store {
        let at = Location::parse(&self.location).expect("a location");
        let store = Store::open_at(&at, Arc::new(self.clock.clone()))
            .await
            .expect("open store");
        match self.engine {
            Engine::Sqlite => store,
            Engine::Postgres => {
                let home = Store::open(&self.home_file(), Arc::new(self.clock.clone()))
                    .await
                    .expect("open the teacher's file");
                store.with_home(home).expect("a shared store takes a home")
            }
        }
    }

    /// The teacher's own file beside a shared store ([`TestDb::teacher_store`]).
    pub fn home_file(&self) -> std::path::PathBuf {
        self.dir().join("home.db")
    }

    /// A folder that lives as long as the store (for a test's logs and files).
    pub fn dir(&self) -> &std::path::Path {
        self._dir.path()
    }

    /// `SELECT COUNT(*) …` or another integer.
    pub async fn count(&self, sql: &str) -> i64 {
        raw!(self, |pool| sqlx::query_scalar(sql)
            .fetch_one(pool)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}")))
    }

    /// A yes/no query (`SELECT x IS NULL …`).
    pub async fn flag(&self, sql: &str) -> bool {
        raw!(self, |pool| sqlx::query_scalar(sql)
            .fetch_one(pool)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}")))
    }

    /// A statement's effect on the raw database (a test's own damage or setup).
    pub async fn execute(&self, sql: &str) -> u64 {
        raw!(self, |pool| sqlx::query(sql)
            .execute(pool)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"))
            .rows_affected())
    }

    /// Every row of the derived tables and the grid's rollup, as text, in a stable order: for
    /// comparing two states of one store (the text of a value differs between the engines).
    pub async fn derived_dump(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (table, key, filter) in [
            ("results", "class_id, widget_run_id", ""),
            ("struggles", "class_id, widget_run_id", ""),
            ("calls", "class_id, call_id", ""),
            ("learners", "class_id, learner", ""),
            ("grid_cells", "class_id, pathway_id, learner, widget_id", ""),
            // A step's total that moved back to zero may stay as a row of 0, which is no one.
            (
                "grid_totals",
                "class_id, pathway_id, widget_id, state",
                " WHERE learners <> 0",
            ),
        ] {
            let columns_sql = match self.engine {
                Engine::Sqlite => {
                    format!("SELECT name FROM pragma_table_info('{table}') ORDER BY cid")
                }
                Engine::Postgres => format!(
                    "SELECT column_name::TEXT FROM information_schema.columns \
                     WHERE table_schema = current_schema() AND table_name = '{table}' \
                     ORDER BY ordinal_position"
                ),
            };
            let cols: Vec<String> = raw!(self, |pool| sqlx::query_scalar(&columns_sql)
                .fetch_all(pool)
                .await)
            .expect("columns");
            let quote = match self.engine {
                Engine::Sqlite => "quote",
                Engine::Postgres => "quote_nullable",
            };
            let concat = cols
                .iter()
                .filter(|c| *c != "first_seen_at")
                .map(|c| format!("{quote}({c})"))
                .collect::<Vec<_>>()
                .join(" || '|' || ");
            let sql = format!("SELECT {concat} FROM {table}{filter} ORDER BY {key}");
            let rows: Vec<String> =
                raw!(self, |pool| sqlx::query_scalar(&sql).fetch_all(pool).await).expect("rows");
            out.extend(rows.into_iter().map(|r| format!("{table}: {r}")));
        }
        out
    }
}
