//! The class view's derivations over a real store: grid states from ingested events, evidence,
//! mastery with suppression, who needs me now, the query plans, and a class of 1,000 learners.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod support;

use a2learn_teacher::Store;
use a2learn_teacher::groups::Scope;
use a2learn_teacher::progress::attention::Reason;
use a2learn_teacher::progress::grid::{
    CellState, GRID_CALLS_SQL, GRID_RESULTS_SQL, GRID_STRUGGLES_SQL,
};
use a2learn_teacher::progress::suppression::Visibility;
use a2learn_teacher::store::RawPool;
use support::engines::{TestDb, on_both_engines, raw};
use support::*;

const CLASS: &str = "class-1";

async fn class_store(dir: &tempfile::TempDir) -> Store {
    let store = open_store(dir).await;
    fill_class_of(&store).await;
    store
}

/// The catalog, the class and its assignment, on a store of either engine.
async fn fill_class_of(store: &Store) {
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_class(CLASS, "Period 3", Some("QX7-42K"))
        .await
        .unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", None, None)
        .await
        .unwrap();
}

on_both_engines!(grid_states_follow_the_stored_events);

/// Grid states, evidence, who needs me, mastery and the timeline from one batch of events, on
/// either engine.
async fn grid_states_follow_the_stored_events(db: TestDb) {
    let store = db.store.clone();
    fill_class_of(&store).await;
    let registry = store.registry().await.unwrap();
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            completion("anon_correct01", "r1", Some(true)),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            completion("anon_wrong0001", "r2", Some(false)),
        ),
        frame(
            3,
            "a2learn.widget_completed",
            completion("anon_wrong0001", "r3", Some(false)),
        ),
        frame(
            4,
            "a2learn.widget_struggle",
            struggle("anon_strug0001", "r4", 3),
        ),
        frame(
            5,
            "a2learn.assist",
            assist("anon_helpme001", "r5", "call-1", "How do I start?"),
        ),
        frame(
            6,
            "a2learn.widget_completed",
            reflection("anon_correct01", "r6"),
        ),
    ];
    let outcome = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(outcome.quarantined, 0, "{outcome:?}");

    let grid = store.grid(CLASS, "as-1").await.unwrap();
    let steps: Vec<&str> = grid.steps.iter().map(|s| s.widget_id.as_str()).collect();
    assert_eq!(steps, vec!["w-compare", "w-reflect"]);
    let state = |learner: &str, col: usize| {
        grid.rows
            .iter()
            .find(|r| r.learner == learner)
            .unwrap_or_else(|| panic!("{learner} in the grid"))
            .cells[col]
            .state
    };
    assert_eq!(state("anon_correct01", 0), CellState::CompletedCorrect);
    assert_eq!(state("anon_correct01", 1), CellState::Completed);
    assert_eq!(state("anon_wrong0001", 0), CellState::CompletedIncorrect);
    assert_eq!(state("anon_wrong0001", 1), CellState::NotStarted);
    assert_eq!(state("anon_strug0001", 0), CellState::Struggling);
    assert_eq!(state("anon_helpme001", 0), CellState::WaitingForHelp);

    // The answer closes the request: the cell goes back to in progress (a call, no completion).
    let answer = frame(
        7,
        "a2learn.assist.response",
        assist_answer("call-1", "2027-01-15T07:59:00Z"),
    );
    store.ingest(CLASS, &registry, vec![answer]).await.unwrap();
    let grid = store.grid(CLASS, "as-1").await.unwrap();
    let helped = grid
        .rows
        .iter()
        .find(|r| r.learner == "anon_helpme001")
        .unwrap();
    assert_eq!(helped.cells[0].state, CellState::InProgress);

    // An assignment of another class is not found.
    assert!(store.grid("class-2", "as-1").await.is_err());

    // Evidence: prose and the structured result, newest first.
    let ev = store
        .evidence(CLASS, "p-fractions", "anon_wrong0001", "w-compare")
        .await
        .unwrap();
    assert_eq!(ev.results.len(), 2);
    assert_eq!(ev.results[0].correct, Some(false));
    assert_eq!(ev.results[0].attempts, 2);
    assert!(ev.results[0].prose.starts_with("Compared 3/4"));
    assert_eq!(ev.results[0].detail, "{}");

    // Who needs me now: the struggle and the repeated failures (the request was answered).
    let needs = store.needs_me(CLASS).await.unwrap();
    let reasons: Vec<(Reason, &str)> = needs
        .iter()
        .map(|n| (n.reason, n.learner.as_str()))
        .collect();
    assert_eq!(
        reasons,
        vec![
            (Reason::Struggling, "anon_strug0001"),
            (Reason::RepeatedFailures, "anon_wrong0001")
        ]
    );
    assert_eq!(needs[1].count, 2);

    // Mastery: 4 learners with results, fewer than k = 10: every figure hidden.
    let m = store.mastery(CLASS, 10).await.unwrap();
    assert_eq!(m.total.visibility, Visibility::Primary);
    assert!(m.standards.iter().all(|c| c.correct.is_none()));
    // With k = 1 (only as a control; the setting refuses it) the counts show.
    let m = store.mastery(CLASS, 1).await.unwrap();
    let compare = m
        .standards
        .iter()
        .find(|c| c.standard.as_deref() == Some("CCSS.MATH.CONTENT.4.NF.A.2"))
        .unwrap();
    assert_eq!(compare.summary, "1 of 3 correct");

    let t = store.timeline(CLASS).await.unwrap();
    let total: u32 = t.completions.iter().sum();
    assert_eq!(total, 4);
}

