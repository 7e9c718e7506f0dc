//! `a2learn-teacher contract import --dialect ile` as a school would run it on what the upstream
//! project wrote: contract messages out that `contract check` passes, learners under pseudonyms
//! that a key file keeps stable, and what has no contract form named on stderr.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::process::{Command, Output};

const STUDENT: &str = "5b0f4c1e-8a2d-4c3b-9e7f-1a2b3c4d5e6f";

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .args(args)
        .output()
        .expect("run a2learn-teacher")
}

fn batch(session: &str) -> String {
    let event = |kind: &str, ty: &str, correct: Option<bool>, ms: u32| {
        serde_json::json!({"eventType": ty, "widgetKind": kind, "learningComponentId": null,
            "standardCode": "MATH.4.NF.EQUIV", "elapsedMs": ms, "correct": correct, "payload": {}})
    };
    serde_json::json!({"sessionId": session, "studentId": STUDENT, "events": [
        event("drag-sort", "widget_shown", None, 0),
        event("drag-sort", "answer_checked", Some(false), 1000),
        event("drag-sort", "answer_checked", Some(false), 2000),
        event("drag-sort", "answer_checked", Some(false), 3000),
        event("drag-sort", "answer_checked", Some(true), 4000),
        event("drag-sort", "widget_completed", Some(true), 5000),
        event("hologram", "widget_shown", None, 6000),
    ]})
    .to_string()
}

const CHAT: &str = r#"{"jsonrpc":"2.0","id":3,"method":"ui/update-model-context","params":{"content":[{"type":"text","text":"The student found the flaw in the worked example."},{"type":"text","text":"```json\n{\"type\":\"widget_result\",\"kind\":\"find-the-flaw\",\"standardCode\":null,\"attempts\":2,\"hintsUsed\":0,\"completed\":true,\"correct\":true,\"score\":null,\"detail\":{}}\n```"}]}}"#;
const TRUNCATED: &str = r#"{"jsonrpc":"2.0","method":"ui/update-model-context","params":{"content":[{"type":"text","text":"Done."},{"type":"text","text":"```json\n{\"type\":\"widget_result\",\"kind\":\"drag-"}]}}"#;

#[test]
fn import_translates_what_it_can_names_the_rest_and_check_passes_the_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("upstream.jsonl");
    std::fs::write(
        &input,
        format!(
            "{CHAT}\n{}\n{TRUNCATED}\n",
            batch("9d2c7a51-3f7e-4c55-8b1a-0c9e8f7d6a5b")
        ),
    )
    .unwrap();
    let key = dir.path().join("ile.key");
    let import = |key: &std::path::Path| {
        cli(&[
            "contract",
            "import",
            "--dialect",
            "ile",
            "--key-file",
            key.to_str().unwrap(),
            "--at",
            "2026-12-01T09:00:00Z",
            input.to_str().unwrap(),
        ])
    };
    let out = import(&key);
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "a line had no contract form: {stderr}"
    );
    // The chat's completion, the batch's struggle and completion.
    let names: Vec<String> = stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["name"].to_string())
        .collect();
    assert_eq!(
        names,
        [
            "\"a2learn.widget_completed\"",
            "\"a2learn.widget_struggle\"",
            "\"a2learn.widget_completed\""
        ]
    );
    assert!(
        stderr.contains("line 2: event 7: unknown widget kind \"hologram\""),
        "{stderr}"
    );
    assert!(
        stderr.contains("line 3:") && stderr.contains("never closed"),
        "{stderr}"
    );
    assert!(
        !stdout.contains(STUDENT),
        "the upstream's student id never comes out"
    );
    // `contract check` passes every line, against the upstream's registry.
    let registry = dir.path().join("registry.json");
    let entries = a2learn_contract::dialect::ile::registry_entries();
    std::fs::write(
        &registry,
        serde_json::json!({"entries": entries}).to_string(),
    )
    .unwrap();
    let output = dir.path().join("contract.jsonl");
    std::fs::write(&output, &stdout).unwrap();
    let check = cli(&[
        "contract",
        "check",
        "--registry",
        registry.to_str().unwrap(),
        output.to_str().unwrap(),
    ]);
    let report = String::from_utf8(check.stdout).unwrap();
    assert_eq!(check.status.code(), Some(0), "{report}");
    assert!(
        report.ends_with("checked 3: 3 accepted, 0 rejected\n"),
        "{report}"
    );
    // The same key file, the same pseudonyms; another key, others.
    let again = String::from_utf8(import(&key).stdout).unwrap();
    assert_eq!(again, stdout);
    let other = String::from_utf8(import(&dir.path().join("other.key")).stdout).unwrap();
    assert_ne!(other, stdout);
    // The input itself, checked: named as the upstream's, pointed to import.
    let raw = cli(&[
        "contract",
        "check",
        "--registry",
        registry.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    let report = String::from_utf8(raw.stdout).unwrap();
    assert!(
        report.starts_with("1 not a2learn: an upstream (ILE) chat report; translate it with"),
        "{report}"
    );
    assert!(
        report.contains("2 not a2learn: an upstream (ILE) telemetry batch"),
        "{report}"
    );
    assert_eq!(raw.status.code(), Some(1));
}
