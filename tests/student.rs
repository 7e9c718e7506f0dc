//! Where each student is and a page per student, over a real store: the grid's current step,
//! time since the last event and idle flag (with the teacher's threshold), and the student page's
//! strip, evidence fields, help history and timeline.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use std::sync::Arc;

use a2learn_teacher::desk::RequestState;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::progress::steps::{Outcome, StepStatus};
use a2learn_teacher::views::class;
use a2learn_teacher::views::student::{StudentEventKind, student_page};
use a2learn_teacher::{ErrorCode, FixedClock, Store, UiError};
use serde_json::json;
use support::engines::{TestDb, on_both_engines};
use support::*;

const CLASS: &str = "class-1";
/// 2027-01-15T08:00:00Z, the support events' morning.
const EIGHT: i64 = 1_800_000_000_000;

async fn store_at(dir: &tempfile::TempDir, clock: &FixedClock) -> Store {
    let store = Store::open(&dir.path().join("teacher.db"), Arc::new(clock.clone()))
        .await
        .unwrap();
    fill_class(&store).await;
    store
}

/// The catalog, the class and its assignment, on a store of either engine.
async fn fill_class(store: &Store) {
    store.save_catalog(&catalog()).await.unwrap();
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", None, None)
        .await
        .unwrap();
}

fn done_compare(
    learner: &str,
    run: &str,
    at: &str,
    correct: bool,
    attempts: u32,
) -> serde_json::Value {
    json!({
        "prose": "Compared 3/4 and 2/3.",
        "learner": learner, "widget_run_id": run, "widget_id": "w-compare",
        "pathway_id": "p-fractions", "at": at,
        "widget_result": {"kind": "fraction_compare", "standard": "CCSS.MATH.CONTENT.4.NF.A.2",
                          "correct": correct, "attempts": attempts, "hints": 1, "score": 1.0,
                          "detail": {"response": "<b>3/4</b>", "parts": {"num": 3, "den": 4}}}
    })
}

