//! Running the room against the real reference host on loopback: pause, resume and pacing go
//! through the host's tools (found with `tools/list`), and every dashboard watching the class —
//! this one and a co-teacher's — shows the state the feed reports; the class stops during a
//! pause and moves again after; no completion passes the pacing limit; a host without the tools
//! gets no control.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::live::{ActionError, HostTarget, Live};
use a2learn_teacher::room::{self, RoomState};
use a2learn_teacher::views::room::room_view;
use a2learn_teacher::{Store, SystemClock};
use pathway_host::{HostConfig, RunningHost};

const TOKEN: &str = "test-token-room-abcdefghijkl";
const CO_TEACHER: &str = "co-teacher-token-room-mnopq";
const PATHWAY: &str = "fractions-compare-4";

/// A dashboard: a store of its own following the class through [`Live`].
struct Dashboard {
    live: Arc<Live>,
    store: Store,
    _dir: tempfile::TempDir,
}

async fn dashboard(host: &RunningHost, token: &str, class_id: &str) -> Dashboard {
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("room.db"), clock.clone())
        .await
        .unwrap();
    store
        .upsert_class(class_id, "Period 3", None)
        .await
        .unwrap();
    let (live, _, _) = Live::new(store.clone(), clock);
    live.set_target(Some(HostTarget::at(&host.url(), token)))
        .await
        .unwrap();
    Dashboard {
        live,
        store,
        _dir: dir,
    }
}

async fn host(room_tools: bool) -> (RunningHost, String) {
    let mut config = HostConfig::local(TOKEN);
    config.tokens.push(CO_TEACHER.into());
    config.learners = 30;
    config.speed = 30.0;
    config.seed = 7;
    config.room_tools = room_tools;
    config.ping_interval = Duration::from_millis(200);
    let host = pathway_host::start(config).await.expect("host starts");
    let (class_id, _) = host.create_class("Period 3").expect("class");
    host.assign(&class_id, PATHWAY, None, None).expect("assign");
    (host, class_id)
}

