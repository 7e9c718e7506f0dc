//! **Ingest**: the reference host's simulation, run in manual time until its log holds the
//! requested number of frames, is replayed over SSE on loopback into a fresh database through
//! the whole pipeline (SSE parsing, AG-UI and contract validation, the one-transaction batches).
//!
//! Two raw limits, both inserted straight into a fresh database of the same schema and settings
//! in batched multi-row statements (as many rows each as the pipeline's, one transaction per
//! 1,000 frames' worth), without the pipeline:
//! - **ledger only**: the log's contract rows into the ledger (the lower bound of any store);
//! - **same rows**: every row the pipeline stored (ledger, results, struggles, calls, learners,
//!   the grid's rollup, cursor), read back from the pipeline's database: the fair comparison, since the pipeline
//!   must write all of them.
//!
//! Then four syncs at once, each following its own host's class, write into one store: what a
//! district's followers do to one server (and SQLite's one writer at a time, on a file).
//!
//! With `--postgres URL` every store figure is measured again on PostgreSQL, each store a fresh
//! database made on that server (and dropped after), beside its own raw limits.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::{Connection, QueryBuilder};
use tokio_util::sync::CancellationToken;

use super::copy::{TableRows, insert_rows, kinds_in, on_raw, read_table};
use super::{CpuMeter, Options, Report, Spread, ThreadCpu};
use a2learn_contract::Registry;
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::host::feed::{FeedConfig, FeedSinks, run_feed};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::store::{Location, PgUrl, ROWS_PER_STATEMENT, Store};
use a2learn_teacher::sync::refresh_catalog;

/// Where a run's fresh stores are made: files in a temporary folder, or databases on a
/// PostgreSQL server.
#[derive(Debug, Clone)]
pub enum Target {
    Sqlite(PathBuf),
    /// A server's URL (with a database the bench may connect to, e.g. `postgres`) on which it
    /// creates and drops its own databases.
    Postgres(String),
}

impl Target {
    /// The location of the store called `name` (its file, or its database's URL).
    fn location(&self, name: &str) -> anyhow::Result<Location> {
        Ok(match self {
            Target::Sqlite(dir) => Location::Sqlite(dir.join(format!("{name}.db"))),
            Target::Postgres(server) => {
                let (base, _) = server
                    .rsplit_once('/')
                    .ok_or_else(|| anyhow::anyhow!("--postgres: a URL ends in /DATABASE"))?;
                Location::Postgres(PgUrl::parse(&format!("{base}/{}", database_name(name)))?)
            }
        })
    }

    /// A fresh, empty store called `name` (a database of that name is dropped first).
    pub(crate) async fn fresh(&self, name: &str, clock: SharedClock) -> anyhow::Result<Store> {
        if let Target::Postgres(server) = self {
            let mut admin = sqlx::PgConnection::connect(server).await?;
            let db = database_name(name);
            sqlx::query(&format!("DROP DATABASE IF EXISTS {db}"))
                .execute(&mut admin)
                .await?;
            sqlx::query(&format!("CREATE DATABASE {db}"))
                .execute(&mut admin)
                .await?;
            admin.close().await?;
        }
        self.open(name, clock).await
    }

    /// The store called `name`, as it is.
    pub(crate) async fn open(&self, name: &str, clock: SharedClock) -> anyhow::Result<Store> {
        Ok(Store::open_at(&self.location(name)?, clock).await?)
    }

    /// Drops the databases a PostgreSQL run made (a folder's files go with the folder).
    pub(crate) async fn clean(&self, names: &[&str]) -> anyhow::Result<()> {
        if let Target::Postgres(server) = self {
            let mut admin = sqlx::PgConnection::connect(server).await?;
            for name in names {
                sqlx::query(&format!("DROP DATABASE IF EXISTS {}", database_name(name)))
                    .execute(&mut admin)
                    .await?;
            }
            admin.close().await?;
        }
        Ok(())
    }
}

