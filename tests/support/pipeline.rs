//! The live pipeline's test helpers: the reference host on loopback, a sync of one class, and the
//! comparison of a store with the host's log. Used by the core's tests/pipeline.rs and by the CLI
//! crate's tests of `sync` as a process (which include this file by path).
#![allow(dead_code)] // each test file uses a different part

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::host::feed::{Backoff, FeedConfig, FeedSinks};
use a2learn_teacher::sync::{SyncError, sync_class};
use a2learn_teacher::{Store, SystemClock};
use pathway_host::{Faults, HostConfig, LoggedFrame, RunningHost};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

/// Runs `$body` with `$p` bound to the store's own pool, on either engine (`$N` placeholders
/// read the same on both).
macro_rules! on_raw {
    ($store:expr, |$p:ident| $body:expr) => {
        match $store.raw_pool() {
            a2learn_teacher::store::RawPool::Sqlite($p) => $body,
            a2learn_teacher::store::RawPool::Postgres($p) => $body,
        }
    };
}

pub const TOKEN: &str = "test-token-abcdefghijklmnop";
pub const PATHWAY: &str = "fractions-compare-4";

pub fn clock() -> SharedClock {
    Arc::new(SystemClock)
}

pub fn host_config(faults: Faults, log: Option<&Path>) -> HostConfig {
    let mut config = HostConfig::local(TOKEN);
    // Enough learners that the simulation outlasts every test's frame target (~10 frames each).
    config.learners = 90;
    config.speed = 400.0;
    config.seed = 42;
    config.faults = faults;
    config.ping_interval = Duration::from_millis(200);
    config.log_path = log.map(Path::to_path_buf);
    config
}

/// [`host_config`] at a quarter of the speed, for tests that need frames still to come after
/// a restart: at full speed the whole simulation (~940 frames) takes a few seconds, and a
/// starved test process can find it over.
pub fn slower_host_config(faults: Faults, log: Option<&Path>) -> HostConfig {
    let mut config = host_config(faults, log);
    config.speed = 100.0;
    config
}

pub async fn start_host(faults: Faults, log: Option<&Path>) -> (RunningHost, String) {
    start_host_with(host_config(faults, log)).await
}

/// A host with a class of [`PATHWAY`] running.
pub async fn start_host_with(config: HostConfig) -> (RunningHost, String) {
    let host = pathway_host::start(config).await.expect("host starts");
    let (class_id, _) = host.create_class("Period 3").expect("class");
    host.assign(&class_id, PATHWAY, None, None).expect("assign");
    (host, class_id)
}

pub fn feed_config(url: &str, class_id: &str) -> FeedConfig {
    let mut config = FeedConfig::new(url, TOKEN, class_id);
    // Fast reconnects and stall detection, so faults cost the test little time.
    config.backoff = Backoff {
        min: Duration::from_millis(20),
        max: Duration::from_millis(200),
    };
    config.stall_timeout = Duration::from_secs(2);
    config
}

pub async fn open(path: &Path) -> Store {
    Store::open(path, clock()).await.expect("store")
}

/// A store at a location as `--db` takes it: a file's path or a postgres:// URL.
pub async fn open_at(location: &str) -> Store {
    let at = a2learn_teacher::store::Location::parse(location).expect("a location");
    Store::open_at(&at, clock()).await.expect("store")
}

/// A sync of `class_id` running in this process until the returned token is cancelled.
pub fn spawn_sync(
    store: Store,
    config: FeedConfig,
) -> (
    CancellationToken,
    tokio::task::JoinHandle<Result<a2learn_teacher::host::feed::FeedStats, SyncError>>,
) {
    let cancel = CancellationToken::new();
    let (sinks, _state, _stats) = FeedSinks::new();
    let task = tokio::spawn(sync_class(store, config, clock(), sinks, cancel.clone()));
    (cancel, task)
}