#[tokio::test]
async fn the_suppression_threshold_is_a_setting_within_range() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    assert_eq!(store.suppression_k().await.unwrap(), 10);
    assert_eq!(store.set_suppression_k(5).await.unwrap(), 5);
    assert_eq!(store.suppression_k().await.unwrap(), 5);
    assert!(store.set_suppression_k(4).await.is_err());
    assert!(store.set_suppression_k(31).await.is_err());
    assert_eq!(store.suppression_k().await.unwrap(), 5);
}

async fn plan(store: &Store, sql: &str, binds: usize) -> String {
    let mut q = sqlx::query_as::<_, (i64, i64, i64, String)>(Box::leak(
        format!("EXPLAIN QUERY PLAN {sql}").into_boxed_str(),
    ));
    for _ in 0..binds {
        q = q.bind("x");
    }
    let rows = q.fetch_all(store.sqlite().unwrap()).await.unwrap();
    rows.into_iter().map(|r| r.3).collect::<Vec<_>>().join("\n")
}

#[tokio::test]
async fn class_queries_never_scan_the_results() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let grid = plan(&store, GRID_RESULTS_SQL, 2).await;
    assert!(grid.contains("COVERING INDEX results_grid_cover"), "{grid}");
    assert!(
        !grid.contains("TEMP B-TREE"),
        "grouped in index order: {grid}"
    );
    for sql in [GRID_RESULTS_SQL, GRID_STRUGGLES_SQL, GRID_CALLS_SQL] {
        let p = plan(&store, sql, 2).await;
        assert!(!p.contains("SCAN"), "{sql}\n{p}");
    }
    let mastery = plan(
        &store,
        "SELECT standard, COUNT(*) FROM results WHERE class_id = ? GROUP BY standard",
        1,
    )
    .await;
    assert!(!mastery.contains("SCAN results"), "{mastery}");
    // Negative control: a query without the class does scan, and the check sees it.
    let scan = plan(&store, "SELECT COUNT(*) FROM results WHERE kind = ?", 1).await;
    assert!(scan.contains("SCAN"), "{scan}");
}