/// A database name the bench owns: `a2learn_bench_` and the store's name.
fn database_name(name: &str) -> String {
    format!("a2learn_bench_{}", name.replace('-', "_"))
}

/// The stores one run makes.
const STORES: [&str; 5] = ["raw", "ingest", "pipeline", "raw-same", "concurrent"];

/// The syncs that write into one store at once in the concurrent measurement.
pub const CONCURRENT_SYNCS: usize = 4;

/// A host log ready to be replayed: the host, its class, and the seq of the last frame wanted.
pub struct ReplaySource {
    pub host: pathway_host::RunningHost,
    pub token: String,
    pub class_id: String,
    pub last_seq: u64,
    /// The ledger rows the log holds: (seq, CUSTOM name, payload), for the raw limit.
    pub rows: Vec<(i64, String, String)>,
    /// Every frame of the log as the feed carries it: (seq, data).
    pub data: Vec<(u64, String)>,
    pub frames: usize,
}

/// Starts a host and runs its simulation until the class log holds `frames` frames.
pub async fn prepare_replay(frames: usize, seed: u64) -> anyhow::Result<ReplaySource> {
    let token = "bench-token-0123456789abcdef".to_string();
    let mut config = pathway_host::HostConfig::local(token.clone());
    config.time = pathway_host::TimeMode::Manual;
    config.seed = seed;
    // About ten frames per learner and pathway; three pathways assigned.
    config.learners = frames / 25 + 10;
    let host = pathway_host::start(config).await?;
    let (class_id, _) = host
        .create_class("Bench class")
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    for pathway in host.pathways() {
        host.assign(&class_id, &pathway.pathway_id, None, None)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }
    let mut last_len = 0;
    loop {
        host.advance(Duration::from_secs(600));
        let len = host.log(&class_id).len();
        if len >= frames {
            break;
        }
        if len == last_len {
            anyhow::bail!("the simulation stopped at {len} frames, short of {frames}");
        }
        last_len = len;
    }
    let log = host.log(&class_id);
    let wanted = &log[..frames];
    let last_seq = wanted.last().map_or(0, |f| f.seq);
    let rows = wanted
        .iter()
        .filter_map(|f| {
            let event = f.json()?;
            let name = event.get("name")?.as_str()?.to_string();
            let value = event.get("value")?.to_string();
            Some((f.seq as i64, name, value))
        })
        .collect();
    let data = wanted.iter().map(|f| (f.seq, f.data.clone())).collect();
    Ok(ReplaySource {
        host,
        token,
        class_id,
        last_seq,
        rows,
        data,
        frames,
    })
}

/// Inserts `rows` into a fresh database's ledger in transactions of 1,000 rows, in statements
/// of as many rows as the pipeline's ([`ROWS_PER_STATEMENT`]). Returns rows per second.
pub async fn raw_insert(target: &Target, rows: &[(i64, String, String)]) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("raw", clock.clone()).await?;
    let now = clock.now_ms();
    let started = Instant::now();
    for tx_rows in rows.chunks(1000) {
        on_raw!(store, |pool| {
            let mut tx = pool.begin().await?;
            for chunk in tx_rows.chunks(ROWS_PER_STATEMENT) {
                let mut q = QueryBuilder::<Db>::new(
                    "INSERT INTO ledger (class_id, seq, name, payload, received_at) ",
                );
                q.push_values(chunk, |mut row, (seq, name, payload)| {
                    row.push_bind("bench")
                        .push_bind(*seq)
                        .push_bind(name.as_str())
                        .push_bind(payload.as_str())
                        .push_bind(now);
                });
                q.build().execute(&mut *tx).await?;
            }
            tx.commit().await?;
        });
    }
    let rate = rows.len() as f64 / started.elapsed().as_secs_f64();
    store.close().await;
    Ok(rate)
}

