//! The class's version fences the follower that keeps the class's state in memory
//! (`ClassMemory`), on a real SQLite file and a real PostgreSQL database: two followers of one
//! class, each warm, take turns writing it; the fence makes the stale one reload before it
//! validates, so an answer to a call the other opened is kept — and with the fence off (the
//! negative control) the same answer is lost. A follow-up marked done on the desk while the
//! follower is warm reaches its cell. And a follower's memory (contract state and the grid's
//! cells) after a long run with drops and duplicates equals what a reload reads from the store.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use a2learn_teacher::store::{ClassMemory, Incoming};
use serde_json::Value;
use support::engines::{TestDb, on_both_engines};
use support::*;

const CLASS: &str = "class-1";
const ASSIST: &str = "a2learn.assist";
const ANSWER: &str = "a2learn.assist.response";
const COMPLETED: &str = "a2learn.widget_completed";
const STRUGGLE: &str = "a2learn.widget_struggle";

on_both_engines!(
    two_followers_of_one_class_take_turns_behind_the_fence,
    a_follow_up_marked_done_reaches_a_warm_followers_cell,
    a_followers_memory_equals_the_store_after_a_long_run,
);

/// What happened to the answer to call-2 (opened by one follower, answered through the other).
#[derive(Debug, PartialEq, Eq)]
struct Turns {
    call_2: String,
    quarantined: i64,
    ledger: i64,
    reloads: u64,
}

async fn take_turns(db: &TestDb, first: ClassMemory, second: ClassMemory) -> Turns {
    let store = &db.store;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    let registry = store.registry().await.unwrap();
    let mut memories = [first, second];
    let turns: [(usize, Incoming); 4] = [
        (
            0,
            frame(1, ASSIST, assist("anon_aaaa1111", "run-1", "call-1", "?")),
        ),
        // Warm: the second loads the class (call-1 included).
        (
            1,
            frame(
                2,
                COMPLETED,
                completion("anon_bbbb2222", "run-2", Some(true)),
            ),
        ),
        (
            0,
            frame(3, ASSIST, assist("anon_aaaa1111", "run-1", "call-2", "??")),
        ),
        // Its memory does not know call-2: only the fence tells it to look again.
        (
            1,
            frame(4, ANSWER, assist_answer("call-2", "2027-01-15T08:01:00Z")),
        ),
    ];
    for (which, frame) in turns {
        store
            .ingest_with(CLASS, &registry, vec![frame], &mut memories[which])
            .await
            .unwrap();
    }
    Turns {
        call_2: if db
            .flag("SELECT state = 'answered' FROM calls WHERE call_id = 'call-2'")
            .await
        {
            "answered".into()
        } else {
            "open".into()
        },
        quarantined: db.count("SELECT COUNT(*) FROM quarantine").await,
        ledger: db.count("SELECT COUNT(*) FROM ledger").await,
        reloads: memories.iter().map(|m| m.reloads).sum(),
    }
}

async fn two_followers_of_one_class_take_turns_behind_the_fence(db: TestDb) {
    let fenced = take_turns(&db, ClassMemory::new(), ClassMemory::new()).await;
    assert_eq!(
        fenced,
        Turns {
            call_2: "answered".into(),
            quarantined: 0,
            ledger: 4,
            // The first after the second's warm-up, the second after the first's call-2.
            reloads: 2,
        },
        "every event kept once, the answer with its call"
    );
}

/// The negative control, on a store of its own: the fence off, the stale memory refuses the
/// answer to a call it never heard of. This is the loss the fence prevents.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_fence_a_stale_follower_loses_an_answer() {
    let db = TestDb::open(support::engines::Engine::Sqlite)
        .await
        .unwrap();
    let unfenced = take_turns(&db, ClassMemory::unfenced(), ClassMemory::unfenced()).await;
    assert_eq!(unfenced.call_2, "open", "{unfenced:?}");
    assert_eq!(unfenced.quarantined, 1, "{unfenced:?}");
    assert_eq!(unfenced.reloads, 0);
}

