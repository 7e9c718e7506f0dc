//! Runs every conformance fixture under `tests/fixtures/contract` (see its README.md):
//! valid ones must parse, pass every rule and survive project -> parse -> equal in all three
//! transports; invalid ones must be rejected by exactly the rule their file name states;
//! sequences must be accepted line by line, or rejected on their last line by the named rule.

// Test helpers outside #[test] functions may panic too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use a2learn_contract::check::{Outcome, check_text};
use a2learn_contract::{
    Message, Parsed, ProjectError, Registry, RuleId, Transport, carried_by, detect, parse, project,
    project_to_string, validate_message,
};
use serde_json::Value;

const VERBS: [&str; 4] = ["widget_completed", "widget_struggle", "score", "assist"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/contract")
}

fn registry() -> Registry {
    let text = std::fs::read_to_string(root().join("registry.json")).unwrap();
    Registry::from_json(&text).unwrap()
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    out.sort();
    out
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The rule an invalid fixture names: the file name up to `--`.
fn expected_rule(path: &Path) -> RuleId {
    let stem = path.file_stem().unwrap().to_str().unwrap();
    let (rule, _) = stem
        .split_once("--")
        .unwrap_or_else(|| panic!("{}: invalid fixtures are named RULE--case", path.display()));
    rule.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// JSON equality with numbers compared by value (`1` == `1.0`): the fixtures are written by
/// an independent generator that does not share serde's number formatting.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| json_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn parse_contract(transport: Transport, value: &Value, path: &Path) -> Message {
    match parse(transport, value) {
        Ok(Parsed::Contract(m)) => m,
        other => panic!(
            "{}: expected a contract message, got {other:?}",
            path.display()
        ),
    }
}

#[test]
fn every_transport_and_verb_has_valid_and_invalid_fixtures() {
    for transport in Transport::ALL {
        for verb in VERBS {
            let dir = root().join(transport.as_str()).join(verb);
            assert!(
                !files(&dir.join("valid"), "json").is_empty(),
                "{}",
                dir.display()
            );
            assert!(
                !files(&dir.join("invalid"), "json").is_empty(),
                "{}",
                dir.display()
            );
        }
        let seq = root().join(transport.as_str()).join("sequences");
        assert!(!files(&seq.join("valid"), "jsonl").is_empty());
        assert!(!files(&seq.join("invalid"), "jsonl").is_empty());
    }
}

#[test]
fn valid_fixtures_pass_and_round_trip_through_every_transport() {
    let registry = registry();
    let mut count = 0;
    for transport in Transport::ALL {
        for verb in VERBS {
            for path in files(
                &root().join(transport.as_str()).join(verb).join("valid"),
                "json",
            ) {
                count += 1;
                let fixture = read_json(&path);
                assert_eq!(detect(&fixture), Some(transport), "{}", path.display());
                let message = parse_contract(transport, &fixture, &path);
                validate_message(&message, &registry).unwrap_or_else(|e| {
                    panic!("{}: rejected {}: {e}", path.display(), e.rule_id())
                });

                // Our projection is the fixture (written independently), unless the fixture
                // carries unknown fields, which are dropped.
                let projected = project(&message, transport).unwrap();
                if !path.to_str().unwrap().contains("unknown-fields") {
                    assert!(
                        json_eq(&projected, &fixture),
                        "{}: projection differs\n ours: {projected}\n file: {fixture}",
                        path.display()
                    );
                } else {
                    assert!(
                        !json_eq(&projected, &fixture),
                        "unknown fields are never emitted"
                    );
                }

                // project -> parse -> equal, in all three transports.
                for to in Transport::ALL {
                    let expected = carried_by(&message, to);
                    match project(&message, to) {
                        Ok(value) => {
                            let back = parse_contract(to, &value, &path);
                            assert_eq!(back, expected, "{} via {to}", path.display());
                            // And once more: a carried message is a fixed point.
                            let again = parse_contract(to, &project(&back, to).unwrap(), &path);
                            assert_eq!(again, back, "{} via {to} twice", path.display());
                        }
                        Err(ProjectError::UnnamedResponse { .. }) => {
                            // Only a response that came without its function name (A2UI, MCP)
                            // cannot go to AG-UI before it is resolved against its call.
                            assert_eq!(to, Transport::Agui, "{}", path.display());
                            assert!(
                                matches!(message, Message::Response(_)),
                                "{}",
                                path.display()
                            );
                        }
                        Err(ProjectError::ResponseWithoutAt { .. }) => {
                            // Only a response that crossed A2UI has lost its `at`.
                            assert_eq!(transport, Transport::A2ui, "{}", path.display());
                            assert_ne!(to, Transport::A2ui);
                        }
                        Err(e) => panic!("{} -> {to}: {e}", path.display()),
                    }
                }
                // The one-line form parses to the same message.
                let line = project_to_string(&message, transport).unwrap();
                assert!(!line.contains('\n'));
                assert_eq!(
                    a2learn_contract::parse_line(&line).unwrap(),
                    (transport, Parsed::Contract(message.clone()))
                );
            }
        }
    }
    assert!(count >= 54, "only {count} valid fixtures");
}

#[test]
fn prose_leads_in_every_projection() {
    let path = root().join("agui/widget_completed/valid/assessing-correct.json");
    let message = parse_contract(Transport::Agui, &read_json(&path), &path);
    for to in Transport::ALL {
        let line = project_to_string(&message, to).unwrap();
        let prose = line.find("\"Compared 3/4").unwrap();
        let learner = line.find("anon_k3x9q2").unwrap();
        assert!(prose < learner, "{to}: prose does not lead in {line}");
    }
}

#[test]
fn invalid_fixtures_are_rejected_by_the_rule_they_name() {
    let registry = registry();
    let mut seen = BTreeSet::new();
    let mut count = 0;
    let mut bad_frames = Vec::new();
    for transport in Transport::ALL {
        for verb in VERBS {
            for path in files(
                &root().join(transport.as_str()).join(verb).join("invalid"),
                "json",
            ) {
                count += 1;
                let expected = expected_rule(&path);
                seen.insert(expected);
                let text = std::fs::read_to_string(&path).unwrap();
                let value: Value = serde_json::from_str(&text).unwrap();
                // Detection still finds the transport of a broken frame.
                assert_eq!(detect(&value), Some(transport), "{}", path.display());
                let got = match parse(transport, &value) {
                    Err(e) => e,
                    Ok(Parsed::Contract(m)) => match validate_message(&m, &registry) {
                        Err(e) => e,
                        Ok(()) => panic!("{}: accepted, expected {expected}", path.display()),
                    },
                    Ok(other) => panic!("{}: {other:?}, expected {expected}", path.display()),
                };
                assert_eq!(got.rule_id(), expected, "{}: {got}", path.display());
                if expected == RuleId::BadFrame {
                    let name = path
                        .strip_prefix(root())
                        .unwrap()
                        .to_str()
                        .unwrap()
                        .to_owned();
                    bad_frames.push((name, got.to_string()));
                }
            }
        }
    }
    assert!(count >= 140, "only {count} invalid fixtures");
    // `bad-frame` covers every broken shape, so the rule id alone would pass a fixture broken
    // by a typo: each also names the reason its error must give.
    let reasons: std::collections::BTreeMap<String, String> = serde_json::from_str(
        &std::fs::read_to_string(root().join("bad-frame-reasons.json")).unwrap(),
    )
    .unwrap();
    let mut wrong = Vec::new();
    for (name, message) in &bad_frames {
        match reasons.get(name) {
            Some(reason) if message.contains(reason.as_str()) => {}
            Some(reason) => wrong.push(format!("{name}: {message:?} does not say {reason:?}")),
            None => wrong.push(format!(
                "{name}: no reason listed; the error says {message:?}"
            )),
        }
    }
    let named: BTreeSet<&String> = bad_frames.iter().map(|(n, _)| n).collect();
    for listed in reasons.keys().filter(|k| !named.contains(k)) {
        wrong.push(format!("{listed}: listed, but no such bad-frame fixture"));
    }
    assert!(wrong.is_empty(), "bad-frame reasons:\n{}", wrong.join("\n"));
    // Every single-message rule has a negative control somewhere.
    for rule in [
        RuleId::VerdictNotAssessing,
        RuleId::CorrectWithoutAttempt,
        RuleId::EmptyProse,
        RuleId::ProseTooLong,
        RuleId::PiiInPayload,
        RuleId::NonAnonymousId,
        RuleId::UndeclaredEmission,
        RuleId::UnknownKind,
        RuleId::StruggleTooEarly,
        RuleId::ValueAndError,
        RuleId::NoValueNoError,
        RuleId::BadFrame,
    ] {
        assert!(seen.contains(&rule), "no invalid fixture for {rule}");
    }
}

#[test]
fn sequences_are_judged_line_by_line() {
    let mut seen = BTreeSet::new();
    for transport in Transport::ALL {
        let dir = root().join(transport.as_str()).join("sequences");
        for path in files(&dir.join("valid"), "jsonl") {
            let text = std::fs::read_to_string(&path).unwrap();
            let (reports, summary) = check_text(registry(), &text);
            assert!(reports.len() >= 2, "{}", path.display());
            for r in &reports {
                assert!(!r.is_rejected(), "{}: {r}", path.display());
            }
            assert_eq!(summary.rejected, 0);
            assert_eq!(summary.checked, text.lines().count());
        }
        for path in files(&dir.join("invalid"), "jsonl") {
            let expected = expected_rule(&path);
            seen.insert(expected);
            let text = std::fs::read_to_string(&path).unwrap();
            let (reports, summary) = check_text(registry(), &text);
            let (last, before) = reports.split_last().unwrap();
            for r in before {
                assert!(!r.is_rejected(), "{}: {r}", path.display());
            }
            match &last.outcome {
                Outcome::Rejected(e) => {
                    assert_eq!(e.rule_id(), expected, "{}: {last}", path.display())
                }
                other => panic!(
                    "{}: last line {other:?}, expected {expected}",
                    path.display()
                ),
            }
            assert_eq!(summary.rejected, 1);
            // Negative control: without its last line the sequence is accepted, so the
            // rejection comes from the sequence, not from a broken line.
            let head: String = text
                .lines()
                .take(reports.len() - 1)
                .map(|l| format!("{l}\n"))
                .collect();
            let (_, head_summary) = check_text(registry(), &head);
            assert_eq!(head_summary.rejected, 0, "{}", path.display());
            // And the last line alone is not rejected for the same reason, unless the rule
            // is about a call nobody opened.
            if expected != RuleId::UnknownCall {
                let last_line = text.lines().last().unwrap();
                let (alone, _) = check_text(registry(), last_line);
                let alone_rule = match &alone[0].outcome {
                    Outcome::Rejected(e) => Some(e.rule_id()),
                    _ => None,
                };
                assert_ne!(alone_rule, Some(expected), "{}", path.display());
            }
        }
    }
    for rule in [
        RuleId::SecondCompletion,
        RuleId::SecondStruggle,
        RuleId::StruggleAfterCompletion,
        RuleId::UnknownCall,
        RuleId::AlreadyAnswered,
        RuleId::LateResponse,
        RuleId::DuplicateCall,
    ] {
        assert!(seen.contains(&rule), "no invalid sequence for {rule}");
    }
}

#[test]
fn the_registry_fixture_covers_the_capability_combinations() {
    let registry = registry();
    let entries: Vec<_> = registry.entries().collect();
    assert!(entries.iter().any(|e| e.assesses));
    assert!(entries.iter().any(|e| !e.assesses));
    assert!(
        entries
            .iter()
            .any(|e| e.events.len() == 2 && e.functions.len() == 2)
    );
    assert!(
        entries
            .iter()
            .any(|e| e.events.is_empty() && e.functions.is_empty())
    );
    // Negative control: a non-assessing entry declaring a struggle is refused.
    let bad = r#"{"entries":[{"kind":"k","title":"t","assesses":false,"events":["widget_struggle"],"functions":[]}]}"#;
    assert_eq!(
        Registry::from_json(bad).unwrap_err().rule_id(),
        RuleId::VerdictNotAssessing
    );
}
