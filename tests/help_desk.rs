//! The help desk against the real reference host on loopback: a simulated student asks, the
//! dashboard syncs the request into a real SQLite store, and the teacher's answer, decline or
//! silence reaches the host as the contract says (a `value`, an `error` with code `declined`,
//! the host's `timeout`), with the feed's echo closing the call in the store.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::desk::{Desk, DeskError, HelpRequest, RequestState};
use a2learn_teacher::host::feed::{Backoff, FeedConfig, FeedSinks, FeedStats};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::progress::attention::Reason;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::sync::{SyncError, sync_class};
use a2learn_teacher::{Clock, Store, SystemClock};
use pathway_host::{CallState, HostConfig, RunningHost};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

const TOKEN: &str = "test-token-abcdefghijklmnop";
const CO_TEACHER: &str = "co-teacher-token-qrstuvwxyz";
const PATHWAY: &str = "fractions-compare-4";

struct Rig {
    host: RunningHost,
    class_id: String,
    store: Store,
    cancel: CancellationToken,
    /// The sync, so a test can wait for its last batch after cancelling it.
    sync: tokio::task::JoinHandle<Result<FeedStats, SyncError>>,
    _dir: tempfile::TempDir,
}

/// A host simulating a class at `speed` (assist deadlines are 4 simulated minutes, so
/// 240 / speed seconds), and a store following it.
async fn rig(speed: f64, seed: u64) -> Rig {
    let (host, class_id) = class_host(speed, seed).await;
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("desk.db"), clock.clone())
        .await
        .unwrap();
    let cancel = CancellationToken::new();
    let sync = spawn_sync(&store, &host, TOKEN, &class_id, clock, &cancel);
    Rig {
        host,
        class_id,
        store,
        cancel,
        sync,
        _dir: dir,
    }
}

/// A host (both teachers' tokens) simulating a class of 40 at `speed`, with the pathway assigned.
async fn class_host(speed: f64, seed: u64) -> (RunningHost, String) {
    let mut config = HostConfig::local(TOKEN);
    config.tokens.push(CO_TEACHER.into());
    config.learners = 40;
    config.speed = speed;
    config.seed = seed;
    config.ping_interval = Duration::from_millis(200);
    let host = pathway_host::start(config).await.expect("host starts");
    let (class_id, _) = host.create_class("Period 3").expect("class");
    host.assign(&class_id, PATHWAY, None, None).expect("assign");
    (host, class_id)
}

/// A sync of the class into `store` with `token`, reconnecting quickly, until `cancel`.
fn spawn_sync(
    store: &Store,
    host: &RunningHost,
    token: &str,
    class_id: &str,
    clock: SharedClock,
    cancel: &CancellationToken,
) -> tokio::task::JoinHandle<Result<FeedStats, SyncError>> {
    let mut feed = FeedConfig::new(&host.url(), token, class_id);
    feed.backoff = Backoff {
        min: Duration::from_millis(20),
        max: Duration::from_millis(200),
    };
    let (sinks, _state, _stats) = FeedSinks::new();
    tokio::spawn(sync_class(
        store.clone(),
        feed,
        clock,
        sinks,
        cancel.clone(),
    ))
}

