//! Groups of learners, on both engines (a teacher's file; a shared store with the teacher's file
//! as its home): made and refused by the rules, every class view narrowed to one, and the groups
//! the evidence suggests — learners whose newest run of a step showed the same misconception,
//! or who missed the same standard.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use a2learn_teacher::error::Coded as _;
use a2learn_teacher::export::{ExportRequest, Format, write_export};
use a2learn_teacher::groups::{Basis, Scope};
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::views::class::{grid, mastery, needs_me, timeline};
use a2learn_teacher::views::knowledge::knowledge_map;
use a2learn_teacher::views::pathway_map::pathway_map;
use a2learn_teacher::views::report::{ReportNames, ReportRequest, report};
use a2learn_teacher::{ErrorCode, Store};
use serde_json::{Value, json};
use support::engines::{TestDb, on_both_engines};
use support::*;
use tokio_util::sync::CancellationToken;

const CLASS: &str = "class-1";
const A: &str = "anon_aaaa0001";
const B: &str = "anon_bbbb0002";
const C: &str = "anon_cccc0003";
const D: &str = "anon_dddd0004";

on_both_engines!(
    groups_are_made_by_the_rules_and_kept_in_the_teachers_file,
    every_view_narrowed_to_a_group_counts_its_learners_only,
    the_evidence_suggests_groups_by_misconception_and_missed_standard,
    the_desk_names_each_requests_groups_for_a_group_answer,
    a_groups_export_holds_its_learners_only,
    a_projected_screen_shows_no_group_name_that_names_someone,
);

/// A completion of the compare step at `at`, with its verdict and misconception (if any).
fn run(learner: &str, run: &str, at: &str, correct: bool, misconception: Option<&str>) -> Value {
    let mut v = completion(learner, run, Some(correct));
    v["at"] = json!(at);
    if let Some(m) = misconception {
        v["widget_result"]["detail"] = json!({ "misconception": m });
    }
    v
}

/// A class of four learners with results: A and B wrong with the same misconception, C wrong
/// with it once and then right (newest run clean), D right.
async fn class(db: &TestDb) -> Store {
    let store = db.teacher_store().await;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", None, None)
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    const BIGGER: &str = "bigger denominator means bigger fraction";
    let frames = [
        run(A, "a1", "2027-01-15T08:01:00Z", false, Some(BIGGER)),
        run(B, "b1", "2027-01-15T08:02:00Z", false, Some(BIGGER)),
        run(C, "c1", "2027-01-15T08:01:00Z", false, Some(BIGGER)),
        run(C, "c2", "2027-01-15T08:05:00Z", true, None),
        run(D, "d1", "2027-01-15T08:03:00Z", true, None),
    ];
    let batch = frames
        .into_iter()
        .enumerate()
        .map(|(i, v)| frame(i as i64 + 1, "a2learn.widget_completed", v))
        .collect();
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.stored, 5, "{out:?}");
    store
}

