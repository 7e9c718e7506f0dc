//! The class simulation against the contract crate: every simulated frame accepted by its
//! rules and state machine, every injected fault rejected with the rule the log names,
//! determinism, timeouts, teacher responses reaching the learner, and restart.

mod common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use a2learn_contract::RuleId;
use common::*;
use pathway_host::{CallState, Faults, HostConfig, Injection};
use serde_json::{Value, json};

fn names(log: &[pathway_host::LoggedFrame]) -> HashMap<String, usize> {
    let mut counts = HashMap::new();
    for f in log {
        if let Some(n) = custom_name(f) {
            *counts.entry(n).or_insert(0) += 1;
        }
    }
    counts
}

#[tokio::test]
async fn the_same_seed_gives_the_same_class_and_another_seed_does_not() {
    let mut logs = Vec::new();
    for seed in [42, 42, 43] {
        let host = manual_host(seed).await;
        let class_id = class_with_assignment(&host);
        host.advance(Duration::from_secs(15 * 60));
        host.assign(&class_id, "main-idea-4", None, Some("Read carefully"))
            .unwrap();
        host.advance(Duration::from_secs(30 * 60));
        logs.push((class_id.clone(), host.log(&class_id)));
        host.shutdown().await;
    }
    assert!(logs[0].1.len() > 50);
    assert_eq!(
        logs[0], logs[1],
        "same seed, same calls: same class, same log"
    );
    assert_ne!(logs[0].1, logs[2].1, "another seed: another class");
}

#[tokio::test]
async fn every_simulated_frame_passes_the_contract_rules_and_state_machine() {
    let host = manual_host(5).await;
    let (class_id, _) = host.create_class("Room 7").unwrap();
    for p in [
        "fractions-compare-4",
        "multiplication-area-3",
        "main-idea-4",
    ] {
        host.assign(&class_id, p, None, None).unwrap();
    }
    // Answer some calls as a teacher, as the dashboard would, while time passes.
    let mut answered = 0;
    for _ in 0..36 {
        host.advance(Duration::from_secs(5 * 60));
        for call in host.calls(&class_id) {
            if call.state == CallState::Open && answered % 2 == 0 {
                host.claim(TOKEN, &call.call_id).unwrap();
                let value = match call.function {
                    a2learn_contract::Function::Score => {
                        json!({"correct": true, "score": 0.8, "feedback": "Good reasoning."})
                    }
                    a2learn_contract::Function::Assist => {
                        json!({"answer": "Try drawing both fractions.", "answered_by": "teacher"})
                    }
                };
                host.respond(TOKEN, &call.call_id, Some(value), None)
                    .unwrap();
            }
            answered += 1;
        }
    }
    let log = host.log(&class_id);
    let verdicts = check_log(&log);
    let rejected: Vec<_> = verdicts.iter().filter(|(_, r)| r.is_some()).collect();
    assert!(rejected.is_empty(), "rejected: {rejected:?}");

    let counts = names(&log);
    for name in [
        "a2learn.widget_completed",
        "a2learn.widget_struggle",
        "a2learn.assist",
        "a2learn.assist.response",
        "a2learn.score",
        "a2learn.score.response",
        "a2learn.host.call_claimed",
    ] {
        assert!(
            counts.get(name).copied().unwrap_or(0) > 0,
            "no {name}: {counts:?}"
        );
    }
    // Quiet reporting, checked here directly as well: one completion per run.
    let mut runs = HashSet::new();
    for f in &log {
        if custom_name(f).as_deref() == Some("a2learn.widget_completed") {
            let v = f.json().unwrap();
            assert!(runs.insert(v["value"]["widget_run_id"].as_str().unwrap().to_owned()));
        }
    }
    // Every response is an echo of a known call: a timeout or an answer.
    let timeouts = log
        .iter()
        .filter(|f| f.data.contains("\"code\":\"timeout\""))
        .count();
    assert!(timeouts > 0, "some calls expired unanswered");
}

