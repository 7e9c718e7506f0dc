//! Ingest on a real SQLite file and a real PostgreSQL database: frames in, ledger + derived
//! tables + quarantine + cursor out.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use a2learn_teacher::room::RoomState;
use a2learn_teacher::store::Incoming;
use serde_json::json;
use support::engines::{TestDb, on_both_engines, raw};
use support::*;

const CLASS: &str = "class-1";

on_both_engines!(
    accepted_events_reach_the_ledger_results_and_cursor,
    redelivered_frames_change_nothing,
    bad_frames_are_quarantined_with_their_rule_and_the_stream_goes_on,
    quarantine_keeps_a_bounded_copy_of_huge_frames,
    calls_open_answer_and_refuse_late_or_double_answers,
    backfill_then_feed_counts_each_result_once,
    one_event_whichever_way_it_came,
    rebuild_equals_live,
    the_rollup_kept_by_arithmetic_is_the_rollup_rebuilt,
    a_rollup_from_before_the_cell_facts_is_rebuilt_when_the_store_opens,
    a_store_from_before_payloads_were_kept_once_keeps_every_payload,
    a_store_from_before_calls_kept_their_payloads_keeps_every_request_and_answer,
    two_classes_that_reuse_a_run_id_keep_both_results,
    two_classes_that_reuse_a_call_id_keep_both_calls,
    one_batch_closes_and_claims_many_earlier_calls,
    a_batch_names_the_learners_whose_rows_it_changed,
    diagnostics_list_quarantine_and_class_counts,
    room_state_follows_the_snapshot_then_the_echoes_in_feed_order,
);

/// A class and the catalog on a fresh store of either engine.
async fn ready(db: &TestDb) -> (&a2learn_teacher::Store, a2learn_contract::Registry) {
    let store = &db.store;
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    let registry = store.registry().await.unwrap();
    (store, registry)
}