/// Replays the whole log from the host into a fresh database through the pipeline. Returns
/// frames per second (every frame of the log: stored, quarantined or ignored).
pub async fn pipeline_replay(target: &Target, source: &ReplaySource) -> anyhow::Result<f64> {
    Ok(pipeline_replay_profiled(target, source).await?.0)
}

/// [`pipeline_replay`], with the cores this process's threads kept busy by kind, read before
/// the store closes (its SQLite worker threads end with it, and an ended thread's time is no
/// longer listed).
pub async fn pipeline_replay_profiled(
    target: &Target,
    source: &ReplaySource,
) -> anyhow::Result<(f64, std::collections::BTreeMap<String, f64>)> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("pipeline", clock.clone()).await?;
    let registry = catalog_for(&store, source).await?;
    let threads = ThreadCpu::start();
    let started = Instant::now();
    follow(store.clone(), registry, source, clock).await?;
    let elapsed = started.elapsed();
    let cores = threads.cores();
    store.close().await;
    Ok((source.frames as f64 / elapsed.as_secs_f64(), cores))
}

/// Several syncs at once into one fresh store, each following its own host's class, as a
/// district's followers write into one server. Returns the frames of all of them per second
/// of the whole.
pub async fn concurrent_replays(target: &Target, sources: &[ReplaySource]) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("concurrent", clock.clone()).await?;
    let mut registries = Vec::with_capacity(sources.len());
    for source in sources {
        registries.push(catalog_for(&store, source).await?);
    }
    let started = Instant::now();
    let mut syncs = Vec::with_capacity(sources.len());
    for (source, registry) in sources.iter().zip(registries) {
        let (store, clock) = (store.clone(), clock.clone());
        let (url, token, class_id, last_seq) = (
            source.host.url(),
            source.token.clone(),
            source.class_id.clone(),
            source.last_seq,
        );
        syncs.push(tokio::spawn(async move {
            follow_feed(store, registry, &url, &token, &class_id, last_seq, clock).await
        }));
    }
    for sync in syncs {
        sync.await??;
    }
    let elapsed = started.elapsed();
    store.close().await;
    let frames: usize = sources.iter().map(|s| s.frames).sum();
    Ok(frames as f64 / elapsed.as_secs_f64())
}

/// The class of `source` in `store`, and the catalog of its host.
async fn catalog_for(store: &Store, source: &ReplaySource) -> anyhow::Result<Arc<Registry>> {
    store.ensure_class(&source.class_id).await?;
    let client = HostClient::connect(&source.host.url(), &source.token).await?;
    let registry = Arc::new(refresh_catalog(store, &client).await?);
    client.close().await;
    Ok(registry)
}

/// Follows the feed of `source` into `store` until its last frame is stored.
async fn follow(
    store: Store,
    registry: Arc<Registry>,
    source: &ReplaySource,
    clock: SharedClock,
) -> anyhow::Result<()> {
    let url = source.host.url();
    follow_feed(
        store,
        registry,
        &url,
        &source.token,
        &source.class_id,
        source.last_seq,
        clock,
    )
    .await
}

async fn follow_feed(
    store: Store,
    registry: Arc<Registry>,
    url: &str,
    token: &str,
    class_id: &str,
    last_seq: u64,
    clock: SharedClock,
) -> anyhow::Result<()> {
    let (sinks, _state, mut stats) = FeedSinks::new();
    let cancel = CancellationToken::new();
    let config = FeedConfig::new(url, token, class_id);
    let feed = tokio::spawn(run_feed(
        store,
        registry,
        config,
        clock,
        sinks,
        cancel.clone(),
    ));
    let target = last_seq as i64;
    while stats.borrow().last_seq.unwrap_or(-1) < target {
        if stats.changed().await.is_err() {
            anyhow::bail!("the feed stopped before the end of the log");
        }
    }
    cancel.cancel();
    let _ = feed.await;
    Ok(())
}