#[tokio::test]
async fn every_injected_fault_is_rejected_with_the_rule_the_log_names() {
    let host = manual_host(6).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(10 * 60));
    let mut breaking = Vec::new();
    for injection in Injection::all() {
        let seqs = host.inject(&class_id, injection).unwrap();
        breaking.push((*seqs.last().unwrap(), injection.rule()));
        host.advance(Duration::from_secs(30));
    }
    // Pure-rule ids from the contract crate, kebab-case.
    let ids: HashSet<&str> = Injection::all().iter().map(|i| i.rule().as_str()).collect();
    for id in [
        "bad-frame",
        "verdict-not-assessing",
        "correct-without-attempt",
        "empty-prose",
        "pii-in-payload",
        "non-anonymous-id",
        "undeclared-emission",
        "second-struggle",
        "struggle-after-completion",
        "value-and-error",
        "no-value-no-error",
        "unknown-call",
        "already-answered",
        "second-completion",
    ] {
        assert!(ids.contains(id), "{id} has an injection");
    }

    let log = host.log(&class_id);
    let by_seq: HashMap<u64, Option<RuleId>> = check_log(&log).into_iter().collect();
    for frame in &log {
        let verdict = by_seq[&frame.seq];
        assert_eq!(
            verdict,
            frame.rule(),
            "seq {} ({}): the reader's verdict must be the logged rule",
            frame.seq,
            frame.data.chars().take(120).collect::<String>()
        );
    }
    for (seq, rule) in breaking {
        let frame = log.iter().find(|f| f.seq == seq).unwrap();
        assert!(frame.injected);
        assert_eq!(frame.expect_rule.as_deref(), Some(rule.as_str()));
    }
}

#[tokio::test]
async fn fault_switches_inject_into_the_live_log() {
    let mut config = manual_config(21);
    config.faults = Faults {
        malformed_every: 7,
        contract_break_every: 5,
        ..Faults::default()
    };
    let host = pathway_host::start(config).await.unwrap();
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(40 * 60));
    let log = host.log(&class_id);
    let faults: Vec<_> = log.iter().filter(|f| f.expect_rule.is_some()).collect();
    assert!(faults.len() >= 10, "faults injected: {}", faults.len());
    assert!(faults.iter().any(|f| f.rule() == Some(RuleId::BadFrame)));
    assert!(faults.iter().any(|f| f.rule() != Some(RuleId::BadFrame)));
    let by_seq: HashMap<u64, Option<RuleId>> = check_log(&log).into_iter().collect();
    for f in &log {
        assert_eq!(by_seq[&f.seq], f.rule(), "seq {}", f.seq);
    }
    // Switched off at run time: no more faults.
    host.set_faults(Faults::default());
    let before = log.len();
    host.assign(&class_id, "multiplication-area-3", None, None)
        .unwrap();
    host.advance(Duration::from_secs(20 * 60));
    let log = host.log(&class_id);
    assert!(log.len() > before);
    assert!(log[before..].iter().all(|f| f.expect_rule.is_none()));
}

#[tokio::test]
async fn unanswered_calls_are_closed_with_timeout_at_their_deadline() {
    let host = manual_host(3).await;
    let class_id = class_with_assignment(&host);
    let mut request: Option<Value> = None;
    for _ in 0..120 {
        host.advance(Duration::from_secs(30));
        request = host
            .log(&class_id)
            .iter()
            .filter(|f| {
                matches!(
                    custom_name(f).as_deref(),
                    Some("a2learn.assist" | "a2learn.score")
                )
            })
            .map(|f| f.json().unwrap())
            .next();
        if request.is_some() {
            break;
        }
    }
    let request = request.expect("a request within an hour");
    let call_id = request["value"]["call_id"].as_str().unwrap().to_owned();
    let deadline = request["value"]["deadline"].as_str().unwrap().to_owned();
    let deadline_ms = pathway_host::clock::parse_rfc3339_ms(&deadline).unwrap();
    assert!(deadline_ms > host.now_ms(), "the deadline is ahead");

    let echo_of = |host: &pathway_host::RunningHost| {
        host.log(&class_id)
            .into_iter()
            .filter(|f| custom_name(f).is_some_and(|n| n.ends_with(".response")))
            .map(|f| f.json().unwrap())
            .find(|v| v["value"]["call_id"] == call_id.as_str())
    };
    // Just before the deadline: still open.
    let before = u64::try_from(deadline_ms - host.now_ms() - 1).unwrap();
    host.advance(Duration::from_millis(before));
    assert!(echo_of(&host).is_none());
    host.advance(Duration::from_millis(2));
    let echo = echo_of(&host).expect("closed at the deadline");
    assert_eq!(echo["value"]["error"]["code"], "timeout");
    assert!(echo["value"].get("value").is_none());
    let calls = host.calls(&class_id);
    let call = calls.iter().find(|c| c.call_id == call_id).unwrap();
    assert_eq!(call.state, CallState::Expired);
    // A late answer is refused with `expired`, and claims too.
    let err = host
        .respond(
            TOKEN,
            &call_id,
            None,
            Some(json!({"code": "declined", "message": "no"})),
        )
        .unwrap_err();
    assert_eq!(err.code.as_str(), "expired");
    assert_eq!(
        host.claim(TOKEN, &call_id).unwrap_err().code.as_str(),
        "expired"
    );
}

