//! **Live latency**: from the host emitting an event to the app's change notification.
//!
//! A reference host (no simulation, real time) on loopback; a task emits contract-valid
//! completions with [`pathway_host::RunningHost::emit_custom`] at a fixed rate and records the
//! instant of each emit by its `seq`. The app's side is what the window gets: [`run_feed`] with
//! a changes sink, through [`a2learn_teacher::live::coalesce`] with the app's
//! [`a2learn_teacher::live::COALESCE_WINDOW`]. Each notification covers the events stored since the one
//! before; an event's latency is the instant its notification was handed out minus the instant
//! it was emitted.
//!
//! To know which events a notification covers, each batch's change is tagged on its way to
//! `coalesce` with the feed's cursor after that batch (the feed reports its stats before it
//! sends the change), by suffixing the class id; `coalesce` merges by class id, so the window's
//! timing is unchanged and the emitted map holds every batch it covers.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{Options, Report, Spread, quantile};
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::host::feed::{FeedConfig, FeedSinks, StoreChanged, run_feed};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::live::{COALESCE_WINDOW, coalesce};
use a2learn_teacher::store::Store;
use a2learn_teacher::sync::refresh_catalog;

/// Latencies of one run, in milliseconds.
#[derive(Debug, Clone, PartialEq)]
pub struct Latencies {
    pub rate: f64,
    pub emitted: usize,
    pub notifications: usize,
    pub millis: Vec<f64>,
}

/// A contract-valid completion of `step` by `learner` (run `run`), as an AG-UI CUSTOM event.
pub fn completion_event(
    pathway_id: &str,
    step: &pathway_host::Step,
    learner: &str,
    run: &str,
    at_ms: i64,
) -> serde_json::Value {
    let assesses = step.entry.assesses;
    serde_json::json!({
        "type": "CUSTOM",
        "name": "a2learn.widget_completed",
        "value": {
            "prose": "Compared 3/4 and 2/3 using a common denominator.",
            "learner": learner,
            "widget_run_id": run,
            "widget_id": step.widget_id,
            "pathway_id": pathway_id,
            "at": a2learn_teacher::export::rfc3339(at_ms),
            "widget_result": {
                "kind": step.entry.kind,
                "standard": step.entry.standard,
                "correct": assesses.then_some(true),
                "attempts": 1,
                "hints": 0,
                "score": if assesses { Some(1.0) } else { None },
                "detail": {}
            }
        },
        "timestamp": at_ms,
    })
}

