//! Benchmarks, each printed beside the raw limit measured in the same run (these machines are
//! noisy: absolute figures drift, ratios hold). `a2learn-teacher bench` runs them.
//!
//! **Ingest**: the reference host's simulation, run in manual time until its log holds the
//! requested number of frames, is replayed over SSE on loopback into a fresh database through
//! the whole pipeline (SSE parsing, AG-UI and contract validation, the one-transaction batches).
//! The raw limit is the same ledger rows inserted straight into a fresh database of the same
//! schema and settings, in batched multi-row statements, without the pipeline.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::{QueryBuilder, Sqlite};
use tokio_util::sync::CancellationToken;

use crate::clock::{SharedClock, SystemClock};
use crate::host::feed::{FeedConfig, FeedSinks, run_feed};
use crate::host::mcp::HostClient;
use crate::store::Store;
use crate::sync::refresh_catalog;

/// Min, median and max of several runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Self {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return Self {
                min: f64::NAN,
                median: f64::NAN,
                max: f64::NAN,
            };
        }
        let mid = v.len() / 2;
        let median = if v.len() % 2 == 0 {
            (v[mid - 1] + v[mid]) / 2.0
        } else {
            v[mid]
        };
        Self {
            min: v[0],
            median,
            max: v[v.len() - 1],
        }
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:>9.0} (min {:.0}, max {:.0})",
            self.median, self.min, self.max
        )
    }
}

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

/// Inserts `rows` into a fresh database's ledger in transactions of 1,000 rows, 200 rows per
/// statement. Returns rows per second.
pub async fn raw_insert(dir: &Path, rows: &[(i64, String, String)]) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.join("raw.db"), clock.clone()).await?;
    let now = clock.now_ms();
    let started = Instant::now();
    for tx_rows in rows.chunks(1000) {
        let mut tx = store.pool().begin().await?;
        for chunk in tx_rows.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
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
    }
    let rate = rows.len() as f64 / started.elapsed().as_secs_f64();
    store.close().await;
    Ok(rate)
}

/// Replays the whole log from the host into a fresh database through the pipeline. Returns
/// frames per second (every frame of the log: stored, quarantined or ignored).
pub async fn pipeline_replay(dir: &Path, source: &ReplaySource) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.join("pipeline.db"), clock.clone()).await?;
    store.ensure_class(&source.class_id).await?;
    let client = HostClient::connect(&source.host.url(), &source.token).await?;
    let registry = Arc::new(refresh_catalog(&store, &client).await?);
    client.close().await;

    let (sinks, _state, mut stats) = FeedSinks::new();
    let cancel = CancellationToken::new();
    let config = FeedConfig::new(&source.host.url(), &source.token, &source.class_id);
    let started = Instant::now();
    let feed = tokio::spawn(run_feed(
        store.clone(),
        registry,
        config,
        clock,
        sinks,
        cancel.clone(),
    ));
    let target = source.last_seq as i64;
    while stats.borrow().last_seq.unwrap_or(-1) < target {
        if stats.changed().await.is_err() {
            anyhow::bail!("the feed stopped before the end of the log");
        }
    }
    let elapsed = started.elapsed();
    cancel.cancel();
    let _ = feed.await;
    store.close().await;
    Ok(source.frames as f64 / elapsed.as_secs_f64())
}

/// The pipeline without the network: the log's frames handed to `Store::ingest` in batches of
/// 1,000, as the feed reader would. Returns frames per second.
pub async fn store_ingest(dir: &Path, source: &ReplaySource) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.join("ingest.db"), clock).await?;
    store.ensure_class(&source.class_id).await?;
    let client = HostClient::connect(&source.host.url(), &source.token).await?;
    let registry = refresh_catalog(&store, &client).await?;
    client.close().await;
    let started = Instant::now();
    for chunk in source.data.chunks(1000) {
        let batch = chunk
            .iter()
            .map(|(seq, data)| crate::store::Incoming::Frame {
                id: Some(seq.to_string()),
                data: data.clone(),
            })
            .collect();
        store.ingest(&source.class_id, &registry, batch).await?;
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
        {
            if a2learn_contract::validate_message(&message, &registry).is_ok() {
                accepted += 1;
            }
        }
    }
    let rate = source.frames as f64 / started.elapsed().as_secs_f64();
    anyhow::ensure!(accepted > 0, "nothing parsed: the measurement would be empty");
    store.close().await;
    Ok(rate)
}

/// `bench ingest`: prints the raw limit, the pipeline rate and their ratio.
pub async fn ingest(frames: usize, runs: usize) -> anyhow::Result<()> {
    let runs = runs.max(1);
    println!("ingest: preparing a host log of {frames} frames (simulated class, manual time)…");
    let prep = Instant::now();
    let source = prepare_replay(frames, 7).await?;
    println!(
        "  log ready in {:.1} s: {} frames, {} contract rows",
        prep.elapsed().as_secs_f64(),
        source.frames,
        source.rows.len()
    );
    let mut raw = Vec::new();
    let mut parsed = Vec::new();
    let mut stored = Vec::new();
    let mut pipeline = Vec::new();
    for _ in 0..runs {
        let dir = tempfile::tempdir()?;
        raw.push(raw_insert(dir.path(), &source.rows).await?);
        parsed.push(parse_and_validate(dir.path(), &source).await?);
        stored.push(store_ingest(dir.path(), &source).await?);
        pipeline.push(pipeline_replay(dir.path(), &source).await?);
    }
    let raw = Spread::of(&raw);
    let parsed = Spread::of(&parsed);
    let stored = Spread::of(&stored);
    let pipeline = Spread::of(&pipeline);
    println!("  raw limit (batched INSERT, rows/s)        {raw}");
    println!("  parse + validate only, no store (events/s) {parsed}");
    println!("  store ingest, no network (events/s)       {stored}");
    println!("  end-to-end replay (SSE -> store, events/s) {pipeline}");
    println!(
        "  ratio end-to-end / raw                     {:>9.2}",
        pipeline.median / raw.median
    );
    source.host.shutdown().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_min_median_max() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.min, s.median, s.max), (1.0, 2.0, 3.0));
        assert_eq!(Spread::of(&[1.0, 2.0, 3.0, 10.0]).median, 2.5);
        assert!(Spread::of(&[]).median.is_nan());
    }
}
