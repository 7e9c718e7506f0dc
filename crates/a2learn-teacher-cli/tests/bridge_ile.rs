//! The bridge to the upstream project, end to end on the PostgreSQL test cluster: the upstream's
//! tables as its migrations define them, rows as its storage code writes them, the bridge over
//! them, `host check` on the bridge, and the dashboard's own sync following the class into a
//! SQLite store: the completions and the struggle the rows mean, learners under pseudonyms, a
//! canary name in the upstream's name columns nowhere in the store, and a restart of the bridge
//! that loses and doubles nothing.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../ile-bridge/tests/support/mod.rs"]
mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::host::check::{CheckOptions, CheckStatus, check_host};
use a2learn_teacher::host::feed::{FeedConfig, FeedSinks};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::host::offers::HostOffers;
use a2learn_teacher::privacy::outgoing::OutgoingText;
use a2learn_teacher::{Store, SystemClock};
use ile_bridge::{BridgeConfig, RunningBridge};
use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgPool};
use support::upstream::{OWNER, SESSION, upstream_database};
use tokio_util::sync::CancellationToken;

const TOKEN: &str = "test-token-ile-bridge-asdfghjkl";
const KEY: &str = "test-pseudonym-key";
const STUDENT_A: &str = OWNER;
const STUDENT_B: &str = "6c1a5d2f-9b3e-4d4c-8f80-2b3c4d5e6f70";
const CANARY_STUDENT: &str = "Zorblax Canaryfield";
const CANARY_ROSTER: &str = "Quixotl Canarybrook";

async fn upstream(name: &str) -> Option<(PgPool, String)> {
    let plan = serde_json::json!({"gradeBand": "3-5", "bigIdea": "Equal parts, new names.",
        "steps": [
            {"title": "Sort the fractions", "purpose": "practice", "description": "",
             "outcomeIndex": 0, "widgetKind": "drag-sort"},
            {"title": "Read about it", "purpose": "model", "description": "",
             "outcomeIndex": 0, "widgetKind": "markdown-card"},
            {"title": "Sort them again", "purpose": "check", "description": "",
             "outcomeIndex": 1, "widgetKind": "drag-sort"}]});
    // As the upstream's storage code writes them: an anonymous student per browser (the
    // placeholder name, here a canary), a roster name a teacher typed, a shared pathway.
    let (pool, url) = upstream_database(name, CANARY_STUDENT, plan).await?;
    sqlx::query("INSERT INTO students (id, display_name) VALUES ($1::uuid, $2)")
        .bind(STUDENT_B)
        .bind(CANARY_STUDENT)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO roster_students (name, grade) VALUES ($1, '4')")
        .bind(CANARY_ROSTER)
        .execute(&pool)
        .await
        .unwrap();
    let db = url.rsplit('/').next().unwrap().to_owned();
    // The bridge's role, as docs/bridge-ile.md sets it up: it can read the three tables the
    // bridge needs and no other, so a query that named a name column would fail here.
    let role = format!("ile_reader_{name}_{}", std::process::id());
    for statement in [
        format!("CREATE ROLE {role} LOGIN PASSWORD 'reader-pass'"),
        format!("GRANT CONNECT ON DATABASE {db} TO {role}"),
        format!("GRANT USAGE ON SCHEMA public TO {role}"),
        format!("GRANT SELECT (id, topic, plan, created_at) ON pathway_sessions TO {role}"),
        format!("GRANT SELECT ON session_opens, interactions TO {role}"),
    ] {
        sqlx::query(&statement).execute(&pool).await.unwrap();
    }
    let (scheme_user, host_db) = url.split_once('@').unwrap();
    let (scheme, _) = scheme_user.split_once("://").unwrap();
    let reader_url = format!("{scheme}://{role}:reader-pass@{host_db}");
    Some((pool, reader_url))
}

/// One telemetry event, inserted as `recordInteractions` does.
async fn interaction(
    pool: &PgPool,
    student: &str,
    kind: &str,
    event: &str,
    correct: Option<bool>,
    payload: serde_json::Value,
) {
    sqlx::query(
        "INSERT INTO interactions (session_id, student_id, widget_kind, event_type, standard_code, \
         learning_component_id, elapsed_ms, correct, payload) \
         VALUES ($1::uuid, $2::uuid, $3, $4, 'MATH.4.NF.EQUIV', NULL, 1200, $5, $6)",
    )
    .bind(SESSION)
    .bind(student)
    .bind(kind)
    .bind(event)
    .bind(correct)
    .bind(payload)
    .execute(pool)
    .await
    .unwrap();
}

