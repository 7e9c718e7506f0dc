#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::sync::{Arc, Mutex};

use serde_json::json;

use super::*;
use crate::FixedClock;
use crate::clock::Clock;
use crate::roster::RosterEntry;

const T0: i64 = 1_800_000_000_000;

/// A host that records what it was sent and answers as told.
#[derive(Default)]
struct FakeHost {
    sent: Mutex<Vec<(String, Value)>>,
    claims: Mutex<Vec<String>>,
    fail_with: Mutex<Option<&'static str>>,
}

impl FakeHost {
    fn sent(&self) -> Vec<(String, Value)> {
        self.sent.lock().unwrap().clone()
    }
    fn refusal(&self) -> Result<(), HostError> {
        match *self.fail_with.lock().unwrap() {
            Some(code) => Err(HostError::Tool {
                code: code.into(),
                message: format!("the host says {code}"),
            }),
            None => Ok(()),
        }
    }
}

impl DeskHost for FakeHost {
    fn claim(&self, call_id: &str) -> impl Future<Output = Result<String, HostError>> + Send {
        let out = self.refusal().map(|()| {
            self.claims.lock().unwrap().push(call_id.to_string());
            "teacher-me".to_string()
        });
        async move { out }
    }

    fn respond(
        &self,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
    ) -> impl Future<Output = Result<(), HostError>> + Send {
        let out = self.refusal().map(|()| {
            let v = match response {
                Ok(v) => json!({ "value": v }),
                Err(e) => json!({ "error": e }),
            };
            self.sent.lock().unwrap().push((call_id.to_string(), v));
        });
        async move { out }
    }
}

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
    clock: FixedClock,
}

async fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let clock = FixedClock::at(T0);
    let store = Store::open(&dir.path().join("t.db"), Arc::new(clock.clone()))
        .await
        .unwrap();
    store
        .upsert_class("class-1", "Room 12", None)
        .await
        .unwrap();
    Fixture {
        _dir: dir,
        store,
        clock,
    }
}

async fn insert_call(store: &Store, call_id: &str, at_ms: i64, question: &str) {
    let request = json!({
        "call_id": call_id, "learner": "anon_aaaa1111", "widget_run_id": "run-1",
        "widget_id": "w-compare", "pathway_id": "p-1", "at": "2027-01-15T08:00:00Z",
        "kind": "fraction_compare", "standard": "CCSS.4.NF.A.2", "deadline": "x",
        "args": { "question": question, "attempts": 2, "hints": 1 }
    });
    sqlx::query(
        "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, widget_run_id, \
         learner, kind, standard, request, at_ms, deadline, deadline_ms, opened_seq) \
         VALUES (?, 'class-1', 'assist', 'p-1', 'w-compare', 'run-1', 'anon_aaaa1111', \
         'fraction_compare', 'CCSS.4.NF.A.2', ?, ?, 'x', ?, 1)",
    )
    .bind(call_id)
    .bind(request.to_string())
    .bind(at_ms)
    .bind(at_ms + 300_000)
    .execute(store.sqlite().unwrap())
    .await
    .unwrap();
}

#[tokio::test]
async fn the_queue_lists_waiting_requests_oldest_first_with_the_local_name() {
    let f = fixture().await;
    insert_call(&f.store, "call-b", T0 - 1_000, "second").await;
    insert_call(&f.store, "call-a", T0 - 5_000, "first <b>?</b>").await;
    f.store
        .import_roster(
            "class-1",
            &[RosterEntry {
                learner: "anon_aaaa1111".into(),
                display_name: "Ada".into(),
            }],
        )
        .await
        .unwrap();
    let q = Desk::new(&f.store).queue(Some("class-1")).await.unwrap();
    let ids: Vec<_> = q.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["call-a", "call-b"]);
    let a = &q[0];
    assert_eq!(
        a.question, "first <b>?</b>",
        "the text as the student wrote it"
    );
    assert_eq!((a.attempts, a.hints), (2, 1));
    assert_eq!(a.display_name.as_deref(), Some("Ada"));
    assert_eq!(a.state, RequestState::Open);
    assert_eq!(a.now_ms, T0 as f64);
    assert_eq!(a.deadline_ms, (T0 - 5_000 + 300_000) as f64);
    // Another class's filter shows nothing; all classes shows both.
    assert!(
        Desk::new(&f.store)
            .queue(Some("class-2"))
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(Desk::new(&f.store).waiting_count().await.unwrap(), 2);
}