async fn groups_are_made_by_the_rules_and_kept_in_the_teachers_file(db: TestDb) {
    let store = class(&db).await;
    let g = store
        .save_group(CLASS, "  Table 2 ", &[B.into(), A.into(), A.into()])
        .await
        .unwrap();
    assert_eq!(g.name, "Table 2");
    assert_eq!(g.learners, [A, B], "once each, in id order");
    // A learner may be in several groups; a group of the same name is refilled.
    store
        .save_group(CLASS, "Reading", &[A.into(), C.into()])
        .await
        .unwrap();
    store
        .save_group(CLASS, "Table 2", &[D.into()])
        .await
        .unwrap();
    let groups = store.groups(CLASS).await.unwrap();
    let names: Vec<(&str, usize)> = groups
        .iter()
        .map(|g| (g.name.as_str(), g.learners.len()))
        .collect();
    assert_eq!(names, [("Reading", 2), ("Table 2", 1)]);

    for (name, learners, why) in [
        ("", vec![A.to_string()], "a group needs a name"),
        ("x".repeat(61).as_str(), vec![A.to_string()], "at most 60"),
        ("Bad\nname", vec![A.to_string()], "one line"),
        ("Empty", vec![], "at least one learner"),
        (
            "Strangers",
            vec![A.to_string(), "anon_not_here".to_string()],
            "1 of the learners is not in this class",
        ),
    ] {
        let err = store.save_group(CLASS, name, &learners).await.unwrap_err();
        assert!(err.to_string().contains(why), "{name:?}: {err}");
    }
    assert_eq!(
        store.groups(CLASS).await.unwrap().len(),
        2,
        "nothing kept of a refused group"
    );

    store.delete_group(CLASS, "Reading").await.unwrap();
    assert!(matches!(
        store.delete_group(CLASS, "Reading").await,
        Err(e) if e.code() == ErrorCode::NotFound
    ));
    assert!(
        matches!(
            Scope::of(&store, CLASS, Some("Reading")).await,
            Err(e) if e.code() == ErrorCode::NotFound
        ),
        "an unknown group is never the whole class"
    );

    // A shared store without its home keeps no group (names and groups stay in a teacher's file).
    if !db.store.holds_names() {
        assert!(
            db.store
                .save_group(CLASS, "Table 3", &[A.into()])
                .await
                .is_err()
        );
        assert!(db.store.groups(CLASS).await.unwrap().is_empty());
    }
}

async fn every_view_narrowed_to_a_group_counts_its_learners_only(db: TestDb) {
    let store = class(&db).await;
    store
        .save_group(CLASS, "Table 1", &[A.into(), D.into()])
        .await
        .unwrap();
    let group = Scope::of(&store, CLASS, Some("Table 1")).await.unwrap();
    let class = Scope::Class;

    // The control first: the whole class's grid has all four.
    let whole = grid(&store, Privacy::Names, CLASS, "as-1", None, &class)
        .await
        .unwrap();
    assert_eq!(whole.rows.len(), 4);
    assert_eq!(whole.group, None);
    let narrowed = grid(&store, Privacy::Names, CLASS, "as-1", None, &group)
        .await
        .unwrap();
    let ids: Vec<_> = narrowed
        .rows
        .iter()
        .filter_map(|r| r.learner.clone())
        .collect();
    assert_eq!(ids, [A, D]);
    assert_eq!(narrowed.learner_count, 2);
    assert_eq!(narrowed.group.as_deref(), Some("Table 1"));
    assert_eq!(whole.totals[0].done, 4);
    assert_eq!(
        narrowed.totals[0].done, 2,
        "the group's totals, not the class's"
    );

    let m_class = mastery(&store, Privacy::Names, CLASS, &class)
        .await
        .unwrap();
    let m_group = mastery(&store, Privacy::Names, CLASS, &group)
        .await
        .unwrap();
    assert_eq!(m_class.total.summary, "2 of 5 correct");
    assert_eq!(
        m_group.total.summary, "not enough evidence (2 checked)",
        "the group's 2 runs, not the class's 5"
    );

    let k_group = knowledge_map(&store, Privacy::Names, CLASS, &group)
        .await
        .unwrap();
    let k_class = knowledge_map(&store, Privacy::Names, CLASS, &class)
        .await
        .unwrap();
    let total = |m: &a2learn_teacher::views::knowledge::KnowledgeMapView| -> i64 {
        m.nodes[0]
            .counts
            .iter()
            .filter_map(|c| c.count)
            .map(i64::from)
            .sum()
    };
    assert_eq!((total(&k_class), total(&k_group)), (4, 2));

    let completed =
        |t: a2learn_teacher::views::class::TimelineView| -> i32 { t.completions.iter().sum() };
    assert_eq!(completed(timeline(&store, CLASS, &class).await.unwrap()), 5);
    assert_eq!(
        completed(timeline(&store, CLASS, &group).await.unwrap()),
        2,
        "A's and D's"
    );

    let p_group = pathway_map(&store, Privacy::Names, CLASS, &group)
        .await
        .unwrap();
    assert_eq!(p_group.learners, 2);

    // Who needs me: A and B struggle on a new run; only A is in the group.
    let registry = store.registry().await.unwrap();
    let mut s_a = struggle(A, "a9", 3);
    s_a["at"] = json!("2027-01-15T08:10:00Z");
    let mut s_b = struggle(B, "b9", 3);
    s_b["at"] = json!("2027-01-15T08:10:00Z");
    store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(10, "a2learn.widget_struggle", s_a),
                frame(11, "a2learn.widget_struggle", s_b),
            ],
        )
        .await
        .unwrap();
    let who = |items: Vec<a2learn_teacher::views::class::NeedsMeView>| {
        let mut l: Vec<String> = items.into_iter().filter_map(|i| i.learner).collect();
        l.sort();
        l.dedup();
        l
    };
    assert_eq!(
        who(needs_me(&store, Privacy::Names, CLASS, &class)
            .await
            .unwrap()),
        [A, B]
    );
    assert_eq!(
        who(needs_me(&store, Privacy::Names, CLASS, &group)
            .await
            .unwrap()),
        [A]
    );

    let req = |group: Option<&str>| ReportRequest {
        class_id: CLASS.into(),
        assignment_id: None,
        names: ReportNames::Anonymous,
        group: group.map(str::to_owned),
    };
    let r_class = report(&store, &req(None)).await.unwrap();
    let r_group = report(&store, &req(Some("Table 1"))).await.unwrap();
    assert_eq!(r_class.assignments[0].learners, 4);
    assert_eq!(r_group.assignments[0].learners, 2);
    assert_eq!(r_group.group.as_deref(), Some("Table 1"));
    let strips: Vec<_> = r_group.assignments[0]
        .students
        .iter()
        .map(|s| s.learner.as_str())
        .collect();
    assert_eq!(strips, [A, D]);
    assert!(
        report(&store, &req(Some("Nobody"))).await.is_err(),
        "an unknown group is refused"
    );
}

