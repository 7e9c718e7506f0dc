//! `export --format knowledge-map` as a user runs it, against a class the reference host
//! simulated and the CLI's `sync` stored: every count of the map is recomputed here from the
//! host's own log with the rule written out again (not the production code), and compared.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/pipeline.rs"]
mod pipeline_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

use a2learn_teacher::progress::knowledge::NodeState;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::views::knowledge::knowledge_map;
use pathway_host::{FixedClock, HostConfig, TimeMode};
use pipeline_support::{TOKEN, open, wait_for_cursor};
use serde_json::Value;

const PATHWAYS: [&str; 2] = ["fractions-compare-4", "multiplication-area-3"];

/// One event on a standard, from the host's log.
#[derive(Debug, Clone)]
struct Seen {
    at_ms: i64,
    seq: u64,
    widget_id: String,
    /// `Some(correct)` for a completion, `None` for a struggle or a help request.
    completion: Option<Option<bool>>,
}

/// The rule of issue 16, written out again for the test: newest completion per step, then the
/// latest decisive event (time, then feed order).
fn state_of(events: &[Seen]) -> &'static str {
    let mut events: Vec<&Seen> = events.iter().collect();
    events.sort_by_key(|e| (e.at_ms, e.seq));
    let last_completion: HashMap<&str, u64> = events
        .iter()
        .filter(|e| e.completion.is_some())
        .map(|e| (e.widget_id.as_str(), e.seq))
        .collect();
    let mut taught = false;
    for e in events.iter().rev() {
        match e.completion {
            Some(_) if last_completion[e.widget_id.as_str()] != e.seq => {}
            Some(Some(true)) => return "known",
            Some(Some(false)) => return "missed",
            Some(None) => taught = true,
            None => return "dont-know",
        }
    }
    if taught { "taught" } else { "candidate" }
}

type Counts = BTreeMap<String, BTreeMap<&'static str, i64>>;
type Misconceptions = BTreeMap<(String, String), BTreeSet<String>>;

/// The map's counts from the host's log, by the test's own reading of it.
fn recompute(log: &[pathway_host::LoggedFrame], learners: &[String]) -> (Counts, Misconceptions) {
    // The host's side: every learner x standard of the assigned pathways.
    let catalog = pathway_host::catalog::pathways();
    let standard_of: HashMap<String, String> = catalog
        .iter()
        .flat_map(|p| &p.steps)
        .filter_map(|s| Some((s.widget_id.clone(), s.entry.standard.clone()?)))
        .collect();
    let standards: BTreeSet<&String> = catalog
        .iter()
        .filter(|p| PATHWAYS.contains(&p.pathway_id.as_str()))
        .flat_map(|p| &p.steps)
        .filter_map(|s| s.entry.standard.as_ref())
        .collect();
    let mut events: HashMap<(String, String), Vec<Seen>> = HashMap::new();
    let mut misconceptions = Misconceptions::new();
    for frame in log {
        let event: Value = serde_json::from_str(&frame.data).unwrap();
        let v = &event["value"];
        let completion = match event["name"].as_str() {
            Some("a2learn.widget_completed") => Some(v["widget_result"]["correct"].as_bool()),
            Some("a2learn.widget_struggle" | "a2learn.assist") => None,
            _ => continue,
        };
        let widget_id = v["widget_id"].as_str().unwrap().to_owned();
        let Some(standard) = standard_of.get(&widget_id) else {
            continue;
        };
        let learner = v["learner"].as_str().unwrap().to_owned();
        if let Some(m) = v["widget_result"]["detail"]["misconception"].as_str() {
            misconceptions
                .entry((standard.clone(), m.to_owned()))
                .or_default()
                .insert(learner.clone());
        }
        let at_ms = pathway_host::clock::parse_rfc3339_ms(v["at"].as_str().unwrap()).unwrap();
        events
            .entry((learner, standard.clone()))
            .or_default()
            .push(Seen {
                at_ms,
                seq: frame.seq,
                widget_id,
                completion,
            });
    }
    let mut expected = Counts::new();
    for standard in &standards {
        let counts = expected.entry((*standard).clone()).or_default();
        for learner in learners {
            let state = events
                .get(&(learner.clone(), (*standard).clone()))
                .map_or("candidate", |e| state_of(e));
            *counts.entry(state).or_default() += 1;
        }
    }
    (expected, misconceptions)
}