impl Rig {
    /// Waits for a help request that is waiting, and reports how long it took from the host's
    /// emit time (the request's `at`) to the store having it.
    async fn next_request(&self) -> HelpRequest {
        let desk = Desk::new(&self.store);
        let until = Instant::now() + Duration::from_secs(60);
        loop {
            let waiting = desk.queue(Some(&self.class_id)).await.unwrap();
            if let Some(r) = waiting.into_iter().find(|r| r.state == RequestState::Open) {
                let seen = SystemClock.now_ms() as f64;
                eprintln!(
                    "MEASURE host emit -> store: {:.0} ms (polled every 5 ms)",
                    seen - r.asked_at_ms
                );
                return r;
            }
            assert!(Instant::now() < until, "no help request within 60 s");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }

    async fn wait_stored_state(&self, call_id: &str, want: &str) -> String {
        let until = Instant::now() + Duration::from_secs(30);
        loop {
            let row: Option<(String, Option<String>)> =
                sqlx::query_as("SELECT state, response FROM calls_with_payload WHERE call_id = ?")
                    .bind(call_id)
                    .fetch_optional(self.store.sqlite().unwrap())
                    .await
                    .unwrap();
            if let Some((state, response)) = row
                && state == want
            {
                return response.unwrap_or_default();
            }
            assert!(Instant::now() < until, "call never became {want}");
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }

    fn host_call(&self, call_id: &str) -> pathway_host::Call {
        self.host
            .calls(&self.class_id)
            .into_iter()
            .find(|c| c.call_id == call_id)
            .expect("the host knows the call")
    }

    async fn quarantined(&self) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM quarantine")
            .fetch_one(self.store.sqlite().unwrap())
            .await
            .unwrap()
    }

    async fn stop(self) {
        self.cancel.cancel();
        self.host.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_reaches_the_host_as_the_value_and_its_echo_closes_the_call() {
    // 300 s / 30 = 10 s to answer: plenty on a loaded machine.
    let rig = rig(24.0, 7).await;
    let request = rig.next_request().await;
    assert!(!request.question.is_empty());
    // The step's title from the catalog, not its widget id.
    assert_ne!(request.step_title, request.widget_id);
    assert!(!request.step_title.is_empty());
    let client = HostClient::connect(&rig.host.url(), TOKEN).await.unwrap();
    let desk = Desk::new(&rig.store);

    let claimed = desk.claim(&client, &request.call_id).await.unwrap();
    assert_eq!(claimed.state, RequestState::ClaimedByMe);
    assert!(rig.host_call(&request.call_id).claimed_by.is_some());

    let text = "Look at the numerators: the denominators are the same.";
    let answered = desk.answer(&client, &request.call_id, text).await.unwrap();
    assert_eq!(answered.state, RequestState::Answered, "recorded at once");
    assert_eq!(rig.host_call(&request.call_id).state, CallState::Answered);

    // The feed's echo lands in the store with exactly the value sent.
    let echoed = rig.wait_stored_state(&request.call_id, "answered").await;
    let echoed: Value = serde_json::from_str(&echoed).unwrap();
    assert_eq!(echoed["value"]["answer"], text);
    assert_eq!(echoed["value"]["answered_by"], "teacher");
    assert!(echoed.get("error").is_none(), "value XOR error");
    assert_eq!(
        rig.quarantined().await,
        0,
        "the echo is not taken for a 2nd answer"
    );

    // A second answer: refused by the desk without asking the host, and by the host itself.
    let again = desk.answer(&client, &request.call_id, "again").await;
    assert!(
        matches!(again, Err(DeskError::AlreadyAnswered)),
        "{again:?}"
    );
    let direct = client
        .respond(
            &request.call_id,
            Err(a2learn_contract::CallError {
                code: "declined".into(),
                message: "no".into(),
            }),
        )
        .await
        .unwrap_err();
    assert_eq!(direct.tool_code(), Some("already_answered"));
    assert!(matches!(
        DeskError::from(direct),
        DeskError::AlreadyAnswered
    ));
    client.close().await;
    rig.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_decline_reaches_the_host_as_an_error_with_code_declined() {
    let rig = rig(24.0, 11).await;
    let request = rig.next_request().await;
    let client = HostClient::connect(&rig.host.url(), TOKEN).await.unwrap();
    let desk = Desk::new(&rig.store);
    let declined = desk.decline(&client, &request.call_id).await.unwrap();
    assert_eq!(declined.state, RequestState::Declined);
    let echoed = rig.wait_stored_state(&request.call_id, "declined").await;
    let echoed: Value = serde_json::from_str(&echoed).unwrap();
    assert_eq!(echoed["error"]["code"], "declined");
    assert!(echoed.get("value").is_none(), "value XOR error");
    assert_eq!(rig.host_call(&request.call_id).state, CallState::Answered);
    assert_eq!(rig.quarantined().await, 0);
    client.close().await;
    rig.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_request_expires_into_the_hosts_timeout_and_cannot_be_answered() {
    // 240 s / 120 = 2 s deadlines.
    let rig = rig(120.0, 3).await;
    let request = rig.next_request().await;
    let client = HostClient::connect(&rig.host.url(), TOKEN).await.unwrap();
    let echoed = rig.wait_stored_state(&request.call_id, "expired").await;
    let echoed: Value = serde_json::from_str(&echoed).unwrap();
    assert_eq!(echoed["error"]["code"], "timeout");
    assert_eq!(rig.host_call(&request.call_id).state, CallState::Expired);

    let desk = Desk::new(&rig.store);
    assert_eq!(
        desk.request(&request.call_id).await.unwrap().state,
        RequestState::Expired
    );
    let late = desk.answer(&client, &request.call_id, "late").await;
    assert!(matches!(late, Err(DeskError::Expired)), "{late:?}");
    // The host refuses it too, with the code the desk maps to the same error.
    let direct = client
        .respond(
            &request.call_id,
            Ok(a2learn_contract::ResponseValue::Assist(
                a2learn_contract::AssistValue {
                    answer: "late".into(),
                    answered_by: a2learn_contract::AnsweredBy::Teacher,
                },
            )),
        )
        .await
        .unwrap_err();
    assert_eq!(direct.tool_code(), Some("expired"));
    assert!(matches!(DeskError::from(direct), DeskError::Expired));
    client.close().await;
    rig.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_co_teachers_claim_shows_through_the_echo_and_blocks_this_desk() {
    let rig = rig(24.0, 19).await;
    let request = rig.next_request().await;
    rig.host
        .claim(CO_TEACHER, &request.call_id)
        .expect("the co-teacher claims");
    let desk = Desk::new(&rig.store);
    let until = Instant::now() + Duration::from_secs(30);
    while desk.request(&request.call_id).await.unwrap().state != RequestState::ClaimedByOther {
        assert!(Instant::now() < until, "the claim echo never landed");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let client = HostClient::connect(&rig.host.url(), TOKEN).await.unwrap();
    let mine = desk.answer(&client, &request.call_id, "mine").await;
    assert!(matches!(mine, Err(DeskError::ClaimedByOther)), "{mine:?}");
    // The host agrees when asked directly.
    let claim = client.claim(&request.call_id).await.unwrap_err();
    assert_eq!(claim.tool_code(), Some("already_claimed"));
    assert_eq!(rig.host_call(&request.call_id).state, CallState::Open);
    client.close().await;
    rig.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_request_stays_to_follow_up_and_a_promised_visit_stays_until_done() {
    // 240 s / 40 = 6 s deadlines: time for "coming over" on a loaded machine, and a short wait.
    let mut rig = rig(40.0, 11).await;
    let desk = Desk::new(&rig.store);
    let host = HostClient::connect(&rig.host.url(), TOKEN).await.unwrap();
    // One request the teacher answers "coming over"; the next one nobody answers.
    let visited = rig.next_request().await;
    desk.coming_over(&host, &visited.call_id).await.unwrap();
    let missed = loop {
        let r = rig.next_request().await;
        if r.call_id != visited.call_id {
            break r;
        }
    };
    rig.wait_stored_state(&missed.call_id, "expired").await;
    assert_eq!(rig.host_call(&missed.call_id).state, CallState::Expired);
    host.close().await;

    let class_id = rig.class_id.clone();
    let owed = |store: Store, class_id: String| async move {
        let desk = Desk::new(&store);
        let room = desk.room(Some(&class_id), Privacy::Names).await.unwrap();
        let needs = store.needs_me(&class_id).await.unwrap();
        (room, needs)
    };
    let (room, needs) = owed(rig.store.clone(), class_id.clone()).await;
    let follow_ups: Vec<&str> = room.follow_ups.iter().map(|f| f.call_id.as_str()).collect();
    assert!(
        follow_ups.contains(&missed.call_id.as_str()),
        "{follow_ups:?}"
    );
    assert!(
        !follow_ups.contains(&visited.call_id.as_str()),
        "answered: not a follow-up"
    );
    assert_eq!(room.visits.len(), 1);
    assert_eq!(room.visits[0].call_id, visited.call_id);
    assert_ne!(
        room.visits[0].step_title, room.visits[0].widget_id,
        "the step's title"
    );
    assert_eq!(
        needs[0].reason,
        Reason::FollowUp,
        "a missed request ranks first"
    );
    assert!(
        needs
            .iter()
            .any(|n| n.reason == Reason::FollowUp && n.learner == missed.learner),
        "{needs:?}"
    );

    // A restart: the same database, opened afresh, once the sync has stored its last batch
    // (which may close more requests: the class goes on until then).
    let path = rig.store.path().expect("a SQLite store").to_path_buf();
    rig.cancel.cancel();
    (&mut rig.sync).await.unwrap().unwrap();
    let reopened = Store::open(&path, Arc::new(SystemClock)).await.unwrap();
    // A request still open when the sync stopped becomes a follow-up once its deadline passes
    // (the host's close may never arrive): let every deadline pass, so the list is complete.
    let last_deadline: Option<i64> =
        sqlx::query_scalar("SELECT MAX(deadline_ms) FROM calls WHERE state = 'open'")
            .fetch_one(reopened.sqlite().unwrap())
            .await
            .unwrap();
    if let Some(deadline) = last_deadline {
        let wait = deadline + 50 - reopened.now_ms();
        if wait > 0 {
            tokio::time::sleep(Duration::from_millis(wait as u64)).await;
        }
    }
    let (room, _) = owed(reopened.clone(), class_id.clone()).await;
    assert!(
        room.follow_ups.iter().any(|f| f.call_id == missed.call_id),
        "kept across a restart"
    );
    assert_eq!(room.visits.len(), 1, "the visit too");

    // The grid's cells show the missed requests (the rollup, kept as each close was stored)...
    let follow_up_cells = |store: Store| async move {
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM grid_cells WHERE state = 'follow_up'")
            .fetch_one(store.sqlite().unwrap())
            .await
            .unwrap()
    };
    assert!(follow_up_cells(reopened.clone()).await > 0);

    // Only the teacher clears them.
    let desk = Desk::new(&reopened);
    for f in &room.follow_ups {
        desk.follow_up_done(&f.call_id).await.unwrap();
    }
    // ...and no longer once they are done, in the same transaction as the desk's record: the
    // rollup then is what a rebuild from scratch makes.
    assert_eq!(follow_up_cells(reopened.clone()).await, 0);
    let cells = |store: Store| async move {
        sqlx::query_as::<_, (String, String, String, String)>(
            "SELECT class_id, learner, widget_id, state FROM grid_cells ORDER BY 1, 2, 3",
        )
        .fetch_all(store.sqlite().unwrap())
        .await
        .unwrap()
    };
    let kept = cells(reopened.clone()).await;
    reopened.rebuild_grid_rollup().await.unwrap();
    assert_eq!(cells(reopened.clone()).await, kept);
    desk.visit_done(&visited.call_id).await.unwrap();
    let room = desk.room(Some(&class_id), Privacy::Names).await.unwrap();
    assert!(
        room.follow_ups.is_empty() && room.visits.is_empty(),
        "{room:?}"
    );
    let needs = reopened.needs_me(&class_id).await.unwrap();
    assert!(
        needs.iter().all(|n| n.reason != Reason::FollowUp),
        "{needs:?}"
    );
    rig.host.shutdown().await;
}

/// Two co-teachers on one school's shared store, each with their own file and their own sync of
/// the class (two processes' worth of writers into one PostgreSQL): one answers a request, the
/// other's desk shows it answered; one's roster names the learner on their desk only, and
/// one's draft stays theirs. `pg_dump` of the shared store holds the answer and no name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn co_teachers_on_one_shared_store_see_each_others_answers_and_keep_their_names() {
    use support::engines::{Engine, TestDb, pg_dump};
    const CANARY: &str = "Philomena Quartermaine";
    let Some(db) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    let (host, class_id) = class_host(24.0, 5).await;

    let clock: SharedClock = Arc::new(SystemClock);
    // On the real clock, as the host is (the test database's own store runs on a fixed one).
    let at = a2learn_teacher::store::Location::parse(&db.location).unwrap();
    let teacher = |file: &str| {
        let (clock, at) = (clock.clone(), at.clone());
        let path = db.dir().join(file);
        async move {
            let shared = Store::open_at(&at, clock.clone()).await.unwrap();
            let home = Store::open(&path, clock).await.unwrap();
            shared.with_home(home).unwrap()
        }
    };
    let ada = teacher("ada.db").await;
    let bea = teacher("bea.db").await;
    let cancel = CancellationToken::new();
    let syncs = [(&ada, TOKEN), (&bea, CO_TEACHER)]
        .map(|(store, token)| spawn_sync(store, &host, token, &class_id, clock.clone(), &cancel));

    // The first waiting request, as Ada's desk lists it.
    let (ada_desk, bea_desk) = (Desk::new(&ada), Desk::new(&bea));
    let until = Instant::now() + Duration::from_secs(60);
    let request = loop {
        let queue = ada_desk.queue(Some(&class_id)).await.unwrap();
        if let Some(r) = queue.into_iter().find(|r| r.state == RequestState::Open) {
            break r;
        }
        if Instant::now() > until {
            let ledger = db.count("SELECT COUNT(*) FROM ledger").await;
            let calls = db.count("SELECT COUNT(*) FROM calls").await;
            let finished: Vec<bool> = syncs.iter().map(|s| s.is_finished()).collect();
            panic!(
                "no help request within 60 s: ledger {ledger}, calls {calls}, syncs finished {finished:?}"
            );
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let roster = a2learn_teacher::roster::parse_roster_csv(&format!(
        "anonymous_id,display_name\n{},{CANARY}\n",
        request.learner
    ))
    .unwrap();
    ada.import_roster(&class_id, &roster).await.unwrap();
    ada_desk
        .set_draft(&request.call_id, "Philomena, look at the")
        .await
        .unwrap();
    let seen_by_bea = bea_desk.request(&request.call_id).await.unwrap();
    assert_eq!(seen_by_bea.display_name, None, "Ada's roster is Ada's");
    assert_eq!(seen_by_bea.draft, None, "Ada's draft is Ada's");
    assert_eq!(
        ada_desk
            .request(&request.call_id)
            .await
            .unwrap()
            .display_name
            .as_deref(),
        Some(CANARY)
    );

    let client = HostClient::connect(&host.url(), TOKEN).await.unwrap();
    let text = "Look at the numerators: the denominators are the same.";
    ada_desk
        .answer(&client, &request.call_id, text)
        .await
        .unwrap();
    client.close().await;
    // Bea's desk shows it answered, with Ada's answer, and will not answer it again.
    let seen_by_bea = bea_desk.request(&request.call_id).await.unwrap();
    assert_eq!(seen_by_bea.state, RequestState::Answered);
    assert_eq!(seen_by_bea.answer.as_deref(), Some(text));
    let bea_client = HostClient::connect(&host.url(), CO_TEACHER).await.unwrap();
    let again = bea_desk
        .answer(&bea_client, &request.call_id, "me too")
        .await;
    assert!(
        matches!(again, Err(DeskError::AlreadyAnswered)),
        "{again:?}"
    );
    bea_client.close().await;

    // Both syncs wrote the class: each event once, in one ledger.
    cancel.cancel();
    for sync in syncs {
        let _ = sync.await;
    }
    assert_eq!(
        db.count("SELECT COUNT(*) FROM (SELECT seq FROM ledger GROUP BY class_id, seq HAVING COUNT(*) > 1) d")
            .await,
        0
    );
    let dump = pg_dump(&db.location);
    assert!(dump.contains(text), "the answer is the store's");
    assert!(!dump.contains(CANARY), "a name reached the shared store");
    assert!(
        !dump.contains("Philomena, look"),
        "a draft reached the shared store"
    );
    host.shutdown().await;
}