#[tokio::test]
async fn an_answer_is_sent_once_as_the_value_and_a_second_is_refused_unsent() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    desk.set_draft("call-a", "half an ans").await.unwrap();
    let r = desk
        .answer(&host, "call-a", "  Compare the numerators.  ")
        .await
        .unwrap();
    assert_eq!(r.state, RequestState::Answered);
    assert_eq!(r.answer.as_deref(), Some("Compare the numerators."));
    assert_eq!(r.draft, None, "the draft goes once the answer is sent");
    assert_eq!(
        host.sent(),
        vec![(
            "call-a".to_string(),
            json!({"value": {"answer": "Compare the numerators.", "answered_by": "teacher"}})
        )]
    );
    let again = desk.answer(&host, "call-a", "again").await;
    assert!(
        matches!(again, Err(DeskError::AlreadyAnswered)),
        "{again:?}"
    );
    let declined = desk.decline(&host, "call-a").await;
    assert!(matches!(declined, Err(DeskError::AlreadyAnswered)));
    assert_eq!(host.sent().len(), 1, "nothing more reached the host");
    // The answered request stays in the queue (closed), behind the waiting ones.
    insert_call(&f.store, "call-b", T0 + 1, "later").await;
    let q = desk.queue(None).await.unwrap();
    assert_eq!(q[0].call_id, "call-b");
    assert_eq!(q[1].state, RequestState::Answered);
}

#[tokio::test]
async fn a_late_answer_is_refused_by_the_clock_and_never_sent() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    f.clock.advance(300_000);
    assert_eq!(
        desk.request("call-a").await.unwrap().state,
        RequestState::Expired
    );
    let late = desk.answer(&host, "call-a", "too late").await;
    assert!(matches!(late, Err(DeskError::Expired)), "{late:?}");
    assert!(matches!(
        desk.claim(&host, "call-a").await,
        Err(DeskError::Expired)
    ));
    assert!(host.sent().is_empty());
    let ui = UiError::from(DeskError::Expired);
    assert_eq!(ui.code, ErrorCode::Expired);
    // Positive control one millisecond earlier.
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    f.clock.advance(299_999);
    Desk::new(&f.store)
        .answer(&host, "call-a", "just in time")
        .await
        .unwrap();
    assert_eq!(host.sent().len(), 1);
}

#[tokio::test]
async fn the_hosts_refusals_become_the_desks_errors_and_record_nothing() {
    for (code, expect) in [
        ("expired", ErrorCode::Expired),
        ("already_answered", ErrorCode::AlreadyAnswered),
        ("already_claimed", ErrorCode::AlreadyClaimed),
        ("unavailable_thing", ErrorCode::Host),
    ] {
        let f = fixture().await;
        insert_call(&f.store, "call-a", T0, "help").await;
        let host = FakeHost::default();
        *host.fail_with.lock().unwrap() = Some(code);
        let err = Desk::new(&f.store)
            .answer(&host, "call-a", "an answer")
            .await
            .unwrap_err();
        assert_eq!(UiError::from(err).code, expect, "{code}");
        let r = Desk::new(&f.store).request("call-a").await.unwrap();
        assert_eq!(
            r.state,
            RequestState::Open,
            "a refused answer is not recorded"
        );
    }
}

#[tokio::test]
async fn decline_sends_an_error_with_code_declined() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let host = FakeHost::default();
    let r = Desk::new(&f.store).decline(&host, "call-a").await.unwrap();
    assert_eq!(r.state, RequestState::Declined);
    let (_, sent) = &host.sent()[0];
    assert_eq!(sent["error"]["code"], "declined");
    assert!(sent.get("value").is_none(), "value XOR error");
}

#[tokio::test]
async fn coming_over_is_an_answer_that_says_so() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let host = FakeHost::default();
    Desk::new(&f.store)
        .coming_over(&host, "call-a")
        .await
        .unwrap();
    assert_eq!(host.sent()[0].1["value"]["answer"], COMING_OVER_TEXT);
}

#[tokio::test]
async fn answers_outside_1_to_4000_characters_are_refused_before_sending() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    for bad in ["", "   \n ", &"é".repeat(4001)] {
        let err = desk.answer(&host, "call-a", bad).await.unwrap_err();
        assert!(matches!(err, DeskError::InvalidAnswer(_)), "{err:?}");
        assert_eq!(UiError::from(err).code, ErrorCode::InvalidInput);
    }
    assert!(host.sent().is_empty());
    // 4000 characters (not bytes) is fine.
    desk.answer(&host, "call-a", &"é".repeat(4000))
        .await
        .unwrap();
    assert_eq!(host.sent().len(), 1);
}