/// Ingests one completion as backfill (what `get_pathway_results` returned), outside the feed.
async fn backfill_completion(
    store: &a2learn_teacher::Store,
    registry: &a2learn_contract::Registry,
    payload: serde_json::Value,
) {
    let message: a2learn_contract::Message = serde_json::from_value(json!({
        "verb": "a2learn.widget_completed",
        "payload": payload
    }))
    .unwrap();
    let out = store
        .ingest(
            CLASS,
            registry,
            vec![Incoming::backfill_message(&message).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!(out.stored, 1, "{out:?}");
}

async fn count(store: &a2learn_teacher::Store, sql: &str) -> i64 {
    sqlx::query_scalar(sql)
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap()
}

async fn accepted_events_reach_the_ledger_results_and_cursor(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            completion("anon_aaaa1111", "run-1", Some(true)),
        ),
        frame(
            2,
            "a2learn.widget_completed",
            reflection("anon_aaaa1111", "run-2"),
        ),
        frame(
            3,
            "a2learn.widget_struggle",
            struggle("anon_bbbb2222", "run-3", 3),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(
        (out.stored, out.quarantined, out.duplicates),
        (3, 0, 0),
        "{out:?}"
    );
    assert_eq!(out.last_seq, Some(3));
    assert!(out.changes.results && out.changes.struggles && out.changes.learners);
    assert_eq!(store.cursor(CLASS).await.unwrap(), Some(3));
    assert_eq!(db.count("SELECT COUNT(*) FROM ledger").await, 3);
    assert_eq!(db.count("SELECT COUNT(*) FROM results").await, 2);
    assert!(
        db.flag("SELECT correct FROM results WHERE widget_run_id = 'run-1'")
            .await
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM results WHERE widget_run_id = 'run-2' AND correct IS NULL")
            .await,
        1,
        "a non-assessing completion has no verdict"
    );
    assert_eq!(
        store.learners(CLASS).await.unwrap(),
        vec!["anon_aaaa1111", "anon_bbbb2222"]
    );
}

async fn redelivered_frames_change_nothing(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = || {
        vec![
            frame(
                1,
                "a2learn.widget_completed",
                completion("anon_aaaa1111", "run-1", Some(true)),
            ),
            frame(
                2,
                "a2learn.assist",
                assist("anon_aaaa1111", "run-9", "call-1", "Why?"),
            ),
        ]
    };
    store.ingest(CLASS, &registry, batch()).await.unwrap();
    let before = db.derived_dump().await;
    // The same frames again (a replay), and a batch that repeats a frame within itself.
    let again = store.ingest(CLASS, &registry, batch()).await.unwrap();
    assert_eq!(
        (again.stored, again.duplicates, again.quarantined),
        (0, 2, 0),
        "{again:?}"
    );
    let mut doubled = batch();
    doubled.push(frame(
        3,
        "a2learn.widget_completed",
        reflection("anon_aaaa1111", "run-2"),
    ));
    doubled.push(frame(
        3,
        "a2learn.widget_completed",
        reflection("anon_aaaa1111", "run-2"),
    ));
    let out = store.ingest(CLASS, &registry, doubled).await.unwrap();
    assert_eq!((out.stored, out.duplicates), (1, 3), "{out:?}");
    assert_eq!(db.count("SELECT COUNT(*) FROM ledger").await, 3);
    assert_eq!(db.count("SELECT COUNT(*) FROM results").await, 2);
    assert_ne!(
        before,
        db.derived_dump().await,
        "the one new frame did land"
    );
}

async fn bad_frames_are_quarantined_with_their_rule_and_the_stream_goes_on(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let mut verdict = reflection("anon_aaaa1111", "run-5");
    verdict["widget_result"]["correct"] = json!(true);
    verdict["widget_result"]["attempts"] = json!(1);
    let mut email = completion("anon_aaaa1111", "run-6", Some(true));
    email["prose"] = json!("Sent her work to jane.doe@example.org for review.");
    let batch = vec![
        raw_frame(Some(1), "{not json"),
        raw_frame(
            Some(2),
            r#"{"type":"CUSTOM","name":"a2learn.widget_completed"}"#,
        ),
        frame(3, "a2learn.widget_completed", verdict),
        frame(4, "a2learn.widget_completed", email),
        frame(
            5,
            "a2learn.widget_completed",
            completion("Jane Doe", "run-7", Some(true)),
        ),
        frame(
            6,
            "a2learn.widget_completed",
            completion("anon_aaaa1111", "run-8", Some(true)),
        ),
        frame(
            7,
            "a2learn.widget_completed",
            completion("anon_aaaa1111", "run-8", Some(false)),
        ),
        frame(
            8,
            "a2learn.widget_struggle",
            struggle("anon_aaaa1111", "run-8", 3),
        ),
        frame(9, "a2learn.future_verb", json!({"anything": 1})),
        raw_frame(
            Some(10),
            r#"{"type":"TEXT_MESSAGE_START","messageId":"m1","role":"assistant"}"#,
        ),
        raw_frame(
            Some(11),
            r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{}}"#,
        ),
        frame(
            12,
            "a2learn.widget_completed",
            completion("anon_cccc3333", "run-12", Some(false)),
        ),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(
        out.last_seq,
        Some(12),
        "the cursor passes quarantined and ignored frames"
    );
    assert_eq!(out.ignored, 2, "{out:?}");
    assert_eq!(
        out.stored, 2,
        "run-8's first completion and seq 12: {out:?}"
    );
    let rules: Vec<(i64, String)> = raw!(db, |pool| sqlx::query_as(
        "SELECT seq, rule_id FROM quarantine ORDER BY seq"
    )
    .fetch_all(pool)
    .await
    .unwrap());
    let expected = [
        (1, "bad-frame"),
        (2, "bad-frame"),
        (3, "verdict-not-assessing"),
        (4, "pii-in-payload"),
        (5, "non-anonymous-id"),
        (7, "second-completion"),
        (8, "struggle-after-completion"),
        (11, "bad-frame"),
    ];
    let got: Vec<(i64, &str)> = rules.iter().map(|(s, r)| (*s, r.as_str())).collect();
    assert_eq!(got, expected);
    // Negative control: the good frames around the bad ones are stored.
    assert_eq!(
        db.count("SELECT COUNT(*) FROM results WHERE widget_run_id IN ('run-8','run-12')")
            .await,
        2
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM learners WHERE learner = 'Jane Doe'")
            .await,
        0
    );
}

async fn quarantine_keeps_a_bounded_copy_of_huge_frames(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let huge = format!(
        "{{\"type\":\"CUSTOM\",\"name\":\"a2learn.widget_completed\",\"value\":\"{}\"}}",
        "é".repeat(500_000)
    );
    store
        .ingest(CLASS, &registry, vec![raw_frame(Some(1), &huge)])
        .await
        .unwrap();
    let (raw, bytes): (String, i64) = raw!(db, |pool| sqlx::query_as(
        "SELECT raw, raw_bytes FROM quarantine"
    )
    .fetch_one(pool)
    .await
    .unwrap());
    assert!(raw.len() <= a2learn_teacher::store::QUARANTINE_RAW_BYTES);
    assert_eq!(bytes as usize, huge.len());
}

async fn calls_open_answer_and_refuse_late_or_double_answers(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = vec![
        frame(
            1,
            "a2learn.assist",
            assist("anon_aaaa1111", "run-1", "call-1", "<b>help</b>"),
        ),
        frame(
            2,
            "a2learn.host.call_claimed",
            json!({"call_id": "call-1", "claimed_by": "t-1f3a"}),
        ),
        frame(
            3,
            "a2learn.assist.response",
            assist_answer("call-1", "2027-01-15T08:01:00Z"),
        ),
        frame(
            4,
            "a2learn.assist.response",
            assist_answer("call-1", "2027-01-15T08:02:00Z"),
        ),
        frame(
            5,
            "a2learn.assist",
            assist("anon_aaaa1111", "run-2", "call-2", "And this?"),
        ),
        frame(
            6,
            "a2learn.assist.response",
            assist_answer("call-2", "2027-01-15T09:00:00Z"),
        ),
        frame(
            7,
            "a2learn.assist.response",
            assist_answer("call-404", "2027-01-15T08:01:00Z"),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let calls: Vec<(String, String, Option<String>)> = raw!(db, |pool| sqlx::query_as(
        "SELECT call_id, state, claimed_by FROM calls ORDER BY call_id"
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert_eq!(
        calls,
        vec![
            ("call-1".into(), "answered".into(), Some("t-1f3a".into())),
            ("call-2".into(), "open".into(), None),
        ]
    );
    let rules: Vec<String> = raw!(db, |pool| sqlx::query_scalar(
        "SELECT rule_id FROM quarantine ORDER BY seq"
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert_eq!(
        rules,
        vec!["already-answered", "late-response", "unknown-call"]
    );

    // The host's timeout closes the late call, in a later batch (state from the store).
    let timeout = json!({"call_id": "call-2", "at": "2027-01-15T08:03:00Z",
                         "error": {"code": "timeout", "message": "nobody answered in time"}});
    store
        .ingest(
            CLASS,
            &registry,
            vec![frame(8, "a2learn.assist.response", timeout)],
        )
        .await
        .unwrap();
    let state: String = raw!(db, |pool| sqlx::query_scalar(
        "SELECT state FROM calls WHERE call_id = 'call-2'"
    )
    .fetch_one(pool)
    .await
    .unwrap());
    assert_eq!(state, "expired");
}

async fn backfill_then_feed_counts_each_result_once(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let message: a2learn_contract::Message = serde_json::from_value(json!({
        "verb": "a2learn.widget_completed",
        "payload": completion("anon_aaaa1111", "run-1", Some(true))
    }))
    .unwrap();
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![Incoming::backfill_message(&message).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!(out.stored, 1);
    assert_eq!(out.last_seq, None, "backfill does not move the cursor");
    // The feed now replays the same completion, then a different one for the same run.
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(
                    1,
                    "a2learn.widget_completed",
                    completion("anon_aaaa1111", "run-1", Some(true)),
                ),
                frame(
                    2,
                    "a2learn.widget_completed",
                    completion("anon_aaaa1111", "run-1", Some(false)),
                ),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        out.stored, 1,
        "the replayed event is in the ledger: {out:?}"
    );
    assert_eq!(
        out.quarantined, 1,
        "a different second completion is still a violation"
    );
    assert_eq!(db.count("SELECT COUNT(*) FROM results").await, 1);
    assert_eq!(
        db.count("SELECT seq FROM results").await,
        1,
        "first seen by backfill, then placed by the feed"
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM backfill").await,
        0,
        "its payload is kept once: the ledger's row of seq 1"
    );
    // A second backfill of the same result is a duplicate.
    let again = store
        .ingest(
            CLASS,
            &registry,
            vec![Incoming::backfill_message(&message).unwrap()],
        )
        .await
        .unwrap();
    assert_eq!((again.stored, again.duplicates), (0, 1));
}

/// A host whose `get_pathway_results` returns exactly what its feed carried, broken payloads
/// included: a struggle and its completion in the same second, a completion whose prose is
/// blank, a struggle that is not one. Each is one event, whichever way it came: the results take
/// the feed's seqs (and so its order: the learner knows it), and each broken payload is kept
/// aside once, under the feed's seq.
async fn one_event_whichever_way_it_came(db: TestDb) {
    const COMPLETED: &str = "a2learn.widget_completed";
    const STRUGGLE: &str = "a2learn.widget_struggle";
    const STANDARD: &str = "CCSS.MATH.CONTENT.4.NF.A.2";
    let (store, registry) = ready(&db).await;
    let done = completion("anon_aaaa1111", "run-1", Some(true));
    let mut struggled = struggle("anon_aaaa1111", "run-1", 3);
    struggled["at"] = done["at"].clone();
    struggled["standard"] = json!(STANDARD);
    let mut blank = completion("anon_bbbb2222", "run-2", Some(true));
    blank["prose"] = json!("   ");
    let not_a_struggle = json!({"prose": "no identity at all"});
    let backfill = || {
        vec![
            Incoming::backfill(STRUGGLE, &struggled),
            Incoming::backfill(COMPLETED, &done),
            Incoming::backfill(COMPLETED, &blank),
            Incoming::backfill(STRUGGLE, &not_a_struggle),
        ]
    };
    let out = store.ingest(CLASS, &registry, backfill()).await.unwrap();
    assert_eq!((out.stored, out.quarantined), (2, 2), "{out:?}");
    let again = store.ingest(CLASS, &registry, backfill()).await.unwrap();
    assert_eq!((again.stored, again.quarantined), (0, 0), "{again:?}");

    // The feed, from the start (a first connection has no Last-Event-ID).
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(1, STRUGGLE, struggled.clone()),
                frame(2, COMPLETED, done.clone()),
                frame(3, COMPLETED, blank.clone()),
                frame(4, STRUGGLE, not_a_struggle.clone()),
            ],
        )
        .await
        .unwrap();
    assert_eq!(out.last_seq, Some(4));
    assert_eq!(
        out.quarantined, 0,
        "nothing kept aside a second time: {out:?}"
    );
    assert_eq!(db.count("SELECT COUNT(*) FROM quarantine").await, 2);
    assert_eq!(
        db.count("SELECT COUNT(*) FROM quarantine WHERE seq IN (3, 4)")
            .await,
        2,
        "each broken payload under the feed's seq"
    );
    assert_eq!(db.count("SELECT seq FROM struggles").await, 1);
    assert_eq!(db.count("SELECT seq FROM results").await, 2);
    assert_eq!(db.count("SELECT COUNT(*) FROM backfill").await, 0);
    let knowledge = store.class_knowledge(CLASS).await.unwrap();
    assert_eq!(
        knowledge.states[STANDARD]["anon_aaaa1111"],
        a2learn_teacher::progress::knowledge::NodeState::Known,
        "the completion came after the struggle"
    );

    // The control: a different broken payload from the feed is a new rejection.
    let mut other = blank.clone();
    other["widget_run_id"] = json!("run-3");
    let out = store
        .ingest(CLASS, &registry, vec![frame(5, COMPLETED, other)])
        .await
        .unwrap();
    assert_eq!(out.quarantined, 1);
    assert_eq!(db.count("SELECT COUNT(*) FROM quarantine").await, 3);
}

async fn rebuild_equals_live(db: TestDb) {
    let (store, registry) = ready(&db).await;
    backfill_completion(
        store,
        &registry,
        completion("anon_dddd4444", "run-0", Some(false)),
    )
    .await;
    let mut seqs = 1_i64..;
    for i in 0..30 {
        let learner = format!("anon_learner{i:02}");
        let mut batch = Vec::new();
        let mut next_seq = || seqs.next().unwrap();
        batch.push(frame(
            next_seq(),
            "a2learn.widget_struggle",
            struggle(&learner, &format!("run-{i}-a"), 2),
        ));
        batch.push(frame(
            next_seq(),
            "a2learn.assist",
            assist(
                &learner,
                &format!("run-{i}-a"),
                &format!("call-{i}"),
                "How?",
            ),
        ));
        if i % 2 == 0 {
            batch.push(frame(
                next_seq(),
                "a2learn.assist.response",
                assist_answer(&format!("call-{i}"), "2027-01-15T08:00:00Z"),
            ));
        }
        if i % 3 == 0 {
            batch.push(frame(
                next_seq(),
                "a2learn.host.call_claimed",
                json!({"call_id": format!("call-{i}"), "claimed_by": "t-9"}),
            ));
        }
        batch.push(frame(
            next_seq(),
            "a2learn.widget_completed",
            completion(&learner, &format!("run-{i}-a"), Some(i % 4 == 0)),
        ));
        batch.push(frame(
            next_seq(),
            "a2learn.widget_completed",
            reflection(&learner, &format!("run-{i}-b")),
        ));
        batch.push(raw_frame(Some(next_seq()), "garbage"));
        store.ingest(CLASS, &registry, batch).await.unwrap();
    }
    let live = db.derived_dump().await;
    assert!(
        live.len() > 100,
        "a store worth rebuilding: {} rows",
        live.len()
    );
    let out = store.rebuild().await.unwrap();
    assert_eq!(out.backfill, 1);
    assert_eq!(
        out.ledger as usize,
        db.count("SELECT COUNT(*) FROM ledger").await as usize
    );
    assert_eq!(db.derived_dump().await, live, "rebuild == live");
    // The rollup is part of the dump: a cell that drifted from its facts is seen.
    db.execute("UPDATE grid_cells SET state = 'completed' WHERE learner = 'anon_learner01'")
        .await;
    assert_ne!(db.derived_dump().await, live, "a drifted rollup is seen");
    store.rebuild().await.unwrap();
    assert_eq!(db.derived_dump().await, live, "and rebuilt");
    // Negative control: the dump does see a difference when the derived tables differ.
    db.execute("DELETE FROM results WHERE widget_run_id = 'run-0'")
        .await;
    assert_ne!(db.derived_dump().await, live);
}

/// Each batch folds what it inserted into the grid's cells by arithmetic; a rebuild computes
/// them from the derived tables. The two agree where the order is subtle: completions at the
/// same millisecond (the incorrect one decides, whichever came first), a completion older than
/// the cell's newest, a struggle then a completion, and a run delivered again (counted once).
async fn the_rollup_kept_by_arithmetic_is_the_rollup_rebuilt(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let at = |mut v: serde_json::Value, at: &str| {
        v["at"] = json!(at);
        v
    };
    let batches = [
        vec![
            completion("anon_tiea0001", "r1", Some(true)),
            completion("anon_tieb0002", "r3", Some(false)),
            completion("anon_tiec0003", "r5", None),
            at(struggle("anon_strd0004", "r7", 3), "2027-01-15T08:00:00Z"),
            completion("anon_olde0005", "r9", Some(true)),
        ],
        vec![
            completion("anon_tiea0001", "r2", Some(false)),
            completion("anon_tieb0002", "r4", Some(true)),
            completion("anon_tiec0003", "r6", Some(true)),
            at(
                completion("anon_strd0004", "r8", Some(true)),
                "2027-01-15T08:00:01Z",
            ),
            at(
                completion("anon_olde0005", "r10", Some(false)),
                "2027-01-15T07:00:00Z",
            ),
        ],
        // Delivered again under new seqs: stored once, counted once.
        vec![
            completion("anon_tiea0001", "r1", Some(true)),
            completion("anon_tieb0002", "r4", Some(true)),
        ],
    ];
    let mut seq = 0;
    for batch in batches {
        let frames = batch
            .into_iter()
            .map(|value| {
                seq += 1;
                let name = if value.get("widget_result").is_some() {
                    "a2learn.widget_completed"
                } else {
                    "a2learn.widget_struggle"
                };
                frame(seq, name, value)
            })
            .collect();
        store.ingest(CLASS, &registry, frames).await.unwrap();
    }
    let cell = |learner: &'static str| {
        let db = &db;
        async move {
            let sql = format!(
                "SELECT state || ' ' || completions || ' ' || incorrect FROM grid_cells \
                 WHERE learner = '{learner}' AND widget_id = 'w-compare'"
            );
            raw!(db, |pool| sqlx::query_scalar::<_, String>(&sql)
                .fetch_one(pool)
                .await)
            .unwrap()
        }
    };
    let expected = [
        ("anon_tiea0001", "completed_incorrect 2 1"),
        ("anon_tieb0002", "completed_incorrect 2 1"),
        ("anon_tiec0003", "completed_correct 2 0"),
        ("anon_strd0004", "completed_correct 1 0"),
        ("anon_olde0005", "completed_correct 2 1"),
    ];
    for (learner, state) in expected {
        assert_eq!(cell(learner).await, state, "{learner}, kept live");
    }
    let live = db.derived_dump().await;
    store.rebuild_grid_rollup().await.unwrap();
    assert_eq!(
        db.derived_dump().await,
        live,
        "rebuilt == kept by arithmetic"
    );
    for (learner, state) in expected {
        assert_eq!(cell(learner).await, state, "{learner}, rebuilt");
    }
    // Control: the dump sees a cell whose facts drifted, not only its state.
    db.execute("UPDATE grid_cells SET last_struggle_at = 0 WHERE learner = 'anon_tiea0001'")
        .await;
    assert_ne!(db.derived_dump().await, live);
}

/// A store written before the cell facts (its rollup cells without them) gets the facts when it
/// next opens, on either engine: the migration adds the columns and leaves the rollup to build,
/// and the first open builds it as a rebuild would.
async fn a_rollup_from_before_the_cell_facts_is_rebuilt_when_the_store_opens(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = vec![
        frame(
            1,
            "a2learn.widget_struggle",
            struggle("anon_aaaa1111", "r1", 2),
        ),
        frame(
            2,
            "a2learn.assist",
            assist("anon_aaaa1111", "r1", "c1", "How?"),
        ),
        frame(
            3,
            "a2learn.widget_completed",
            completion("anon_bbbb2222", "r2", Some(false)),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            reflection("anon_bbbb2222", "r3"),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let live = db.derived_dump().await;
    let newest = store.schema_version().await.unwrap();
    // The cell facts' migration is undone under the newer ones: sqlx applies a migration it
    // finds unrecorded, whatever its place.
    const CELL_FACTS: i64 = 20261204000001;
    assert!(newest >= CELL_FACTS);

    for column in [
        "last_completed_at",
        "last_correct",
        "last_struggle_at",
        "open_assist",
        "follow_up",
        "calls",
    ] {
        db.execute(&format!("ALTER TABLE grid_cells DROP COLUMN {column}"))
            .await;
    }
    if db.engine == support::engines::Engine::Postgres {
        db.execute("DROP TABLE rollups_pending").await;
    }
    db.execute(&format!(
        "DELETE FROM _sqlx_migrations WHERE version = {CELL_FACTS}"
    ))
    .await;
    assert_ne!(db.derived_dump().await, live, "control: the facts are gone");

    let reopened = db.teacher_store().await;
    assert_eq!(reopened.schema_version().await.unwrap(), newest);
    assert_eq!(db.count("SELECT COUNT(*) FROM rollups_pending").await, 0);
    assert_eq!(
        db.derived_dump().await,
        live,
        "built as live ingest kept it"
    );
    reopened.close().await;
}

/// Each result's and struggle's payload, with the result's response: what the readers get.
async fn payloads_as_read(db: &TestDb) -> Vec<String> {
    let sql = "SELECT widget_run_id || '|' || payload || '|' || COALESCE(response, '-') \
               FROM results_with_payload UNION ALL \
               SELECT widget_run_id || '|' || payload FROM struggles_with_payload ORDER BY 1";
    raw!(db, |pool| sqlx::query_scalar(sql).fetch_all(pool).await)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// A store written while the derived tables kept their own payload copies, on either engine:
/// the migration keeps every payload as the readers saw it (from the ledger, from backfill, or,
/// for a row the ledger does not match, from its own copy moved to backfill) and each response.
async fn a_store_from_before_payloads_were_kept_once_keeps_every_payload(db: TestDb) {
    let (store, registry) = ready(&db).await;
    backfill_completion(
        store,
        &registry,
        completion("anon_cccc3333", "r0", Some(false)),
    )
    .await;
    let mut answered = completion("anon_aaaa1111", "r1", Some(true));
    answered["widget_result"]["detail"] = json!({ "response": "3/4 > 2/3" });
    let batch = vec![
        frame(1, "a2learn.widget_completed", answered),
        frame(
            2,
            "a2learn.widget_completed",
            reflection("anon_aaaa1111", "r2"),
        ),
        frame(
            3,
            "a2learn.widget_struggle",
            struggle("anon_bbbb2222", "r3", 2),
        ),
        frame(
            4,
            "a2learn.widget_completed",
            completion("anon_bbbb2222", "r4", None),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let newest = store.schema_version().await.unwrap();
    let before = payloads_as_read(&db).await;
    assert_eq!(before.len(), 5, "{before:?}");
    assert!(
        before
            .iter()
            .any(|p| p.starts_with("r1|") && p.ends_with("|3/4 > 2/3"))
    );

    // Undo the migration (under the newer ones, as sqlx applies a migration it finds
    // unrecorded): each derived row gets its copy back, as the release before it wrote it.
    const PAYLOAD_ONCE: i64 = 20261205000001;
    assert!(newest >= PAYLOAD_ONCE);
    for undo in [
        "DROP VIEW results_with_payload",
        "DROP VIEW struggles_with_payload",
        "ALTER TABLE results DROP COLUMN response",
        "ALTER TABLE results ADD COLUMN payload TEXT",
        "ALTER TABLE struggles ADD COLUMN payload TEXT",
        "UPDATE results SET payload = COALESCE(\
         (SELECT b.payload FROM backfill b WHERE b.class_id = results.class_id \
          AND b.widget_run_id = results.widget_run_id), \
         (SELECT l.payload FROM ledger l WHERE l.class_id = results.class_id \
          AND l.seq = results.seq))",
        "UPDATE struggles SET payload = (SELECT l.payload FROM ledger l \
         WHERE l.class_id = struggles.class_id AND l.seq = struggles.seq)",
    ] {
        db.execute(undo).await;
    }
    // A ledger row edited after its result was derived: the result's own copy is kept.
    assert_eq!(
        db.execute("UPDATE ledger SET payload = '{}' WHERE seq = 4")
            .await,
        1
    );
    db.execute(&format!(
        "DELETE FROM _sqlx_migrations WHERE version = {PAYLOAD_ONCE}"
    ))
    .await;

    let reopened = db.teacher_store().await;
    assert_eq!(reopened.schema_version().await.unwrap(), newest);
    assert_eq!(payloads_as_read(&db).await, before);
    assert_eq!(
        db.count("SELECT COUNT(*) FROM backfill WHERE widget_run_id = 'r4'")
            .await,
        1,
        "the edited row's copy moved to backfill"
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM backfill").await,
        2,
        "the others are read where they were"
    );
    reopened.close().await;
}

/// Each call's request and response as the desk reads them.
async fn calls_as_read(db: &TestDb) -> Vec<String> {
    let sql = "SELECT call_id || '|' || COALESCE(request, '-') || '|' || COALESCE(response, '-') \
               FROM calls_with_payload ORDER BY 1";
    raw!(db, |pool| sqlx::query_scalar(sql).fetch_all(pool).await)
        .unwrap_or_else(|e| panic!("{sql}: {e}"))
}

/// A store written while `calls` kept its own copies of each request and response, on either
/// engine: the migration leaves out every copy the ledger holds byte for byte, keeps the rest,
/// and each call reads as before.
async fn a_store_from_before_calls_kept_their_payloads_keeps_every_request_and_answer(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = vec![
        frame(
            1,
            "a2learn.assist",
            assist("anon_aaaa1111", "run-1", "call-1", "Which is bigger?"),
        ),
        frame(
            2,
            "a2learn.assist.response",
            assist_answer("call-1", "2027-01-15T08:01:00Z"),
        ),
        frame(
            3,
            "a2learn.assist",
            assist("anon_bbbb2222", "run-2", "call-2", "<b>3/4</b> or 2/3?"),
        ),
        frame(
            4,
            "a2learn.assist",
            assist("anon_cccc3333", "run-3", "call-3", "Still stuck"),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    // call-2 is answered in a later batch (the update path), call-3 stays open.
    let later = vec![frame(
        5,
        "a2learn.assist.response",
        assist_answer("call-2", "2027-01-15T08:02:00Z"),
    )];
    store.ingest(CLASS, &registry, later).await.unwrap();
    let newest = store.schema_version().await.unwrap();
    assert_eq!(
        db.count("SELECT COUNT(*) FROM calls WHERE request IS NOT NULL OR response IS NOT NULL")
            .await,
        0,
        "ingest keeps no copy of what the ledger holds"
    );
    let before = calls_as_read(&db).await;
    assert_eq!(before.len(), 3, "{before:?}");
    assert!(before[0].contains("Which is bigger?") && before[0].contains("common denominator"));
    assert!(before[1].contains("<b>3/4</b>") && before[1].contains("common denominator"));
    assert!(
        before[2].contains("Still stuck") && before[2].ends_with("|-"),
        "open: no answer"
    );

    // Undo the migration under the newer ones: each call gets its copies back, as the release
    // before it wrote them.
    const CALL_PAYLOADS_ONCE: i64 = 20261206000001;
    assert!(newest >= CALL_PAYLOADS_ONCE);
    for undo in [
        "DROP VIEW calls_with_payload",
        "UPDATE calls SET request = (SELECT l.payload FROM ledger l \
         WHERE l.class_id = calls.class_id AND l.seq = calls.opened_seq)",
        "UPDATE calls SET response = (SELECT l.payload FROM ledger l \
         WHERE l.class_id = calls.class_id AND l.seq = calls.closed_seq)",
    ] {
        db.execute(undo).await;
    }
    // Ledger rows edited after their calls were derived: those calls keep their own copies.
    for seq in [3, 2] {
        let edit = format!("UPDATE ledger SET payload = '{{}}' WHERE seq = {seq}");
        assert_eq!(db.execute(&edit).await, 1);
    }
    db.execute(&format!(
        "DELETE FROM _sqlx_migrations WHERE version = {CALL_PAYLOADS_ONCE}"
    ))
    .await;

    let reopened = db.teacher_store().await;
    assert_eq!(reopened.schema_version().await.unwrap(), newest);
    assert_eq!(calls_as_read(&db).await, before);
    assert_eq!(
        db.count("SELECT COUNT(*) FROM calls WHERE request IS NOT NULL")
            .await,
        1,
        "call-2's request kept its copy; the others read the ledger"
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM calls WHERE response IS NOT NULL")
            .await,
        1,
        "call-1's answer kept its copy"
    );
    reopened.close().await;
}

async fn diagnostics_list_quarantine_and_class_counts(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let batch = vec![
        raw_frame(Some(1), "nope"),
        frame(
            2,
            "a2learn.assist",
            assist("anon_aaaa1111", "run-1", "call-1", "?"),
        ),
        frame(
            3,
            "a2learn.assist",
            assist("anon_bbbb2222", "run-2", "call-2", "?"),
        ),
        frame(
            4,
            "a2learn.assist.response",
            assist_answer("call-1", "2027-01-15T08:01:00Z"),
        ),
        frame(
            5,
            "a2learn.widget_completed",
            completion("x", "run-3", None),
        ),
    ];
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let frames = store.quarantined(10).await.unwrap();
    assert_eq!(frames.len(), 2);
    assert_eq!(frames[0].seq, Some(5), "newest first");
    assert_eq!(frames[0].rule_id, "non-anonymous-id");
    assert_eq!(frames[1].raw, "nope");
    assert_eq!(
        store.quarantined(1).await.unwrap().len(),
        1,
        "the limit holds"
    );
    assert_eq!(
        store.quarantine_by_rule().await.unwrap(),
        vec![
            ("bad-frame".to_string(), 1),
            ("non-anonymous-id".to_string(), 1)
        ]
    );
    let counts = store.class_counts(None).await.unwrap();
    assert_eq!(counts.len(), 1);
    assert_eq!(
        (counts[0].learners, counts[0].open_requests),
        (2, 1),
        "call-1 was answered"
    );
}

async fn room_state_follows_the_snapshot_then_the_echoes_in_feed_order(db: TestDb) {
    let (store, registry) = ready(&db).await;
    let snapshot = |paused: bool, pacing: serde_json::Value| {
        raw_frame(
            None,
            &json!({"type": "STATE_SNAPSHOT", "snapshot": {"class_id": CLASS, "learners": [],
                    "assignments": [], "paused": paused, "pacing": pacing}})
            .to_string(),
        )
    };
    let echo = |seq: i64, name: &str, value: serde_json::Value| frame(seq, name, value);

    // A fresh store: nothing reported yet.
    assert_eq!(store.room_state(CLASS).await.unwrap(), RoomState::default());

    // A connection's snapshot (paused, one pathway paced), then a resume and a new limit.
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                snapshot(true, json!({"fractions-compare-4": "w1"})),
                echo(1, "a2learn.host.class_resumed", json!({"class_id": CLASS})),
                echo(
                    2,
                    "a2learn.host.pacing",
                    json!({"class_id": CLASS, "pathway_id": "fractions-compare-4", "up_to": "w2"}),
                ),
            ],
        )
        .await
        .unwrap();
    assert!(out.changes.room);
    let state = store.room_state(CLASS).await.unwrap();
    assert!(!state.paused, "the resume came after the snapshot");
    assert_eq!(state.pacing.len(), 1);
    assert_eq!(state.pacing[0].up_to, "w2");

    // A pause with a message; a later snapshot that agrees keeps the message; a repeat is no
    // change; another class's echo is not this class's.
    store
        .ingest(
            CLASS,
            &registry,
            vec![echo(
                3,
                "a2learn.host.class_paused",
                json!({"class_id": CLASS, "message": "Eyes up here"}),
            )],
        )
        .await
        .unwrap();
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                snapshot(true, json!({"fractions-compare-4": "w2"})),
                echo(
                    4,
                    "a2learn.host.class_resumed",
                    json!({"class_id": "another-class"}),
                ),
            ],
        )
        .await
        .unwrap();
    assert!(!out.changes.room, "nothing changed");
    let state = store.room_state(CLASS).await.unwrap();
    assert!(state.paused);
    assert_eq!(state.message.as_deref(), Some("Eyes up here"));

    // A snapshot from a host without the room fields says nothing: the state stays.
    let bare = raw_frame(
        None,
        &json!({"type": "STATE_SNAPSHOT", "snapshot": {"class_id": CLASS, "learners": []}})
            .to_string(),
    );
    let out = store.ingest(CLASS, &registry, vec![bare]).await.unwrap();
    assert!(!out.changes.room);
    assert!(store.room_state(CLASS).await.unwrap().paused);
    // The state is the host's, not derived from the ledger: a rebuild keeps it.
    store.rebuild().await.unwrap();
    assert!(store.room_state(CLASS).await.unwrap().paused);

    // The host's newer snapshot (resumed, no pacing) wins over what was stored.
    store
        .ingest(CLASS, &registry, vec![snapshot(false, json!({}))])
        .await
        .unwrap();
    let state = store.room_state(CLASS).await.unwrap();
    assert_eq!(
        (state.paused, state.message, state.pacing.len()),
        (false, None, 0)
    );

    // Echoes are not contract events: the ledger holds none of them.
    let ledger: i64 = raw!(db, |pool| sqlx::query_scalar("SELECT COUNT(*) FROM ledger")
        .fetch_one(pool)
        .await
        .unwrap());
    assert_eq!(ledger, 0);
}

/// A run id names a run within its class's feed: two classes (of one host or of two) that reuse
/// a run id each keep their own result. The same run id again in the same class is a duplicate.
async fn two_classes_that_reuse_a_run_id_keep_both_results(db: TestDb) {
    let (store, registry) = ready(&db).await;
    store
        .upsert_class("class-2", "Period 4", None)
        .await
        .unwrap();
    let done = |learner: &str| {
        vec![
            frame(
                1,
                "a2learn.widget_completed",
                completion(learner, "run-1", Some(true)),
            ),
            frame(2, "a2learn.widget_struggle", struggle(learner, "run-2", 2)),
        ]
    };
    let first = store
        .ingest(CLASS, &registry, done("anon_aaaa1111"))
        .await
        .unwrap();
    assert_eq!((first.stored, first.duplicates), (2, 0), "{first:?}");
    let second = store
        .ingest("class-2", &registry, done("anon_bbbb2222"))
        .await
        .unwrap();
    assert_eq!((second.stored, second.duplicates), (2, 0), "{second:?}");
    assert!(second.changes.results && second.changes.struggles);
    assert_eq!(
        db.count("SELECT COUNT(*) FROM results WHERE widget_run_id = 'run-1'")
            .await,
        2
    );
    assert_eq!(
        db.count("SELECT COUNT(*) FROM struggles WHERE widget_run_id = 'run-2'")
            .await,
        2
    );
    // Negative control: the same run completed again in the same class is a second report of
    // one run, not a second result.
    let again = store
        .ingest(
            "class-2",
            &registry,
            vec![frame(
                3,
                "a2learn.widget_completed",
                completion("anon_bbbb2222", "run-1", Some(false)),
            )],
        )
        .await
        .unwrap();
    assert_eq!(
        db.count("SELECT COUNT(*) FROM results WHERE class_id = 'class-2'")
            .await,
        1,
        "{again:?}"
    );
}

/// A database written by 0.1.0 (tests/fixtures/db/written-by-0.1.0.db: two classes' results,
/// struggles and a help request, keyed by run id alone) is migrated with every row kept, backed
/// up first, and then takes another class's result with a reused run id.
#[tokio::test]
async fn a_database_from_0_1_0_is_rekeyed_with_every_row_kept() {
    let dir = tempfile::tempdir().unwrap();
    let path = copy_of_0_1_0_database(dir.path());
    let store = a2learn_teacher::Store::open(
        &path,
        std::sync::Arc::new(a2learn_teacher::FixedClock::at(1_800_000_000_000)),
    )
    .await
    .unwrap();
    let rows = |sql: &'static str| {
        let store = store.clone();
        async move {
            sqlx::query_as::<_, (String, String)>(sql)
                .fetch_all(store.sqlite().unwrap())
                .await
                .unwrap()
        }
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        rows("SELECT class_id, widget_run_id FROM results ORDER BY class_id, widget_run_id").await,
        [
            pair("class-1", "run-1"),
            pair("class-1", "run-2"),
            pair("class-2", "run-9")
        ]
    );
    assert_eq!(
        rows("SELECT class_id, widget_run_id FROM struggles ORDER BY class_id, widget_run_id")
            .await,
        [pair("class-1", "run-3"), pair("class-2", "run-8")]
    );
    assert_eq!(
        rows("SELECT class_id, call_id FROM calls").await,
        [pair("class-1", "call-1")]
    );
    let payloads_intact = count(
        &store,
        "SELECT COUNT(*) FROM results r JOIN ledger l ON l.class_id = r.class_id AND l.seq = r.seq \
         WHERE json_extract(l.payload, '$.widget_run_id') = r.widget_run_id",
    )
    .await;
    assert_eq!(
        payloads_intact, 3,
        "each result still matches its ledger row"
    );
    // The grid's rollup was built as the file opened (the migration leaves it pending): a cell
    // for each learner and step with anything stored, as a rebuild from scratch makes it.
    assert_eq!(
        count(&store, "SELECT COUNT(*) FROM rollups_pending").await,
        0
    );
    let cells = count(&store, "SELECT COUNT(*) FROM grid_cells").await;
    assert!(cells >= 3, "{cells} cells");
    let opened = derived_dump(&store).await;
    store.rebuild_grid_rollup().await.unwrap();
    assert_eq!(derived_dump(&store).await, opened);
    assert!(
        a2learn_teacher::store::list_backups(&path)
            .iter()
            .any(|(_, p)| p.to_string_lossy().ends_with("-before-migration.db")),
        "the 0.1.0 file was backed up before the migration"
    );
    // The cursors carried over: class-2 goes on after its seq 2, with class-1's run id.
    let registry = store.registry().await.unwrap();
    let out = store
        .ingest(
            "class-2",
            &registry,
            vec![frame(
                3,
                "a2learn.widget_completed",
                completion("anon_cccc3333", "run-1", Some(true)),
            )],
        )
        .await
        .unwrap();
    assert_eq!((out.stored, out.duplicates), (1, 0), "{out:?}");
    assert_eq!(
        count(
            &store,
            "SELECT COUNT(*) FROM results WHERE widget_run_id = 'run-1'"
        )
        .await,
        2
    );
}

/// A call id names a call within its class's feed (a host answers `respond` by call id, so its
/// own ids are unique; another host's may be the same): two classes that reuse one each keep
/// their own request, and an answer or a claim closes only its own class's call.
async fn two_classes_that_reuse_a_call_id_keep_both_calls(db: TestDb) {
    let (store, registry) = ready(&db).await;
    store
        .upsert_class("class-2", "Period 4", None)
        .await
        .unwrap();
    let ask = |learner: &str| {
        vec![frame(
            1,
            "a2learn.assist",
            assist(learner, "run-1", "call-1", "How?"),
        )]
    };
    let first = store
        .ingest(CLASS, &registry, ask("anon_aaaa1111"))
        .await
        .unwrap();
    assert_eq!((first.stored, first.quarantined), (1, 0), "{first:?}");
    let second = store
        .ingest("class-2", &registry, ask("anon_bbbb2222"))
        .await
        .unwrap();
    assert_eq!((second.stored, second.quarantined), (1, 0), "{second:?}");
    assert!(second.changes.calls);
    // class-2's answer and class-1's claim, each in a later batch (state from the store).
    let answered = store
        .ingest(
            "class-2",
            &registry,
            vec![frame(
                2,
                "a2learn.assist.response",
                assist_answer("call-1", "2027-01-15T08:01:00Z"),
            )],
        )
        .await
        .unwrap();
    assert_eq!((answered.stored, answered.quarantined), (1, 0));
    store
        .ingest(
            CLASS,
            &registry,
            vec![frame(
                2,
                "a2learn.host.call_claimed",
                json!({"call_id": "call-1", "claimed_by": "t-1f3a"}),
            )],
        )
        .await
        .unwrap();
    let calls: Vec<(String, String, String, Option<String>)> = raw!(db, |pool| sqlx::query_as(
        "SELECT class_id, learner, state, claimed_by FROM calls WHERE call_id = 'call-1' \
         ORDER BY class_id",
    )
    .fetch_all(pool)
    .await
    .unwrap());
    let call = |class: &str, learner: &str, state: &str, by: Option<&str>| {
        (
            class.to_string(),
            learner.to_string(),
            state.to_string(),
            by.map(str::to_string),
        )
    };
    assert_eq!(
        calls,
        [
            call(CLASS, "anon_aaaa1111", "open", Some("t-1f3a")),
            call("class-2", "anon_bbbb2222", "answered", None),
        ]
    );
    // Negative control: a second answer in class-2 is still refused as a second answer.
    let again = store
        .ingest(
            "class-2",
            &registry,
            vec![frame(
                3,
                "a2learn.assist.response",
                assist_answer("call-1", "2027-01-15T08:02:00Z"),
            )],
        )
        .await
        .unwrap();
    assert_eq!(again.quarantined, 1, "{again:?}");
}

/// A later batch that answers and claims many calls of earlier batches writes them in a few
/// multi-row statements: every answer lands on its own open call (more than one statement's
/// worth), of two claims of one call the later wins, and another class's call of the same id is
/// left alone.
async fn one_batch_closes_and_claims_many_earlier_calls(db: TestDb) {
    let (store, registry) = ready(&db).await;
    store
        .upsert_class("class-2", "Period 4", None)
        .await
        .unwrap();
    const CALLS: i64 = 150;
    let asks: Vec<Incoming> = (1..=CALLS)
        .map(|i| {
            frame(
                i,
                "a2learn.assist",
                assist(
                    &format!("anon_{i:08}"),
                    &format!("run-{i}"),
                    &format!("call-{i}"),
                    "How?",
                ),
            )
        })
        .collect();
    store.ingest(CLASS, &registry, asks).await.unwrap();
    store
        .ingest(
            "class-2",
            &registry,
            vec![frame(
                1,
                "a2learn.assist",
                assist("anon_bbbb2222", "run-1", "call-1", "How?"),
            )],
        )
        .await
        .unwrap();

    // Every even call answered, call-1 claimed twice (t-2 last), call-3 claimed once.
    let mut seq = CALLS;
    let mut next = || {
        seq += 1;
        seq
    };
    let mut later: Vec<Incoming> = (1..=CALLS)
        .filter(|i| i % 2 == 0)
        .map(|i| {
            frame(
                next(),
                "a2learn.assist.response",
                assist_answer(&format!("call-{i}"), "2027-01-15T08:01:00Z"),
            )
        })
        .collect();
    for (call, by) in [("call-1", "t-1"), ("call-3", "t-3"), ("call-1", "t-2")] {
        later.push(frame(
            next(),
            "a2learn.host.call_claimed",
            json!({"call_id": call, "claimed_by": by}),
        ));
    }
    let out = store.ingest(CLASS, &registry, later).await.unwrap();
    assert_eq!(out.quarantined, 0, "{out:?}");
    assert!(out.changes.calls);

    let states: Vec<(String, i64)> = raw!(db, |pool| sqlx::query_as(
        "SELECT state, COUNT(*) FROM calls WHERE class_id = 'class-1' GROUP BY state \
         ORDER BY state",
    )
    .fetch_all(pool)
    .await
    .unwrap());
    assert_eq!(
        states,
        [
            ("answered".to_string(), CALLS / 2),
            ("open".to_string(), CALLS / 2)
        ]
    );
    let unanswered: i64 = raw!(db, |pool| sqlx::query_scalar(
        "SELECT COUNT(*) FROM calls_with_payload WHERE class_id = 'class-1' \
         AND state = 'answered' \
         AND (response IS NULL OR closed_seq IS NULL OR closed_at_ms IS NULL)",
    )
    .fetch_one(pool)
    .await
    .unwrap());
    assert_eq!(
        unanswered, 0,
        "every close carries its response, seq and time"
    );
    let claims: Vec<(String, String, Option<String>)> = raw!(db, |pool| sqlx::query_as(
        "SELECT class_id, call_id, claimed_by FROM calls WHERE claimed_by IS NOT NULL \
         OR call_id = 'call-1' ORDER BY class_id, call_id",
    )
    .fetch_all(pool)
    .await
    .unwrap());
    let claim = |class: &str, call: &str, by: Option<&str>| {
        (class.to_string(), call.to_string(), by.map(str::to_string))
    };
    assert_eq!(
        claims,
        [
            claim(CLASS, "call-1", Some("t-2")),
            claim(CLASS, "call-3", Some("t-3")),
            claim("class-2", "call-1", None),
        ]
    );
    // The grid's rollup moved with them: no answered call still counts as waiting.
    let waiting: i64 = raw!(db, |pool| {
        sqlx::query_scalar(
        "SELECT COUNT(*) FROM grid_cells WHERE class_id = 'class-1' AND state = 'waiting_for_help'",
    )
    .fetch_one(pool)
    .await
    .unwrap()
    });
    assert_eq!(waiting, CALLS / 2);
}

/// The desk's own rows of a 0.1.0 database (keyed by call id alone) move to their call's class
/// with every value kept; a draft whose call is not stored names nothing a view can show.
#[tokio::test]
async fn a_database_from_0_1_0_keeps_the_desks_rows_under_their_calls_class() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().unwrap();
    let path = copy_of_0_1_0_database(dir.path());
    let mut raw = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    for sql in [
        "INSERT INTO desk_drafts (call_id, body, updated_at_ms) VALUES ('call-1', 'half', 5), \
         ('call-gone', 'orphan', 6)",
        "INSERT INTO desk_sent (call_id, class_id, outcome, response, sent_at_ms) \
         VALUES ('call-1', 'class-1', 'answered', '{\"value\":1}', 7)",
        "INSERT INTO desk_followups_done (call_id, done_at_ms) VALUES ('call-1', 8)",
        "INSERT INTO desk_visits (call_id, class_id, learner, pathway_id, widget_id, \
         promised_at_ms) VALUES ('call-1', 'class-1', 'anon_aaaa1111', 'p', 'w', 9)",
    ] {
        sqlx::query(sql).execute(&mut raw).await.unwrap();
    }
    raw.close().await.unwrap();
    let store = a2learn_teacher::Store::open(
        &path,
        std::sync::Arc::new(a2learn_teacher::FixedClock::at(1_800_000_000_000)),
    )
    .await
    .unwrap();
    let rows = |sql: &'static str| {
        let store = store.clone();
        async move {
            sqlx::query_as::<_, (String, String, i64)>(sql)
                .fetch_all(store.sqlite().unwrap())
                .await
                .unwrap()
        }
    };
    let row = |a: &str, b: &str, n: i64| vec![(a.to_string(), b.to_string(), n)];
    assert_eq!(
        rows("SELECT class_id, body, updated_at_ms FROM desk_drafts").await,
        row("class-1", "half", 5),
        "the orphan draft is dropped, the other moved"
    );
    assert_eq!(
        rows("SELECT class_id, response, sent_at_ms FROM desk_sent").await,
        row("class-1", "{\"value\":1}", 7)
    );
    assert_eq!(
        rows("SELECT class_id, call_id, done_at_ms FROM desk_followups_done").await,
        row("class-1", "call-1", 8)
    );
    assert_eq!(
        rows("SELECT class_id, learner, promised_at_ms FROM desk_visits").await,
        row("class-1", "anon_aaaa1111", 9)
    );
    assert_eq!(
        rows("SELECT class_id, state, opened_seq FROM calls")
            .await
            .len(),
        1
    );
}

/// The derived tables keep no copy of a payload: a 0.1.0 database's results and struggles read
/// their payloads, byte for byte as they held them, from the ledger. A row whose payload the
/// ledger does not hold (a ledger row edited by hand; a seq lost) keeps its own, in backfill.
/// A result keeps its response, when its payload gives one as text.
#[tokio::test]
async fn a_database_from_0_1_0_keeps_each_payload_once_and_loses_none() {
    use sqlx::Connection;
    let dir = tempfile::tempdir().unwrap();
    let path = copy_of_0_1_0_database(dir.path());
    let mut raw = sqlx::SqliteConnection::connect(&format!("sqlite://{}", path.display()))
        .await
        .unwrap();
    // A response as text (kept as a column), and one as a number (not text: none).
    let respond = |table: &str, value: &str, row: &str| {
        format!(
            "UPDATE {table} SET payload = \
             json_set(payload, '$.widget_result.detail.response', {value}) WHERE {row}"
        )
    };
    for sql in [
        respond("results", "'3/4 > 2/3'", "widget_run_id = 'run-1'"),
        respond("ledger", "'3/4 > 2/3'", "class_id = 'class-1' AND seq = 1"),
        respond("results", "7", "widget_run_id = 'run-9'"),
        respond("ledger", "7", "class_id = 'class-2' AND seq = 1"),
        "UPDATE ledger SET payload = '{\"edited\":true}' WHERE class_id = 'class-1' AND seq = 2"
            .to_string(),
        "UPDATE results SET seq = NULL WHERE class_id = 'class-2' AND widget_run_id = 'run-9'"
            .to_string(),
    ] {
        sqlx::query(&sql).execute(&mut raw).await.unwrap();
    }
    let before = |table: &str| {
        format!("SELECT widget_run_id, payload FROM {table} ORDER BY class_id, widget_run_id")
    };
    let results: Vec<(String, String)> = sqlx::query_as(&before("results"))
        .fetch_all(&mut raw)
        .await
        .unwrap();
    let struggles: Vec<(String, String)> = sqlx::query_as(&before("struggles"))
        .fetch_all(&mut raw)
        .await
        .unwrap();
    raw.close().await.unwrap();
    assert_eq!((results.len(), struggles.len()), (3, 2));

    let store = a2learn_teacher::Store::open(
        &path,
        std::sync::Arc::new(a2learn_teacher::FixedClock::at(1_800_000_000_000)),
    )
    .await
    .unwrap();
    let pool = store.sqlite().unwrap();
    let read = |view: &str| {
        format!("SELECT widget_run_id, payload FROM {view} ORDER BY class_id, widget_run_id")
    };
    let kept: Vec<(String, String)> = sqlx::query_as(&read("results_with_payload"))
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(kept, results, "every result's payload, as it was");
    let kept: Vec<(String, String)> = sqlx::query_as(&read("struggles_with_payload"))
        .fetch_all(pool)
        .await
        .unwrap();
    assert_eq!(kept, struggles, "every struggle's payload, as it was");
    // Only the two the ledger could not give moved to backfill; the others are kept once.
    let moved: Vec<(String, String)> =
        sqlx::query_as("SELECT class_id, widget_run_id FROM backfill ORDER BY class_id")
            .fetch_all(pool)
            .await
            .unwrap();
    assert_eq!(
        moved,
        [
            ("class-1".to_string(), "run-2".to_string()),
            ("class-2".to_string(), "run-9".to_string())
        ]
    );
    let copies: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pragma_table_info('results') WHERE name = 'payload'",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    assert_eq!(copies, 0, "the results table keeps no payload column");
    let responses: Vec<(String, Option<String>)> = sqlx::query_as(
        "SELECT widget_run_id, response FROM results ORDER BY class_id, widget_run_id",
    )
    .fetch_all(pool)
    .await
    .unwrap();
    assert_eq!(
        responses,
        [
            ("run-1".to_string(), Some("3/4 > 2/3".to_string())),
            ("run-2".to_string(), None),
            ("run-9".to_string(), None)
        ]
    );
    store.close().await;
}

/// The grid refetches only the rows a batch names: each event's learner, a response's through
/// its call (stored in an earlier batch or asked in this one); a claim or a snapshot names no
/// learner, so every row.
async fn a_batch_names_the_learners_whose_rows_it_changed(db: TestDb) {
    use a2learn_teacher::store::RowsTouched;
    let (store, registry) = ready(&db).await;
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(
                    1,
                    "a2learn.widget_completed",
                    completion("anon_aaaa1111", "run-1", Some(true)),
                ),
                frame(
                    2,
                    "a2learn.assist",
                    assist("anon_bbbb2222", "run-2", "call-1", "help"),
                ),
                frame(
                    3,
                    "a2learn.assist",
                    assist("anon_cccc3333", "run-3", "call-2", "help"),
                ),
                frame(
                    4,
                    "a2learn.assist.response",
                    assist_answer("call-1", "2027-01-15T08:01:00Z"),
                ),
            ],
        )
        .await
        .unwrap();
    assert_eq!(
        out.rows,
        RowsTouched::learners(["anon_aaaa1111", "anon_bbbb2222", "anon_cccc3333"])
    );

    // A response alone: its learner is the stored call's, and no one else's row changed.
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![frame(
                5,
                "a2learn.assist.response",
                assist_answer("call-2", "2027-01-15T08:02:00Z"),
            )],
        )
        .await
        .unwrap();
    assert_eq!(out.rows, RowsTouched::learners(["anon_cccc3333"]));

    // Delivered again: nothing changed, no row named (control for the sets above).
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![frame(
                5,
                "a2learn.assist.response",
                assist_answer("call-2", "2027-01-15T08:02:00Z"),
            )],
        )
        .await
        .unwrap();
    assert_eq!(out.rows, RowsTouched::None);

    // A claim names a call only: every row.
    let out = store
        .ingest(
            CLASS,
            &registry,
            vec![
                frame(
                    6,
                    "a2learn.assist",
                    assist("anon_dddd4444", "run-4", "call-3", "help"),
                ),
                frame(
                    7,
                    "a2learn.host.call_claimed",
                    json!({"call_id": "call-3", "claimed_by": "t-1f3a"}),
                ),
            ],
        )
        .await
        .unwrap();
    assert_eq!(out.rows, RowsTouched::All);
}

#[test]
fn rows_touched_merge_into_all_past_the_limit() {
    use a2learn_teacher::store::RowsTouched;
    let mut rows = RowsTouched::learners(["a"]);
    rows.merge(RowsTouched::learners(["b"]));
    assert_eq!(rows, RowsTouched::learners(["a", "b"]));
    rows.merge(RowsTouched::None);
    assert_eq!(rows, RowsTouched::learners(["b", "a"]));
    let many = (0..RowsTouched::MAX_NAMED).map(|i| format!("l{i}"));
    rows.merge(RowsTouched::learners(many));
    assert_eq!(rows, RowsTouched::All, "more than the limit: every row");
    rows.merge(RowsTouched::learners(["c"]));
    assert_eq!(rows, RowsTouched::All, "every row stays every row");
    assert_eq!(
        RowsTouched::learners(Vec::<String>::new()),
        RowsTouched::None
    );
}

/// The shared store's connections plan each statement for its own list of ids: a generic plan
/// made while a table was small (a sequential scan) would stay after it grew (the batch's state
/// lookup took 143 ms at 72,000 results before this; docs/benchmarks-log.md).
#[tokio::test]
async fn a_shared_store_plans_each_statement_for_its_own_ids() {
    let Some(db) = TestDb::open(support::engines::Engine::Postgres).await else {
        return;
    };
    let mode: String = match db.store.raw_pool() {
        a2learn_teacher::store::RawPool::Postgres(pool) => {
            sqlx::query_scalar("SHOW plan_cache_mode")
                .fetch_one(pool)
                .await
                .unwrap()
        }
        a2learn_teacher::store::RawPool::Sqlite(_) => unreachable!("a PostgreSQL store"),
    };
    assert_eq!(mode, "force_custom_plan");
    // Control: the server's own default is not that (the store asked for it).
    let default: String = raw!(db, |pool| sqlx::query_scalar(
        "SELECT boot_val FROM pg_settings WHERE name = 'plan_cache_mode'"
    )
    .fetch_one(pool)
    .await
    .unwrap());
    assert_eq!(default, "auto");
}
