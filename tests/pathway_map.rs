//! The pathway map over a real store of either engine: a class's completions go through the
//! ingest, then
//! every node's done / current / upcoming count and every node's learners are recomputed here
//! from the stored rows with the rule written out again (the first step not done, in pathway
//! order) and compared with the view; the pacing limit comes from the feed's echo.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::collections::{BTreeMap, HashSet};

use a2learn_teacher::groups::Scope;
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::progress::steps::StepStatus;
use a2learn_teacher::roster::parse_roster_csv;
use a2learn_teacher::store::{Pathway, PathwayStep};
use a2learn_teacher::views::pathway_map::{
    PathwayEdgeKind, PathwayMapView, pathway_map, pathway_node,
};
use serde_json::{Value, json};
use support::engines::{Engine, TestDb, on_both_engines, raw};
use support::frame;

const CLASS: &str = "class-map-1";
const PATHWAY: &str = "p-map";
const STEPS: [&str; 5] = ["w-m1", "w-m2", "w-m3", "w-m4", "w-m5"];
const LEARNERS: usize = 40;
const NAMED: &str = "Quintessa Marblethorpe";

fn catalog() -> Vec<Pathway> {
    let steps = STEPS
        .iter()
        .enumerate()
        .map(|(i, w)| PathwayStep {
            widget_id: (*w).into(),
            entry: serde_json::from_value(json!({
                "kind": kind(w), "title": format!("Map step {}", i + 1),
                "standard": "CCSS.MATH.CONTENT.4.NF.A.2", "assesses": true,
                "events": ["widget_completed", "widget_struggle"], "functions": ["score", "assist"]
            }))
            .unwrap(),
        })
        .collect();
    vec![Pathway {
        pathway_id: PATHWAY.into(),
        title: "Fractions map".into(),
        version: "1".into(),
        steps,
    }]
}

/// One kind per step: a kind's registry entry (title included) must be the same wherever it is
/// declared, and each step here has its own title.
fn kind(widget: &str) -> String {
    format!("map_{}", widget.replace('-', "_"))
}

fn learner(i: usize) -> String {
    format!("anon_map{i:04}")
}

fn completion(learner: &str, run: &str, widget: &str, minute: usize, correct: bool) -> Value {
    json!({
        "prose": "Compared two fractions.",
        "learner": learner, "widget_run_id": run, "widget_id": widget,
        "pathway_id": PATHWAY, "at": format!("2027-01-15T08:{:02}:00Z", minute % 60),
        "widget_result": {"kind": kind(widget), "standard": "CCSS.MATH.CONTENT.4.NF.A.2",
                          "correct": correct, "attempts": 1, "hints": 0, "score": 1.0, "detail": {}}
    })
}

fn struggle(learner: &str, run: &str, widget: &str) -> Value {
    json!({
        "prose": "Has tried three times.",
        "learner": learner, "widget_run_id": run, "widget_id": widget,
        "pathway_id": PATHWAY, "at": "2027-01-15T07:59:00Z",
        "kind": kind(widget), "failed_checks": 3, "hints": 1
    })
}

