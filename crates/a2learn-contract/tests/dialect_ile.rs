//! The upstream's dialect (`dialect::ile`): its registry, its telemetry rows folded the way it
//! means them, and its chat reports; every message it makes passes the contract, and what has no
//! contract form is an error that says why.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use a2learn_contract::check::{Checker, Outcome};
use a2learn_contract::dialect::ile::{
    self, DialectError, Folder, KINDS, Row, plan_steps, registry_entries,
};
use a2learn_contract::transport::agui;
use a2learn_contract::{Identity, Message, Registry, validate_registry_entry};
use serde_json::{Value, json};

const LEARNER: &str = "ile_k3x9q2aa";

fn registry() -> Registry {
    Registry::new(registry_entries()).expect("the upstream's registry is valid")
}

/// Every message through `contract check`'s own checker, in order: each must be accepted.
fn assert_contract_accepts(messages: &[Message]) {
    let mut checker = Checker::new(registry());
    for (i, m) in messages.iter().enumerate() {
        let line = agui::project(m).unwrap();
        let report = checker.check_line(i + 1, &line).unwrap();
        assert!(
            matches!(report.outcome, Outcome::Accepted { .. }),
            "{report}: {line}"
        );
    }
}

fn row(kind: &str, event: &str, correct: Option<bool>, payload: Value, second: u32) -> Row {
    Row {
        learner: LEARNER.into(),
        widget_kind: Some(kind.into()),
        event_type: event.into(),
        standard_code: Some("MATH.4.NF.EQUIV".into()),
        correct,
        payload,
        at: format!("2026-12-01T10:00:{second:02}Z"),
    }
}

#[test]
fn the_registry_has_the_16_kinds_and_each_entry_keeps_rule_1() {
    assert_eq!(KINDS.len(), 16);
    let entries = registry_entries();
    assert_eq!(entries.len(), 16);
    for e in &entries {
        validate_registry_entry(e).unwrap();
    }
    assert_eq!(entries.iter().filter(|e| e.assesses).count(), 12);
    let card = ile::registry_entry("markdown-card").unwrap();
    assert!(
        !card.assesses && card.events.len() == 1,
        "no struggle for a card"
    );
    assert!(ile::registry_entry("no-such-kind").is_none());
}

/// A plan that uses one kind twice: a learner's rows of that kind belong to its first step until
/// that step's completion, then to the second.
#[test]
fn rows_fold_into_one_completion_per_run_and_a_struggle_after_three_wrong_checks() {
    let plan = json!({"steps": [
        {"title": "Sort the fractions", "widgetKind": "drag-sort"},
        {"title": "Read about it", "widgetKind": "markdown-card"},
        {"title": "Sort them again", "widgetKind": "drag-sort"},
    ]});
    let steps = plan_steps("sess-1", &plan);
    assert_eq!(steps[2].widget_id, "sess-1-s3");
    let mut folder = Folder::new("ile-sess-1", steps);
    let mut out = Vec::new();
    let rows = [
        row("drag-sort", "widget_shown", None, json!({"items": 5}), 0),
        row(
            "drag-sort",
            "answer_checked",
            Some(false),
            json!({"attempt": 1}),
            1,
        ),
        row(
            "drag-sort",
            "answer_checked",
            Some(false),
            json!({"attempt": 2}),
            2,
        ),
        row("drag-sort", "hint_requested", None, json!({}), 3),
        row(
            "drag-sort",
            "answer_checked",
            Some(false),
            json!({"attempt": 3}),
            4,
        ),
        // A fourth wrong check: the run has its one struggle already.
        row(
            "drag-sort",
            "answer_checked",
            Some(false),
            json!({"attempt": 4}),
            5,
        ),
        // The student asks the model: no help request.
        row(
            "drag-sort",
            "feedback_requested",
            None,
            json!({"round": 1}),
            6,
        ),
        row(
            "drag-sort",
            "answer_checked",
            Some(true),
            json!({"attempt": 5}),
            7,
        ),
        row(
            "drag-sort",
            "widget_completed",
            Some(true),
            json!({"attempts": 5}),
            8,
        ),
        row(
            "markdown-card",
            "widget_completed",
            Some(true),
            json!({}),
            9,
        ),
        row(
            "drag-sort",
            "answer_checked",
            Some(true),
            json!({"attempt": 1}),
            10,
        ),
        row(
            "drag-sort",
            "widget_completed",
            Some(true),
            json!({"attempts": 1}),
            11,
        ),
    ];
    for r in &rows {
        out.extend(folder.fold(r).unwrap());
    }
    let names: Vec<&str> = out.iter().map(|m| m.verb().name()).collect();
    assert_eq!(
        names,
        [
            "a2learn.widget_struggle",
            "a2learn.widget_completed",
            "a2learn.widget_completed",
            "a2learn.widget_completed"
        ]
    );
    let Message::WidgetStruggle(s) = &out[0] else {
        unreachable!()
    };
    assert_eq!((s.failed_checks, s.hints), (3, 1));
    assert_eq!(s.identity.widget_id, "sess-1-s1");
    let Message::WidgetCompleted(first) = &out[1] else {
        unreachable!()
    };
    assert_eq!(first.identity.widget_id, "sess-1-s1");
    assert_eq!(
        first.identity.widget_run_id, s.identity.widget_run_id,
        "one run"
    );
    assert_eq!(
        (first.widget_result.attempts, first.widget_result.hints),
        (5, 1)
    );
    assert_eq!(first.widget_result.correct, Some(true));
    let Message::WidgetCompleted(card) = &out[2] else {
        unreachable!()
    };
    assert_eq!(card.widget_result.correct, None, "a card does not assess");
    let Message::WidgetCompleted(second) = &out[3] else {
        unreachable!()
    };
    assert_eq!(
        second.identity.widget_id, "sess-1-s3",
        "the second drag-sort step"
    );
    assert_eq!(second.widget_result.attempts, 1);
    assert_contract_accepts(&out);
    // Every step of that kind is done: a further row has no step, and says so.
    let err = folder
        .fold(&row(
            "drag-sort",
            "answer_checked",
            Some(true),
            json!({}),
            12,
        ))
        .unwrap_err();
    assert_eq!(
        err,
        DialectError::NoStep {
            kind: "drag-sort".into()
        }
    );
}