/// Emits `rate` events a second for `seconds` and measures each one's latency.
pub async fn measure(rate: f64, seconds: f64) -> anyhow::Result<Latencies> {
    let token = "bench-token-0123456789abcdef".to_string();
    let mut config = pathway_host::HostConfig::local(token.clone());
    config.simulate = false;
    let host = Arc::new(pathway_host::start(config).await?);
    let (class_id, _) = host
        .create_class("Latency class")
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let pathway = host
        .pathways()
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("the host has no pathway"))?;

    let dir = tempfile::tempdir()?;
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("live.db"), clock.clone()).await?;
    store.ensure_class(&class_id).await?;
    let client = HostClient::connect(&host.url(), &token).await?;
    let registry = Arc::new(refresh_catalog(&store, &client).await?);
    client.close().await;

    // Feed -> tagger -> coalesce -> the notifications' log.
    let (mut sinks, mut state, stats) = FeedSinks::new();
    let (raw_tx, mut raw_rx) = mpsc::unbounded_channel::<StoreChanged>();
    sinks.changes = Some(raw_tx);
    let (tagged_tx, tagged_rx) = mpsc::unbounded_channel::<StoreChanged>();
    let tagger = tokio::spawn(async move {
        while let Some(mut change) = raw_rx.recv().await {
            let seq = stats.borrow().last_seq.unwrap_or(-1);
            change.class_id = format!("{}#{seq}", change.class_id);
            if tagged_tx.send(change).is_err() {
                break;
            }
        }
    });
    let notifications: Arc<Mutex<Vec<(Instant, i64)>>> = Arc::default();
    let log = notifications.clone();
    let coalescer = tokio::spawn(coalesce(tagged_rx, COALESCE_WINDOW, move |changes| {
        let now = Instant::now();
        let covered = changes
            .keys()
            .filter_map(|k| k.rsplit('#').next()?.parse::<i64>().ok())
            .max()
            .unwrap_or(-1);
        if let Ok(mut log) = log.lock() {
            log.push((now, covered));
        }
    }));
    let cancel = CancellationToken::new();
    let feed = tokio::spawn(run_feed(
        store.clone(),
        registry,
        FeedConfig::new(&host.url(), &token, &class_id),
        clock,
        sinks,
        cancel.clone(),
    ));
    let connected = tokio::time::timeout(Duration::from_secs(10), async {
        while *state.borrow() != ConnectionState::Connected {
            if state.changed().await.is_err() {
                break;
            }
        }
    })
    .await;
    anyhow::ensure!(connected.is_ok(), "the feed did not connect within 10 s");

    // Emit at the rate, on a schedule (a late tick catches up rather than drifting).
    let count = ((rate * seconds).round() as usize).max(1);
    let mut emitted: HashMap<u64, Instant> = HashMap::with_capacity(count);
    let started = tokio::time::Instant::now();
    let mut last_seq = 0;
    for i in 0..count {
        tokio::time::sleep_until(started + Duration::from_secs_f64(i as f64 / rate)).await;
        let step = &pathway.steps[i % pathway.steps.len()];
        let event = completion_event(
            &pathway.pathway_id,
            step,
            &format!("anon_live_{:04}", i % 500),
            &format!("run-live-{i:08}"),
            host.now_ms(),
        );
        let seq = host
            .emit_custom(&class_id, &event)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        emitted.insert(seq, Instant::now());
        last_seq = seq;
    }

    // Wait (bounded) for the notification that covers the last event.
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let covered = notifications
            .lock()
            .map(|l| l.last().map_or(-1, |(_, c)| *c))
            .unwrap_or(-1);
        if covered >= last_seq as i64 {
            break;
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "no notification covered the last event within 15 s (covered up to {covered}, last {last_seq})"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    cancel.cancel();
    let _ = feed.await;
    let _ = tagger.await;
    let _ = coalescer.await;
    store.close().await;
    if let Ok(host) = Arc::try_unwrap(host) {
        host.shutdown().await;
    }

    let log = notifications.lock().map(|l| l.clone()).unwrap_or_default();
    let mut seqs: Vec<(u64, Instant)> = emitted.into_iter().collect();
    seqs.sort_unstable_by_key(|(s, _)| *s);
    let mut millis = Vec::with_capacity(seqs.len());
    let mut next = 0;
    for (at, covered) in &log {
        while next < seqs.len() && seqs[next].0 as i64 <= *covered {
            millis.push(at.saturating_duration_since(seqs[next].1).as_secs_f64() * 1000.0);
            next += 1;
        }
    }
    Ok(Latencies {
        rate,
        emitted: count,
        notifications: log.len(),
        millis,
    })
}

/// `bench live`: p50 and p99 at each rate (each run's quantiles; median, min, max over runs).
pub async fn run(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    for &rate in &opts.rates {
        println!(
            "live: {rate} events/s for {} s, coalesce window {} ms, {} runs",
            opts.live_seconds,
            COALESCE_WINDOW.as_millis(),
            opts.runs.min(3)
        );
        let mut p50 = Vec::new();
        let mut p99 = Vec::new();
        // Each run takes live_seconds of wall time; three are enough for a spread.
        for _ in 0..opts.runs.min(3) {
            let l = measure(rate, opts.live_seconds).await?;
            anyhow::ensure!(
                l.millis.len() == l.emitted,
                "{} of {} events were covered by a notification",
                l.millis.len(),
                l.emitted
            );
            println!("  {} events, {} notifications", l.emitted, l.notifications);
            p50.push(quantile(&l.millis, 0.5));
            p99.push(quantile(&l.millis, 0.99));
        }
        report.add(
            "live",
            format!("latency p50 at {rate} events/s"),
            "ms",
            Spread::of(&p50),
        );
        report.add(
            "live",
            format!("latency p99 at {rate} events/s"),
            "ms",
            Spread::of(&p99),
        );
    }
    Ok(())
}