/// Waits until the host has logged at least `frames` frames for the class.
pub async fn wait_for_log(host: &RunningHost, class_id: &str, frames: usize) -> Vec<LoggedFrame> {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let log = host.log(class_id);
        if log.len() >= frames {
            return log;
        }
        assert!(
            Instant::now() < deadline,
            "the host logged only {} frames",
            log.len()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the store's cursor reaches `seq`.
pub async fn wait_for_cursor(store: &Store, class_id: &str, seq: u64) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let cursor = store.cursor(class_id).await.unwrap().unwrap_or(-1);
        if cursor >= seq as i64 {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "cursor stuck at {cursor}, waiting for {seq}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// What the store must hold after syncing `log`.
#[derive(Debug, Default)]
pub struct Expected {
    pub ledger: BTreeMap<i64, (String, Value)>,
    pub quarantine: BTreeMap<i64, String>,
    pub completed_runs: BTreeSet<String>,
}

pub fn expected(log: &[LoggedFrame]) -> Expected {
    let mut out = Expected::default();
    for frame in log {
        let seq = frame.seq as i64;
        if let Some(rule) = &frame.expect_rule {
            out.quarantine.insert(seq, rule.clone());
            continue;
        }
        let event = frame.json().expect("valid frames are JSON");
        if event["type"] != "CUSTOM" {
            continue;
        }
        let name = event["name"].as_str().unwrap().to_string();
        if !name.starts_with("a2learn.") {
            continue;
        }
        if name == "a2learn.widget_completed" {
            out.completed_runs
                .insert(event["value"]["widget_run_id"].as_str().unwrap().into());
        }
        out.ledger.insert(seq, (name, event["value"].clone()));
    }
    out
}

/// The store holds exactly what the host logged up to `upto`: no event lost, none doubled.
pub async fn assert_store_matches(store: &Store, class_id: &str, log: &[LoggedFrame], upto: u64) {
    let log: Vec<LoggedFrame> = log.iter().filter(|f| f.seq <= upto).cloned().collect();
    let want = expected(&log);
    assert!(
        !want.ledger.is_empty(),
        "the test must have something to compare"
    );

    let rows: Vec<(i64, String, String)> = on_raw!(store, |pool| sqlx::query_as(
        "SELECT seq, name, payload FROM ledger WHERE class_id = $1 AND seq <= $2 ORDER BY seq",
    )
    .bind(class_id)
    .bind(upto as i64)
    .fetch_all(pool)
    .await
    .unwrap());
    let got: BTreeMap<i64, (String, Value)> = rows
        .into_iter()
        .map(|(seq, name, payload)| (seq, (name, serde_json::from_str(&payload).unwrap())))
        .collect();
    let missing: Vec<&i64> = want
        .ledger
        .keys()
        .filter(|s| !got.contains_key(s))
        .collect();
    let extra: Vec<&i64> = got
        .keys()
        .filter(|s| !want.ledger.contains_key(s))
        .collect();
    assert!(missing.is_empty(), "lost from the ledger: seqs {missing:?}");
    assert!(
        extra.is_empty(),
        "in the ledger but not in the host's log: {extra:?}"
    );
    for (seq, (name, value)) in &want.ledger {
        let (got_name, got_value) = &got[seq];
        assert_eq!(got_name, name, "seq {seq}");
        assert_eq!(got_value, value, "payload of seq {seq} as the host sent it");
    }

    let quarantined: BTreeMap<i64, String> =
        on_raw!(store, |pool| sqlx::query_as::<_, (i64, String)>(
            "SELECT seq, rule_id FROM quarantine WHERE class_id = $1 AND seq <= $2",
        )
        .bind(class_id)
        .bind(upto as i64)
        .fetch_all(pool)
        .await
        .unwrap())
        .into_iter()
        .collect();
    assert_eq!(
        quarantined, want.quarantine,
        "every fault quarantined, with its rule"
    );

    // Results may have come by backfill (no seq) or by the feed; either way, once each.
    let runs: BTreeSet<String> = on_raw!(store, |pool| sqlx::query_scalar::<_, String>(
        "SELECT widget_run_id FROM results WHERE class_id = $1"
    )
    .bind(class_id)
    .fetch_all(pool)
    .await
    .unwrap())
    .into_iter()
    .collect();
    let lost: Vec<&String> = want.completed_runs.difference(&runs).collect();
    assert!(lost.is_empty(), "completed runs without a result: {lost:?}");
}