/// A class of 1,000 learners beside another class's results: the grid has every learner's row,
/// each with the results written for it. (How fast is `bench views`'s to say: timing is not a
/// test's on a shared machine.)
#[tokio::test]
async fn a_grid_of_a_thousand_learners_beside_another_class_has_every_row() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let per_class = 1_000_i64;
    let classes = 2;
    let mut tx = store.sqlite().unwrap().begin().await.unwrap();
    for c in 0..classes {
        let class_id = if c == 0 {
            CLASS.to_string()
        } else {
            format!("other-{c}")
        };
        // Learners, and two runs of each step for each (about 4 results per learner).
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1) \
             INSERT OR IGNORE INTO learners (class_id, learner, first_seen_at) \
             SELECT ?, printf('anon_l%06d', i), 0 FROM n",
        )
        .bind(per_class)
        .bind(&class_id)
        .execute(&mut *tx)
        .await
        .ok();
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? * 4 - 1) \
             INSERT INTO results (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
             standard, correct, attempts, hints, score, at_ms, seq) \
             SELECT ? || '-' || i, ?, 'p-fractions', CASE WHEN i % 2 = 0 THEN 'w-compare' \
             ELSE 'w-reflect' END, printf('anon_l%06d', i / 4), 'k', NULL, \
             CASE WHEN i % 2 = 0 THEN (i / 2) % 2 ELSE NULL END, 1, 0, NULL, i, NULL FROM n",
        )
        .bind(per_class)
        .bind(&class_id)
        .bind(&class_id)
        .execute(&mut *tx)
        .await
        .unwrap();
    }
    tx.commit().await.unwrap();
    // Written straight into the derived tables, not ingested: the grid's rollup is built here.
    store.rebuild_grid_rollup().await.unwrap();
    let grid = store.grid(CLASS, "as-1").await.unwrap();
    assert_eq!(grid.rows.len(), 1_000);
    assert!(
        grid.rows
            .iter()
            .all(|r| r.cells[0].state != CellState::NotStarted)
    );
}

on_both_engines!(grid_rows_are_the_whole_grids_rows_of_the_learners_named);

/// The rows a live change names are the whole grid's rows of those learners, placement and
/// all: the window patches them in and must draw what a whole reload would (on either engine:
/// each reads the learners' newest events through its own narrowing).
async fn grid_rows_are_the_whole_grids_rows_of_the_learners_named(db: TestDb) {
    use a2learn_teacher::progress::names::Privacy;
    use a2learn_teacher::views::class::{grid, grid_rows};
    let store = db.store.clone();
    fill_class_of(&store).await;
    let registry = store.registry().await.unwrap();
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            completion("anon_correct01", "r1", Some(true)),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            completion("anon_wrong0001", "r2", Some(false)),
        ),
        frame(
            3,
            "a2learn.widget_struggle",
            struggle("anon_strug0001", "r3", 3),
        ),
        frame(
            4,
            "a2learn.assist",
            assist("anon_helpme001", "r4", "call-1", "How do I start?"),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let whole = grid(&store, Privacy::Names, CLASS, "as-1", None, &Scope::Class)
        .await
        .unwrap();
    assert_eq!(whole.rows.len(), 4);
    let named = grid_rows(
        &store,
        Privacy::Names,
        CLASS,
        "as-1",
        vec![
            "anon_helpme001".into(),
            "anon_strug0001".into(),
            "anon_notinclass".into(),
        ],
        &Scope::Class,
    )
    .await
    .unwrap();
    let json = |rows: Vec<&a2learn_teacher::views::class::GridRowView>| {
        serde_json::to_value(rows).unwrap()
    };
    let want: Vec<_> = whole
        .rows
        .iter()
        .filter(|r| {
            matches!(
                r.learner.as_deref(),
                Some("anon_helpme001" | "anon_strug0001")
            )
        })
        .collect();
    assert_eq!(want.len(), 2);
    assert_eq!(
        json(named.rows.iter().collect()),
        json(want),
        "the same rows, in id order; a learner the class does not have is left out"
    );
    // Control: the rows of other learners differ from these (the comparison can fail).
    let others: Vec<_> = whole
        .rows
        .iter()
        .filter(|r| r.learner.as_deref() == Some("anon_correct01"))
        .collect();
    assert_ne!(json(named.rows.iter().take(1).collect()), json(others));
    assert_eq!(
        serde_json::to_value(&named.steps).unwrap(),
        serde_json::to_value(&whole.steps).unwrap()
    );

    // Projector-safe mode has no ids to match rows by: refused, nothing read.
    let refused = grid_rows(
        &store,
        Privacy::Projector { seed: 7 },
        CLASS,
        "as-1",
        vec!["anon_helpme001".into()],
        &Scope::Class,
    )
    .await;
    assert!(refused.is_err());
    // Too many at once is a whole reload's job.
    let many = (0..=a2learn_teacher::views::class::MAX_GRID_ROWS)
        .map(|i| format!("anon_{i}"))
        .collect();
    assert!(
        grid_rows(&store, Privacy::Names, CLASS, "as-1", many, &Scope::Class)
            .await
            .is_err()
    );
}

