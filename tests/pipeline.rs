//! The live pipeline against the real reference host on loopback, with real SQLite files:
//! nothing lost and nothing doubled, whatever the host or the network does.
//!
//! Each test runs the host's class simulation at high speed, lets the dashboard sync under a
//! fault, then takes the host's log up to some seq and checks the store against it: every
//! contract frame in the ledger exactly once with the same payload, every injected fault in
//! quarantine with the rule the host says must reject it, and the results table holding one row
//! per completed widget run.
//!
//! The same checks with the CLI's `sync` as separate processes live in the CLI crate
//! (crates/a2learn-teacher-cli/tests/sync_process.rs); the helpers are shared through
//! tests/support/pipeline.rs.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "support/pipeline.rs"]
mod pipeline_support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::Store;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::host::feed::{FeedError, FeedSinks, run_feed};
use a2learn_teacher::sync::{SyncError, sync_class};
use pathway_host::{Faults, RunningHost};
use pipeline_support::*;
use tokio_util::sync::CancellationToken;

/// Syncs under `faults` until `frames` frames are logged, then compares.
async fn sync_under(
    faults: Faults,
    frames: usize,
) -> (RunningHost, String, Store, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let (host, class_id) = start_host(faults, None).await;
    let store = open(&dir.path().join("t.db")).await;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    let log = wait_for_log(&host, &class_id, frames).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    (host, class_id, store, dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_clean_feed_is_stored_exactly() {
    let (host, class_id, store, _dir) = sync_under(Faults::default(), 400).await;
    let quarantined: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM quarantine")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(
        quarantined, 0,
        "a well-behaved host puts nothing in quarantine"
    );
    assert_eq!(store.learners(&class_id).await.unwrap().len(), 90);
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_connections_and_duplicated_frames_lose_and_double_nothing() {
    let faults = Faults {
        drop_every: 37,
        duplicate_every: 5,
        ..Faults::default()
    };
    let (host, _class, _store, _dir) = sync_under(faults, 600).await;
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalls_are_detected_and_survived() {
    let faults = Faults {
        stall_every: 150,
        stall_ms: 3_000,
        ..Faults::default()
    };
    let (host, _class, _store, _dir) = sync_under(faults, 400).await;
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_and_contract_breaking_frames_are_quarantined_and_the_stream_goes_on() {
    let faults = Faults {
        malformed_every: 11,
        contract_break_every: 7,
        ..Faults::default()
    };
    let (host, class_id, store, _dir) = sync_under(faults, 700).await;
    // The comparison above checked each rule frame by frame; check the spread as well, so a
    // host that injected only one kind would not pass unnoticed.
    let rules: Vec<String> = sqlx::query_scalar("SELECT DISTINCT rule_id FROM quarantine")
        .fetch_all(store.pool())
        .await
        .unwrap();
    assert!(rules.len() >= 8, "many rules exercised: {rules:?}");
    assert!(rules.contains(&"bad-frame".to_string()));
    // The stream went on past the faults: frames after the first fault were stored, and the
    // cursor moved past the last one (a sync that stopped at a fault fails both).
    let (first_fault, last_fault): (i64, i64) =
        sqlx::query_as("SELECT MIN(seq), MAX(seq) FROM quarantine")
            .fetch_one(store.pool())
            .await
            .unwrap();
    let after: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM ledger WHERE class_id = ? AND seq > ?")
            .bind(&class_id)
            .bind(first_fault)
            .fetch_one(store.pool())
            .await
            .unwrap();
    assert!(
        after > 0,
        "frames stored after the first fault (seq {first_fault})"
    );
    let cursor = store.cursor(&class_id).await.unwrap().unwrap();
    assert!(
        cursor >= last_fault,
        "the cursor {cursor} moved past the last fault {last_fault}"
    );
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_replay_from_the_start_changes_nothing() {
    let (host, class_id, store, dir) = sync_under(Faults::default(), 300).await;
    let before = derived(&store).await;
    // Forget the cursor: the next sync asks for everything again.
    sqlx::query("DELETE FROM feed_cursors")
        .execute(store.pool())
        .await
        .unwrap();
    let log = host.log(&class_id);
    let upto = log.last().unwrap().seq;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    let stats = task.await.unwrap().unwrap();
    assert!(
        stats.duplicates > 0,
        "the replay was seen as re-delivery: {stats:?}"
    );
    let after = derived(&store).await;
    // The simulation kept going, so compare the prefix both runs saw.
    for (table, rows) in &before {
        let again: Vec<&String> = after[table].iter().filter(|r| rows.contains(r)).collect();
        assert_eq!(
            again.len(),
            rows.len(),
            "{table}: the replay changed stored rows"
        );
    }
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    drop(dir);
    host.shutdown().await;
}

async fn derived(store: &Store) -> BTreeMap<&'static str, Vec<String>> {
    let mut out = BTreeMap::new();
    for table in ["results", "struggles"] {
        let rows: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT widget_run_id || '|' || COALESCE(seq, '') || '|' || payload FROM {table} ORDER BY widget_run_id"
        ))
        .fetch_all(store.pool())
        .await
        .unwrap();
        out.insert(table, rows);
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_restart_keeps_seq_and_the_dashboard_catches_up() {
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("host.jsonl");
    let (host, class_id) = start_host(Faults::default(), Some(&log_path)).await;
    let addr = host.addr();
    let store = open(&dir.path().join("t.db")).await;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    wait_for_log(&host, &class_id, 200).await;
    let before = host.log(&class_id).last().unwrap().seq;
    // A crash: connections drop, no RUN_FINISHED.
    host.abort();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut config = host_config(Faults::default(), Some(&log_path));
    config.bind = addr;
    let host = pathway_host::start(config)
        .await
        .expect("restart on the same port");
    let log = wait_for_log(&host, &class_id, before as usize + 200).await;
    assert!(
        log.iter()
            .take(before as usize)
            .zip(1..)
            .all(|(f, n)| f.seq == n),
        "seq numbers survive the restart"
    );
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_without_a_retry_storm() {
    let dir = tempfile::tempdir().unwrap();
    let (host, class_id) = start_host(Faults::default(), None).await;
    let store = open(&dir.path().join("t.db")).await;
    store.ensure_class(&class_id).await.unwrap();

    // Through the whole sync (MCP first): refused at once, and the state says so.
    let mut config = feed_config(&host.url(), &class_id);
    config.token = "wrong-token".into();
    let (sinks, state, _stats) = FeedSinks::new();
    let started = Instant::now();
    let result = tokio::time::timeout(
        Duration::from_secs(10),
        sync_class(
            store.clone(),
            config.clone(),
            clock(),
            sinks,
            CancellationToken::new(),
        ),
    )
    .await
    .expect("a refused token ends the sync instead of retrying");
    assert!(
        matches!(
            result,
            Err(SyncError::Host(
                a2learn_teacher::host::mcp::HostError::TokenRefused
            ))
        ),
        "{result:?}"
    );
    assert_eq!(*state.borrow(), ConnectionState::TokenRefused);
    assert!(started.elapsed() < Duration::from_secs(5));

    // The feed alone: one connection, then the refused state, no second try.
    let registry = Arc::new(a2learn_contract::Registry::new(vec![]).unwrap());
    let (sinks, state, stats) = FeedSinks::new();
    let result = run_feed(
        store.clone(),
        registry,
        config,
        clock(),
        sinks,
        CancellationToken::new(),
    )
    .await;
    assert!(matches!(result, Err(FeedError::TokenRefused)), "{result:?}");
    assert_eq!(*state.borrow(), ConnectionState::TokenRefused);
    assert_eq!(stats.borrow().connections, 1, "exactly one attempt");
    // Negative control: the right token connects.
    let (ok_cancel, ok_task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    wait_for_cursor(&store, &class_id, 1).await;
    ok_cancel.cancel();
    ok_task.await.unwrap().unwrap();
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unknown_class_is_reported_not_retried() {
    let dir = tempfile::tempdir().unwrap();
    let (host, _class_id) = start_host(Faults::default(), None).await;
    let store = open(&dir.path().join("t.db")).await;
    let result = tokio::time::timeout(
        Duration::from_secs(10),
        sync_class(
            store,
            feed_config(&host.url(), "no-such-class"),
            clock(),
            FeedSinks::new().0,
            CancellationToken::new(),
        ),
    )
    .await
    .expect("ends");
    assert!(
        matches!(result, Err(SyncError::Feed(FeedError::UnknownClass(_)))),
        "{result:?}"
    );
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn backfill_on_first_subscription_is_reconciled_with_the_feed() {
    let dir = tempfile::tempdir().unwrap();
    let (host, class_id) = start_host(Faults::default(), None).await;
    // The class has been running before the dashboard subscribes.
    let log = wait_for_log(&host, &class_id, 300).await;
    let store = open(&dir.path().join("t.db")).await;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    // The backfill ran before the feed's first batch, so every run it brought had its frame
    // in the log by now (the class keeps running: completions after the call may be later).
    let upto = host.log(&class_id).last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    let stats = task.await.unwrap().unwrap();
    let backfilled: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM backfill")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(backfilled > 0, "get_pathway_results filled in the past");
    // The feed then replayed the same completions: they are in the ledger (the feed's log)
    // but did not make second results, and nothing was quarantined as a second completion.
    let from_backfill: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results WHERE seq IS NULL")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert!(from_backfill > 0);
    let replayed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM ledger l JOIN results r \
         ON r.widget_run_id = json_extract(l.payload, '$.widget_run_id') \
         WHERE l.name = 'a2learn.widget_completed' AND r.seq IS NULL",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert_eq!(
        replayed, from_backfill,
        "every backfilled result also came by the feed"
    );
    let quarantined: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM quarantine")
        .fetch_one(store.pool())
        .await
        .unwrap();
    assert_eq!(quarantined, 0, "a re-delivery is not a violation");
    assert!(stats.stored > 0);
    // Each completed run counted once, whichever way it arrived first.
    let want = expected(&host.log(&class_id));
    let results: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results")
        .fetch_one(store.pool())
        .await
        .unwrap();
    let completed_now = want.completed_runs.len() as i64;
    assert!(
        results >= expected(&log).completed_runs.len() as i64 && results <= completed_now,
        "results {results}, completions in the log {completed_now}"
    );
    let doubled: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT widget_run_id FROM results GROUP BY widget_run_id HAVING COUNT(*) > 1)",
    )
    .fetch_one(store.pool())
    .await
    .unwrap();
    assert_eq!(doubled, 0);
    host.shutdown().await;
}