/// Waits until `check` holds for the store's room state (the feed is live, so a few seconds is
/// plenty; the bound only keeps a broken build from hanging).
async fn wait_room(store: &Store, class_id: &str, check: impl Fn(&RoomState) -> bool) -> RoomState {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let state = store.room_state(class_id).await.unwrap();
        if check(&state) {
            return state;
        }
        assert!(
            Instant::now() < until,
            "room state never became as expected: {state:?}"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Learner events (what simulated learners emit) stored after `seq`.
async fn learner_events_after(store: &Store, class_id: &str, seq: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM ledger WHERE class_id = ? AND seq > ? AND name IN \
         ('a2learn.widget_completed', 'a2learn.widget_struggle', 'a2learn.assist', 'a2learn.score')",
    )
    .bind(class_id)
    .bind(seq)
    .fetch_one(store.sqlite().unwrap())
    .await
    .unwrap()
}

/// The seq of the newest frame of the class's host log named `name`.
fn last_echo(host: &RunningHost, class_id: &str, name: &str) -> i64 {
    let seq = host
        .log(class_id)
        .iter()
        .rev()
        .find(|f| f.json().is_some_and(|v| v["name"] == name))
        .map(|f| f.seq)
        .expect("the host echoed the control");
    i64::try_from(seq).unwrap()
}

async fn cursor(store: &Store, class_id: &str) -> i64 {
    store.cursor(class_id).await.unwrap().unwrap_or(0)
}

/// Waits until the store has stored the class's feed up to `seq`.
async fn wait_cursor(store: &Store, class_id: &str, seq: i64) {
    let until = Instant::now() + Duration::from_secs(20);
    while cursor(store, class_id).await < seq {
        assert!(Instant::now() < until, "the feed never reached seq {seq}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Waits until the store has `n` more learner events after `seq`.
async fn wait_events_after(store: &Store, class_id: &str, seq: i64, n: i64) -> Duration {
    let start = Instant::now();
    while learner_events_after(store, class_id, seq).await < n {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the class did not move"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    start.elapsed()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pause_stops_the_class_for_every_dashboard_and_a_resume_moves_it_again() {
    let (host, class_id) = host(true).await;
    let teacher = dashboard(&host, TOKEN, &class_id).await;
    let co_teacher = dashboard(&host, CO_TEACHER, &class_id).await;
    let offers = teacher.live.offers().await.unwrap();
    assert!(offers.pause && offers.pacing, "{offers:?}");
    wait_events_after(&teacher.store, &class_id, 0, 20).await;
    let view = room_view(&teacher.live, &class_id).await.unwrap();
    assert!(!view.paused && view.can_pause && view.can_pace);

    room::pause(&teacher.live, &class_id, Some("  Eyes up here  "))
        .await
        .unwrap();
    let paused_at = last_echo(&host, &class_id, "a2learn.host.class_paused");
    for d in [&teacher, &co_teacher] {
        // Once the echo is stored. (A feed that reconnected meanwhile may first store the
        // connection's snapshot, which says "paused" without the message; seen in CI.)
        wait_cursor(&d.store, &class_id, paused_at).await;
        let state = d.store.room_state(&class_id).await.unwrap();
        assert!(state.paused);
        assert_eq!(state.message.as_deref(), Some("Eyes up here"));
    }
    let view = room_view(&co_teacher.live, &class_id).await.unwrap();
    assert!(view.paused, "the co-teacher's header shows the pause");
    assert_eq!(view.message.as_deref(), Some("Eyes up here"));

    // During the pause: the feed goes on (pings, closing calls) but no learner emits; at speed
    // 30 an unpaused class of 30 emits several events a second (the control after the resume).
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        learner_events_after(&teacher.store, &class_id, paused_at).await,
        0,
        "a learner emitted during the pause"
    );

    room::resume(&teacher.live, &class_id).await.unwrap();
    let resumed_at = last_echo(&host, &class_id, "a2learn.host.class_resumed");
    for d in [&teacher, &co_teacher] {
        let state = wait_room(&d.store, &class_id, |s| !s.paused).await;
        assert_eq!(state.message, None, "the message leaves with the pause");
    }
    let moved = wait_events_after(&teacher.store, &class_id, resumed_at, 5).await;
    println!("after the resume, 5 learner events stored within {moved:?}");

    // A dashboard that connects later learns the state from the feed too (the snapshot, then
    // the echoes): pause again, then start a third dashboard.
    room::pause(&teacher.live, &class_id, None).await.unwrap();
    wait_room(&teacher.store, &class_id, |s| s.paused).await;
    let paused_again_at = last_echo(&host, &class_id, "a2learn.host.class_paused");
    let late = dashboard(&host, TOKEN, &class_id).await;
    // Its replay passes the first pause (with its message) on the way: read it at the end.
    wait_cursor(&late.store, &class_id, paused_again_at).await;
    let state = late.store.room_state(&class_id).await.unwrap();
    assert!(state.paused);
    assert_eq!(state.message, None);
    for d in [teacher, co_teacher, late] {
        d.live.shutdown().await;
    }
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pacing_shows_in_the_header_and_no_completion_passes_it() {
    let (host, class_id) = host(true).await;
    let teacher = dashboard(&host, TOKEN, &class_id).await;
    let co_teacher = dashboard(&host, CO_TEACHER, &class_id).await;
    wait_events_after(&teacher.store, &class_id, 0, 5).await;
    let view = room_view(&teacher.live, &class_id).await.unwrap();
    assert_eq!(view.pacing.len(), 1, "one assignment");
    let steps: Vec<String> = view.pacing[0]
        .steps
        .iter()
        .map(|s| s.widget_id.clone())
        .collect();
    assert!(steps.len() >= 3, "{steps:?}");
    assert_eq!(view.pacing[0].up_to, None);

    // A step that is not the pathway's is refused here, and nothing reaches the host.
    let frames_before = host.log(&class_id).len();
    let err = room::set_pacing(&teacher.live, &class_id, PATHWAY, Some("no-such-step"))
        .await
        .unwrap_err();
    assert!(matches!(err, ActionError::Invalid(_)), "{err:?}");
    assert!(
        host.log(&class_id)[frames_before..]
            .iter()
            .all(|f| !f.data.contains("a2learn.host.pacing")),
        "no pacing echo for a refused limit"
    );

    room::set_pacing(&teacher.live, &class_id, PATHWAY, Some(&steps[1]))
        .await
        .unwrap();
    let paced_at = last_echo(&host, &class_id, "a2learn.host.pacing");
    for d in [&teacher, &co_teacher] {
        wait_room(&d.store, &class_id, |s| !s.pacing.is_empty()).await;
    }
    let view = room_view(&co_teacher.live, &class_id).await.unwrap();
    assert_eq!(view.pacing[0].up_to.as_deref(), Some(steps[1].as_str()));
    assert_eq!(view.pacing[0].up_to_step, Some(2), "\"up to step 2\"");
    assert!(view.pacing[0].up_to_title.is_some());

    // The class keeps working up to the limit; nobody completes a later step.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let beyond: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM ledger WHERE class_id = ? AND seq > ? \
         AND name = 'a2learn.widget_completed' \
         AND json_extract(payload, '$.widget_id') NOT IN (?, ?)",
    )
    .bind(&class_id)
    .bind(paced_at)
    .bind(&steps[0])
    .bind(&steps[1])
    .fetch_one(teacher.store.sqlite().unwrap())
    .await
    .unwrap();
    assert_eq!(beyond, 0, "a completion past the pacing limit");

    // Lifting the limit: the header empties and later steps are completed again.
    room::set_pacing(&teacher.live, &class_id, PATHWAY, None)
        .await
        .unwrap();
    let lifted_at = last_echo(&host, &class_id, "a2learn.host.pacing");
    wait_room(&co_teacher.store, &class_id, |s| s.pacing.is_empty()).await;
    let start = Instant::now();
    loop {
        let later: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM ledger WHERE class_id = ? AND seq > ? \
             AND name = 'a2learn.widget_completed' \
             AND json_extract(payload, '$.widget_id') NOT IN (?, ?)",
        )
        .bind(&class_id)
        .bind(lifted_at)
        .bind(&steps[0])
        .bind(&steps[1])
        .fetch_one(teacher.store.sqlite().unwrap())
        .await
        .unwrap();
        if later > 0 {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(40),
            "no later step was completed after the limit was lifted"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for d in [teacher, co_teacher] {
        d.live.shutdown().await;
    }
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_without_the_room_tools_gets_no_control() {
    let (host, class_id) = host(false).await;
    let teacher = dashboard(&host, TOKEN, &class_id).await;
    wait_events_after(&teacher.store, &class_id, 0, 3).await;
    let offers = teacher.live.offers().await.unwrap();
    assert!(!offers.pause && !offers.pacing, "{offers:?}");
    assert!(
        offers.create_class,
        "the §1 tools are still there: {offers:?}"
    );
    let view = room_view(&teacher.live, &class_id).await.unwrap();
    assert!(!view.can_pause && !view.can_pace, "{view:?}");
    assert!(!view.paused);
    assert_eq!(view.tools_unknown, None, "the host answered tools/list");
    // Called anyway (an old window, a script): the host refuses, nothing changes.
    let refused_at = teacher.store.cursor(&class_id).await.unwrap().unwrap_or(0);
    assert!(room::pause(&teacher.live, &class_id, None).await.is_err());
    // The class goes on moving after the refusal (learners' events stored past it): any echo
    // of a pause would have arrived before them, so its absence now means something.
    wait_events_after(&teacher.store, &class_id, refused_at, 3).await;
    assert!(!teacher.store.room_state(&class_id).await.unwrap().paused);
    teacher.live.shutdown().await;
    host.shutdown().await;
}
