//! Did the help work? Through the real ingest on both engines: help requests answered, then the
//! learner's next run of the step; the desk's history, the student page and the after-class
//! report tell the same (one rule: `progress::help_after`). A request nobody answered is not
//! counted.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use a2learn_teacher::desk::Desk;
use a2learn_teacher::progress::help_after::AfterHelp;
use a2learn_teacher::views::report::{ReportNames, ReportRequest, report};
use serde_json::{Value, json};
use support::engines::{TestDb, on_both_engines};
use support::*;

const CLASS: &str = "class-1";

on_both_engines!(the_desk_the_student_page_and_the_report_say_whether_the_help_worked);

/// `learner`'s completion of the compare step at `at`, with its verdict and attempts.
fn finished(learner: &str, run: &str, at: &str, correct: Option<bool>, attempts: u32) -> Value {
    let mut v = completion(learner, run, correct);
    v["at"] = json!(at);
    v["widget_result"]["attempts"] = json!(attempts);
    v
}

async fn the_desk_the_student_page_and_the_report_say_whether_the_help_worked(db: TestDb) {
    let store = db.teacher_store().await;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", None, None)
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    let answered_at = "2027-01-15T08:01:00Z";
    let mut seq = 0;
    let mut next = |name: &str, value: Value| {
        seq += 1;
        frame(seq, name, value)
    };
    let mut batch = Vec::new();
    for (learner, call) in [
        ("anon_aaaa0001", "call-a"),
        ("anon_bbbb0002", "call-b"),
        ("anon_cccc0003", "call-c"),
    ] {
        batch.push(next(
            "a2learn.assist",
            assist(learner, &format!("run-{learner}"), call, "help?"),
        ));
        batch.push(next(
            "a2learn.assist.response",
            assist_answer(call, answered_at),
        ));
    }
    // Asked, never answered: not counted anywhere.
    batch.push(next(
        "a2learn.assist",
        assist("anon_dddd0004", "run-d", "call-d", "help?"),
    ));
    batch.push(next(
        "a2learn.widget_completed",
        finished(
            "anon_aaaa0001",
            "run-a",
            "2027-01-15T08:02:00Z",
            Some(true),
            1,
        ),
    ));
    batch.push(next(
        "a2learn.widget_completed",
        finished(
            "anon_bbbb0002",
            "run-b",
            "2027-01-15T08:03:00Z",
            Some(false),
            2,
        ),
    ));
    batch.push(next(
        "a2learn.widget_completed",
        finished(
            "anon_dddd0004",
            "run-d",
            "2027-01-15T08:03:00Z",
            Some(true),
            1,
        ),
    ));
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.quarantined, 0, "{out:?}");

    let desk = Desk::new(&store);
    let after = |learner: &'static str| {
        let desk = &desk;
        async move {
            let history = desk.history(CLASS, learner).await.unwrap();
            assert_eq!(history.len(), 1, "{learner}: one request");
            history[0].after_help
        }
    };
    assert_eq!(after("anon_aaaa0001").await, Some(AfterHelp::RightFirstTry));
    assert_eq!(after("anon_bbbb0002").await, Some(AfterHelp::Wrong));
    assert_eq!(after("anon_cccc0003").await, Some(AfterHelp::NotYet));
    assert_eq!(
        after("anon_dddd0004").await,
        None,
        "never answered: nothing to judge"
    );

    let page = a2learn_teacher::views::student::student_page(
        &store,
        a2learn_teacher::progress::names::Privacy::Names,
        CLASS,
        "anon_aaaa0001",
    )
    .await
    .unwrap();
    assert_eq!(page.help[0].after_help, Some(AfterHelp::RightFirstTry));

    let view = report(
        &store,
        &ReportRequest {
            group: None,
            class_id: CLASS.into(),
            assignment_id: None,
            names: ReportNames::Anonymous,
        },
    )
    .await
    .unwrap();
    let compare = &view.assignments[0].steps[0];
    assert_eq!((compare.helped, compare.then_right), (3, 1), "{compare:?}");
    let reflect = &view.assignments[0].steps[1];
    assert_eq!((reflect.helped, reflect.then_right), (0, 0));
}