async fn bridge(url: &str, bind: std::net::SocketAddr) -> RunningBridge {
    ile_bridge::start(BridgeConfig {
        source: url.to_owned(),
        bind,
        tokens: vec![TOKEN.into()],
        key: KEY.into(),
        poll: Duration::from_millis(50),
        ping_interval: Duration::from_millis(500),
    })
    .await
    .unwrap()
}

/// Syncs the class until the store's cursor reaches `seq`.
async fn sync_to(store: &Store, url: &str, seq: i64) {
    let cancel = CancellationToken::new();
    let (sinks, _state, _stats) = FeedSinks::new();
    let clock: SharedClock = Arc::new(SystemClock);
    let task = tokio::spawn(a2learn_teacher::sync::sync_class(
        store.clone(),
        FeedConfig::new(url, TOKEN, SESSION),
        clock,
        sinks,
        cancel.clone(),
    ));
    wait_for_cursor(store, seq).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
}

async fn count(store: &Store, sql: &str) -> i64 {
    let path = store.path().unwrap().to_owned();
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    let n: i64 = sqlx::query_scalar(sql).fetch_one(&mut conn).await.unwrap();
    conn.close().await.unwrap();
    n
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_of_the_upstream_is_followed_through_the_bridge() {
    let Some((pool, url)) = upstream("followed").await else {
        return;
    };
    use serde_json::json;
    // Student A: three wrong sorts, a hint, a right one, done; the card; the second sort.
    for correct in [false, false, false] {
        interaction(
            &pool,
            STUDENT_A,
            "drag-sort",
            "answer_checked",
            Some(correct),
            json!({"attempt": 1}),
        )
        .await;
    }
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "hint_requested",
        None,
        json!({}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "feedback_requested",
        None,
        json!({"round": 1}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "answer_checked",
        Some(true),
        json!({"attempt": 4}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "widget_completed",
        Some(true),
        json!({"attempts": 4}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_A,
        "markdown-card",
        "widget_completed",
        Some(true),
        json!({}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "widget_completed",
        Some(true),
        json!({"attempts": 1}),
    )
    .await;
    // Student B: the first sort at once; and a row of a kind the upstream does not have.
    interaction(
        &pool,
        STUDENT_B,
        "drag-sort",
        "widget_completed",
        Some(true),
        json!({"attempts": 1}),
    )
    .await;
    interaction(
        &pool,
        STUDENT_B,
        "hologram",
        "widget_shown",
        None,
        json!({}),
    )
    .await;
    let last: i64 = sqlx::query_scalar("SELECT max(id) FROM interactions")
        .fetch_one(&pool)
        .await
        .unwrap();

    let running = bridge(&url, "127.0.0.1:0".parse().unwrap()).await;
    let host_url = running.url();

    // The bridge speaks the host interface: every check passes or is skipped, the writes
    // skipped even when allowed, since a read-only host lists no write tool.
    let report = check_host(&CheckOptions {
        host: host_url.clone(),
        token: TOKEN.into(),
        class_id: Some(SESSION.into()),
        seconds: 3,
        allow_writes: true,
    })
    .await
    .unwrap();
    let lines = report.lines().join("\n");
    println!("{lines}");
    assert!(!report.required_failed(), "{lines}");
    for id in [
        "feed.opening",
        "feed.contract",
        "feed.resume",
        "results.match-feed",
        "catalog.valid",
    ] {
        let check = report.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!(check.status, CheckStatus::Pass, "{id}: {lines}");
    }
    for id in ["writes.create-class", "writes.claim-respond"] {
        let check = report.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!(check.status, CheckStatus::Skip, "{id}: {lines}");
    }

    // The app offers no control the bridge cannot honour: the write tools are not listed
    // (beside the read tools that are), and one called anyway refuses with a clear reason.
    let client = HostClient::connect(&host_url, TOKEN).await.unwrap();
    let offers = HostOffers::from_names(&client.tool_names().await.unwrap());
    assert!(
        !offers.create_class && !offers.assign_pathway && !offers.answer,
        "{offers:?}"
    );
    assert!(client.tool_names().await.unwrap().contains("list_pathways"));
    let refused = client
        .create_class(&OutgoingText::fixed("Period 3"))
        .await
        .unwrap_err();
    assert!(refused.to_string().contains("read-only"), "{refused}");
    client.close().await;

    // The dashboard follows the class: what the rows mean, once each.
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock)
        .await
        .unwrap();
    // The last row is kept aside (an unknown kind), and the bridge says so at its seq.
    sync_to(&store, &host_url, last).await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM results").await, 4);
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM ledger WHERE name = 'a2learn.widget_struggle'"
        )
        .await,
        1
    );
    assert_eq!(
        count(
            &store,
            &format!(
                "SELECT COUNT(*) FROM quarantine WHERE seq = {last} AND rule_id = 'host.set_aside' \
                 AND message LIKE '%interactions row {last}%hologram%'"
            )
        )
        .await,
        1,
        "the set-aside row is in the dashboard's Diagnostics, with its reason"
    );
    assert_eq!(count(&store, "SELECT COUNT(*) FROM quarantine").await, 1);
    let learners = store.learners(SESSION).await.unwrap();
    assert_eq!(learners.len(), 2, "{learners:?}");
    assert!(
        learners.iter().all(|l| l.starts_with("ile_")),
        "{learners:?}"
    );

    // The upstream database drops the bridge's connections (a restart, a failover): the
    // bridge connects again and the class goes on.
    let dropped: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
         WHERE application_name = 'a2learn-ile-bridge'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(!dropped.is_empty(), "the bridge had connections to drop");
    interaction(
        &pool,
        STUDENT_B,
        "markdown-card",
        "widget_completed",
        Some(true),
        json!({}),
    )
    .await;
    let after_drop: i64 = sqlx::query_scalar("SELECT max(id) FROM interactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    sync_to(&store, &host_url, after_drop).await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM results").await, 5);

    // A restart of the bridge on the same address, with more rows: resumed, nothing doubled.
    let bind = running.url().trim_start_matches("http://").parse().unwrap();
    running.shutdown().await;
    interaction(
        &pool,
        STUDENT_B,
        "drag-sort",
        "widget_completed",
        Some(true),
        json!({"attempts": 2}),
    )
    .await;
    let newest: i64 = sqlx::query_scalar("SELECT max(id) FROM interactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    let restarted = bridge(&url, bind).await;
    sync_to(&store, &restarted.url(), newest).await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM results").await, 6);
    assert_eq!(
        store.learners(SESSION).await.unwrap(),
        learners,
        "the same pseudonyms"
    );
    let still = reqwest_status(&format!(
        "{}/ag-ui/classes/{SESSION}/events",
        restarted.url()
    ))
    .await;
    assert_eq!(
        still, 200,
        "the control: the session's feed opens while it exists"
    );
    restarted.shutdown().await;

    // The reader role cannot read a name, nor write: the bridge's queries never needed to.
    let reader = PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap();
    let refused = sqlx::query("SELECT display_name FROM students")
        .fetch_all(&reader)
        .await
        .unwrap_err();
    assert!(
        refused.to_string().contains("permission denied"),
        "{refused}"
    );
    reader.close().await;

    // A session deleted upstream is an unknown class: its feed answers 404.
    let running = bridge(&url, bind).await;
    sqlx::query("DELETE FROM pathway_sessions WHERE id = $1::uuid")
        .bind(SESSION)
        .execute(&pool)
        .await
        .unwrap();
    let gone = reqwest_status(&format!("{}/ag-ui/classes/{SESSION}/events", running.url())).await;
    assert_eq!(gone, 404);
    running.shutdown().await;

    // The canaries were there to leak (presence), and none reached the store (absence).
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT display_name FROM students UNION ALL SELECT name FROM roster_students",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(names.iter().any(|n| n == CANARY_STUDENT) && names.iter().any(|n| n == CANARY_ROSTER));
    store.close().await;
    for entry in std::fs::read_dir(dir.path()).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            for secret in [CANARY_STUDENT, CANARY_ROSTER, STUDENT_A, STUDENT_B] {
                assert!(!text.contains(secret), "{secret} in {}", path.display());
            }
        }
    }
}