/// A class of 40 at every stage: learner i did the first `i % 6` steps, one in seven also did
/// step 4 out of order, one in five redid its last step, and those with nothing done struggled
/// on the first step (so they are learners of the class). The pathway is paced up to step 4.
/// On a teacher's file learner 3 gets a roster name; a shared store holds no names. Returns the
/// label learner 3 gets.
async fn class_store(db: &TestDb) -> String {
    let store = &db.store;
    store.upsert_class(CLASS, "Period 5", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_assignment("as-map", CLASS, PATHWAY, None, None)
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    let mut batch = Vec::new();
    let mut seq = 0;
    let mut next = |name: &str, value: Value| {
        seq += 1;
        frame(seq, name, value)
    };
    for i in 0..LEARNERS {
        let l = learner(i);
        let upto = i % 6;
        if upto == 0 {
            batch.push(next(
                "a2learn.widget_struggle",
                struggle(&l, &format!("s-{i}"), STEPS[0]),
            ));
        }
        for (s, w) in STEPS.iter().enumerate().take(upto) {
            let run = format!("r-{i}-{s}");
            batch.push(next(
                "a2learn.widget_completed",
                completion(&l, &run, w, s, s % 2 == 0),
            ));
        }
        if i % 5 == 0 && upto > 0 {
            let run = format!("r-{i}-redo");
            batch.push(next(
                "a2learn.widget_completed",
                completion(&l, &run, STEPS[upto - 1], 30, true),
            ));
        }
        if i % 7 == 3 && upto < 4 {
            let run = format!("r-{i}-skip");
            batch.push(next(
                "a2learn.widget_completed",
                completion(&l, &run, STEPS[3], 40, true),
            ));
        }
    }
    batch.push(next(
        "a2learn.host.pacing",
        json!({"class_id": CLASS, "pathway_id": PATHWAY, "up_to": STEPS[3]}),
    ));
    let n = batch.len();
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    // Every event stored; the pacing echo changes the room state, not the ledger's events.
    assert_eq!(
        (out.stored as usize, out.quarantined),
        (n - 1, 0),
        "{out:?}"
    );
    assert!(out.changes.room, "{out:?}");
    if db.engine == Engine::Postgres {
        return learner(3);
    }
    let roster = parse_roster_csv(&format!(
        "anonymous_id,display_name\n{},{NAMED}\n",
        learner(3)
    ))
    .unwrap();
    store.import_roster(CLASS, &roster).await.unwrap();
    NAMED.to_string()
}

type Statuses = BTreeMap<String, Vec<&'static str>>;

/// Each learner's status on each step, from the stored rows, with the rule written out again.
async fn recompute(db: &TestDb) -> Statuses {
    let (learners, steps, results): (Vec<String>, Vec<String>, Vec<(String, String)>) =
        raw!(db, |pool| {
            let learners = sqlx::query_scalar("SELECT learner FROM learners WHERE class_id = $1")
                .bind(CLASS)
                .fetch_all(pool)
                .await
                .unwrap();
            let steps = sqlx::query_scalar(
                "SELECT widget_id FROM pathway_steps WHERE pathway_id = $1 ORDER BY position",
            )
            .bind(PATHWAY)
            .fetch_all(pool)
            .await
            .unwrap();
            let results = sqlx::query_as(
                "SELECT learner, widget_id FROM results WHERE class_id = $1 AND pathway_id = $2",
            )
            .bind(CLASS)
            .bind(PATHWAY)
            .fetch_all(pool)
            .await
            .unwrap();
            (learners, steps, results)
        });
    let mut out = Statuses::new();
    for l in learners {
        let done: HashSet<&str> = results
            .iter()
            .filter(|(who, _)| *who == l)
            .map(|(_, w)| w.as_str())
            .collect();
        let mut seen_current = false;
        let row = steps
            .iter()
            .map(|w| {
                if done.contains(w.as_str()) {
                    "done"
                } else if !seen_current {
                    seen_current = true;
                    "current"
                } else {
                    "upcoming"
                }
            })
            .collect();
        out.insert(l, row);
    }
    out
}

fn status_name(s: StepStatus) -> &'static str {
    match s {
        StepStatus::Done => "done",
        StepStatus::Current => "current",
        StepStatus::Upcoming => "upcoming",
    }
}

on_both_engines!(
    every_count_and_every_node_learner_agrees_with_the_stored_results,
    projector_safe_mode_suppresses_small_groups_and_names_nobody,
    the_projector_window_gets_the_suppressed_map_with_the_pacing_limit,
);

async fn every_count_and_every_node_learner_agrees_with_the_stored_results(db: TestDb) {
    let third = class_store(&db).await;
    let store = &db.store;
    let expected = recompute(&db).await;
    assert_eq!(expected.len(), LEARNERS, "every learner is in the class");

    let map: PathwayMapView = pathway_map(store, Privacy::Names, CLASS, &Scope::Class)
        .await
        .unwrap();
    assert_eq!(map.learners, LEARNERS as i32);
    assert_eq!(map.k, None);
    assert_eq!(map.pathways.len(), 1);
    let p = &map.pathways[0];
    assert_eq!(
        (p.title.as_str(), p.assignment_id.as_str()),
        ("Fractions map", "as-map")
    );
    let titles: Vec<&str> = p.nodes.iter().map(|n| n.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Map step 1",
            "Map step 2",
            "Map step 3",
            "Map step 4",
            "Map step 5"
        ]
    );
    let edges: Vec<(&str, &str)> = p
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str()))
        .collect();
    assert_eq!(
        edges,
        STEPS.windows(2).map(|w| (w[0], w[1])).collect::<Vec<_>>()
    );
    assert!(p.edges.iter().all(|e| e.kind == PathwayEdgeKind::Sequence));

    // The pacing echo marks step 4.
    assert_eq!(p.up_to.as_deref(), Some(STEPS[3]));
    assert_eq!(p.up_to_step, Some(4));
    assert_eq!(p.up_to_title.as_deref(), Some("Map step 4"));
    let limits: Vec<bool> = p.nodes.iter().map(|n| n.pacing_limit).collect();
    assert_eq!(limits, [false, false, false, true, false]);
    assert!(p.nodes[4].beyond_pacing);

    let mut nontrivial = 0;
    for (i, node) in p.nodes.iter().enumerate() {
        for c in &node.counts {
            let want = expected
                .values()
                .filter(|row| row[i] == status_name(c.status))
                .count() as i32;
            assert_eq!(c.count, Some(want), "{} on {}", c.label, node.widget_id);
            assert_eq!(c.shown, want.to_string());
            if want > 0 && want < LEARNERS as i32 {
                nontrivial += 1;
            }
        }
        let sum: i32 = node.counts.iter().filter_map(|c| c.count).sum();
        assert_eq!(sum, LEARNERS as i32, "the counts add up to the class");

        // The node's learners: the same people, labelled (the roster's name for learner 3 on a
        // teacher's file).
        let groups = pathway_node(
            store,
            Privacy::Names,
            CLASS,
            "as-map",
            &node.widget_id,
            &Scope::Class,
        )
        .await
        .unwrap();
        for g in &groups {
            let mut want: Vec<String> = expected
                .iter()
                .filter(|(_, row)| row[i] == status_name(g.status))
                .map(|(l, _)| {
                    if *l == learner(3) {
                        third.clone()
                    } else {
                        l.clone()
                    }
                })
                .collect();
            want.sort();
            assert_eq!(g.learners, want, "{} on {}", g.label, node.widget_id);
            assert_eq!(
                g.learners.len() as i32,
                node.counts
                    .iter()
                    .find(|c| c.status == g.status)
                    .unwrap()
                    .count
                    .unwrap()
            );
        }
    }
    assert!(
        nontrivial >= 8,
        "the fixture spreads the class over the steps"
    );
    // The fixture's shape, so the comparisons above cover it: learner 3 did steps 1-3 and step
    // 4 (one in seven): current on step 5; learner 24 did nothing but step 4, out of order:
    // current on step 1 with step 4 done.
    assert_eq!(
        expected[&learner(3)],
        ["done", "done", "done", "done", "current"]
    );
    assert_eq!(
        expected[&learner(24)],
        ["current", "upcoming", "upcoming", "done", "upcoming"]
    );

    let err = pathway_node(
        store,
        Privacy::Names,
        CLASS,
        "as-map",
        "w-nowhere",
        &Scope::Class,
    )
    .await
    .unwrap_err();
    assert_eq!(
        a2learn_teacher::UiError::from(err).code,
        a2learn_teacher::ErrorCode::NotFound
    );
}