#[tokio::test]
async fn the_rows_of_some_learners_read_the_same_indexes() {
    use a2learn_teacher::progress::grid::{for_cells, for_learners};
    use a2learn_teacher::progress::steps::LAST_EVENT_SQL;
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    for sql in [
        GRID_RESULTS_SQL,
        GRID_STRUGGLES_SQL,
        GRID_CALLS_SQL,
        LAST_EVENT_SQL,
    ] {
        let narrowed = for_learners(sql);
        assert!(narrowed.contains("json_each($3)"), "{narrowed}");
        let p = plan(&store, &narrowed, 3).await;
        assert!(
            !p.contains("SCAN results")
                && !p.contains("SCAN struggles")
                && !p.contains("SCAN calls"),
            "{narrowed}\n{p}"
        );
    }
    // The rollup's refresh reads each touched cell at its key: learner and step both in the
    // index search, not the learner's whole row.
    for sql in [GRID_RESULTS_SQL, GRID_STRUGGLES_SQL, GRID_CALLS_SQL] {
        let cells = for_cells(sql);
        let p = plan(&store, &cells, 3).await;
        assert!(p.contains("learner=? AND widget_id=?"), "{cells}\n{p}");
    }
    // Control: narrowed by learner only, the step is not in the search.
    let p = plan(&store, &for_learners(GRID_RESULTS_SQL), 3).await;
    assert!(!p.contains("widget_id=?"), "{p}");
}

/// A roster import relabels every row: it tells the views to reload the class whole (a change
/// that names no learner), and a refused import tells them nothing.
#[tokio::test]
async fn a_roster_import_reloads_every_row_and_a_refused_one_nothing() {
    use a2learn_teacher::clock::SharedClock;
    use a2learn_teacher::live::Live;
    use a2learn_teacher::store::RowsTouched;
    use a2learn_teacher::views::class::import_roster;
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let clock: SharedClock =
        std::sync::Arc::new(a2learn_teacher::FixedClock::at(1_800_000_000_000));
    let (live, _, mut changes) = Live::new(store.clone(), clock);

    let refused = import_roster(&live, CLASS, "anonymous_id,display_name\n,Nobody\n")
        .await
        .unwrap();
    assert_eq!(refused.imported, 0);
    assert!(!refused.errors.is_empty());
    assert!(
        changes.try_recv().is_err(),
        "nothing stored, nothing to reload"
    );

    let out = import_roster(
        &live,
        CLASS,
        "anonymous_id,display_name\nanon_aaaa1111,Ada Lovelace\n",
    )
    .await
    .unwrap();
    assert_eq!(out.imported, 1);
    let change = changes.try_recv().expect("the views are told");
    assert_eq!(change.class_id, CLASS);
    assert!(change.changes.learners);
    assert_eq!(
        change.rows,
        RowsTouched::All,
        "every row, not the named ones"
    );
}