async fn the_evidence_suggests_groups_by_misconception_and_missed_standard(db: TestDb) {
    let store = class(&db).await;
    let suggested = store.suggested_groups(CLASS).await.unwrap();
    let by = |b: Basis| suggested.iter().find(|s| s.basis == b).cloned();
    let misconception = "bigger denominator means bigger fraction";
    let m = by(Basis::Misconception(misconception.into())).expect("the misconception's group");
    // C showed it once, but C's newest run is right and clean: not in the group.
    assert_eq!(m.learners, [A, B]);
    let missed = by(Basis::MissedStandard("CCSS.MATH.CONTENT.4.NF.A.2".into()))
        .expect("the missed standard's group");
    assert_eq!(missed.learners, [A, B]);
    assert_eq!(suggested.len(), 2, "{suggested:?}");
    // One click makes it.
    let made = store
        .save_group(CLASS, misconception, &m.learners)
        .await
        .unwrap();
    assert_eq!(made.learners, [A, B]);
}

async fn the_desk_names_each_requests_groups_for_a_group_answer(db: TestDb) {
    let store = class(&db).await;
    store
        .save_group(CLASS, "Table 1", &[A.into(), D.into()])
        .await
        .unwrap();
    store
        .save_group(CLASS, "Reading", &[A.into()])
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(20, "a2learn.assist", assist(A, "a7", "call-a", "help?")),
                frame(21, "a2learn.assist", assist(B, "b7", "call-b", "help?")),
            ],
        )
        .await
        .unwrap();
    let queue = a2learn_teacher::desk::Desk::new(&store)
        .queue(Some(CLASS))
        .await
        .unwrap();
    let groups_of = |call: &str| {
        queue
            .iter()
            .find(|r| r.call_id == call)
            .map(|r| r.groups.clone())
            .unwrap()
    };
    assert_eq!(groups_of("call-a"), ["Reading", "Table 1"]);
    assert!(groups_of("call-b").is_empty(), "B is in no group");
    // A room's view of the desk says nothing of the groups.
    let room = a2learn_teacher::desk::Desk::new(&store)
        .queue_as(Some(CLASS), Privacy::Projector { seed: 3 })
        .await
        .unwrap();
    assert!(room.iter().all(|r| r.groups.is_empty()));
}