fn export(db: &Path, class_id: &str, out: &Path, k: &str) -> Value {
    let run = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(db)
        .args([
            "export",
            "--class",
            class_id,
            "--format",
            "knowledge-map",
            "--k",
            k,
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(out).unwrap()).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_exported_map_matches_the_hosts_log_recomputed_independently() {
    let host = pathway_host::start(HostConfig {
        tokens: vec![TOKEN.into()],
        learners: 30,
        seed: 16,
        time: TimeMode::Manual,
        clock: Arc::new(FixedClock::at(1_772_446_500_000)),
        ping_interval: Duration::from_millis(200),
        ..HostConfig::default()
    })
    .await
    .unwrap();
    let (class_id, _) = host.create_class("Period 5").unwrap();
    for p in PATHWAYS {
        host.assign(&class_id, p, None, None).unwrap();
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("map.db");
    let mut sync = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(&db)
        .args([
            "sync",
            "--quiet",
            "--host",
            &host.url(),
            "--class",
            &class_id,
        ])
        .env("A2LEARN_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .unwrap();
    // Class time in 30 s steps until the log shows learners in every state (some not started
    // on a standard, some stuck, some right, wrong, or only watched); then time stands still
    // and the sync catches up.
    let learners = host.learners(&class_id);
    let mut expected = Counts::new();
    let mut misconceptions = Misconceptions::new();
    for _ in 0..240 {
        host.advance(Duration::from_secs(30));
        (expected, misconceptions) = recompute(&host.log(&class_id), &learners);
        let all: BTreeSet<&str> = expected.values().flat_map(|c| c.keys().copied()).collect();
        if all.len() == 5 && !misconceptions.is_empty() {
            break;
        }
    }
    let log = host.log(&class_id);
    let store = open(&db).await;
    wait_for_cursor(&store, &class_id, log.last().unwrap().seq).await;
    store.close().await;
    sync.kill().unwrap();
    sync.wait().unwrap();

    // The run must exercise every branch, or the comparison proves little.
    let all: BTreeSet<&str> = expected.values().flat_map(|c| c.keys().copied()).collect();
    assert_eq!(
        all,
        ["candidate", "dont-know", "known", "missed", "taught"].into(),
        "every state occurs"
    );
    assert!(
        !misconceptions.is_empty(),
        "wrong answers showed misconceptions"
    );

    // The teacher's own screen shows every figure: each must match the log's.
    let store = open(&db).await;
    let view = knowledge_map(
        &store,
        Privacy::Names,
        &class_id,
        &a2learn_teacher::groups::Scope::Class,
    )
    .await
    .unwrap();
    for (standard, counts) in &expected {
        let node = view
            .nodes
            .iter()
            .find(|n| &n.code == standard)
            .unwrap_or_else(|| panic!("no node {standard}"));
        for c in &node.counts {
            let state = match c.state {
                NodeState::Known => "known",
                NodeState::Missed => "missed",
                NodeState::DontKnow => "dont-know",
                NodeState::Taught => "taught",
                NodeState::Candidate => "candidate",
            };
            assert_eq!(
                i64::from(c.count.unwrap()),
                counts.get(state).copied().unwrap_or(0),
                "{standard} {state}"
            );
        }
    }
    for ((standard, name), who) in &misconceptions {
        let m = view
            .misconceptions
            .iter()
            .find(|m| &m.standard == standard && &m.name == name)
            .unwrap_or_else(|| panic!("no misconception {name}"));
        assert_eq!(
            m.learners,
            Some(i32::try_from(who.len()).unwrap()),
            "{name}"
        );
    }
    store.close().await;

    // The export (k = 5, the smallest allowed): the same nodes and edges, every printed figure
    // the log's, none under k printed.
    let map = export(&db, &class_id, &dir.path().join("map.json"), "5");
    assert_eq!(map["class_id"], class_id.as_str());
    assert_eq!(map["learners"], learners.len());
    let nodes = map["nodes"].as_array().unwrap();
    for ((standard, name), who) in &misconceptions {
        let node = nodes
            .iter()
            .find(|n| {
                n["kind"] == "misconception"
                    && n["title"] == name.as_str()
                    && n["standard"] == standard.as_str()
            })
            .unwrap_or_else(|| panic!("no misconception node {name}"));
        match &node["learners"] {
            Value::Number(n) => assert_eq!(n.as_u64().unwrap(), who.len() as u64),
            Value::String(s) => {
                assert!(who.len() < 5, "{name}: {s}");
                assert_eq!(s, "fewer than 5");
            }
            other => panic!("unexpected figure {other}"),
        }
    }
    let edges = map["edges"].as_array().unwrap();
    assert!(edges.iter().any(|e| e["type"] == "requires"
        && e["from"] == "CCSS.MATH.CONTENT.4.NF.A.1"
        && e["to"] == "CCSS.MATH.CONTENT.4.NF.A.2"));
    let text = serde_json::to_string(&map).unwrap();
    for learner in &learners {
        assert!(!text.contains(learner.as_str()), "a learner id in the map");
    }

    // Per standard: a figure under k (and above 0) is never printed, a printed one is the
    // log's, and where nothing is suppressed the states add up to the class.
    let mut hidden = 0;
    for node in map["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["kind"] == "standard")
    {
        let counts = &expected[node["id"].as_str().unwrap()];
        let mut sum = 0;
        let mut whole = true;
        for state in ["known", "missed", "dont-know", "taught", "candidate"] {
            let truth = counts.get(state).copied().unwrap_or(0);
            match &node["states"][state] {
                Value::Number(n) => {
                    assert_eq!(n.as_i64().unwrap(), truth);
                    assert!(truth == 0 || truth >= 5, "{truth} printed under k");
                    sum += truth;
                }
                Value::String(s) => {
                    hidden += 1;
                    whole = false;
                    if truth > 0 && truth < 5 {
                        assert_eq!(s, "fewer than 5");
                    }
                }
                other => panic!("unexpected figure {other}"),
            }
        }
        if whole {
            assert_eq!(sum, learners.len() as i64);
        }
    }
    assert!(hidden > 0, "a class of 30 has small groups to hide");
    host.shutdown().await;
}