async fn projector_safe_mode_suppresses_small_groups_and_names_nobody(db: TestDb) {
    class_store(&db).await;
    let store = &db.store;
    let k = store.suppression_k().await.unwrap();
    let privacy = Privacy::Projector { seed: 7 };
    let map = pathway_map(store, privacy, CLASS, &Scope::Class)
        .await
        .unwrap();
    assert_eq!(map.k, Some(k as i32));
    let mut hidden = 0;
    for node in &map.pathways[0].nodes {
        for c in &node.counts {
            match c.count {
                Some(n) => assert!(n == 0 || n >= k as i32, "{n} printed on {}", node.widget_id),
                None => {
                    hidden += 1;
                    assert!(c.visibility.is_hidden());
                }
            }
        }
        // Never exactly one hidden count in a step: the class size would give it away.
        let n_hidden = node.counts.iter().filter(|c| c.count.is_none()).count();
        assert_ne!(n_hidden, 1, "{}", node.widget_id);
    }
    assert!(hidden > 0, "the fixture has small groups");
    let text = serde_json::to_string(&map).unwrap();
    assert!(!text.contains("anon_map"), "no learner id in the map");
    let groups = pathway_node(store, privacy, CLASS, "as-map", STEPS[4], &Scope::Class)
        .await
        .unwrap();
    let all: Vec<&String> = groups.iter().flat_map(|g| &g.learners).collect();
    assert_eq!(all.len(), LEARNERS);
    for label in all {
        assert!(!label.contains("anon_map") && label != NAMED, "{label}");
    }
}

async fn the_projector_window_gets_the_suppressed_map_with_the_pacing_limit(db: TestDb) {
    class_store(&db).await;
    let store = &db.store;
    let k = store.suppression_k().await.unwrap();
    let view = store.projector_view(CLASS, 11).await.unwrap();
    assert_eq!(view.pathway_map.len(), 1);
    let p = &view.pathway_map[0];
    assert_eq!(p.title, "Fractions map");
    assert_eq!(p.up_to_step, Some(4));
    let limits: Vec<bool> = p.steps.iter().map(|s| s.pacing_limit).collect();
    assert_eq!(limits, [false, false, false, true, false]);
    // The same figures as the projector-safe map of the teacher's window.
    let safe = pathway_map(store, Privacy::Projector { seed: 1 }, CLASS, &Scope::Class)
        .await
        .unwrap();
    for (step, node) in p.steps.iter().zip(&safe.pathways[0].nodes) {
        assert_eq!(step.title, node.title);
        let shown: Vec<&str> = step.states.iter().map(|s| s.shown.as_str()).collect();
        let want: Vec<&str> = node.counts.iter().map(|c| c.shown.as_str()).collect();
        assert_eq!(shown, want);
        for s in &step.states {
            if let Ok(n) = s.shown.parse::<u32>() {
                assert!(n == 0 || n >= k, "{n} on {}", step.title);
            }
        }
    }
    let text = serde_json::to_string(&view).unwrap();
    assert!(!text.contains("anon_map") && !text.contains(NAMED));
    assert!(!text.contains("w-m1"), "no widget id on the projector");
}