/// `format`'s export of the class (or of `group`) as text.
async fn export_text(store: &Store, format: Format, group: Option<&str>) -> Result<String, String> {
    let mut req = ExportRequest::new(CLASS, format);
    req.group = group.map(str::to_owned);
    let mut out = std::io::Cursor::new(Vec::new());
    write_export(
        store,
        &req,
        &mut out,
        &mut |_| {},
        &CancellationToken::new(),
    )
    .await
    .map_err(|e| e.to_string())?;
    Ok(String::from_utf8(out.into_inner()).unwrap())
}

async fn a_groups_export_holds_its_learners_only(db: TestDb) {
    let store = class(&db).await;
    store
        .save_group(CLASS, "Table 1", &[A.into(), D.into()])
        .await
        .unwrap();
    let mentions = |text: &str, who: &str| text.contains(who);
    for format in [
        Format::Jsonl,
        Format::Csv,
        Format::StandardsCsv,
        Format::Xapi,
    ] {
        let class = export_text(&store, format, None).await.unwrap();
        let group = export_text(&store, format, Some("Table 1")).await.unwrap();
        // The control: the class's export names all four.
        for who in [A, B, C, D] {
            assert!(
                mentions(&class, who),
                "{format:?}: the class's export names {who}"
            );
        }
        for who in [A, D] {
            assert!(
                mentions(&group, who),
                "{format:?}: the group's export names {who}"
            );
        }
        for who in [B, C] {
            assert!(
                !mentions(&group, who),
                "{format:?}: {who} is not in the group"
            );
        }
    }
    // The knowledge map counts the group's learners.
    let map: Value = serde_json::from_str(
        &export_text(&store, Format::KnowledgeMap, Some("Table 1"))
            .await
            .unwrap(),
    )
    .unwrap();
    assert!(map.to_string().contains("\"learners\":2"), "{map}");
    let err = export_text(&store, Format::Csv, Some("Nobody"))
        .await
        .unwrap_err();
    assert!(err.contains("no group named"), "{err}");
}

async fn a_projected_screen_shows_no_group_name_that_names_someone(db: TestDb) {
    use a2learn_teacher::views::groups::groups_view;
    let store = class(&db).await;
    let roster = a2learn_teacher::roster::parse_roster_csv(
        "anonymous_id,display_name\nanon_aaaa0001,Quillon Brasswhistle\n",
    )
    .unwrap();
    store.import_roster(CLASS, &roster).await.unwrap();
    store
        .save_group(CLASS, "Quillon's table", &[A.into(), D.into()])
        .await
        .unwrap();
    let scope = Scope::of(&store, CLASS, Some("Quillon's table"))
        .await
        .unwrap();
    // The teacher's own screen: the name and the learners (the positive control).
    let own = groups_view(
        &store,
        Privacy::Names,
        CLASS,
        Some("Quillon's table".into()),
    )
    .await
    .unwrap();
    assert_eq!(own.groups[0].name, "Quillon's table");
    assert_eq!(own.groups[0].learners, [A, D]);
    let grid_own = grid(&store, Privacy::Names, CLASS, "as-1", None, &scope)
        .await
        .unwrap();
    assert_eq!(grid_own.group.as_deref(), Some("Quillon's table"));
    // Projector-safe: the group is there, its name and learners are not.
    let room = Privacy::Projector { seed: 5 };
    let projected = groups_view(&store, room, CLASS, Some("Quillon's table".into()))
        .await
        .unwrap();
    assert_eq!(projected.groups.len(), 1);
    assert_eq!(projected.groups[0].name, "a group");
    assert_eq!(projected.groups[0].size, 2);
    assert!(projected.groups[0].learners.is_empty() && projected.learners.is_empty());
    assert!(projected.suggested.is_empty());
    assert_eq!(projected.filter.as_deref(), Some("a group"));
    let grid_room = grid(&store, room, CLASS, "as-1", None, &scope)
        .await
        .unwrap();
    assert_eq!(grid_room.rows.len(), 2, "the grid is drawn, narrowed");
    assert_eq!(grid_room.group.as_deref(), Some("a group"));
    let text =
        serde_json::to_string(&projected).unwrap() + &serde_json::to_string(&grid_room).unwrap();
    assert!(!text.contains("Quillon"), "{text}");
}
