//! Helpers shared by the core's integration tests: a small catalog and AG-UI frames built from it.
#![allow(dead_code)] // each test file uses a different part

pub mod engines;
// Not every test that includes this module checks a peer.
#[allow(unused_imports)]
pub use engines::peers;

use std::sync::Arc;

use a2learn_teacher::store::{Incoming, Pathway, PathwayStep};
use a2learn_teacher::{FixedClock, Store};
use serde_json::{Value, json};

pub async fn open_store(dir: &tempfile::TempDir) -> Store {
    Store::open(
        &dir.path().join("teacher.db"),
        Arc::new(FixedClock::at(1_800_000_000_000)),
    )
    .await
    .expect("open store")
}

/// A copy of `tests/fixtures/db/written-by-0.1.0.db` (two classes' results, struggles and a help
/// request, keyed as 0.1.0 kept them, no hosts) at `dir/teacher.db`, not yet opened.
pub fn copy_of_0_1_0_database(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("teacher.db");
    std::fs::copy(
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/db/written-by-0.1.0.db"
        ),
        &path,
    )
    .expect("copy the 0.1.0 fixture");
    path
}

/// Two steps: one that assesses (and declares everything), one that does not.
pub fn catalog() -> Vec<Pathway> {
    let step = |widget_id: &str, entry: Value| PathwayStep {
        widget_id: widget_id.into(),
        entry: serde_json::from_value(entry).expect("entry"),
    };
    vec![Pathway {
        pathway_id: "p-fractions".into(),
        title: "Fractions".into(),
        version: "1".into(),
        steps: vec![
            step(
                "w-compare",
                json!({"kind": "fraction_compare", "title": "Compare fractions",
                       "standard": "CCSS.MATH.CONTENT.4.NF.A.2", "assesses": true,
                       "events": ["widget_completed", "widget_struggle"],
                       "functions": ["score", "assist"]}),
            ),
            step(
                "w-reflect",
                json!({"kind": "reflection", "title": "Reflect", "assesses": false,
                       "events": ["widget_completed"], "functions": ["assist"]}),
            ),
        ],
    }]
}

pub fn frame(seq: i64, name: &str, value: Value) -> Incoming {
    Incoming::Frame {
        id: Some(seq.to_string()),
        data: json!({"type": "CUSTOM", "name": name, "value": value, "timestamp": 1_800_000_000_000_i64})
            .to_string(),
    }
}

pub fn raw_frame(seq: Option<i64>, data: &str) -> Incoming {
    Incoming::Frame {
        id: seq.map(|s| s.to_string()),
        data: data.to_string(),
    }
}

pub fn completion(learner: &str, run: &str, correct: Option<bool>) -> Value {
    json!({
        "prose": "Compared 3/4 and 2/3 correctly using a common denominator.",
        "learner": learner, "widget_run_id": run, "widget_id": "w-compare",
        "pathway_id": "p-fractions", "at": "2027-01-15T08:00:00Z",
        "widget_result": {"kind": "fraction_compare", "standard": "CCSS.MATH.CONTENT.4.NF.A.2",
                          "correct": correct, "attempts": 2, "hints": 1, "score": 0.5, "detail": {}}
    })
}

pub fn reflection(learner: &str, run: &str) -> Value {
    json!({
        "prose": "Wrote about which strategy felt easiest.",
        "learner": learner, "widget_run_id": run, "widget_id": "w-reflect",
        "pathway_id": "p-fractions", "at": "2027-01-15T08:05:00Z",
        "widget_result": {"kind": "reflection", "correct": null, "attempts": 0, "hints": 0,
                          "detail": {"words": 42}}
    })
}

pub fn struggle(learner: &str, run: &str, failed_checks: u32) -> Value {
    json!({
        "prose": "Has tried the comparison three times without success.",
        "learner": learner, "widget_run_id": run, "widget_id": "w-compare",
        "pathway_id": "p-fractions", "at": "2027-01-15T07:59:00Z",
        "kind": "fraction_compare", "failed_checks": failed_checks, "hints": 2
    })
}

pub fn assist(learner: &str, run: &str, call_id: &str, question: &str) -> Value {
    json!({
        "call_id": call_id, "learner": learner, "widget_run_id": run, "widget_id": "w-compare",
        "pathway_id": "p-fractions", "at": "2027-01-15T07:58:00Z", "kind": "fraction_compare",
        "deadline": "2027-01-15T08:03:00Z",
        "args": {"question": question, "attempts": 1, "hints": 0}
    })
}

pub fn assist_answer(call_id: &str, at: &str) -> Value {
    json!({"call_id": call_id, "at": at,
           "value": {"answer": "Find a common denominator first.", "answered_by": "teacher"}})
}

/// Every row of the derived tables, as text, in a stable order: for comparing two stores.
pub async fn derived_dump(store: &Store) -> Vec<String> {
    let mut out = Vec::new();
    // The grid's rollup too: what live ingest kept must equal what a rebuild computes (a step's
    // total that moved back to zero may stay as a row of 0, which is no learner).
    for (table, key) in [
        ("results", "widget_run_id"),
        ("struggles", "widget_run_id"),
        ("calls", "call_id"),
        ("learners", "class_id, learner"),
        ("grid_cells", "class_id, pathway_id, learner, widget_id"),
        (
            "(SELECT * FROM grid_totals WHERE learners <> 0)",
            "class_id, pathway_id, widget_id, state",
        ),
    ] {
        let columns_of = table
            .strip_prefix("(SELECT * FROM ")
            .map_or(table, |t| t.split_whitespace().next().unwrap_or(t));
        let cols: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT name FROM pragma_table_info('{columns_of}') ORDER BY cid"
        ))
        .fetch_all(store.sqlite().unwrap())
        .await
        .expect("columns");
        let concat = cols
            .iter()
            .filter(|c| *c != "first_seen_at")
            .map(|c| format!("quote({c})"))
            .collect::<Vec<_>>()
            .join(" || '|' || ");
        let rows: Vec<String> =
            sqlx::query_scalar(&format!("SELECT {concat} FROM {table} ORDER BY {key}"))
                .fetch_all(store.sqlite().unwrap())
                .await
                .expect("rows");
        out.extend(rows.into_iter().map(|r| format!("{table}: {r}")));
    }
    out
}