/// A TCP gate between the bridge and the cluster. Closed, the upstream database is gone as it
/// is while it restarts: the bridge's connections are cut and new ones refused. Opened again
/// on the same address, it is back.
struct Gate {
    addr: std::net::SocketAddr,
    target: std::net::SocketAddr,
    tasks: Arc<std::sync::Mutex<Vec<tokio::task::AbortHandle>>>,
}

impl Gate {
    async fn open_to(target: std::net::SocketAddr) -> Gate {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let mut gate = Gate {
            addr: listener.local_addr().unwrap(),
            target,
            tasks: Arc::default(),
        };
        gate.serve(listener);
        gate
    }

    fn serve(&mut self, listener: tokio::net::TcpListener) {
        let target = self.target;
        let tasks = self.tasks.clone();
        let accept = tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let forward = tokio::spawn(async move {
                    if let Ok(mut outbound) = tokio::net::TcpStream::connect(target).await {
                        let _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound).await;
                    }
                });
                tasks.lock().unwrap().push(forward.abort_handle());
            }
        });
        self.tasks.lock().unwrap().push(accept.abort_handle());
    }

    fn close(&self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    async fn reopen(&mut self) {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.set_reuseaddr(true).unwrap();
        let started = Instant::now();
        // The aborted listener is dropped on its task's next poll: bind again until it is.
        loop {
            match socket.bind(self.addr) {
                Ok(()) => break,
                Err(e) => {
                    assert!(started.elapsed() < Duration::from_secs(10), "rebind: {e}");
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
        }
        self.serve(socket.listen(64).unwrap());
    }
}

/// The upstream database goes away and comes back: the bridge ends the feed (the dashboard
/// shows "reconnecting" rather than a feed that is silently stuck), answers 503 while it is
/// gone, and once it is back the dashboard catches up with the rows written meanwhile.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_upstream_database_goes_away_and_the_dashboard_catches_up() {
    let Some((pool, url)) = upstream("restart").await else {
        return;
    };
    let json = serde_json::json!({"attempts": 1});
    interaction(
        &pool,
        STUDENT_A,
        "drag-sort",
        "widget_completed",
        Some(true),
        json.clone(),
    )
    .await;
    // The bridge reaches the database through the gate.
    let (prefix, rest) = url.split_once('@').unwrap();
    let (host_port, db) = rest.split_once('/').unwrap();
    let target: std::net::SocketAddr = tokio::net::lookup_host(host_port)
        .await
        .unwrap()
        .next()
        .unwrap();
    let mut gate = Gate::open_to(target).await;
    let running = bridge(
        &format!("{prefix}@{}/{db}", gate.addr),
        "127.0.0.1:0".parse().unwrap(),
    )
    .await;
    let host_url = running.url();

    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock.clone())
        .await
        .unwrap();
    let cancel = CancellationToken::new();
    let (sinks, mut state, _stats) = FeedSinks::new();
    let states = Arc::new(std::sync::Mutex::new(Vec::new()));
    let seen = states.clone();
    tokio::spawn(async move {
        while state.changed().await.is_ok() {
            let now = state.borrow_and_update().clone();
            seen.lock().unwrap().push(now);
        }
    });
    let task = tokio::spawn(a2learn_teacher::sync::sync_class(
        store.clone(),
        FeedConfig::new(&host_url, TOKEN, SESSION),
        clock,
        sinks,
        cancel.clone(),
    ));
    let first: i64 = sqlx::query_scalar("SELECT max(id) FROM interactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    wait_for_cursor(&store, first).await;
    assert!(
        states.lock().unwrap().contains(&ConnectionState::Connected),
        "{:?}",
        states.lock().unwrap()
    );

    // Gone: the dashboard is told (its feed ends), and a new feed is refused while it lasts.
    gate.close();
    let started = Instant::now();
    while !states
        .lock()
        .unwrap()
        .iter()
        .any(|s| matches!(s, ConnectionState::Reconnecting { .. }))
    {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never reconnecting: {:?}",
            states.lock().unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        reqwest_status(&format!("{host_url}/ag-ui/classes/{SESSION}/events")).await,
        503
    );
    // Written while the bridge cannot see them.
    interaction(
        &pool,
        STUDENT_B,
        "drag-sort",
        "widget_completed",
        Some(true),
        json.clone(),
    )
    .await;
    interaction(
        &pool,
        STUDENT_B,
        "markdown-card",
        "widget_completed",
        Some(true),
        json,
    )
    .await;
    let newest: i64 = sqlx::query_scalar("SELECT max(id) FROM interactions")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(
        store.cursor(SESSION).await.unwrap(),
        Some(first),
        "nothing new while gone"
    );

    // Back: the same feed task catches up by itself, nothing lost or doubled.
    gate.reopen().await;
    wait_for_cursor(&store, newest).await;
    assert_eq!(count(&store, "SELECT COUNT(*) FROM results").await, 3);
    assert_eq!(
        *states.lock().unwrap().last().unwrap(),
        ConnectionState::Connected
    );
    cancel.cancel();
    task.await.unwrap().unwrap();
    running.shutdown().await;
    gate.close();
}

async fn wait_for_cursor(store: &Store, seq: i64) {
    let started = Instant::now();
    while store.cursor(SESSION).await.unwrap().unwrap_or(0) < seq {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "the sync reached {:?}, not {seq}",
            store.cursor(SESSION).await.unwrap()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The status of a GET with the token (the feed's answer, before any body).
async fn reqwest_status(url: &str) -> u16 {
    let client = reqwest::Client::new();
    let response = client.get(url).bearer_auth(TOKEN).send().await.unwrap();
    response.status().as_u16()
}
