//! The help desk's rules on both engines: a teacher's file, and a school's shared PostgreSQL
//! store paired with the teacher's own file (where drafts, saved replies, promised visits and
//! whom the host knows them as stay). The host is a fake that records what it was sent; the
//! desk against the real reference host is `tests/help_desk.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::future::Future;
use std::sync::Mutex;

use a2learn_contract::{CallError, ResponseValue};
use a2learn_teacher::desk::{Desk, DeskError, DeskHost, HelpRequest, RequestState};
use a2learn_teacher::host::mcp::HostError;
use a2learn_teacher::progress::attention::Reason;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::roster::parse_roster_csv;
use a2learn_teacher::{Clock, ErrorCode, Store, UiError};
use serde_json::{Value, json};
use support::engines::{Engine, TestDb, on_both_engines, pg_dump, raw};

/// The tests' clock at the start (`TestDb`'s).
const T0: i64 = 1_800_000_000_000;

/// A host that records what it was sent and answers as told.
#[derive(Default)]
struct FakeHost {
    sent: Mutex<Vec<(String, Value)>>,
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
    fn claim(&self, _call_id: &str) -> impl Future<Output = Result<String, HostError>> + Send {
        let out = self.refusal().map(|()| "teacher-me".to_string());
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

/// The teacher's store (with its home on PostgreSQL) and a class to ask in.
async fn teacher(db: &TestDb) -> Store {
    let store = db.teacher_store().await;
    store
        .upsert_class("class-1", "Room 12", None)
        .await
        .unwrap();
    store
}

/// An assist request of `class-1`, as the feed stores it, with a 5-minute deadline.
async fn insert_call(db: &TestDb, call_id: &str, at_ms: i64, question: &str) {
    let request = json!({
        "call_id": call_id, "learner": "anon_aaaa1111", "widget_run_id": "run-1",
        "widget_id": "w-compare", "pathway_id": "p-1", "at": "2027-01-15T08:00:00Z",
        "kind": "fraction_compare", "standard": "CCSS.4.NF.A.2", "deadline": "x",
        "args": { "question": question, "attempts": 2, "hints": 1 }
    });
    raw!(db, |pool| sqlx::query(
        "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, widget_run_id, \
         learner, kind, standard, request, at_ms, deadline, deadline_ms, opened_seq) \
         VALUES ($1, 'class-1', 'assist', 'p-1', 'w-compare', 'run-1', 'anon_aaaa1111', \
         'fraction_compare', 'CCSS.4.NF.A.2', $2, $3, 'x', $4, 1)",
    )
    .bind(call_id)
    .bind(request.to_string())
    .bind(at_ms)
    .bind(at_ms + 300_000)
    .execute(pool)
    .await
    .map(|_| ())
    .unwrap());
}

/// `(class, outcome)` of what this desk recorded as sent, in the shared store.
async fn sent_rows(db: &TestDb) -> Vec<(String, String)> {
    raw!(db, |pool| sqlx::query_as(
        "SELECT class_id, outcome FROM desk_sent ORDER BY class_id"
    )
    .fetch_all(pool)
    .await
    .unwrap())
}

on_both_engines!(
    the_queue_lists_waiting_requests_oldest_first_with_the_local_name,
    an_answer_is_sent_once_as_the_value_and_a_second_is_refused_unsent,
    a_late_answer_is_refused_by_the_clock_and_never_sent,
    the_hosts_refusals_become_the_desks_errors_and_record_nothing,
    decline_sends_an_error_with_code_declined_and_coming_over_says_so,
    answers_outside_1_to_4000_characters_are_refused_before_sending,
    a_group_answer_reaches_every_waiting_request_and_reports_each,
    an_answer_that_names_a_rostered_learner_is_never_sent,
    a_claim_is_recorded_as_mine_and_mine_come_first,
    saved_replies_drafts_and_claims_survive_a_restart,
    a_missed_request_stays_a_follow_up_until_marked_done,
    coming_over_promises_a_visit_until_it_is_made,
    a_reused_call_id_is_served_for_the_followed_hosts_class_only,
    what_the_teacher_types_stays_in_their_file,
);

async fn the_queue_lists_waiting_requests_oldest_first_with_the_local_name(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-b", T0 - 1_000, "second").await;
    insert_call(&db, "call-a", T0 - 5_000, "first <b>?</b>").await;
    let roster = parse_roster_csv("anonymous_id,display_name\nanon_aaaa1111,Ada\n").unwrap();
    store.import_roster("class-1", &roster).await.unwrap();
    let q = Desk::new(&store).queue(Some("class-1")).await.unwrap();
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
        Desk::new(&store)
            .queue(Some("class-2"))
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(Desk::new(&store).waiting_count().await.unwrap(), 2);
}

async fn an_answer_is_sent_once_as_the_value_and_a_second_is_refused_unsent(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    let desk = Desk::new(&store);
    let host = FakeHost::default();
    desk.set_draft("call-a", "half an ans").await.unwrap();
    assert_eq!(
        desk.queue(None).await.unwrap()[0].draft.as_deref(),
        Some("half an ans"),
        "the queue shows the draft, read from the teacher's file"
    );
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
    // A co-teacher's desk on the same store (a second opening) sees it answered.
    let other = db.teacher_store().await;
    assert_eq!(
        Desk::new(&other).request("call-a").await.unwrap().state,
        RequestState::Answered
    );
    // The answered request stays in the queue (closed), behind the waiting ones.
    insert_call(&db, "call-b", T0 + 1, "later").await;
    let q = desk.queue(None).await.unwrap();
    assert_eq!(q[0].call_id, "call-b");
    assert_eq!(q[1].state, RequestState::Answered);
}

async fn a_late_answer_is_refused_by_the_clock_and_never_sent(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    let desk = Desk::new(&store);
    let host = FakeHost::default();
    db.clock.advance(300_000);
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
    assert_eq!(UiError::from(DeskError::Expired).code, ErrorCode::Expired);
    // Positive control one millisecond before its deadline.
    insert_call(&db, "call-b", db.clock.now_ms(), "help").await;
    db.clock.advance(299_999);
    desk.answer(&host, "call-b", "just in time").await.unwrap();
    assert_eq!(host.sent().len(), 1);
}

async fn the_hosts_refusals_become_the_desks_errors_and_record_nothing(db: TestDb) {
    let store = teacher(&db).await;
    for (code, expect) in [
        ("expired", ErrorCode::Expired),
        ("already_answered", ErrorCode::AlreadyAnswered),
        ("already_claimed", ErrorCode::AlreadyClaimed),
        ("unavailable_thing", ErrorCode::Host),
    ] {
        let call = format!("call-{code}");
        insert_call(&db, &call, T0, "help").await;
        let host = FakeHost::default();
        *host.fail_with.lock().unwrap() = Some(code);
        let err = Desk::new(&store)
            .answer(&host, &call, "an answer")
            .await
            .unwrap_err();
        assert_eq!(UiError::from(err).code, expect, "{code}");
        let r = Desk::new(&store).request(&call).await.unwrap();
        assert_eq!(
            r.state,
            RequestState::Open,
            "a refused answer is not recorded"
        );
    }
    assert!(sent_rows(&db).await.is_empty());
}

async fn decline_sends_an_error_with_code_declined_and_coming_over_says_so(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    insert_call(&db, "call-b", T0, "help").await;
    let host = FakeHost::default();
    let r = Desk::new(&store).decline(&host, "call-a").await.unwrap();
    assert_eq!(r.state, RequestState::Declined);
    let (_, sent) = &host.sent()[0];
    assert_eq!(sent["error"]["code"], "declined");
    assert!(sent.get("value").is_none(), "value XOR error");
    Desk::new(&store)
        .coming_over(&host, "call-b")
        .await
        .unwrap();
    assert_eq!(
        host.sent()[1].1["value"]["answer"],
        a2learn_teacher::desk::coming_over_text(a2learn_teacher::i18n::Lang::En)
    );
}

async fn answers_outside_1_to_4000_characters_are_refused_before_sending(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    let desk = Desk::new(&store);
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

async fn a_group_answer_reaches_every_waiting_request_and_reports_each(db: TestDb) {
    let store = teacher(&db).await;
    for id in ["call-a", "call-b", "call-c"] {
        insert_call(&db, id, T0, "help").await;
    }
    let desk = Desk::new(&store);
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

async fn an_answer_that_names_a_rostered_learner_is_never_sent(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    let roster =
        parse_roster_csv("anonymous_id,display_name\nanon-other,Quillon Brasswhistle\n").unwrap();
    store.ensure_class("class-2").await.unwrap();
    store.import_roster("class-2", &roster).await.unwrap();
    let desk = Desk::new(&store);
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

async fn a_claim_is_recorded_as_mine_and_mine_come_first(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-old", T0 - 5_000, "first").await;
    insert_call(&db, "call-a", T0, "help").await;
    let host = FakeHost::default();
    let desk = Desk::new(&store);
    let r = desk.claim(&host, "call-a").await.unwrap();
    assert_eq!(r.state, RequestState::ClaimedByMe);
    let order: Vec<String> = desk
        .queue(None)
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.call_id)
        .collect();
    assert_eq!(
        order,
        ["call-a", "call-old"],
        "the teacher's own claims first"
    );
    // A co-teacher's claim (arrived through the feed) is not mine.
    insert_call(&db, "call-b", T0, "help").await;
    db.execute("UPDATE calls SET claimed_by = 'teacher-other' WHERE call_id = 'call-b'")
        .await;
    assert_eq!(
        desk.request("call-b").await.unwrap().state,
        RequestState::ClaimedByOther
    );
    let err = desk.answer(&host, "call-b", "mine now").await.unwrap_err();
    assert!(matches!(err, DeskError::ClaimedByOther));
    assert!(host.sent().is_empty());
}

async fn saved_replies_drafts_and_claims_survive_a_restart(db: TestDb) {
    let reply_id = {
        let store = teacher(&db).await;
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
        insert_call(&db, "call-a", T0, "How?").await;
        insert_call(&db, "call-b", T0, "And this?").await;
        desk.set_draft("call-a", "I think you shou").await.unwrap();
        desk.claim(&FakeHost::default(), "call-b").await.unwrap();
        // A draft names a stored request: an unknown one is refused, not kept nowhere.
        assert!(matches!(
            desk.set_draft("call-404", "lost").await,
            Err(DeskError::NotFound(_))
        ));
        desk.set_muted(true).await.unwrap();
        store.close().await;
        r.reply_id
    };
    let store = db.teacher_store().await;
    let desk = Desk::new(&store);
    let replies = desk.replies().await.unwrap();
    assert_eq!(replies.len(), 2);
    assert_eq!(replies[1].reply_id, reply_id);
    assert_eq!(replies[1].body, "Compare the tops.");
    assert_eq!(
        desk.draft("call-a").await.unwrap().as_deref(),
        Some("I think you shou")
    );
    assert_eq!(
        desk.request("call-b").await.unwrap().state,
        RequestState::ClaimedByMe
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

async fn a_missed_request_stays_a_follow_up_until_marked_done(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    let desk = Desk::new(&store);
    let follow_ups = || async { desk.room(None, Privacy::Names).await.unwrap().follow_ups };
    // Waiting: not a follow-up yet.
    assert!(follow_ups().await.is_empty());
    // The deadline passes with no answer: a follow-up, before and after the host's timeout echo.
    db.clock.advance(300_000);
    assert_eq!(follow_ups().await.len(), 1);
    db.execute(&format!(
        "UPDATE calls SET state = 'expired', closed_at_ms = {} WHERE call_id = 'call-a'",
        T0 + 300_000
    ))
    .await;
    db.clock.advance(3_600_000);
    let missed = follow_ups().await;
    assert_eq!(missed.len(), 1, "it never leaves by itself");
    assert_eq!(missed[0].closed_at_ms, Some((T0 + 300_000) as f64));
    assert_eq!(
        store.needs_me("class-1").await.unwrap()[0].reason,
        Reason::FollowUp
    );
    desk.follow_up_done("call-a").await.unwrap();
    assert!(follow_ups().await.is_empty());
    assert!(store.needs_me("class-1").await.unwrap().is_empty());
    // A co-teacher's desk on the same store sees it done too.
    let other = db.teacher_store().await;
    assert!(
        Desk::new(&other)
            .room(None, Privacy::Names)
            .await
            .unwrap()
            .follow_ups
            .is_empty()
    );
    // Control: an answered or declined request is never a follow-up.
    insert_call(&db, "call-b", db.clock.now_ms(), "help").await;
    desk.decline(&FakeHost::default(), "call-b").await.unwrap();
    db.clock.advance(600_000);
    assert!(follow_ups().await.is_empty());
}

async fn coming_over_promises_a_visit_until_it_is_made(db: TestDb) {
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    insert_call(&db, "call-b", T0 + 1, "help too").await;
    db.execute(
        "INSERT INTO pathways (pathway_id, title, version, fetched_at) \
         VALUES ('p-1', 'Fractions', '1', 0)",
    )
    .await;
    db.execute(
        "INSERT INTO pathway_steps (pathway_id, position, widget_id, kind, title, assesses, \
         entry) VALUES ('p-1', 0, 'w-compare', 'fraction_compare', 'Compare two fractions', \
         TRUE, '{}')",
    )
    .await;
    let desk = Desk::new(&store);
    let host = FakeHost::default();
    desk.coming_over(&host, "call-b").await.unwrap();
    db.clock.advance(1_000);
    desk.coming_over(&host, "call-a").await.unwrap();
    let visits = desk.room(None, Privacy::Names).await.unwrap().visits;
    let order: Vec<&str> = visits.iter().map(|v| v.call_id.as_str()).collect();
    assert_eq!(order, ["call-b", "call-a"], "in promise order");
    assert_eq!(
        visits[0].step_title, "Compare two fractions",
        "the step's title from the store's catalog"
    );
    assert_eq!(
        desk.room(Some("class-2"), Privacy::Names)
            .await
            .unwrap()
            .visits
            .len(),
        0
    );
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

/// A host names its calls uniquely, another host may reuse an id: the desk serves the classes of
/// the host Settings name (as the sidebar lists them), so the same id from another host's class
/// is neither listed nor answered, and its draft and answer are kept per class.
async fn a_reused_call_id_is_served_for_the_followed_hosts_class_only(db: TestDb) {
    let store = teacher(&db).await;
    const SCHOOL: &str = "https://school.example";
    // The teacher's demo host ("demo" in their file, a name of its own beside a shared store).
    let demo = store.demo_host_id().await.unwrap();
    store.bind_class_to_host("class-1", &demo).await.unwrap();
    store
        .upsert_class("class-2", "Period 4", None)
        .await
        .unwrap();
    insert_call(&db, "call-1", T0, "Demo class question").await;
    db.execute(
        "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, widget_run_id, \
         learner, kind, request, at_ms, deadline, deadline_ms, opened_seq) \
         SELECT call_id, 'class-2', function, pathway_id, widget_id, widget_run_id, \
         'anon_bbbb2222', kind, replace(request, 'Demo class', 'School class'), at_ms, \
         deadline, deadline_ms, opened_seq FROM calls WHERE class_id = 'class-1'",
    )
    .await;
    let desk = Desk::new(&store);
    let host = FakeHost::default();

    store.bind_class_to_host("class-2", SCHOOL).await.unwrap();
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
    desk.coming_over(&host, "call-1").await.unwrap();
    assert_eq!(sent_rows(&db).await, [pair("class-1", "answered")]);
    assert_eq!(
        desk.room(None, Privacy::Names).await.unwrap().visits.len(),
        1,
        "the demo class's visit"
    );

    // Settings now name the school host: its class's request, still open, with no draft, and
    // the demo class's visit is not this host's.
    store.set_setting("host_mode", "custom").await.unwrap();
    store.set_setting("host_url", SCHOOL).await.unwrap();
    let queue = desk.queue(None).await.unwrap();
    assert_eq!(
        questions(queue.clone()),
        [pair("class-2", "School class question")]
    );
    assert_eq!(queue[0].state, RequestState::Open);
    assert_eq!(queue[0].draft, None);
    assert_eq!(desk.waiting_count().await.unwrap(), 1);
    assert!(
        desk.room(None, Privacy::Names)
            .await
            .unwrap()
            .visits
            .is_empty()
    );
    desk.decline(&host, "call-1").await.unwrap();
    assert_eq!(
        sent_rows(&db).await,
        [pair("class-1", "answered"), pair("class-2", "declined")]
    );

    // Negative control: two classes with no host both serve the id; the desk will not guess.
    db.execute("UPDATE classes SET host_id = NULL").await;
    assert!(matches!(
        desk.request("call-1").await,
        Err(DeskError::Ambiguous(_))
    ));
    assert!(matches!(
        desk.coming_over(&host, "call-1").await,
        Err(DeskError::Ambiguous(_))
    ));
    assert_eq!(host.sent().len(), 2, "nothing more was sent");
}

/// What a teacher types — a draft naming a learner, a saved reply, a promised visit, whom the host
/// knows them as — stays in their own file: on a shared store, `pg_dump` of the whole database
/// finds none of it, while the teacher's file holds it (the positive control), and the same
/// dump finds a canary written to the shared store on purpose. On a teacher's file, the file is
/// the home: the control half only.
async fn what_the_teacher_types_stays_in_their_file(db: TestDb) {
    const CANARY: &str = "Zephyrine Quablewick";
    let store = teacher(&db).await;
    insert_call(&db, "call-a", T0, "help").await;
    insert_call(&db, "call-b", T0, "help").await;
    let desk = Desk::new(&store);
    let host = FakeHost::default();
    desk.set_draft("call-a", &format!("{CANARY}, look again"))
        .await
        .unwrap();
    desk.create_reply(&format!("For {CANARY}"), "Look at the tops.")
        .await
        .unwrap();
    desk.claim(&host, "call-b").await.unwrap();
    desk.coming_over(&host, "call-b").await.unwrap();

    // The teacher's file itself, read directly: on a teacher's file the store, beside a shared
    // store its home.
    let file = match db.engine {
        Engine::Sqlite => std::path::PathBuf::from(&db.location),
        Engine::Postgres => db.home_file(),
    };
    let file =
        sqlx::SqlitePool::connect_with(sqlx::sqlite::SqliteConnectOptions::new().filename(&file))
            .await
            .unwrap();
    let one = |sql: &'static str| {
        let file = file.clone();
        async move {
            sqlx::query_scalar::<_, String>(sql)
                .fetch_all(&file)
                .await
                .unwrap()
                .join("|")
        }
    };
    assert!(one("SELECT body FROM desk_drafts").await.contains(CANARY));
    assert!(one("SELECT title FROM desk_replies").await.contains(CANARY));
    assert_eq!(one("SELECT call_id FROM desk_visits").await, "call-b");
    assert_eq!(
        one("SELECT value FROM settings WHERE key LIKE 'desk.teacher_id:%'").await,
        "teacher-me"
    );
    if db.engine == Engine::Postgres {
        let dump = pg_dump(&db.location);
        assert!(dump.contains("call-b"), "the dump holds the shared calls");
        for kept in [CANARY, "desk.teacher_id", "Look at the tops."] {
            assert!(!dump.contains(kept), "{kept:?} reached the shared store");
        }
        // Control: what is written to the shared store does show in the dump.
        store.set_store_setting("canary", CANARY).await.unwrap();
        assert!(pg_dump(&db.location).contains(CANARY));
    }
}

/// A shared store opened without the teacher's file reads the queue (the student page's help
/// history runs there in a report) but writes nothing of the teacher's, and refuses before the
/// host hears anything: a "coming over" whose visit had nowhere to go would be a lost promise.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_without_its_home_refuses_the_desk_before_sending() {
    let Some(db) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    db.store
        .upsert_class("class-1", "Room 12", None)
        .await
        .unwrap();
    insert_call(&db, "call-a", T0, "help").await;
    let desk = Desk::new(&db.store);
    let host = FakeHost::default();
    assert_eq!(desk.queue(None).await.unwrap().len(), 1);
    for refused in [
        desk.coming_over(&host, "call-a").await.map(|_| ()),
        desk.answer(&host, "call-a", "Look at the tops.")
            .await
            .map(|_| ()),
        desk.claim(&host, "call-a").await.map(|_| ()),
        desk.set_draft("call-a", "half").await,
    ] {
        let err = refused.unwrap_err();
        assert!(err.to_string().contains("teacher's own file"), "{err}");
    }
    assert!(host.sent().is_empty(), "nothing reached the host");
    assert!(sent_rows(&db).await.is_empty());
    // Control: the same store paired with its home answers.
    let paired = db.teacher_store().await;
    Desk::new(&paired)
        .coming_over(&host, "call-a")
        .await
        .unwrap();
    assert_eq!(host.sent().len(), 1);
}