/// The follow-up signal of learner A's cell after: a request that expired unanswered, the
/// desk marking its follow-up done, then A's completion of the step through the warm memory.
async fn follow_up_after_completion(db: &TestDb, mut memory: ClassMemory) -> bool {
    let store = &db.store;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    let registry = store.registry().await.unwrap();
    let expired = serde_json::json!({"call_id": "call-1", "at": "2027-01-15T08:03:00Z",
        "error": {"code": "timeout", "message": "nobody answered"}});
    store
        .ingest_with(
            CLASS,
            &registry,
            vec![
                frame(1, ASSIST, assist("anon_aaaa1111", "run-1", "call-1", "?")),
                frame(2, ANSWER, expired),
            ],
            &mut memory,
        )
        .await
        .unwrap();
    let owed = "SELECT follow_up FROM grid_cells WHERE learner = 'anon_aaaa1111'";
    assert!(db.flag(owed).await, "the presence: a follow-up is owed");
    a2learn_teacher::desk::Desk::new(store)
        .follow_up_done("call-1")
        .await
        .unwrap();
    assert!(!db.flag(owed).await, "the desk cleared it");
    store
        .ingest_with(
            CLASS,
            &registry,
            vec![frame(
                3,
                COMPLETED,
                completion("anon_aaaa1111", "run-1", Some(true)),
            )],
            &mut memory,
        )
        .await
        .unwrap();
    let (_, cells) = store.class_state(CLASS).await.unwrap();
    if !memory.unfenced_for_tests() {
        assert!(memory.cells() == &cells, "the memory is the store's again");
        assert_eq!(memory.reloads, 1, "the desk's write moved the version");
    }
    db.flag(owed).await
}

async fn a_follow_up_marked_done_reaches_a_warm_followers_cell(db: TestDb) {
    assert!(!follow_up_after_completion(&db, ClassMemory::new()).await);
}

/// The negative control: the fence off, the follower writes its stale cell back, and the
/// follow-up the teacher marked done is owed again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_fence_a_follow_up_done_comes_back() {
    let db = TestDb::open(support::engines::Engine::Sqlite)
        .await
        .unwrap();
    assert!(follow_up_after_completion(&db, ClassMemory::unfenced()).await);
}

/// One event of the long run: a learner's step, its help request and answer, its struggle and
/// completion, in the order a class makes them.
fn events_of(i: usize) -> Vec<(&'static str, Value)> {
    let learner = format!("anon_{:08}", i % 1000);
    let run = format!("run-{i}");
    let call = format!("call-{i}");
    let mut events = Vec::new();
    if i.is_multiple_of(3) {
        events.push((ASSIST, assist(&learner, &run, &call, "how?")));
        events.push((ANSWER, assist_answer(&call, "2027-01-15T08:01:00Z")));
    }
    if i.is_multiple_of(4) {
        events.push((STRUGGLE, struggle(&learner, &run, 3)));
    }
    events.push((
        COMPLETED,
        completion(&learner, &run, Some(!i.is_multiple_of(5))),
    ));
    events
}

async fn a_followers_memory_equals_the_store_after_a_long_run(db: TestDb) {
    const EVENTS: usize = 100_000;
    let store = &db.store;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    let registry = store.registry().await.unwrap();
    let mut memory = ClassMemory::new();
    let mut seq = 0_i64;
    let mut batch = Vec::new();
    let mut sent = 0;
    let mut i = 0;
    while sent < EVENTS {
        for (name, value) in events_of(i) {
            seq += 1;
            sent += 1;
            // Drops: every 97th seq never arrives. Duplicates: every 89th frame twice.
            if seq % 97 == 0 {
                continue;
            }
            batch.push(frame(seq, name, value.clone()));
            if seq % 89 == 0 {
                batch.push(frame(seq, name, value));
            }
        }
        i += 1;
        if batch.len() >= 1000 || sent >= EVENTS {
            store
                .ingest_with(CLASS, &registry, std::mem::take(&mut batch), &mut memory)
                .await
                .unwrap();
        }
    }
    let (state, cells) = store.class_state(CLASS).await.unwrap();
    let (runs, calls) = state.len();
    assert!(
        runs > 50_000 && calls > 15_000 && cells.len() == 1000,
        "the run made a class worth comparing: {runs} runs, {calls} calls, {} cells",
        cells.len()
    );
    assert_eq!(memory.reloads, 0, "nothing else wrote the class");
    assert!(
        memory.state() == &state,
        "the contract state kept by the follower is the one the store holds"
    );
    assert!(
        memory.cells() == &cells,
        "the grid's cells kept by the follower are the ones the store holds"
    );
    // The control: a state that missed one batch is not equal.
    let mut behind = ClassMemory::new();
    store
        .ingest_with(CLASS, &registry, vec![], &mut behind)
        .await
        .unwrap();
    seq += 1;
    store
        .ingest(
            CLASS,
            &registry,
            vec![frame(
                seq,
                COMPLETED,
                completion("anon_late0001", "run-late", Some(true)),
            )],
        )
        .await
        .unwrap();
    let (state, cells) = store.class_state(CLASS).await.unwrap();
    assert!(behind.state() != &state && behind.cells() != &cells);
}