#[tokio::test]
async fn a_teachers_answer_reaches_the_learner_who_then_finishes_the_widget() {
    let host = manual_host(4).await;
    let class_id = class_with_assignment(&host);
    let mut found = None;
    for _ in 0..240 {
        host.advance(Duration::from_secs(15));
        let log = host.log(&class_id);
        found = log
            .iter()
            .filter(|f| custom_name(f).as_deref() == Some("a2learn.assist"))
            .map(|f| f.json().unwrap())
            .find(|v| {
                host.calls(&class_id).iter().any(|c| {
                    c.call_id == v["value"]["call_id"].as_str().unwrap()
                        && c.state == CallState::Open
                })
            });
        if found.is_some() {
            break;
        }
    }
    let request = found.expect("an open assist request");
    let call_id = request["value"]["call_id"].as_str().unwrap();
    let run_id = request["value"]["widget_run_id"].as_str().unwrap();
    host.respond(
        TOKEN,
        call_id,
        Some(json!({"answer": "Compare them to one half first.", "answered_by": "teacher"})),
        None,
    )
    .unwrap();
    let log = host.log(&class_id);
    let echo = log.last().unwrap().json().unwrap();
    assert_eq!(echo["name"], "a2learn.assist.response");
    assert_eq!(echo["value"]["call_id"], call_id);
    assert_eq!(echo["value"]["value"]["answered_by"], "teacher");
    assert_eq!(
        host.respond(
            TOKEN,
            call_id,
            None,
            Some(json!({"code": "declined", "message": "x"}))
        )
        .unwrap_err()
        .code
        .as_str(),
        "already_answered"
    );
    // The learner goes on and completes that very run.
    host.advance(Duration::from_secs(30 * 60));
    let completed = host.log(&class_id).iter().any(|f| {
        custom_name(f).as_deref() == Some("a2learn.widget_completed")
            && f.json().unwrap()["value"]["widget_run_id"] == run_id
    });
    assert!(completed, "the helped run completes");
}

#[tokio::test]
async fn a_restart_keeps_the_log_its_seqs_classes_assignments_and_open_calls() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("events.jsonl");
    let mut config = manual_config(77);
    config.log_path = Some(path.clone());
    let host = pathway_host::start(config.clone()).await.unwrap();
    let class_id = class_with_assignment(&host);
    let assignment = host
        .assign(&class_id, "fractions-compare-4", None, None)
        .unwrap();
    host.inject(&class_id, Injection::EmptyProse).unwrap();
    host.advance(Duration::from_secs(20 * 60));
    let before = host.log(&class_id);
    let open_before: Vec<_> = host
        .calls(&class_id)
        .into_iter()
        .filter(|c| c.state == CallState::Open)
        .map(|c| c.call_id)
        .collect();
    let learners = host.learners(&class_id);
    host.abort(); // a crash, not an orderly stop

    let host = pathway_host::start(config).await.unwrap();
    assert_eq!(host.log(&class_id), before, "the log and its seqs survive");
    assert_eq!(host.learners(&class_id), learners);
    assert_eq!(
        host.assign(&class_id, "fractions-compare-4", None, None)
            .unwrap(),
        assignment,
        "the assignment survives (idempotent across restarts)"
    );
    let open_after: Vec<_> = host
        .calls(&class_id)
        .into_iter()
        .filter(|c| c.state == CallState::Open)
        .map(|c| c.call_id)
        .collect();
    assert_eq!(open_after, open_before, "open calls survive");
    // New frames continue the numbering, and the whole log still passes the contract.
    host.advance(Duration::from_secs(30 * 60));
    let after = host.log(&class_id);
    assert!(after.len() > before.len());
    assert_eq!(after[before.len()].seq, before.last().unwrap().seq + 1);
    assert!(after.windows(2).all(|w| w[0].seq < w[1].seq));
    for (seq, verdict) in check_log(&after) {
        let frame = after.iter().find(|f| f.seq == seq).unwrap();
        assert_eq!(verdict, frame.rule(), "seq {seq}: {}", frame.data);
    }
    // The feed replays from a cursor taken before the restart.
    let cut = before[before.len() / 2].seq;
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(cut)).await;
    sse.next_frame(Duration::from_secs(5)).await.unwrap();
    sse.next_frame(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        sse.next_frame(Duration::from_secs(5)).await.unwrap().0,
        Some(cut + 1)
    );
    host.shutdown().await;
}

