//! The step report and where each student is, over a real store of either engine, and the
//! after-class report over a real SQLite file.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "support/export_class.rs"]
mod export_class;
mod support;

use a2learn_teacher::desk::Desk;
use a2learn_teacher::export::ExportError;
use a2learn_teacher::i18n::{Lang, words};
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::progress::steps::{Outcome, StepStatus};
use a2learn_teacher::views::ViewError;
use a2learn_teacher::views::report::FollowUpReason;
use a2learn_teacher::views::report::{ReportNames, ReportRequest, report, to_html};
use export_class::{A, B, C, CANARY_B, CLASS, class_store, fill_class, no_canary};
use serde_json::json;
use support::engines::{Engine, TestDb, on_both_engines};
use support::{assist, catalog, completion, frame};

/// 2027-01-15T08:00:00Z, the time of the fixture's completions.
const T0: i64 = 1_800_000_000_000;
const MIN: i64 = 60_000;

on_both_engines!(
    the_step_report_over_the_store,
    common_responses_count_text_only,
    where_each_student_is_and_who_is_idle,
);

async fn the_step_report_over_the_store(db: TestDb) {
    let store = &db.store;
    fill_class(store).await;
    let (pathway, learners, steps) = store.step_report(CLASS, "as-1").await.unwrap();
    assert_eq!(pathway, "p-fractions");
    assert_eq!(learners, vec![A, B, C]);
    let titles: Vec<&str> = steps.iter().map(|s| s.step.title.as_str()).collect();
    assert_eq!(titles, vec!["Compare fractions", "Reflect"]);
    // A: correct after 2 attempts; B: incorrect; C: only struggled.
    let compare = &steps[0].learners;
    assert_eq!(compare.get(Outcome::FirstTry), &[] as &[String]);
    assert_eq!(compare.get(Outcome::AfterRetries), &[A.to_string()]);
    assert_eq!(compare.get(Outcome::Incorrect), &[B.to_string()]);
    assert_eq!(compare.get(Outcome::NotReached), &[C.to_string()]);
    assert_eq!(steps[0].mean_attempts, Some(2.0));
    let reflect = &steps[1].learners;
    assert_eq!(reflect.get(Outcome::NoVerdict), &[A.to_string()]);
    assert_eq!(reflect.count(Outcome::NotReached), 2);
    assert!(store.step_report(CLASS, "no-such").await.is_err());
}

/// A step's common responses count the newest runs whose `detail.response` is text: the JSON is
/// read by SQLite's and PostgreSQL's own functions, so both are checked, with a number and a
/// missing response as the negative controls.
async fn common_responses_count_text_only(db: TestDb) {
    let store = &db.store;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", None, None)
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    let answered = |learner: &str, run: &str, response: serde_json::Value| {
        let mut v = completion(learner, run, Some(true));
        v["widget_result"]["detail"] = json!({ "response": response });
        v
    };
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            answered(A, "r1", json!("3/4")),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            answered(B, "r2", json!("3/4")),
        ),
        frame(
            3,
            "a2learn.widget_completed",
            answered(C, "r3", json!("2/3")),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            answered("anon_num00001", "r4", json!(7)),
        ),
        frame(
            5,
            "a2learn.widget_completed",
            completion("anon_none0001", "r5", Some(true)),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.stored, 5, "{out:?}");
    let (_, learners, steps) = store.step_report(CLASS, "as-1").await.unwrap();
    assert_eq!(learners.len(), 5);
    let common: Vec<(&str, u32)> = steps[0]
        .common_responses
        .iter()
        .map(|r| (r.response.as_str(), r.count))
        .collect();
    assert_eq!(common, vec![("3/4", 2), ("2/3", 1)]);
}

async fn where_each_student_is_and_who_is_idle(db: TestDb) {
    let store = &db.store;
    fill_class(store).await;
    let now = T0 + 15 * MIN;
    let p = store.placement(CLASS, "as-1", now, 10 * MIN).await.unwrap();
    let by = |l: &str| p.learners.iter().find(|x| x.learner == l).unwrap();
    use StepStatus::{Current, Done, Upcoming};
    // A finished both steps (the reflection at 08:05): not idle however long ago.
    assert_eq!(by(A).steps, vec![Done, Done]);
    assert_eq!((by(A).current, by(A).idle), (None, false));
    assert_eq!(by(A).last_event_ms, Some(T0 + 5 * MIN));
    // B completed the first step at 08:00 and has been quiet 15 minutes on the second.
    assert_eq!(by(B).steps, vec![Done, Current]);
    assert_eq!(by(B).quiet_ms, Some(15 * MIN));
    assert!(by(B).idle);
    // C only struggled (07:59): still on the first step; the struggle is the last event.
    assert_eq!(by(C).steps, vec![Current, Upcoming]);
    assert_eq!(by(C).last_event_ms, Some(T0 - MIN));
    assert!(by(C).idle);
    // A threshold past everyone's quiet time: nobody idle.
    let calm = store.placement(CLASS, "as-1", now, 20 * MIN).await.unwrap();
    assert!(calm.learners.iter().all(|x| !x.idle));
    // The live grid places learners from the grid it read: the same places.
    let grid = store.grid(CLASS, "as-1").await.unwrap();
    for (threshold, expected) in [(10 * MIN, &p), (20 * MIN, &calm)] {
        let from_grid = store
            .placement_of_grid(&grid, now, threshold)
            .await
            .unwrap();
        assert_eq!(&from_grid, &expected.learners);
    }
}

