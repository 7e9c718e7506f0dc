//! The live pipeline against the real reference host on loopback, with real SQLite files (the
//! clean feed, the drop, duplicate, bad-frame, stall, replay, restart and backfill faults on a
//! real PostgreSQL too): nothing lost and nothing doubled, whatever the host or the network does.
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
mod support;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use a2learn_teacher::Store;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::host::feed::{FeedError, FeedSinks, FeedStats, run_feed};
use a2learn_teacher::sync::{SyncError, sync_class};
use pathway_host::{Faults, RunningHost};
use pipeline_support::*;
use support::engines::{Engine, TestDb, on_both_engines, raw};
use tokio_util::sync::CancellationToken;

/// What a sync under a fault left: the host, the class, the store and the sync's own stats.
struct Synced {
    host: RunningHost,
    class_id: String,
    store: Store,
    stats: FeedStats,
    _dir: Box<dyn std::any::Any + Send>,
}

/// Syncs into a store of either engine (a [`TestDb`]'s, with whatever else must stay alive
/// in `keep`) under `faults` until `frames` frames are logged, then compares.
async fn sync_into<K: Send + 'static>(
    store: Store,
    keep: K,
    faults: Faults,
    frames: usize,
) -> Synced {
    let (host, class_id) = start_host(faults, None).await;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    let log = wait_for_log(&host, &class_id, frames).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    let stats = task.await.unwrap().unwrap();
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    Synced {
        host,
        class_id,
        store,
        stats,
        _dir: Box::new(keep),
    }
}

on_both_engines!(
    a_clean_feed_is_stored_exactly,
    dropped_connections_and_duplicated_frames_lose_and_double_nothing,
    malformed_and_contract_breaking_frames_are_quarantined_and_the_stream_goes_on,
    a_host_that_stalls_forever_is_left_after_the_stall_timeout,
    a_full_replay_from_the_start_changes_nothing,
    a_host_restart_keeps_seq_and_the_dashboard_catches_up,
    backfill_on_first_subscription_is_reconciled_with_the_feed,
    a_host_that_writes_local_times_loses_nothing,
);

async fn a_clean_feed_is_stored_exactly(db: TestDb) {
    let synced = sync_into(db.store.clone(), (), Faults::default(), 400).await;
    let quarantined = db.count("SELECT COUNT(*) FROM quarantine").await;
    assert_eq!(
        quarantined, 0,
        "a well-behaved host puts nothing in quarantine"
    );
    assert_eq!(
        synced.store.learners(&synced.class_id).await.unwrap().len(),
        90
    );
    // The control for the fault tests' stats: one connection, nothing seen twice.
    assert_eq!(synced.stats.connections, 1, "{:?}", synced.stats);
    assert_eq!(synced.stats.duplicates, 0, "{:?}", synced.stats);
    synced.host.shutdown().await;
}

async fn dropped_connections_and_duplicated_frames_lose_and_double_nothing(db: TestDb) {
    let faults = Faults {
        drop_every: 37,
        duplicate_every: 5,
        ..Faults::default()
    };
    let synced = sync_into(db.store.clone(), (), faults, 600).await;
    // The faults happened, and the sync saw them as what they were.
    let stats = synced.stats;
    assert!(stats.connections > 1, "reconnected after drops: {stats:?}");
    assert!(stats.duplicates > 0, "duplicates were seen: {stats:?}");
    // Every reconnect asked for what came after the stored cursor, never from the start.
    let connections = synced.host.feed_connections();
    // The sync counts each attempt as it starts it: the last one may have been cut by the stop
    // before it reached the host (seen under load: 18 counted, 17 logged).
    let logged = connections.len() as u64;
    assert!(
        logged == stats.connections || logged + 1 == stats.connections,
        "host logged {logged}, sync counted {stats:?}"
    );
    for pair in connections.windows(2) {
        let (before, after) = (pair[0].last_event_id, pair[1].last_event_id);
        assert!(
            after.is_some_and(|a| a > 0 && Some(a) >= before),
            "{connections:?}"
        );
    }
    synced.host.shutdown().await;
}

async fn a_host_that_stalls_forever_is_left_after_the_stall_timeout(db: TestDb) {
    // Every connection goes silent (not even a ping) after 150 frames, for an hour: only the
    // client's own stall detection can move the sync on.
    let faults = Faults {
        stall_every: 150,
        stall_ms: 3_600_000,
        ..Faults::default()
    };
    let synced = sync_into(db.store.clone(), (), faults, 400).await;
    let stall_timeout = feed_config("http://unused", "c").stall_timeout;
    let connections = synced.host.feed_connections();
    assert!(synced.stats.connections > 1, "{:?}", synced.stats);
    let stalled: Vec<_> = connections
        .windows(2)
        .filter_map(|pair| pair[0].stalled_at_ms.map(|at| (at, &pair[1])))
        .collect();
    assert!(!stalled.is_empty(), "a connection stalled: {connections:?}");
    for (stalled_at, next) in stalled {
        let waited = Duration::from_millis(next.opened_at_ms.saturating_sub(stalled_at));
        // Not before the timeout: it was the stall that was detected, not some other break.
        // (How soon after it is a figure for a benchmark, not a test on a shared machine; that
        // it reconnected at all is the liveness this test needs.)
        assert!(
            waited + Duration::from_millis(100) >= stall_timeout,
            "reconnected after {waited:?}, before the {stall_timeout:?} stall timeout"
        );
        assert!(next.last_event_id.is_some_and(|id| id > 0), "{next:?}");
    }
    synced.host.shutdown().await;
}

