//! **Bridge**: the ingest rate through `bridge ile` beside the reference host's. A database with
//! the upstream project's tables is filled on the `--postgres` server with one shared pathway
//! whose rows make about as many contract messages as the reference host's log has frames; the
//! bridge serves it, and the dashboard's own feed reader follows the class into a fresh SQLite
//! file until its last message is stored. Beside it, the same reader on the reference host's log
//! of that many frames (`ingest`'s end-to-end figure).

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::Connection;

use super::ingest::{Target, pipeline_replay, prepare_replay};
use super::{Options, Report, Spread};
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::host::feed::{FeedConfig, FeedSinks, run_feed};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::sync::refresh_catalog;

const SESSION: &str = "9d2c7a51-3f7e-4c55-8b1a-0c9e8f7d6a5b";
const TOKEN: &str = "bench-bridge-token-0123456789";
/// Rows per learner: two checks and a completion on each sort, a card's completion.
const ROWS_PER_LEARNER: usize = 7;
/// Contract messages per learner: three completions.
const MESSAGES_PER_LEARNER: usize = 3;

pub async fn run(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    let Some(server) = &opts.postgres else {
        println!("bridge: skipped (needs --postgres URL, where the upstream's tables are made)");
        return Ok(());
    };
    let messages = opts.frames;
    let learners = messages / MESSAGES_PER_LEARNER;
    println!(
        "bridge: an upstream class of {learners} learners ({} rows, {} messages)…",
        learners * ROWS_PER_LEARNER,
        learners * MESSAGES_PER_LEARNER
    );
    let url = upstream_database(server, learners).await?;
    let last: i64 = {
        let mut conn = sqlx::PgConnection::connect(&url).await?;
        let last = sqlx::query_scalar("SELECT max(id) FROM interactions")
            .fetch_one(&mut conn)
            .await?;
        conn.close().await?;
        last
    };
    let mut rates = Vec::new();
    for _ in 0..opts.runs {
        // A bridge started for each run: its first follow reads and folds every row (a running
        // bridge keeps what it folded, and would serve a second follow from memory).
        let bridge = ile_bridge::start(ile_bridge::BridgeConfig {
            source: url.clone(),
            bind: "127.0.0.1:0".parse()?,
            tokens: vec![TOKEN.into()],
            key: "bench-key".into(),
            poll: Duration::from_millis(50),
            ping_interval: Duration::from_secs(10),
        })
        .await?;
        let dir = tempfile::tempdir()?;
        let seconds = follow(&Target::Sqlite(dir.path().to_owned()), &bridge.url(), last).await?;
        rates.push((learners * MESSAGES_PER_LEARNER) as f64 / seconds);
        bridge.shutdown().await;
    }
    drop_database(server, &url).await?;
    let through_bridge = Spread::of(&rates);
    report.add(
        "bridge",
        "through the bridge (upstream rows folded, SQLite store)",
        "events/s",
        through_bridge,
    );

    println!("bridge: the reference host's log of {messages} frames, for comparison…");
    let source = prepare_replay(messages, 7).await?;
    let mut reference = Vec::new();
    for _ in 0..opts.runs {
        let dir = tempfile::tempdir()?;
        reference.push(pipeline_replay(&Target::Sqlite(dir.path().to_owned()), &source).await?);
    }
    source.host.shutdown().await;
    let reference = Spread::of(&reference);
    report.add(
        "bridge",
        "from the reference host (the same pipeline, SQLite store)",
        "events/s",
        reference,
    );
    report.add(
        "bridge",
        "bridge / reference host",
        "x",
        Spread::of(&[through_bridge.median / reference.median]),
    );
    Ok(())
}

/// A fresh database on `server` with the upstream's tables and one shared pathway of `learners`
/// learners' rows; its URL.
async fn upstream_database(server: &str, learners: usize) -> anyhow::Result<String> {
    let name = format!("bench_upstream_{}", std::process::id());
    let mut admin = sqlx::PgConnection::connect(server).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await?;
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    let (base, _) = server
        .rsplit_once('/')
        .ok_or_else(|| anyhow::anyhow!("--postgres: a URL ends in /DATABASE"))?;
    let url = format!("{base}/{name}");
    let mut conn = sqlx::PgConnection::connect(&url).await?;
    sqlx::raw_sql(include_str!(
        "../../../ile-bridge/tests/fixtures/upstream-schema.sql"
    ))
    .execute(&mut conn)
    .await?;
    let plan = serde_json::json!({"steps": [
        {"title": "Sort the fractions", "widgetKind": "drag-sort"},
        {"title": "Read about it", "widgetKind": "markdown-card"},
        {"title": "Sort them again", "widgetKind": "drag-sort"}]});
    sqlx::query("INSERT INTO students (id) SELECT gen_random_uuid() FROM generate_series(1, $1)")
        .bind(i64::try_from(learners)?)
        .execute(&mut conn)
        .await?;
    sqlx::query("INSERT INTO pathway_sessions (id, student_id, topic, plan) SELECT $1::uuid, id, 'Bench', $2 FROM students LIMIT 1")
        .bind(SESSION)
        .bind(plan)
        .execute(&mut conn)
        .await?;
    // Each learner's rows in the order a class writes them: learner by learner, step by step.
    sqlx::query(
        "INSERT INTO interactions (session_id, student_id, widget_kind, event_type, elapsed_ms, correct, payload) \
         SELECT $1::uuid, s.id, r.kind, r.event, 1000, r.correct, '{}' \
         FROM (SELECT id, row_number() OVER (ORDER BY id) AS n FROM students) s \
         CROSS JOIN (VALUES (1, 'drag-sort', 'answer_checked', false), (2, 'drag-sort', 'answer_checked', true), \
                            (3, 'drag-sort', 'widget_completed', true), (4, 'markdown-card', 'widget_completed', true), \
                            (5, 'drag-sort', 'answer_checked', false), (6, 'drag-sort', 'answer_checked', true), \
                            (7, 'drag-sort', 'widget_completed', true)) AS r(k, kind, event, correct) \
         ORDER BY s.n, r.k",
    )
    .bind(SESSION)
    .execute(&mut conn)
    .await?;
    conn.close().await?;
    Ok(url)
}

async fn drop_database(server: &str, url: &str) -> anyhow::Result<()> {
    let name = url.rsplit('/').next().unwrap_or_default().to_owned();
    let mut admin = sqlx::PgConnection::connect(server).await?;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut admin)
        .await?;
    admin.close().await?;
    Ok(())
}

/// Follows the bridged class into a fresh store until the message at `last` is stored; seconds.
async fn follow(target: &Target, url: &str, last: i64) -> anyhow::Result<f64> {
    let clock: SharedClock = Arc::new(SystemClock);
    let store = target.fresh("bridge", clock.clone()).await?;
    store.ensure_class(SESSION).await?;
    let client = HostClient::connect(url, TOKEN).await?;
    let registry = Arc::new(refresh_catalog(&store, &client).await?);
    client.close().await;
    let (sinks, _state, mut stats) = FeedSinks::new();
    let cancel = tokio_util::sync::CancellationToken::new();
    let started = Instant::now();
    let feed = tokio::spawn(run_feed(
        store.clone(),
        registry,
        FeedConfig::new(url, TOKEN, SESSION),
        clock,
        sinks,
        cancel.clone(),
    ));
    while stats.borrow().last_seq.unwrap_or(-1) < last {
        if stats.changed().await.is_err() {
            anyhow::bail!("the feed stopped before the class's last message");
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    cancel.cancel();
    let _ = feed.await;
    store.close().await;
    Ok(seconds)
}