#[tokio::test]
async fn the_grid_says_where_each_learner_is_and_who_is_idle() {
    let dir = tempfile::tempdir().unwrap();
    let clock = FixedClock::at(EIGHT);
    let store = store_at(&dir, &clock).await;
    let registry = store.registry().await.unwrap();
    let batch = vec![
        // anon_first: the first step done at 07:50, so on the second.
        frame(
            1,
            "a2learn.widget_completed",
            done_compare("anon_first01", "r1", "2027-01-15T07:50:00Z", true, 1),
        ),
        // anon_stuck: struggling on the first step at 07:59.
        frame(
            2,
            "a2learn.widget_struggle",
            struggle("anon_stuck001", "r2", 3),
        ),
        // anon_done: both steps done.
        frame(
            3,
            "a2learn.widget_completed",
            done_compare("anon_done0001", "r3", "2027-01-15T07:40:00Z", true, 1),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            json!({
                "prose": "Reflected.", "learner": "anon_done0001", "widget_run_id": "r4",
                "widget_id": "w-reflect", "pathway_id": "p-fractions", "at": "2027-01-15T07:45:00Z",
                "widget_result": {"kind": "reflection", "correct": null, "attempts": 1, "hints": 0, "detail": {}}
            }),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.quarantined, 0, "{out:?}");

    let row = |g: &class::GridView, l: &str| {
        g.rows
            .iter()
            .find(|r| r.learner.as_deref() == Some(l))
            .cloned()
            .unwrap_or_else(|| panic!("{l} in the grid"))
    };
    // The default threshold is 5 minutes: at 08:00 anon_first (10 min quiet) is idle, anon_stuck
    // (1 min) is not, and anon_done has nothing left to do (never idle).
    let grid = class::grid(
        &store,
        Privacy::Names,
        CLASS,
        "as-1",
        None,
        &a2learn_teacher::groups::Scope::Class,
    )
    .await
    .unwrap();
    assert_eq!(grid.idle_after_minutes, 5);
    let first = row(&grid, "anon_first01");
    assert_eq!(first.current_step, Some(1), "the first step not completed");
    assert_eq!(first.quiet_ms, Some(600_000.0));
    assert!(first.idle);
    let stuck = row(&grid, "anon_stuck001");
    assert_eq!(stuck.current_step, Some(0));
    assert_eq!(stuck.quiet_ms, Some(60_000.0));
    assert!(!stuck.idle, "one minute is under the threshold");
    let done = row(&grid, "anon_done0001");
    assert_eq!(done.current_step, None);
    assert!(
        !done.idle,
        "a learner who finished is not idle, however quiet"
    );

    // The teacher's threshold moves the line; the clock moving does too.
    assert_eq!(class::set_idle_after_minutes(&store, 15).await.unwrap(), 15);
    let grid = class::grid(
        &store,
        Privacy::Names,
        CLASS,
        "as-1",
        None,
        &a2learn_teacher::groups::Scope::Class,
    )
    .await
    .unwrap();
    assert!(!row(&grid, "anon_first01").idle, "10 minutes is under 15");
    clock.advance(6 * 60_000);
    let grid = class::grid(
        &store,
        Privacy::Names,
        CLASS,
        "as-1",
        None,
        &a2learn_teacher::groups::Scope::Class,
    )
    .await
    .unwrap();
    assert!(row(&grid, "anon_first01").idle, "16 minutes is over 15");
    assert!(!row(&grid, "anon_stuck001").idle, "7 minutes is under 15");

    // A room sees where learners are, but no one's quiet time or idle flag.
    let room = class::grid(
        &store,
        Privacy::Projector { seed: 7 },
        CLASS,
        "as-1",
        None,
        &a2learn_teacher::groups::Scope::Class,
    )
    .await
    .unwrap();
    assert!(room.rows.iter().all(|r| r.quiet_ms.is_none() && !r.idle));
    assert!(room.rows.iter().any(|r| r.current_step == Some(1)));
}

#[tokio::test]
async fn the_idle_threshold_is_kept_and_bounded() {
    let dir = tempfile::tempdir().unwrap();
    let store = store_at(&dir, &FixedClock::at(EIGHT)).await;
    assert_eq!(class::idle_after_minutes(&store).await.unwrap(), 5);
    for bad in [0, 61, -3] {
        let err = class::set_idle_after_minutes(&store, bad)
            .await
            .unwrap_err();
        let ui = UiError::from(err);
        assert_eq!(ui.code, ErrorCode::InvalidInput, "{bad}: {ui}");
    }
    assert_eq!(
        class::idle_after_minutes(&store).await.unwrap(),
        5,
        "a refusal changes nothing"
    );
    class::set_idle_after_minutes(&store, 12).await.unwrap();
    assert_eq!(class::idle_after_minutes(&store).await.unwrap(), 12);
}

on_both_engines!(a_student_page_shows_the_strip_the_evidence_the_help_and_the_timeline);

/// On either engine (the tests' store clock is 08:00, as here).
async fn a_student_page_shows_the_strip_the_evidence_the_help_and_the_timeline(db: TestDb) {
    let store = db.store.clone();
    fill_class(&store).await;
    let registry = store.registry().await.unwrap();
    let batch = vec![
        frame(
            1,
            "a2learn.assist",
            assist(
                "anon_page0001",
                "r0",
                "call-1",
                "<img src=x onerror=alert(1)> how?",
            ),
        ),
        frame(
            2,
            "a2learn.assist.response",
            assist_answer("call-1", "2027-01-15T07:58:30Z"),
        ),
        frame(
            3,
            "a2learn.widget_completed",
            done_compare("anon_page0001", "r1", "2027-01-15T07:59:00Z", false, 1),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            done_compare("anon_page0001", "r2", "2027-01-15T07:59:30Z", true, 3),
        ),
        // Another learner's work is not on this page.
        frame(
            5,
            "a2learn.widget_completed",
            done_compare("anon_other001", "r3", "2027-01-15T07:59:40Z", true, 1),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.quarantined, 0, "{out:?}");

    let page = student_page(&store, Privacy::Names, CLASS, "anon_page0001")
        .await
        .unwrap();
    assert_eq!(page.label, "anon_page0001", "no roster: the id");
    assert_eq!(page.pathways.len(), 1);
    let p = &page.pathways[0];
    assert_eq!(p.done, 1);
    let statuses: Vec<StepStatus> = p.steps.iter().map(|s| s.status).collect();
    assert_eq!(statuses, vec![StepStatus::Done, StepStatus::Current]);
    // The newest run decides: right after retries (the wrong first run is history).
    assert_eq!(p.steps[0].outcome, Outcome::AfterRetries);
    assert_eq!(p.steps[1].outcome, Outcome::NotReached);
    let runs = &p.steps[0].runs;
    assert_eq!(runs.len(), 2, "both runs, newest first");
    assert_eq!(runs[0].result, "correct after 3 attempts, 1 hint");
    assert_eq!(runs[1].result, "incorrect after 1 attempt, 1 hint");
    let fields: Vec<(&str, &str)> = runs[0]
        .detail
        .iter()
        .map(|f| (f.key.as_str(), f.value.as_str()))
        .collect();
    assert_eq!(
        fields,
        vec![
            ("parts.den", "4"),
            ("parts.num", "3"),
            ("response", "<b>3/4</b>")
        ],
        "detail as key/value rows, the student's text kept as text"
    );

    assert_eq!(page.help.len(), 1);
    let h = &page.help[0];
    assert_eq!(h.question, "<img src=x onerror=alert(1)> how?");
    assert_eq!(h.state, RequestState::Answered);
    assert_eq!(h.outcome, "answered");
    assert_eq!(
        h.answer.as_deref(),
        Some("Find a common denominator first.")
    );
    assert_eq!(
        h.step_title, p.steps[0].title,
        "the step's title, not its widget id"
    );

    let kinds: Vec<StudentEventKind> = page.timeline.iter().map(|e| e.kind).collect();
    assert_eq!(
        kinds,
        vec![
            StudentEventKind::AskedForHelp,
            StudentEventKind::HelpClosed,
            StudentEventKind::Completed,
            StudentEventKind::Completed,
        ],
        "oldest first: {:?}",
        page.timeline
    );
    assert!(page.timeline.windows(2).all(|w| w[0].at_ms <= w[1].at_ms));
    assert!(
        !serde_json::to_string(&page)
            .unwrap()
            .contains("anon_other001")
    );

    // Negative controls: the room sees no one's page; a learner not in the class is not found.
    let err = student_page(
        &store,
        Privacy::Projector { seed: 7 },
        CLASS,
        "anon_page0001",
    )
    .await
    .unwrap_err();
    assert_eq!(UiError::from(err).code, ErrorCode::PrivacyBlocked);
    let err = student_page(&store, Privacy::Names, CLASS, "anon_nobody01")
        .await
        .unwrap_err();
    assert_eq!(UiError::from(err).code, ErrorCode::NotFound);
}