async fn malformed_and_contract_breaking_frames_are_quarantined_and_the_stream_goes_on(db: TestDb) {
    let faults = Faults {
        malformed_every: 11,
        contract_break_every: 7,
        ..Faults::default()
    };
    // `db` outlives the sync: it holds the database (and a SQLite file's folder), which the
    // queries below read.
    let Synced {
        host,
        class_id,
        store,
        ..
    } = sync_into(db.store.clone(), (), faults, 700).await;
    // The comparison above checked each rule frame by frame; check the spread as well, so a
    // host that injected only one kind would not pass unnoticed.
    let rules: Vec<String> = raw!(db, |pool| sqlx::query_scalar(
        "SELECT DISTINCT rule_id FROM quarantine"
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert!(rules.len() >= 8, "many rules exercised: {rules:?}");
    assert!(rules.contains(&"bad-frame".to_string()));
    // The stream went on past the faults: frames after the first fault were stored, and the
    // cursor moved past the last one (a sync that stopped at a fault fails both).
    let (first_fault, last_fault): (i64, i64) = raw!(db, |pool| sqlx::query_as(
        "SELECT MIN(seq), MAX(seq) FROM quarantine"
    )
    .fetch_one(pool)
    .await
    .unwrap());
    let after: i64 = raw!(db, |pool| sqlx::query_scalar(
        "SELECT COUNT(*) FROM ledger WHERE class_id = $1 AND seq > $2"
    )
    .bind(&class_id)
    .bind(first_fault)
    .fetch_one(pool)
    .await
    .unwrap());
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

async fn a_full_replay_from_the_start_changes_nothing(db: TestDb) {
    let Synced {
        host,
        class_id,
        store,
        ..
    } = sync_into(db.store.clone(), (), Faults::default(), 300).await;
    let before = derived(&db).await;
    // Forget the cursor: the next sync asks for everything again.
    db.execute("DELETE FROM feed_cursors").await;
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
    // It was a replay from the start: the second sync's connection asked for nothing.
    let last = host.feed_connections().pop().unwrap();
    assert_eq!(last.last_event_id, None, "{last:?}");
    let after = derived(&db).await;
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
    host.shutdown().await;
}

async fn derived(db: &TestDb) -> BTreeMap<&'static str, Vec<String>> {
    let mut out = BTreeMap::new();
    for (table, with_payload) in [
        ("results", "results_with_payload"),
        ("struggles", "struggles_with_payload"),
    ] {
        let sql = format!(
            "SELECT widget_run_id || '|' || COALESCE(CAST(seq AS TEXT), '') || '|' || payload \
             FROM {with_payload} ORDER BY widget_run_id"
        );
        let rows: Vec<String> = raw!(db, |pool| sqlx::query_scalar(&sql)
            .fetch_all(pool)
            .await
            .unwrap());
        out.insert(table, rows);
    }
    out
}

async fn a_host_restart_keeps_seq_and_the_dashboard_catches_up(db: TestDb) {
    let dir = tempfile::tempdir().unwrap();
    let log_path = dir.path().join("host.jsonl");
    // Frames must still be coming after the restart.
    let (host, class_id) =
        start_host_with(slower_host_config(Faults::default(), Some(&log_path))).await;
    let addr = host.addr();
    let store = db.store.clone();
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    wait_for_log(&host, &class_id, 200).await;
    let before = host.log(&class_id).last().unwrap().seq;
    // A crash: connections drop, no RUN_FINISHED.
    host.abort();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut config = slower_host_config(Faults::default(), Some(&log_path));
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
    // A generous bound for liveness: a sync that retried would never end by itself.
    let result = tokio::time::timeout(
        Duration::from_secs(30),
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
    let (sinks, state, _stats) = FeedSinks::new();
    assert_eq!(*state.borrow(), ConnectionState::Connecting);
    let result = tokio::time::timeout(
        Duration::from_secs(30),
        sync_class(
            store,
            feed_config(&host.url(), "no-such-class"),
            clock(),
            sinks,
            CancellationToken::new(),
        ),
    )
    .await
    .expect("ends");
    assert!(
        matches!(result, Err(SyncError::Feed(FeedError::UnknownClass(_)))),
        "{result:?}"
    );
    // And says so: not "connecting" for ever (the status bar of a co-teacher's window did).
    assert_eq!(*state.borrow(), ConnectionState::Offline);
    host.shutdown().await;
}

/// The first subscription's backfill, as `sync_class` runs it (which then skips its own): how
/// many results and struggles it stored.
async fn backfill_first(store: &Store, host: &RunningHost, class_id: &str) -> u64 {
    store.ensure_class(class_id).await.unwrap();
    let client = a2learn_teacher::host::mcp::HostClient::connect(&host.url(), TOKEN)
        .await
        .unwrap();
    let registry = a2learn_teacher::sync::refresh_catalog(store, &client)
        .await
        .unwrap();
    let backfilled = a2learn_teacher::sync::backfill(store, &client, &registry, class_id, class_id)
        .await
        .unwrap();
    client.close().await;
    backfilled
}

async fn backfill_on_first_subscription_is_reconciled_with_the_feed(db: TestDb) {
    let (host, class_id) = start_host(Faults::default(), None).await;
    // The class has been running before the dashboard subscribes.
    let log = wait_for_log(&host, &class_id, 300).await;
    let store = db.store.clone();
    let backfilled = backfill_first(&store, &host, &class_id).await;
    assert!(backfilled > 0, "get_pathway_results filled in the past");
    let from_backfill = db
        .count("SELECT COUNT(*) FROM results WHERE seq IS NULL")
        .await;
    assert!(from_backfill > 0);
    assert!(db.count("SELECT COUNT(*) FROM backfill").await > 0);

    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    let stats = task.await.unwrap().unwrap();
    // The feed then replayed the same events: one event each, whichever way it came. Every
    // result and struggle took the feed's seq (the ledger's row of the same run), and its
    // payload is kept once, there: none is left in backfill.
    assert_eq!(
        db.count("SELECT COUNT(*) FROM results WHERE seq IS NULL")
            .await,
        0
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM struggles WHERE seq IS NULL")
            .await,
        0
    );
    assert_eq!(db.count("SELECT COUNT(*) FROM backfill").await, 0);
    let run_of_payload = match db.engine {
        Engine::Sqlite => "json_extract(l.payload, '$.widget_run_id')",
        Engine::Postgres => "(l.payload::json ->> 'widget_run_id')",
    };
    let placed = db
        .count(&format!(
            "SELECT COUNT(*) FROM ledger l JOIN results r \
             ON r.class_id = l.class_id AND r.seq = l.seq AND r.widget_run_id = {run_of_payload} \
             WHERE l.name = 'a2learn.widget_completed'"
        ))
        .await;
    assert_eq!(
        placed,
        db.count("SELECT COUNT(*) FROM results").await,
        "every result sits at the feed's seq of its own run"
    );
    let quarantined = db.count("SELECT COUNT(*) FROM quarantine").await;
    assert_eq!(quarantined, 0, "a re-delivery is not a violation");
    assert!(stats.stored > 0);
    // Each completed run counted once, whichever way it arrived first.
    let want = expected(&host.log(&class_id));
    let results = db.count("SELECT COUNT(*) FROM results").await;
    let completed_now = want.completed_runs.len() as i64;
    assert!(
        results >= expected(&log).completed_runs.len() as i64 && results <= completed_now,
        "results {results}, completions in the log {completed_now}"
    );
    let doubled = db
        .count(
            "SELECT COUNT(*) FROM (SELECT widget_run_id FROM results \
             GROUP BY class_id, widget_run_id HAVING COUNT(*) > 1) AS twice",
        )
        .await;
    assert_eq!(doubled, 0);
    host.shutdown().await;
}

/// A host that writes every `at` and `deadline` in its local offset (`+05:30`: valid RFC 3339,
/// the same instants) on the feed and in its backfill: every event is kept, as UTC, and the
/// backfill and the feed still agree on each completion (`contract.md` §1).
async fn a_host_that_writes_local_times_loses_nothing(db: TestDb) {
    let faults = Faults {
        utc_offset_minutes: 330,
        ..Faults::default()
    };
    let (host, class_id) = start_host(faults, None).await;
    // Presence: the host does send local times (the feed as it goes out, read raw).
    let mut raw_feed = reqwest::Client::new()
        .get(host.feed_url(&class_id))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    let mut seen = String::new();
    while !seen.contains("+05:30\"") {
        let chunk = tokio::time::timeout(Duration::from_secs(30), raw_feed.chunk())
            .await
            .expect("the feed goes on")
            .unwrap()
            .expect("the feed is open");
        seen.push_str(&String::from_utf8_lossy(&chunk));
    }
    drop(raw_feed);
    // The class ran before the dashboard subscribed: the backfill brings local times too.
    let log = wait_for_log(&host, &class_id, 300).await;
    let store = db.store.clone();
    assert!(backfill_first(&store, &host, &class_id).await > 0);
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    cancel.cancel();
    let stats = task.await.unwrap().unwrap();
    assert!(stats.stored > 0, "{stats:?}");
    // The host's own log is in UTC: the ledger equals it payload for payload, so every
    // time was kept as the same instant in UTC.
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    assert_eq!(
        db.count("SELECT COUNT(*) FROM quarantine").await,
        0,
        "no event is lost over an offset"
    );
    let offsets = db
        .count("SELECT COUNT(*) FROM ledger WHERE payload LIKE '%+05:30%'")
        .await;
    assert_eq!(offsets, 0, "kept as UTC");
    host.shutdown().await;
}