/// Seven learners in varied states, one with nothing stored (a snapshot's learner).
async fn seven_learners(store: &Store) {
    let registry = store.registry().await.unwrap();
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            completion("anon_a0000001", "r1", Some(true)),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            completion("anon_b0000002", "r2", Some(false)),
        ),
        frame(
            3,
            "a2learn.widget_struggle",
            struggle("anon_c0000003", "r3", 2),
        ),
        frame(
            4,
            "a2learn.assist",
            assist("anon_d0000004", "r4", "call-4", "How?"),
        ),
        frame(
            5,
            "a2learn.widget_completed",
            reflection("anon_e0000005", "r5"),
        ),
        frame(
            6,
            "a2learn.widget_completed",
            completion("anon_f0000006", "r6", Some(true)),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.quarantined, 0, "{out:?}");
    // A learner the snapshot named, with nothing stored.
    let sql =
        "INSERT INTO learners (class_id, learner, first_seen_at) VALUES ($1, 'anon_g0000007', 0)";
    match store.raw_pool() {
        RawPool::Sqlite(pool) => sqlx::query(sql).bind(CLASS).execute(pool).await.map(drop),
        RawPool::Postgres(pool) => sqlx::query(sql).bind(CLASS).execute(pool).await.map(drop),
    }
    .unwrap();
}

on_both_engines!(grid_pages_make_up_the_whole_grid_and_carry_the_class_totals);

