//! The class view's commands through Tauri's IPC on the mock runtime, over a real SQLite file.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::sync::Arc;

use a2learn_teacher::store::{Incoming, Pathway, PathwayStep};
use a2learn_teacher::{FixedClock, Store};
use serde_json::{Value, json};

use common::{app_with, invoke_with as invoke};

const NOW: i64 = 1_800_000_000_000;

fn catalog() -> Vec<Pathway> {
    vec![Pathway {
        pathway_id: "p-fractions".into(),
        title: "Fractions".into(),
        version: "1".into(),
        steps: vec![PathwayStep {
            widget_id: "w-compare".into(),
            entry: serde_json::from_value(json!({"kind": "fraction_compare",
                "title": "Compare fractions", "standard": "4.NF.A.2", "assesses": true,
                "events": ["widget_completed", "widget_struggle"],
                "functions": ["score", "assist"]}))
            .unwrap(),
        }],
    }]
}

fn completion(seq: i64, learner: &str, correct: bool) -> Incoming {
    let value = json!({
        "prose": "Compared <b>3/4</b> and 2/3.", "learner": learner,
        "widget_run_id": format!("run-{seq}"), "widget_id": "w-compare",
        "pathway_id": "p-fractions", "at": "2027-01-15T08:00:00Z",
        "widget_result": {"kind": "fraction_compare", "standard": "4.NF.A.2",
            "correct": correct, "attempts": 2, "hints": 1, "detail": {"note": "<i>x</i>"}}
    });
    Incoming::Frame {
        id: Some(seq.to_string()),
        data: json!({"type": "CUSTOM", "name": "a2learn.widget_completed", "value": value})
            .to_string(),
    }
}

fn store_with_class(dir: &tempfile::TempDir) -> Store {
    tauri::async_runtime::block_on(async {
        let store = Store::open(
            &dir.path().join("teacher.db"),
            Arc::new(FixedClock::at(NOW)),
        )
        .await
        .unwrap();
        store.save_catalog(&catalog()).await.unwrap();
        store
            .upsert_class("c1", "Period 3", Some("QX7"))
            .await
            .unwrap();
        store
            .upsert_assignment("as-1", "c1", "p-fractions", None, None)
            .await
            .unwrap();
        let registry = store.registry().await.unwrap();
        let batch = vec![
            completion(1, "anon_aaaa1111", true),
            completion(2, "anon_bbbb2222", false),
        ];
        store.ingest("c1", &registry, batch).await.unwrap();
        store
    })
}

/// Switches the window's projector-safe mode, which the backend holds.
fn projector_safe(w: &tauri::WebviewWindow<tauri::test::MockRuntime>, on: bool) {
    assert_eq!(
        invoke(w, "set_projector_safe", json!({"on": on})).unwrap(),
        on
    );
}

#[test]
fn roster_names_reach_the_grid_only_outside_projector_safe_mode() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, w) = app_with(store_with_class(&dir), NOW);

    // A bad file: every bad row by line, nothing stored.
    let bad = "anonymous_id,display_name\nanon_aaaa1111,Ada Canary\nnot an id,Bob\n";
    let out = invoke(
        &w,
        "import_roster",
        json!({"classId": "c1", "csvText": bad}),
    )
    .unwrap();
    assert_eq!(out["imported"], 0);
    assert_eq!(out["errors"][0]["line"], 3);
    assert_eq!(
        invoke(&w, "roster_size", json!({"classId": "c1"})).unwrap(),
        0
    );

    let good = "anonymous_id,display_name\nanon_aaaa1111,Ada Canary\nanon_bbbb2222,Bea Canary\n";
    let out = invoke(
        &w,
        "import_roster",
        json!({"classId": "c1", "csvText": good}),
    )
    .unwrap();
    assert_eq!(out["imported"], 2);

    let args = json!({"classId": "c1", "assignmentId": "as-1"});
    let grid = invoke(&w, "class_grid", args.clone()).unwrap();
    let labels: Vec<&str> = grid["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, vec!["Ada Canary", "Bea Canary"]);
    assert_eq!(grid["rows"][0]["cells"][0]["state"], "completed_correct");
    assert_eq!(grid["rows"][1]["cells"][0]["state"], "completed_incorrect");

    projector_safe(&w, true);
    let safe = invoke(&w, "class_grid", args.clone()).unwrap();
    let text = safe.to_string();
    assert!(!text.contains("Canary"), "{text}");
    assert!(!text.contains("anon_"), "no id either: {text}");
    assert!(text.contains("Learner 01"));
    let needs = invoke(&w, "needs_me", json!({"classId": "c1"})).unwrap();
    assert!(!needs.to_string().contains("Canary"));
    // The evidence behind a cell: counts, not what the learner wrote; an alias, not the id.
    let ev = invoke(
        &w,
        "cell_evidence",
        json!({"classId": "c1", "assignmentId": "as-1", "learner": "anon_bbbb2222",
               "widgetId": "w-compare"}),
    )
    .unwrap();
    let text = ev.to_string();
    assert!(
        !text.contains("Compared") && !text.contains("anon_") && !text.contains("Canary"),
        "{text}"
    );
    assert_eq!(ev["results"][0]["correct"], false, "the verdict stays");
    // Off again: names are back (the switch is the backend's, not a parameter).
    projector_safe(&w, false);
    let grid = invoke(&w, "class_grid", args).unwrap();
    assert!(grid.to_string().contains("Ada Canary"));

    // A grid of an assignment the class does not have.
    let err = invoke(
        &w,
        "class_grid",
        json!({"classId": "c1", "assignmentId": "nope"}),
    )
    .unwrap_err();
    assert_eq!(err["code"], "not_found");
}