/// The pipeline without the network: the log's frames handed to `Store::ingest_with` in
/// batches of 1,000 with the class's memory, as the feed reader does. Returns frames per second.
pub async fn store_ingest(target: &Target, source: &ReplaySource) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("ingest", clock).await?;
    store.ensure_class(&source.class_id).await?;
    let client = HostClient::connect(&source.host.url(), &source.token).await?;
    let registry = refresh_catalog(&store, &client).await?;
    client.close().await;
    let mut memory = a2learn_teacher::store::ClassMemory::new();
    let started = Instant::now();
    for chunk in source.data.chunks(1000) {
        let batch = chunk
            .iter()
            .map(|(seq, data)| a2learn_teacher::store::Incoming::Frame {
                id: Some(seq.to_string()),
                data: data.clone(),
            })
            .collect();
        store
            .ingest_with(&source.class_id, &registry, batch, &mut memory)
            .await?;
    }
    let rate = source.frames as f64 / started.elapsed().as_secs_f64();
    store.close().await;
    Ok(rate)
}

/// The CPU half of ingest alone: AG-UI parse, the contract's rules, and the payload's
/// serialization, for every frame of the log. Returns frames per second.
pub async fn parse_and_validate(dir: &Path, source: &ReplaySource) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.join("registry.db"), clock).await?;
    let client = HostClient::connect(&source.host.url(), &source.token).await?;
    let registry = refresh_catalog(&store, &client).await?;
    client.close().await;
    let started = Instant::now();
    let mut accepted = 0usize;
    for (_, data) in &source.data {
        if let Ok(a2learn_contract::Parsed::Contract(message)) =
            a2learn_contract::transport::agui::parse_event_str(data)
            && a2learn_contract::validate_message(&message, &registry).is_ok()
        {
            accepted += 1;
        }
    }
    let rate = source.frames as f64 / started.elapsed().as_secs_f64();
    anyhow::ensure!(
        accepted > 0,
        "nothing parsed: the measurement would be empty"
    );
    store.close().await;
    Ok(rate)
}

/// Every row the pipeline stored for one replay, read back from its database.
#[derive(Debug, Clone, Default)]
pub struct StoredRows {
    class_id: String,
    tables: Vec<TableRows>,
}