#[tokio::test]
async fn real_time_at_demo_speed_shows_learners_within_seconds() {
    let mut config = pathway_host::HostConfig::demo(TOKEN);
    config.learners = 24;
    let host = pathway_host::start(config).await.unwrap();
    let class_id = class_with_assignment(&host);
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(Duration::from_secs(2)).await.unwrap();
    sse.next_frame(Duration::from_secs(2)).await.unwrap();
    let started = tokio::time::Instant::now();
    let (id, data) = sse
        .next_frame(Duration::from_secs(8))
        .await
        .expect("a learner event within seconds");
    assert_eq!(id, Some(1));
    assert!(data.contains("a2learn.widget_completed"));
    assert!(started.elapsed() < Duration::from_secs(8));
    host.shutdown().await;
}

#[tokio::test]
async fn pacing_is_realistic_at_speed_one() {
    let mut config = manual_config(31);
    config.learners = 24;
    let host = pathway_host::start(config).await.unwrap();
    let (class_id, _) = host.create_class("Pacing").unwrap();
    for p in [
        "fractions-compare-4",
        "multiplication-area-3",
        "main-idea-4",
    ] {
        host.assign(&class_id, p, None, None).unwrap();
    }
    // The first learner event comes within the first minute (the intro video is short).
    host.advance(Duration::from_secs(60));
    let first_minute = host.log(&class_id).len();
    assert!(first_minute >= 1, "an event in the first minute");
    host.advance(Duration::from_secs(29 * 60));
    let log = host.log(&class_id);
    let counts = names(&log);
    let per_min = |n: &str| counts.get(n).copied().unwrap_or(0) as f64 / 30.0;
    let total = log.len() as f64 / 30.0;
    eprintln!(
        "24 learners, speed 1, first 30 min: {total:.1} frames/min; completed {:.1}/min, \
         struggles {:.2}/min, assists {:.2}/min, scores {:.2}/min; first minute: {first_minute}",
        per_min("a2learn.widget_completed"),
        per_min("a2learn.widget_struggle"),
        per_min("a2learn.assist"),
        per_min("a2learn.score"),
    );
    // Seconds to minutes per widget: 24 learners finish roughly 5 to 20 widgets a minute.
    assert!((5.0..=20.0).contains(&per_min("a2learn.widget_completed")));
    // Help is asked for now and then, not constantly.
    assert!((0.05..=3.0).contains(&per_min("a2learn.assist")));
}

/// The wait of every assist request in the log: `deadline - at`, in milliseconds.
fn assist_waits(host: &pathway_host::RunningHost, class_id: &str) -> Vec<i64> {
    host.log(class_id)
        .iter()
        .filter(|f| custom_name(f).as_deref() == Some("a2learn.assist"))
        .map(|f| {
            let v = f.json().expect("the host logs JSON");
            let ms = |key: &str| {
                let text = v["value"][key].as_str().expect("a time stamp");
                pathway_host::clock::parse_rfc3339_ms(text).expect("RFC 3339")
            };
            ms("deadline") - ms("at")
        })
        .collect()
}

#[tokio::test]
async fn help_requests_wait_minutes_in_the_demo_and_scale_with_speed_otherwise() {
    // At the demo's speed, with its help wait: learners are fast, the wait is 4 real minutes.
    let demo = pathway_host::start(HostConfig {
        speed: pathway_host::DEMO_SPEED,
        help_wait: Some(pathway_host::DEMO_HELP_WAIT),
        ..manual_config(11)
    })
    .await
    .unwrap();
    // The same speed without it: the simulated 4 minutes, scaled (30 s at speed 8).
    let scaled = pathway_host::start(HostConfig {
        speed: pathway_host::DEMO_SPEED,
        ..manual_config(11)
    })
    .await
    .unwrap();
    let mut waits = Vec::new();
    for host in [&demo, &scaled] {
        let class_id = class_with_assignment(host);
        let mut found = Vec::new();
        for _ in 0..240 {
            host.advance(Duration::from_secs(5));
            found = assist_waits(host, &class_id);
            if !found.is_empty() {
                break;
            }
        }
        assert!(!found.is_empty(), "an assist request within 20 minutes");
        waits.push(found);
    }
    assert!(waits[0].iter().all(|&w| w == 240_000), "{:?}", waits[0]);
    let scaled_ms = i64::try_from(pathway_host::sim::ASSIST_DEADLINE_MS).unwrap() / 8;
    assert!(waits[1].iter().all(|&w| w == scaled_ms), "{:?}", waits[1]);
}