#[test]
fn evidence_carries_prose_and_detail_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, w) = app_with(store_with_class(&dir), NOW);
    let ev = invoke(
        &w,
        "cell_evidence",
        json!({"classId": "c1", "assignmentId": "as-1", "learner": "anon_bbbb2222",
               "widgetId": "w-compare"}),
    )
    .unwrap();
    assert_eq!(ev["step_title"], "Compare fractions");
    assert_eq!(ev["results"][0]["prose"], "Compared <b>3/4</b> and 2/3.");
    assert_eq!(ev["results"][0]["correct"], false);
    // The detail as key/value rows, the widget's text kept as text (never a JSON block).
    assert_eq!(
        ev["results"][0]["detail"],
        json!([{"key": "note", "value": "<i>x</i>"}])
    );
}

#[test]
fn assignment_input_is_checked_field_by_field_before_the_host() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, w) = app_with(store_with_class(&dir), NOW);
    let out = invoke(
        &w,
        "assign_pathway",
        json!({"input": {"class_id": "c1", "pathway_id": "p-fractions",
               "due_at_ms": (NOW - 1) as f64, "note": "x".repeat(2001)}}),
    )
    .unwrap();
    let fields: Vec<&str> = out["field_errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, vec!["due_at", "note"]);
    // Good input goes to the host, which is not configured here: a host error.
    let err = invoke(
        &w,
        "assign_pathway",
        json!({"input": {"class_id": "c1", "pathway_id": "p-fractions",
               "due_at_ms": (NOW + 86_400_000) as f64, "note": "Bring paper"}}),
    )
    .unwrap_err();
    assert_eq!(err["code"], "host");
    let list = invoke(&w, "class_assignments", json!({"classId": "c1"})).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["pathway_title"], "Fractions");
    assert_eq!(list[0]["started"], 2);
}

#[test]
fn mastery_hides_small_groups_and_k_is_a_bounded_setting() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, w) = app_with(store_with_class(&dir), NOW);
    assert_eq!(invoke(&w, "suppression_k", json!({})).unwrap(), 10);
    // The teacher's own screen: a class of 2 sees its counts.
    let m = invoke(&w, "class_mastery", json!({"classId": "c1"})).unwrap();
    assert_eq!(m["k"], Value::Null);
    assert_eq!(m["total"]["visibility"], "shown");
    assert_eq!(m["total"]["correct"], 1);
    assert_eq!(m["total"]["learners"], 2);
    // Projector-safe mode: suppressed with the teacher's k.
    projector_safe(&w, true);
    let m = invoke(&w, "class_mastery", json!({"classId": "c1"})).unwrap();
    assert_eq!(m["k"], 10);
    assert_eq!(m["total"]["visibility"], "primary");
    assert_eq!(m["total"]["summary"], "fewer than 10");
    assert_eq!(m["total"]["correct"], Value::Null);
    let err = invoke(&w, "set_suppression_k", json!({"k": 4})).unwrap_err();
    assert_eq!(err["code"], "invalid_input");
    assert_eq!(invoke(&w, "set_suppression_k", json!({"k": 5})).unwrap(), 5);
    let t = invoke(&w, "class_timeline", json!({"classId": "c1"})).unwrap();
    assert_eq!(t["completions"], json!([2]));
}