impl StoredRows {
    /// Rows across every table.
    pub fn len(&self) -> usize {
        self.tables.iter().map(|t| t.rows.len()).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `table: rows` for each table, for the printout.
    pub fn describe(&self) -> String {
        self.tables
            .iter()
            .map(|t| format!("{} {}", t.table, t.rows.len()))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Reads back what the pipeline stored (ledger, results, struggles, calls, learners, the grid's
/// rollup).
pub async fn stored_rows(target: &Target, class_id: &str) -> anyhow::Result<StoredRows> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.open("pipeline", clock).await?;
    let postgres = matches!(target, Target::Postgres(_));
    let mut out = StoredRows {
        class_id: class_id.to_string(),
        tables: Vec::new(),
    };
    // The grid's rollup too: the pipeline keeps it in the same transactions (its tables have no
    // rowid; their keys are in insert order's place).
    for (table, order) in [
        ("ledger", "rowid"),
        ("results", "rowid"),
        ("struggles", "rowid"),
        ("calls", "rowid"),
        ("learners", "rowid"),
        ("grid_cells", "class_id, pathway_id, learner, widget_id"),
        ("grid_totals", "class_id, pathway_id, widget_id, state"),
    ] {
        // PostgreSQL has no rowid: its ledger's identity is its insert order, and the other
        // tables are read in the order their heap holds them.
        let order = match (postgres, table) {
            (true, "ledger") => "id",
            (true, _) if order == "rowid" => "",
            _ => order,
        };
        // The ledger's id is the database's own (a rowid alias, an identity): a fresh database
        // assigns its own.
        let skip: &[&str] = if table == "ledger" { &["id"] } else { &[] };
        out.tables
            .push(read_table(&store, table, order, skip).await?);
    }
    store.close().await;
    Ok(out)
}

/// The fair raw limit: inserts every row the pipeline stored into a fresh database, in
/// `transactions` transactions (one per 1,000 frames, as the pipeline commits), each holding an
/// equal share of every table. Returns the seconds it took.
pub async fn raw_insert_same(
    target: &Target,
    rows: &StoredRows,
    transactions: usize,
) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("raw-same", clock).await?;
    store.ensure_class(&rows.class_id).await?;
    let transactions = transactions.max(1);
    let kinds = kinds_in(&store, &rows.tables).await?;
    let started = Instant::now();
    for t in 0..transactions {
        insert_rows(&store, &rows.tables, &kinds, |table| {
            let n = table.rows.len();
            &table.rows[n * t / transactions..n * (t + 1) / transactions]
        })
        .await?;
    }
    let secs = started.elapsed().as_secs_f64();
    store.close().await;
    Ok(secs)
}

/// `bench ingest`: the raw limits, the pipeline's parts, the end-to-end rate and the ratios.
pub async fn run(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    let frames = opts.frames;
    println!("ingest: preparing a host log of {frames} frames (simulated class, manual time)…");
    let prep = Instant::now();
    let source = prepare_replay(frames, 7).await?;
    println!(
        "  log ready in {:.1} s: {} frames, {} contract rows",
        prep.elapsed().as_secs_f64(),
        source.frames,
        source.rows.len()
    );
    let mut parsed = Vec::new();
    for _ in 0..opts.runs {
        let dir = tempfile::tempdir()?;
        parsed.push(parse_and_validate(dir.path(), &source).await?);
    }
    report.add(
        "ingest",
        "parse + validate only, no store",
        "events/s",
        Spread::of(&parsed),
    );
    // As many frames in all, in the classes of as many hosts, for the syncs that run at once.
    let mut classes = Vec::with_capacity(CONCURRENT_SYNCS);
    for seed in 0..CONCURRENT_SYNCS as u64 {
        classes.push(prepare_replay(frames / CONCURRENT_SYNCS, 11 + seed).await?);
    }
    let mut ids: Vec<&str> = classes.iter().map(|c| c.class_id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    anyhow::ensure!(
        ids.len() == CONCURRENT_SYNCS,
        "two hosts made the same class id: the concurrent syncs would write into one class"
    );
    println!("  on SQLite (a file per store):");
    run_on(None, opts, &source, &classes, report).await?;
    if let Some(server) = &opts.postgres {
        println!("  on PostgreSQL (a database per store):");
        run_on(Some(server), opts, &source, &classes, report).await?;
    }
    source.host.shutdown().await;
    for class in classes {
        class.host.shutdown().await;
    }
    Ok(())
}

/// The raw limits, the store's ingest and the end-to-end replay on one engine (SQLite, or the
/// PostgreSQL server at `postgres`), each store fresh in every run. PostgreSQL's figures are
/// named with `postgres: ` first.
async fn run_on(
    postgres: Option<&str>,
    opts: &Options,
    source: &ReplaySource,
    classes: &[ReplaySource],
    report: &mut Report,
) -> anyhow::Result<()> {
    let prefix = if postgres.is_some() { "postgres: " } else { "" };
    let transactions = source.frames.div_ceil(1000);
    let mut raw = Vec::new();
    let mut raw_same = Vec::new();
    let mut stored = Vec::new();
    let mut pipeline = Vec::new();
    let mut concurrent = Vec::new();
    let mut pipeline_cores = Vec::new();
    let mut sqlite_worker_cores = Vec::new();
    let mut runtime_cores = Vec::new();
    let mut concurrent_cores = Vec::new();
    let mut described = String::new();
    let mut rows_per_event = f64::NAN;
    for _ in 0..opts.runs {
        let dir = tempfile::tempdir()?;
        let target = match postgres {
            Some(server) => Target::Postgres(server.to_string()),
            None => Target::Sqlite(dir.path().to_path_buf()),
        };
        raw.push(raw_insert(&target, &source.rows).await?);
        stored.push(store_ingest(&target, source).await?);
        let cpu = CpuMeter::start();
        let (rate, by_kind) = pipeline_replay_profiled(&target, source).await?;
        pipeline.push(rate);
        pipeline_cores.push(cpu.cores_busy());
        let of_kind = |prefix: &str| -> f64 {
            by_kind
                .iter()
                .filter(|(kind, _)| kind.starts_with(prefix))
                .map(|(_, cores)| cores)
                .sum()
        };
        sqlite_worker_cores.push(of_kind("sqlx-sqlite"));
        let all: f64 = by_kind.values().sum();
        runtime_cores.push(all - of_kind("sqlx-sqlite"));
        let same = stored_rows(&target, &source.class_id).await?;
        anyhow::ensure!(!same.is_empty(), "the pipeline stored nothing");
        rows_per_event = same.len() as f64 / source.frames as f64;
        described = same.describe();
        let secs = raw_insert_same(&target, &same, transactions).await?;
        raw_same.push(source.frames as f64 / secs);
        let cpu = CpuMeter::start();
        concurrent.push(concurrent_replays(&target, classes).await?);
        concurrent_cores.push(cpu.cores_busy());
        target.clean(&STORES).await?;
    }
    println!("  the pipeline stores, per replay: {described} ({rows_per_event:.2} rows per frame)");
    let raw = Spread::of(&raw);
    let raw_same = Spread::of(&raw_same);
    let pipeline_s = Spread::of(&pipeline);
    report.add(
        "ingest",
        format!("{prefix}raw limit: ledger rows only"),
        "rows/s",
        raw,
    );
    report.add(
        "ingest",
        format!("{prefix}raw limit: the same rows the pipeline stores"),
        "frames/s",
        raw_same,
    );
    report.add(
        "ingest",
        format!("{prefix}Store::ingest, no network"),
        "events/s",
        Spread::of(&stored),
    );
    report.add(
        "ingest",
        format!("{prefix}end-to-end replay (SSE -> store)"),
        "events/s",
        pipeline_s,
    );
    report.add(
        "ingest",
        format!("{prefix}ratio end-to-end / raw (same rows)"),
        "x",
        Spread::one(pipeline_s.median / raw_same.median),
    );
    report.add(
        "ingest",
        format!("{prefix}ratio end-to-end / raw (ledger only)"),
        "x",
        Spread::one(pipeline_s.median / raw.median),
    );
    let cores = CpuMeter::start().cores();
    report.add(
        "ingest",
        format!("{prefix}cores busy during the end-to-end replay (whole machine, of {cores})"),
        "cores",
        Spread::of(&pipeline_cores),
    );
    report.add(
        "ingest",
        format!("{prefix}  of which the store's SQLite worker threads"),
        "cores",
        Spread::of(&sqlite_worker_cores),
    );
    report.add(
        "ingest",
        format!("{prefix}  of which this process's other threads (reader, writer, host)"),
        "cores",
        Spread::of(&runtime_cores),
    );
    let concurrent = Spread::of(&concurrent);
    report.add(
        "ingest",
        format!("{prefix}{CONCURRENT_SYNCS} syncs at once into one store, all classes"),
        "events/s",
        concurrent,
    );
    report.add(
        "ingest",
        format!("{prefix}ratio {CONCURRENT_SYNCS} syncs at once / one sync"),
        "x",
        Spread::one(concurrent.median / pipeline_s.median),
    );
    report.add(
        "ingest",
        format!(
            "{prefix}cores busy during the {CONCURRENT_SYNCS} syncs (whole machine, of {cores})"
        ),
        "cores",
        Spread::of(&concurrent_cores),
    );
    Ok(())
}