#[tokio::test]
async fn a_group_answer_reaches_every_waiting_request_and_reports_each() {
    let f = fixture().await;
    for id in ["call-a", "call-b", "call-c"] {
        insert_call(&f.store, id, T0, "help").await;
    }
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    desk.answer(&host, "call-b", "first").await.unwrap();
    let ids: Vec<String> = ["call-a", "call-b", "call-c"].map(String::from).into();
    let answer = desk.prepare_answer("Same for all").await.unwrap();
    let out = desk.answer_group(&host, &ids, answer).await.unwrap();
    assert_eq!(out[0].error, None);
    assert_eq!(
        out[1].error.as_ref().map(|e| e.code),
        Some(ErrorCode::AlreadyAnswered)
    );
    assert_eq!(out[2].error, None);
    let to: Vec<_> = host.sent().into_iter().map(|(id, _)| id).collect();
    assert_eq!(to, ["call-b", "call-a", "call-c"]);
    // An invalid text stops the whole group before anything is sent.
    assert!(desk.prepare_answer(" ").await.is_err());
    assert_eq!(host.sent().len(), 3);
}

#[tokio::test]
async fn an_answer_that_names_a_rostered_learner_is_never_sent() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let roster = crate::roster::parse_roster_csv(
        "anonymous_id,display_name\nanon-other,Quillon Brasswhistle\n",
    )
    .unwrap();
    f.store.ensure_class("class-2").await.unwrap();
    f.store.import_roster("class-2", &roster).await.unwrap();
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    // A name from another class's roster is still a name.
    let err = desk
        .answer(&host, "call-a", "Quillon, count three halves from zero.")
        .await
        .unwrap_err();
    let ui = UiError::from(err);
    assert_eq!(ui.code, ErrorCode::TextBlocked);
    assert!(ui.message.contains("“Quillon”"), "{}", ui.message);
    assert!(host.sent().is_empty(), "nothing reached the host");
    assert_eq!(
        desk.request("call-a").await.unwrap().state,
        RequestState::Open
    );
    // Control: the same request takes an answer without the name.
    desk.answer(&host, "call-a", "Count three halves from zero.")
        .await
        .unwrap();
    assert_eq!(host.sent().len(), 1);
}

#[tokio::test]
async fn a_claim_is_recorded_as_mine() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let host = FakeHost::default();
    let r = Desk::new(&f.store).claim(&host, "call-a").await.unwrap();
    assert_eq!(r.state, RequestState::ClaimedByMe);
    // A co-teacher's claim (arrived through the feed) is not mine.
    insert_call(&f.store, "call-b", T0, "help").await;
    sqlx::query("UPDATE calls SET claimed_by = 'teacher-other' WHERE call_id = 'call-b'")
        .execute(f.store.sqlite().unwrap())
        .await
        .unwrap();
    let desk = Desk::new(&f.store);
    assert_eq!(
        desk.request("call-b").await.unwrap().state,
        RequestState::ClaimedByOther
    );
    let err = desk.answer(&host, "call-b", "mine now").await.unwrap_err();
    assert!(matches!(err, DeskError::ClaimedByOther));
    assert!(host.sent().is_empty());
}