fn whole_class(names: ReportNames) -> ReportRequest {
    ReportRequest {
        group: None,
        class_id: CLASS.into(),
        assignment_id: None,
        names,
    }
}

on_both_engines!(the_after_class_report_counts_the_class);

/// The after-class report's figures, on either engine: who started and finished, the follow-up
/// an incorrect step calls for, and the class's mastery.
async fn the_after_class_report_counts_the_class(db: TestDb) {
    let store = &db.store;
    fill_class(store).await;
    let view = report(store, &whole_class(ReportNames::Anonymous))
        .await
        .unwrap();
    assert_eq!(view.class_title, "Period 3");
    let a = &view.assignments[0];
    assert_eq!(a.pathway_title, "Fractions");
    assert_eq!(
        (a.learners, a.completion.started, a.completion.finished),
        (3, 3, 1)
    );
    assert_eq!(a.follow_ups.len(), 1, "B's incorrect step");
    assert_eq!(a.follow_ups[0].learner, B);
    assert_eq!(a.students.len(), 3);
    let all = a.mastery.last().unwrap();
    assert_eq!(
        (all.standard.as_deref(), all.checked, all.correct),
        (None, 2, 1)
    );
    // Names come from a teacher's roster: a shared store, which holds none, refuses an
    // identified report; a teacher's file writes one.
    let identified = report(store, &whole_class(ReportNames::Identified)).await;
    match db.engine {
        Engine::Postgres => assert!(
            matches!(&identified, Err(e) if e.to_string().contains("roster")),
            "{identified:?}"
        ),
        Engine::Sqlite => assert!(identified.is_ok(), "{identified:?}"),
    }
    // A class the store does not have is not reported.
    let mut other = whole_class(ReportNames::Anonymous);
    other.class_id = "class-nowhere".into();
    assert!(report(store, &other).await.is_err());
}

#[tokio::test]
async fn the_report_names_nobody_by_default_and_refuses_a_named_response() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let req = whole_class;
    let view = report(&store, &req(ReportNames::Anonymous)).await.unwrap();
    let json = serde_json::to_string(&view).unwrap();
    no_canary(&json);
    no_canary(&to_html(&view, words(Lang::En)));
    assert_eq!(view.assignments[0].students.len(), 3);
    // Positive control: identified, the roster's name is there.
    let named = report(&store, &req(ReportNames::Identified)).await.unwrap();
    assert!(serde_json::to_string(&named).unwrap().contains(CANARY_B));
    assert!(to_html(&named, words(Lang::En)).contains(CANARY_B));
    // A student's response naming a rostered learner refuses the default report.
    sqlx::query("UPDATE results SET response = 'like Bartholomew did' WHERE learner = ?")
        .bind(A)
        .execute(store.sqlite().unwrap())
        .await
        .unwrap();
    let err = report(&store, &req(ReportNames::Anonymous))
        .await
        .unwrap_err();
    let ViewError::Export(ExportError::Privacy(hit)) = err else {
        panic!("not a privacy refusal: {err}");
    };
    assert_eq!(hit.row, 1);
    assert!(hit.field.contains("common_responses"), "{}", hit.field);
    // The identified report carries names by design and is not scanned.
    report(&store, &req(ReportNames::Identified)).await.unwrap();
    // An unknown class is not an empty report.
    let missing = ReportRequest {
        group: None,
        class_id: "nope".into(),
        ..req(ReportNames::Anonymous)
    };
    assert!(report(&store, &missing).await.is_err());
}

#[tokio::test]
async fn a_missed_help_request_is_a_follow_up_as_the_help_desk_says() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let registry = store.registry().await.unwrap();
    // C asked for help on the compare step; the host closed it at its deadline, unanswered.
    let batch = vec![
        frame(10, "a2learn.assist", assist(C, "run-c1", "call-c", "How?")),
        frame(
            11,
            "a2learn.assist.response",
            json!({"call_id": "call-c", "at": "2027-01-15T08:03:00Z",
                   "error": {"code": "timeout", "message": "nobody answered"}}),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.stored, 2, "{out:?}");
    let req = ReportRequest {
        group: None,
        class_id: CLASS.into(),
        assignment_id: Some("as-1".into()),
        names: ReportNames::Anonymous,
    };
    let view = report(&store, &req).await.unwrap();
    let f = &view.assignments[0].follow_ups;
    assert_eq!(f[0].reason, FollowUpReason::MissedHelpRequest);
    assert_eq!(
        (f[0].learner.as_str(), f[0].step_title.as_str()),
        (C, "Compare fractions")
    );
    // The help desk lists the same learner (its rule, over every class).
    let room = Desk::new(&store)
        .room(Some(CLASS), Privacy::Names)
        .await
        .unwrap();
    let missed: Vec<&str> = f
        .iter()
        .filter(|x| x.reason == FollowUpReason::MissedHelpRequest)
        .map(|x| x.learner.as_str())
        .collect();
    let desk: Vec<&str> = room.follow_ups.iter().map(|x| x.learner.as_str()).collect();
    assert_eq!(missed, desk);
    // Marked done at the desk: no longer a follow-up in the report either.
    Desk::new(&store).follow_up_done("call-c").await.unwrap();
    let view = report(&store, &req).await.unwrap();
    assert!(
        view.assignments[0]
            .follow_ups
            .iter()
            .all(|x| x.reason != FollowUpReason::MissedHelpRequest)
    );
}