/// A class read a page at a time: the pages in id order are the whole grid, each page carries
/// the class's totals, and those are the whole grid's counts of each state on each step.
async fn grid_pages_make_up_the_whole_grid_and_carry_the_class_totals(db: TestDb) {
    let store = db.store.clone();
    fill_class_of(&store).await;
    seven_learners(&store).await;
    let whole = store.grid(CLASS, "as-1").await.unwrap();
    assert_eq!(whole.rows.len(), 7);

    let mut after: Option<String> = None;
    let mut rows = Vec::new();
    let mut pages = 0;
    loop {
        let page = store
            .grid_page(CLASS, "as-1", after.as_deref(), 3)
            .await
            .unwrap();
        pages += 1;
        assert_eq!(page.learner_count, 7);
        assert!(page.grid.rows.len() <= 3);
        for (i, step) in whole.steps.iter().enumerate() {
            let totals = &page.totals[i];
            assert_eq!(totals.widget_id, step.widget_id);
            for state in CellState::ALL {
                let counted = whole
                    .rows
                    .iter()
                    .filter(|r| r.cells[i].state == state)
                    .count();
                assert_eq!(
                    totals.of(state) as usize,
                    counted,
                    "{} on {}",
                    state.as_str(),
                    step.widget_id
                );
            }
        }
        rows.extend(page.grid.rows);
        match page.next_after {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    assert_eq!(rows, whole.rows);
    // The totals see a state change (control: they are not the same figures whatever happens).
    let totals = |store: Store| async move {
        store
            .grid_page(CLASS, "as-1", None, 3)
            .await
            .unwrap()
            .totals[0]
            .clone()
    };
    let before = totals(store.clone()).await;
    let registry = store.registry().await.unwrap();
    store
        .ingest(
            CLASS,
            &registry,
            vec![frame(
                8,
                "a2learn.widget_completed",
                completion("anon_c0000003", "r8", Some(true)),
            )],
        )
        .await
        .unwrap();
    let after_change = totals(store.clone()).await;
    assert_eq!(
        after_change.of(CellState::Struggling),
        before.of(CellState::Struggling) - 1
    );
    assert_eq!(
        after_change.of(CellState::CompletedCorrect),
        before.of(CellState::CompletedCorrect) + 1
    );
}

/// The window's grid of a class bigger than a page: the first page, the cursor to the next in
/// the teacher's window, none on a room's screen (it is an id), the class totals in both.
#[tokio::test]
async fn the_grid_view_pages_a_big_class_and_gives_a_room_no_cursor() {
    use a2learn_teacher::progress::names::Privacy;
    use a2learn_teacher::views::class::{GRID_PAGE, grid};
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    seven_learners(&store).await;
    // Control: a class of seven comes whole.
    let small = grid(&store, Privacy::Names, CLASS, "as-1", None, &Scope::Class)
        .await
        .unwrap();
    assert!(!small.paged);
    assert_eq!((small.rows.len(), small.learner_count), (7, 7));
    assert_eq!(small.next_after, None);

    let more = GRID_PAGE as usize - 7 + 1;
    sqlx::query(
        "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ? - 1) \
         INSERT INTO learners (class_id, learner, first_seen_at) \
         SELECT ?, printf('anon_z%07d', i), 0 FROM n",
    )
    .bind(more as i64)
    .bind(CLASS)
    .execute(store.sqlite().unwrap())
    .await
    .unwrap();
    let first = grid(&store, Privacy::Names, CLASS, "as-1", None, &Scope::Class)
        .await
        .unwrap();
    assert!(first.paged);
    assert_eq!(first.rows.len(), GRID_PAGE as usize);
    assert_eq!(first.learner_count as u32, GRID_PAGE + 1);
    let next = first.next_after.clone().expect("a cursor");
    assert_eq!(
        Some(next.clone()),
        first.rows.last().and_then(|r| r.learner.clone())
    );
    // Done on the first step: a, b and f.
    assert_eq!(first.totals[0].done, 3);
    assert_eq!(first.totals[0].needs_teacher, 2, "struggling c, waiting d");
    assert_eq!(first.totals[0].not_started as u32, GRID_PAGE + 1 - 5);
    let last = grid(
        &store,
        Privacy::Names,
        CLASS,
        "as-1",
        Some(next),
        &Scope::Class,
    )
    .await
    .unwrap();
    assert_eq!(last.rows.len(), 1);
    assert_eq!(last.next_after, None);
    assert_eq!(last.totals[0].done, 3, "the class's totals on every page");

    let room = grid(
        &store,
        Privacy::Projector { seed: 7 },
        CLASS,
        "as-1",
        Some("anon_z0000100".into()),
        &Scope::Class,
    )
    .await
    .unwrap();
    assert!(room.paged);
    assert_eq!(room.next_after, None, "no id reaches a room's screen");
    assert_eq!(
        room.rows.len(),
        GRID_PAGE as usize,
        "a cursor from a room is not followed"
    );
    assert!(room.rows.iter().all(|r| r.learner.is_none()));
}

/// A school's PostgreSQL may collate text by a language (`anon_a` before `anon_B`); the learner
/// list, the grid's pages and the CSV export (which merges runs into learners in Rust's byte
/// order) still come in code point order, as on a teacher's SQLite file (the shared schema's text
/// is COLLATE "C", and the queries whose order Rust relies on say so too).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_language_collated_shared_store_keeps_code_point_order() {
    use a2learn_teacher::export::{ExportRequest, Format, write_export};
    let Some(db) = TestDb::open_language_collated().await else {
        return;
    };
    let store = &db.store;
    fill_class_of(store).await;
    let registry = store.registry().await.unwrap();
    let learners = ["anon_a0000001", "anon_B0000002", "anon_c0000003"];
    let batch = learners
        .iter()
        .enumerate()
        .map(|(i, learner)| {
            let seq = i as i64 + 1;
            let run = format!("r{seq}");
            frame(
                seq,
                "a2learn.widget_completed",
                completion(learner, &run, Some(true)),
            )
        })
        .collect();
    store.ingest(CLASS, &registry, batch).await.unwrap();

    // Control: the database itself sorts by the language, not by code point.
    let by_language: Vec<String> = raw!(db, |pool| sqlx::query_scalar(
        "SELECT learner FROM learners ORDER BY learner COLLATE \"default\""
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert_eq!(
        by_language,
        ["anon_a0000001", "anon_B0000002", "anon_c0000003"]
    );

    let code_point = ["anon_B0000002", "anon_a0000001", "anon_c0000003"];
    assert_eq!(store.learners(CLASS).await.unwrap(), code_point);
    let mut paged = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let page = store
            .grid_page(CLASS, "as-1", after.as_deref(), 1)
            .await
            .unwrap();
        paged.extend(page.grid.rows.into_iter().map(|r| r.learner));
        match page.next_after {
            Some(next) => after = Some(next),
            None => break,
        }
    }
    assert_eq!(paged, code_point, "each learner once, in code point order");

    // Every learner's run reaches its row of the CSV: a merge in the wrong order would drop it.
    let mut csv = std::io::Cursor::new(Vec::new());
    let req = ExportRequest::new(CLASS, Format::Csv);
    let never = tokio_util::sync::CancellationToken::new();
    write_export(store, &req, &mut csv, &mut |_| {}, &never)
        .await
        .unwrap();
    let csv = String::from_utf8(csv.into_inner()).unwrap();
    for learner in code_point {
        let row = csv
            .lines()
            .find(|l| l.starts_with(learner) && l.contains("w-compare"))
            .unwrap_or_else(|| panic!("{learner} in {csv}"));
        assert!(row.contains(",completed,true,"), "{row}");
    }
}

on_both_engines!(who_needs_me_and_the_mastery_counts);

/// "Who needs me", on either engine: a missed request first, then an open one, a struggle (its
/// newest failed checks), repeated failures; a struggle followed by a completion, failures
/// followed by a correct answer and an answered request are not listed. Then the same class's
/// mastery counts per standard and its timeline.
async fn who_needs_me_and_the_mastery_counts(db: TestDb) {
    let store = db.store.clone();
    fill_class_of(&store).await;
    let registry = store.registry().await.unwrap();
    let at = |mut v: serde_json::Value, at: &str| {
        v["at"] = at.into();
        v
    };
    // The store's clock is 08:00: a request whose deadline passed at 07:59 unanswered is missed.
    let mut missed = assist("anon_missed001", "r1", "call-missed", "Are you there?");
    missed["deadline"] = "2027-01-15T07:59:00Z".into();
    let batch = vec![
        frame(1, "a2learn.assist", missed),
        frame(
            2,
            "a2learn.assist",
            assist("anon_helpme001", "r2", "call-open", "How?"),
        ),
        frame(
            3,
            "a2learn.assist",
            assist("anon_helped001", "r3", "call-done", "Why?"),
        ),
        frame(
            4,
            "a2learn.assist.response",
            assist_answer("call-done", "2027-01-15T07:59:00Z"),
        ),
        frame(
            5,
            "a2learn.widget_struggle",
            at(struggle("anon_strug0001", "r5", 2), "2027-01-15T07:50:00Z"),
        ),
        frame(
            6,
            "a2learn.widget_struggle",
            at(struggle("anon_strug0001", "r6", 5), "2027-01-15T07:55:00Z"),
        ),
        // Struggled, then completed the step: not struggling any more.
        frame(
            7,
            "a2learn.widget_struggle",
            at(struggle("anon_recover01", "r7", 4), "2027-01-15T07:40:00Z"),
        ),
        frame(
            8,
            "a2learn.widget_completed",
            at(
                completion("anon_recover01", "r8", Some(true)),
                "2027-01-15T07:45:00Z",
            ),
        ),
        frame(
            9,
            "a2learn.widget_completed",
            at(
                completion("anon_wrong0001", "r9", Some(false)),
                "2027-01-15T07:41:00Z",
            ),
        ),
        frame(
            10,
            "a2learn.widget_completed",
            at(
                completion("anon_wrong0001", "r10", Some(false)),
                "2027-01-15T07:42:00Z",
            ),
        ),
        // Wrong twice, then right: not repeated failures.
        frame(
            11,
            "a2learn.widget_completed",
            at(
                completion("anon_fixed001", "r11", Some(false)),
                "2027-01-15T07:41:00Z",
            ),
        ),
        frame(
            12,
            "a2learn.widget_completed",
            at(
                completion("anon_fixed001", "r12", Some(false)),
                "2027-01-15T07:42:00Z",
            ),
        ),
        frame(
            13,
            "a2learn.widget_completed",
            at(
                completion("anon_fixed001", "r13", Some(true)),
                "2027-01-15T07:43:00Z",
            ),
        ),
        frame(
            14,
            "a2learn.widget_completed",
            reflection("anon_recover01", "r14"),
        ),
    ];
    let outcome = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(outcome.quarantined, 0, "{outcome:?}");

    let needs = store.needs_me(CLASS).await.unwrap();
    let listed: Vec<(Reason, &str, u32)> = needs
        .iter()
        .map(|n| (n.reason, n.learner.as_str(), n.count))
        .collect();
    assert_eq!(
        listed,
        vec![
            (Reason::FollowUp, "anon_missed001", 0),
            (Reason::HelpRequest, "anon_helpme001", 0),
            (Reason::Struggling, "anon_strug0001", 5),
            (Reason::RepeatedFailures, "anon_wrong0001", 2),
        ]
    );
    // The struggle's time is its newest (07:55, not 07:50).
    assert_eq!(needs[2].since_ms, 1_799_999_700_000);

    // Mastery's counts: six checked completions of the compare step (two correct, 2 attempts
    // and 1 hint each, three learners), and the reflection, which has no standard, last.
    let (standards, total) = store.standard_counts(CLASS).await.unwrap();
    let figures = |c: &a2learn_teacher::progress::mastery::StandardCounts| {
        (
            c.standard.clone(),
            c.results,
            c.checked,
            c.correct,
            c.attempts,
            c.hints,
            c.learners,
        )
    };
    let compare = Some("CCSS.MATH.CONTENT.4.NF.A.2".to_string());
    assert_eq!(
        standards.iter().map(figures).collect::<Vec<_>>(),
        vec![(compare, 6, 6, 2, 12, 6, 3), (None, 1, 0, 0, 0, 0, 1)]
    );
    assert_eq!(figures(&total), (None, 7, 6, 2, 12, 6, 3));

    // The timeline counts the ledger's frames by kind (the store's fixed clock: one bucket).
    let t = store.timeline(CLASS).await.unwrap();
    let sum = |v: &[u32]| v.iter().sum::<u32>();
    assert_eq!(
        (
            sum(&t.completions),
            sum(&t.struggles),
            sum(&t.help_requests),
            sum(&t.other)
        ),
        (7, 3, 3, 1)
    );
    assert!(t.starts_ms.windows(2).all(|w| w[0] < w[1]));
}

on_both_engines!(misconceptions_are_read_from_text_only);

/// The knowledge map's misconceptions come from a completion's `detail.misconception` where it
/// is text, read by each engine's own JSON functions: a number and blank text are not one.
async fn misconceptions_are_read_from_text_only(db: TestDb) {
    let store = db.store.clone();
    fill_class_of(&store).await;
    let registry = store.registry().await.unwrap();
    let showed = |learner: &str, run: &str, misconception: serde_json::Value| {
        let mut v = completion(learner, run, Some(false));
        v["widget_result"]["detail"] = serde_json::json!({ "misconception": misconception });
        v
    };
    let named = "bigger denominator, bigger fraction";
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            showed("anon_miss0001", "r1", named.into()),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            showed("anon_miss0002", "r2", format!("  {named} ").into()),
        ),
        frame(
            3,
            "a2learn.widget_completed",
            showed("anon_number01", "r3", 5.into()),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            showed("anon_blank001", "r4", "   ".into()),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.stored, 4, "{out:?}");
    let knowledge = store.class_knowledge(CLASS).await.unwrap();
    let shown: Vec<(&str, &str, Vec<&str>)> = knowledge
        .misconceptions
        .iter()
        .map(|((standard, name), who)| {
            (
                standard.as_str(),
                name.as_str(),
                who.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        shown,
        vec![(
            "CCSS.MATH.CONTENT.4.NF.A.2",
            named,
            vec!["anon_miss0001", "anon_miss0002"]
        )]
    );
    // Every learner with an event is placed on the standard.
    assert_eq!(knowledge.states["CCSS.MATH.CONTENT.4.NF.A.2"].len(), 4);
}