#[tokio::test]
async fn saved_replies_and_drafts_survive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.db");
    let clock = FixedClock::at(T0);
    let reply_id = {
        let store = Store::open(&path, Arc::new(clock.clone())).await.unwrap();
        let desk = Desk::new(&store);
        let r = desk
            .create_reply("Numerators", "Look at the tops.")
            .await
            .unwrap();
        desk.create_reply("Common", "Find a common denominator.")
            .await
            .unwrap();
        desk.update_reply(r.reply_id, "Numerators", "Compare the tops.")
            .await
            .unwrap();
        store
            .upsert_class("class-1", "Room 12", None)
            .await
            .unwrap();
        insert_call(&store, "call-a", T0, "How?").await;
        desk.set_draft("call-a", "I think you shou").await.unwrap();
        // A draft names a stored request: an unknown one is refused, not kept nowhere.
        assert!(matches!(
            desk.set_draft("call-404", "lost").await,
            Err(DeskError::NotFound(_))
        ));
        desk.set_muted(true).await.unwrap();
        store.close().await;
        r.reply_id
    };
    let store = Store::open(&path, Arc::new(clock)).await.unwrap();
    let desk = Desk::new(&store);
    let replies = desk.replies().await.unwrap();
    assert_eq!(replies.len(), 2);
    assert_eq!(replies[1].reply_id, reply_id);
    assert_eq!(replies[1].body, "Compare the tops.");
    assert_eq!(
        desk.draft("call-a").await.unwrap().as_deref(),
        Some("I think you shou")
    );
    assert!(desk.muted().await.unwrap());
    desk.delete_reply(reply_id).await.unwrap();
    assert!(matches!(
        desk.delete_reply(reply_id).await,
        Err(DeskError::NotFound(_))
    ));
    assert_eq!(desk.replies().await.unwrap().len(), 1);
    desk.set_draft("call-a", "").await.unwrap();
    assert_eq!(desk.draft("call-a").await.unwrap(), None);
    // A saved reply obeys the answer's bounds.
    assert!(desk.create_reply("", "x").await.is_err());
    assert!(desk.create_reply("Long", &"x".repeat(4001)).await.is_err());
}

#[tokio::test]
async fn a_missed_request_stays_a_follow_up_until_marked_done() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    let desk = Desk::new(&f.store);
    // Waiting: not a follow-up yet.
    assert!(
        desk.room(None, Privacy::Names)
            .await
            .unwrap()
            .follow_ups
            .is_empty()
    );
    // The deadline passes with no answer: a follow-up, before and after the host's timeout echo.
    f.clock.advance(300_000);
    assert_eq!(
        desk.room(None, Privacy::Names)
            .await
            .unwrap()
            .follow_ups
            .len(),
        1
    );
    sqlx::query("UPDATE calls SET state = 'expired', closed_at_ms = ? WHERE call_id = 'call-a'")
        .bind(T0 + 300_000)
        .execute(f.store.sqlite().unwrap())
        .await
        .unwrap();
    f.clock.advance(3_600_000);
    let missed = desk.room(None, Privacy::Names).await.unwrap().follow_ups;
    assert_eq!(missed.len(), 1, "it never leaves by itself");
    assert_eq!(missed[0].closed_at_ms, Some((T0 + 300_000) as f64));
    let needs = f.store.needs_me("class-1").await.unwrap();
    assert_eq!(
        needs[0].reason,
        crate::progress::attention::Reason::FollowUp
    );
    desk.follow_up_done("call-a").await.unwrap();
    assert!(
        desk.room(None, Privacy::Names)
            .await
            .unwrap()
            .follow_ups
            .is_empty()
    );
    assert!(f.store.needs_me("class-1").await.unwrap().is_empty());
    // Control: an answered or declined request is never a follow-up.
    insert_call(&f.store, "call-b", f.clock.now_ms(), "help").await;
    desk.decline(&FakeHost::default(), "call-b").await.unwrap();
    f.clock.advance(600_000);
    assert!(
        desk.room(None, Privacy::Names)
            .await
            .unwrap()
            .follow_ups
            .is_empty()
    );
}

#[tokio::test]
async fn coming_over_promises_a_visit_until_it_is_made() {
    let f = fixture().await;
    insert_call(&f.store, "call-a", T0, "help").await;
    insert_call(&f.store, "call-b", T0 + 1, "help too").await;
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();
    desk.coming_over(&host, "call-b").await.unwrap();
    f.clock.advance(1_000);
    desk.coming_over(&host, "call-a").await.unwrap();
    let visits = desk.room(None, Privacy::Names).await.unwrap().visits;
    let order: Vec<&str> = visits.iter().map(|v| v.call_id.as_str()).collect();
    assert_eq!(order, ["call-b", "call-a"], "in promise order");
    // The widget was told, as the contract allows: one answer each.
    assert_eq!(host.sent().len(), 2);
    desk.visit_done("call-b").await.unwrap();
    let visits = desk.room(None, Privacy::Names).await.unwrap().visits;
    assert_eq!(visits.len(), 1);
    assert!(
        desk.visit_done("call-b").await.is_err(),
        "a visit is done once"
    );
    // A room sees an alias, never the id or a name.
    let safe = desk
        .room(None, Privacy::Projector { seed: 7 })
        .await
        .unwrap();
    assert!(
        safe.visits[0].learner.starts_with("Learner"),
        "{:?}",
        safe.visits[0]
    );
    assert_eq!(safe.visits[0].display_name, None);
}