#[test]
fn a_verdict_without_a_counted_check_is_one_attempt_and_a_score_is_rescaled() {
    let steps = plan_steps(
        "s",
        &json!({"steps": [{"title": "Draft", "widgetKind": "draft-meter"}]}),
    );
    let mut folder = Folder::new("ile-s", steps);
    let out = folder
        .fold(&row(
            "draft-meter",
            "widget_completed",
            Some(true),
            json!({"score": 72, "band": "proficient"}),
            0,
        ))
        .unwrap();
    let Message::WidgetCompleted(m) = &out[0] else {
        unreachable!()
    };
    assert_eq!(m.widget_result.attempts, 1);
    assert_eq!(m.widget_result.score, Some(0.72));
    assert_eq!(m.widget_result.detail["band"], "proficient");
    assert_contract_accepts(&out);
}

#[test]
fn rows_without_a_contract_form_are_errors_that_say_why() {
    let steps = plan_steps(
        "s",
        &json!({"steps": [{"title": "x", "widgetKind": "crossword"}]}),
    );
    let mut folder = Folder::new("ile-s", steps);
    let mut r = row("crossword", "widget_shown", None, json!({}), 0);
    assert!(folder.fold(&r).unwrap().is_empty(), "progress only");
    r.widget_kind = None;
    assert_eq!(folder.fold(&r).unwrap_err(), DialectError::NullKind);
    r.widget_kind = Some("hologram".into());
    assert!(matches!(folder.fold(&r), Err(DialectError::UnknownKind(k)) if k == "hologram"));
    r.widget_kind = Some("crossword".into());
    r.event_type = "teleported".into();
    assert!(matches!(
        folder.fold(&r),
        Err(DialectError::UnknownEvent(_))
    ));
    r.event_type = "answer_checked".into();
    r.widget_kind = Some("drag-sort".into());
    assert!(
        matches!(folder.fold(&r), Err(DialectError::NoStep { .. })),
        "a kind the plan does not use"
    );
}

fn ids() -> Identity {
    Identity {
        learner: LEARNER.into(),
        widget_run_id: "import-r1".into(),
        widget_id: "import-w1".into(),
        pathway_id: "import-p1".into(),
        at: "2026-12-01T10:00:00Z".into(),
    }
}

fn chat(block: &str) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "ui/update-model-context", "params": {"content": [
        {"type": "text", "text": "The student sorted the fractions, right on the second try."},
        {"type": "text", "text": block},
    ]}})
}

#[test]
fn chat_reports_translate_with_fences_of_any_length() {
    let object = r#"{"type":"widget_result","kind":"drag-sort","standardCode":"MATH.4.NF.EQUIV","attempts":2,"hintsUsed":1,"completed":true,"correct":true,"score":80,"detail":{"items":5}}"#;
    for block in [
        format!("```json\n{object}\n```"),
        format!("`````\n{object}\n`````"),
        object.to_owned(),
    ] {
        let m = ile::from_chat_report(&chat(&block), &ids())
            .unwrap()
            .expect("a result");
        let Message::WidgetCompleted(c) = &m else {
            unreachable!()
        };
        assert_eq!(
            c.prose,
            "The student sorted the fractions, right on the second try."
        );
        assert_eq!((c.widget_result.attempts, c.widget_result.hints), (2, 1));
        assert_eq!(c.widget_result.score, Some(0.8));
        assert_contract_accepts(&[m]);
    }
    let progress = r#"```json
{"type":"widget_progress","kind":"drag-sort","attempts":1,"completed":false}
```"#;
    assert_eq!(
        ile::from_chat_report(&chat(progress), &ids()).unwrap(),
        None
    );
}

#[test]
fn broken_chat_reports_are_named() {
    let truncated = "```json\n{\"type\":\"widget_result\",\"kind\":\"drag-sort\",\"attem";
    assert!(matches!(
        ile::from_chat_report(&chat(truncated), &ids()),
        Err(DialectError::BadBlock(why)) if why.contains("never closed")
    ));
    let null_kind = "```json\n{\"type\":\"widget_result\",\"kind\":null,\"completed\":true}\n```";
    assert_eq!(
        ile::from_chat_report(&chat(null_kind), &ids()),
        Err(DialectError::NullKind)
    );
    let plain = json!({"jsonrpc": "2.0", "method": "ui/update-model-context",
        "params": {"content": [{"type": "text", "text": "one sentence only"}]}});
    assert!(matches!(
        ile::from_chat_report(&plain, &ids()),
        Err(DialectError::NotUpstream(_))
    ));
    assert_eq!(
        ile::looks_upstream(&chat("```json\n{\"type\":\"widget_result\"}\n```")),
        Some("an upstream (ILE) chat report")
    );
    assert_eq!(
        ile::looks_upstream(&json!({"sessionId": "x", "studentId": "y", "events": []})),
        Some("an upstream (ILE) telemetry batch")
    );
    assert_eq!(ile::looks_upstream(&json!({"type": "CUSTOM"})), None);
}