#[tokio::test]
async fn the_teachers_own_claims_come_first() {
    let f = fixture().await;
    insert_call(&f.store, "call-old", T0 - 5_000, "first").await;
    insert_call(&f.store, "call-new", T0, "second").await;
    let desk = Desk::new(&f.store);
    desk.claim(&FakeHost::default(), "call-new").await.unwrap();
    let queue = desk.queue(None).await.unwrap();
    let order: Vec<&str> = queue.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(order, ["call-new", "call-old"]);
}

/// A host names its calls uniquely, another host may reuse an id: the desk serves the classes of
/// the host Settings name (as the sidebar lists them), so the same id from another host's class
/// is neither listed nor answered, and its draft and answer are kept per class.
#[tokio::test]
async fn a_reused_call_id_is_served_for_the_followed_hosts_class_only() {
    let f = fixture().await;
    const SCHOOL: &str = "https://school.example";
    f.store.bind_class_to_host("class-1", "demo").await.unwrap();
    f.store
        .upsert_class("class-2", "Period 4", None)
        .await
        .unwrap();
    insert_call(&f.store, "call-1", T0, "Demo class question").await;
    sqlx::query(
        "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, widget_run_id, \
         learner, kind, request, at_ms, deadline, deadline_ms, opened_seq) \
         SELECT call_id, 'class-2', function, pathway_id, widget_id, widget_run_id, \
         'anon_bbbb2222', kind, replace(request, 'Demo class', 'School class'), at_ms, \
         deadline, deadline_ms, opened_seq FROM calls WHERE class_id = 'class-1'",
    )
    .execute(f.store.sqlite().unwrap())
    .await
    .unwrap();
    let desk = Desk::new(&f.store);
    let host = FakeHost::default();

    f.store.bind_class_to_host("class-2", SCHOOL).await.unwrap();
    let questions = |q: Vec<HelpRequest>| -> Vec<(String, String)> {
        q.into_iter().map(|r| (r.class_id, r.question)).collect()
    };
    let pair = |c: &str, q: &str| (c.to_string(), q.to_string());
    // The demo host is the default: its class's request only.
    assert_eq!(
        questions(desk.queue(None).await.unwrap()),
        [pair("class-1", "Demo class question")]
    );
    desk.set_draft("call-1", "demo draft").await.unwrap();
    desk.answer(&host, "call-1", "Look at the tops.")
        .await
        .unwrap();
    let sent: Vec<(String, String)> =
        sqlx::query_as("SELECT class_id, outcome FROM desk_sent ORDER BY class_id")
            .fetch_all(f.store.sqlite().unwrap())
            .await
            .unwrap();
    assert_eq!(sent, [pair("class-1", "answered")]);

    // Settings now name the school host: its class's request, still open, with no draft.
    f.store.set_setting("host_mode", "custom").await.unwrap();
    f.store.set_setting("host_url", SCHOOL).await.unwrap();
    let queue = desk.queue(None).await.unwrap();
    assert_eq!(
        questions(queue.clone()),
        [pair("class-2", "School class question")]
    );
    assert_eq!(queue[0].state, RequestState::Open);
    assert_eq!(queue[0].draft, None);
    assert_eq!(desk.waiting_count().await.unwrap(), 1);
    desk.decline(&host, "call-1").await.unwrap();
    let sent: Vec<(String, String)> =
        sqlx::query_as("SELECT class_id, outcome FROM desk_sent ORDER BY class_id")
            .fetch_all(f.store.sqlite().unwrap())
            .await
            .unwrap();
    assert_eq!(
        sent,
        [pair("class-1", "answered"), pair("class-2", "declined")]
    );

    // Negative control: two classes with no host both serve the id; the desk will not guess.
    sqlx::query("UPDATE classes SET host_id = NULL")
        .execute(f.store.sqlite().unwrap())
        .await
        .unwrap();
    assert!(matches!(
        desk.request("call-1").await,
        Err(DeskError::Ambiguous(_))
    ));
    assert!(matches!(
        desk.coming_over(&host, "call-1").await,
        Err(DeskError::Ambiguous(_))
    ));
    assert_eq!(host.sent.lock().unwrap().len(), 2, "nothing more was sent");
}
