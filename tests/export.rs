//! Exports against a real SQLite file: every format's shape and values, the linter's verdicts,
//! atomic writes and cancel. The `export` command itself is tested in the CLI crate
//! (crates/a2learn-teacher-cli/tests/export.rs).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "support/export_class.rs"]
mod export_class;
mod support;

use std::io::{Cursor, Read};
use std::path::Path;

use a2learn_teacher::Store;
use a2learn_teacher::export::{
    ExportError, ExportRequest, Format, derived_uuid, export_to_path, write_export,
};
use a2learn_teacher::privacy::HitKind;
use a2learn_teacher::roster::parse_roster_csv;
use export_class::{A, B, C, CANARY_A, CANARY_B, CLASS, class_store, fill_class, no_canary};
use serde_json::Value;
use support::engines::{Engine, TestDb, pg_dump, raw};
use support::{completion, frame, reflection};
use tokio_util::sync::CancellationToken;

async fn export_bytes(store: &Store, req: &ExportRequest) -> Result<Vec<u8>, ExportError> {
    let mut buf = Cursor::new(Vec::new());
    write_export(store, req, &mut buf, &mut |_| {}, &CancellationToken::new()).await?;
    Ok(buf.into_inner())
}

async fn export_text(store: &Store, format: Format) -> String {
    String::from_utf8(
        export_bytes(store, &ExportRequest::new(CLASS, format))
            .await
            .unwrap(),
    )
    .unwrap()
}

fn csv_rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(text.as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[tokio::test]
async fn steps_csv_has_every_learner_x_step_with_not_completed_rows_empty() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let text = export_text(&store, Format::Csv).await;
    no_canary(&text);
    let rows = csv_rows(&text);
    assert_eq!(
        rows[0].join(","),
        "anonymous_id,pathway_id,position,widget_id,kind,standard,status,correct,attempts,hints,score,completed_at"
    );
    assert_eq!(rows.len(), 1 + 3 * 2, "3 learners x 2 steps");
    let row = |learner: &str, widget: &str| {
        rows.iter()
            .find(|r| r[0] == learner && r[3] == widget)
            .unwrap()
            .clone()
    };
    assert_eq!(
        row(A, "w-compare")[4..],
        [
            "fraction_compare",
            "CCSS.MATH.CONTENT.4.NF.A.2",
            "completed",
            "true",
            "2",
            "1",
            "0.5",
            "2027-01-15T08:00:00Z"
        ]
    );
    assert_eq!(row(A, "w-reflect")[6..8], ["completed", ""]);
    assert_eq!(row(B, "w-compare")[7], "false");
    // Not completed: the step's own kind and standard, and no result fields.
    let c = row(C, "w-compare");
    assert_eq!(c[6..], ["not_completed", "", "", "", "", ""]);
    assert_eq!(c[5], "CCSS.MATH.CONTENT.4.NF.A.2");
    assert_eq!(row(B, "w-reflect")[6], "not_completed");
}

#[tokio::test]
async fn standards_csv_counts_evidence_per_learner() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let text = export_text(&store, Format::StandardsCsv).await;
    no_canary(&text);
    let rows = csv_rows(&text);
    assert_eq!(
        rows[0].join(","),
        "anonymous_id,standard,steps_completed,steps_checked,steps_correct,attempts,hints,mean_score"
    );
    assert_eq!(
        rows[1..],
        [
            vec![
                A,
                "CCSS.MATH.CONTENT.4.NF.A.2",
                "1",
                "1",
                "1",
                "2",
                "1",
                "0.500"
            ],
            vec![
                B,
                "CCSS.MATH.CONTENT.4.NF.A.2",
                "1",
                "1",
                "0",
                "2",
                "1",
                "0.500"
            ],
        ]
    );
}

#[tokio::test]
async fn the_standards_summary_suppresses_small_groups_and_shows_large_ones() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let mut req = ExportRequest::new(CLASS, Format::StandardsSummary);
    req.k = 5;
    let text = String::from_utf8(export_bytes(&store, &req).await.unwrap()).unwrap();
    let rows = csv_rows(&text);
    assert_eq!(rows.len(), 3, "{text}");
    // 2 learners < k = 5: no figure printed, on the standard and on the total.
    assert_eq!(rows[1][0], "CCSS.MATH.CONTENT.4.NF.A.2");
    assert!(rows[1][1..8].iter().all(|c| c == "fewer than 5"), "{text}");
    assert_eq!(rows[1][8], "primary");
    assert_eq!(rows[2][0], "all standards");
    assert!(rows[2][1..8].iter().all(|c| c == "fewer than 5"), "{text}");

    // Negative control: twelve more learners make the group big enough to show.
    let registry = store.registry().await.unwrap();
    let batch = (0..12)
        .map(|i| {
            let learner = format!("anon_more{i:04}x");
            frame(
                100 + i,
                "a2learn.widget_completed",
                completion(&learner, &format!("run-more-{i}"), Some(true)),
            )
        })
        .collect();
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let text = String::from_utf8(export_bytes(&store, &req).await.unwrap()).unwrap();
    let rows = csv_rows(&text);
    assert_eq!(
        rows[1][..8],
        [
            "CCSS.MATH.CONTENT.4.NF.A.2",
            "14",
            "14",
            "14",
            "13",
            "28",
            "14",
            "0.500"
        ],
        "{text}"
    );
    assert_eq!(rows[1][8], "");
}

#[tokio::test]
async fn jsonl_lines_are_the_stored_payloads_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let text = export_text(&store, Format::Jsonl).await;
    no_canary(&text);
    let stored: Vec<String> = sqlx::query_scalar(
        "SELECT payload FROM results_with_payload WHERE class_id = ? \
         ORDER BY at_ms, widget_run_id",
    )
    .bind(CLASS)
    .fetch_all(store.sqlite().unwrap())
    .await
    .unwrap();
    assert_eq!(stored.len(), 3);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines, stored.iter().map(String::as_str).collect::<Vec<_>>());
    let first: Value = serde_json::from_str(lines[0]).unwrap();
    assert!(first["prose"].is_string() && first["widget_result"].is_object());
}

#[tokio::test]
async fn xapi_statements_have_anonymous_actors_stable_ids_and_verdicts_only_where_assessed() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let mut req = ExportRequest::new(CLASS, Format::Xapi);
    req.home_page = "https://school.example/".into();
    let text = String::from_utf8(export_bytes(&store, &req).await.unwrap()).unwrap();
    no_canary(&text);
    let statements: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(statements.len(), 3);
    let by_run = |run: &str| {
        let id = derived_uuid("statement", run).to_string();
        statements.iter().find(|s| s["id"] == id.as_str()).unwrap()
    };
    let a1 = by_run("run-a1");
    assert_eq!(
        a1["actor"],
        serde_json::json!({"objectType": "Agent",
            "account": {"homePage": "https://school.example", "name": A}})
    );
    assert_eq!(a1["verb"]["id"], "http://adlnet.gov/expapi/verbs/answered");
    assert_eq!(a1["result"]["success"], true);
    assert_eq!(a1["result"]["score"]["scaled"], 0.5);
    assert_eq!(
        a1["result"]["response"],
        "Compared 3/4 and 2/3 correctly using a common denominator."
    );
    assert_eq!(
        a1["context"]["registration"],
        derived_uuid("registration", "run-a1").to_string().as_str()
    );
    assert_eq!(
        a1["context"]["contextActivities"]["category"][0]["id"],
        "https://school.example/standards/CCSS.MATH.CONTENT.4.NF.A.2"
    );
    assert_eq!(
        a1["object"]["id"],
        "https://school.example/pathways/p-fractions/widgets/w-compare"
    );
    assert_eq!(a1["timestamp"], "2027-01-15T08:00:00Z");
    assert_eq!(by_run("run-b1")["result"]["success"], false);
    // The reflection does not assess: completed, no success, no score, no standard.
    let a2 = by_run("run-a2");
    assert_eq!(a2["verb"]["id"], "http://adlnet.gov/expapi/verbs/completed");
    assert!(a2["result"].get("success").is_none());
    assert!(a2["result"].get("score").is_none());
    assert!(a2["context"]["contextActivities"].get("category").is_none());
    // A re-export gives the same statements, ids included.
    let again = String::from_utf8(export_bytes(&store, &req).await.unwrap()).unwrap();
    assert_eq!(again, text);
}

fn unzip(bytes: &[u8]) -> Vec<(String, String)> {
    let mut zip = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut f = zip.by_index(i).unwrap();
            let mut text = String::new();
            f.read_to_string(&mut text).unwrap();
            (f.name().to_string(), text)
        })
        .collect()
}

#[tokio::test]
async fn oneroster_bundle_has_the_specification_headers_and_one_result_per_completed_step() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let bytes = export_bytes(&store, &ExportRequest::new(CLASS, Format::Oneroster))
        .await
        .unwrap();
    let files = unzip(&bytes);
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["manifest.csv", "lineItems.csv", "results.csv"]);
    for (_, text) in &files {
        no_canary(text);
    }
    let manifest = csv_rows(&files[0].1);
    assert_eq!(manifest[0], ["propertyName", "value"]);
    assert!(manifest.contains(&vec!["oneroster.version".into(), "1.1".into()]));
    assert!(manifest.contains(&vec!["file.results".into(), "bulk".into()]));
    assert!(manifest.contains(&vec!["file.users".into(), "absent".into()]));
    let items = csv_rows(&files[1].1);
    assert_eq!(
        items[0].join(","),
        "sourcedId,status,dateLastModified,title,description,assignDate,dueDate,classSourcedId,categorySourcedId,gradingPeriodSourcedId,resultValueMin,resultValueMax"
    );
    assert_eq!(items.len(), 3, "one line item per step");
    assert_eq!(items[1][3], "Compare fractions");
    assert_eq!(items[1][5], "2027-01-15", "assigned (the store's clock)");
    assert_eq!(items[1][6], "2027-01-16", "due");
    assert_eq!(items[1][7], CLASS);
    let results = csv_rows(&files[2].1);
    assert_eq!(
        results[0].join(","),
        "sourcedId,status,dateLastModified,lineItemSourcedId,studentSourcedId,scoreStatus,score,scoreDate,comment"
    );
    assert_eq!(results.len(), 4, "A x 2, B x 1");
    let a_compare = results
        .iter()
        .find(|r| r[4] == A && r[3] == items[1][0])
        .unwrap();
    assert_eq!(a_compare[5..8], ["fully graded", "0.5", "2027-01-15"]);
    let a_reflect = results
        .iter()
        .find(|r| r[4] == A && r[3] == items[2][0])
        .unwrap();
    assert_eq!(a_reflect[5..7], ["submitted", "1"]);
    // Bulk files leave status and dateLastModified empty.
    assert!(
        results[1..]
            .iter()
            .all(|r| r[1].is_empty() && r[2].is_empty())
    );
}

#[tokio::test]
async fn identified_exports_carry_the_names_default_ones_never() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    for format in Format::ALL {
        let mut req = ExportRequest::new(CLASS, format);
        let default = export_bytes(&store, &req).await.unwrap();
        let default = if format == Format::Oneroster {
            unzip(&default).into_iter().map(|(_, t)| t).collect()
        } else {
            String::from_utf8(default).unwrap()
        };
        no_canary(&default);
        req.identified = true;
        let bytes = export_bytes(&store, &req).await.unwrap();
        let text = if format == Format::Oneroster {
            let files = unzip(&bytes);
            assert_eq!(files.last().unwrap().0, "users.csv");
            files.into_iter().map(|(_, t)| t).collect()
        } else {
            String::from_utf8(bytes).unwrap()
        };
        if !format.per_learner() {
            // Aggregates name no one, identified or not.
            no_canary(&text);
        } else {
            assert!(
                text.contains("Zephyrine") && text.contains("Snorkeldink"),
                "{format:?} identified lacks the names"
            );
        }
    }
}

#[tokio::test]
async fn a_name_in_prose_blocks_the_default_export_naming_row_and_field_but_not_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let registry = store.registry().await.unwrap();
    let mut leaky = reflection(C, "run-c2");
    leaky["prose"] = "Worked with Zephyrine on the reflection.".into();
    store
        .ingest(
            CLASS,
            &registry,
            vec![frame(5, "a2learn.widget_completed", leaky)],
        )
        .await
        .unwrap();
    let target = dir.path().join("out.jsonl");
    std::fs::write(&target, "the previous export\n").unwrap();
    for format in [Format::Jsonl, Format::Xapi] {
        let err = export_to_path(
            &store,
            &ExportRequest::new(CLASS, format),
            &target,
            &mut |_| {},
            &CancellationToken::new(),
        )
        .await
        .unwrap_err();
        let ExportError::Privacy(hit) = &err else {
            panic!("{err}")
        };
        assert_eq!(hit.what, HitKind::RosterName);
        let message = err.to_string();
        assert!(!message.contains("Zephyrine"), "{message}");
        match format {
            Format::Jsonl => {
                assert_eq!((hit.place, hit.row), ("line", 4));
                assert_eq!(hit.field, "payload.prose");
            }
            _ => {
                assert_eq!((hit.place, hit.row), ("statement", 4));
                assert_eq!(hit.field, "statement.result.response");
            }
        }
        // The previous file is untouched, and no partial file is left beside it.
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "the previous export\n"
        );
        assert_only(dir.path(), &["out.jsonl", "teacher.db"]);
    }
    // The CSV does not carry prose: it is not blocked by it.
    assert!(
        export_bytes(&store, &ExportRequest::new(CLASS, Format::Csv))
            .await
            .is_ok()
    );
    // Negative control: the identified export is the explicit way to write it.
    let mut req = ExportRequest::new(CLASS, Format::Jsonl);
    req.identified = true;
    export_to_path(
        &store,
        &req,
        &target,
        &mut |_| {},
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert!(
        std::fs::read_to_string(&target)
            .unwrap()
            .contains("Zephyrine")
    );
}

#[tokio::test]
async fn an_email_in_any_field_blocks_the_default_export() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    // The contract keeps e-mails out of ingest; a store edited by hand (or an older version)
    // could still hold one, and the linter is the last line.
    sqlx::query(
        "UPDATE ledger SET payload = json_set(payload, '$.widget_result.detail.note', \
         'mail jo.k@school.example') WHERE (class_id, seq) IN \
         (SELECT class_id, seq FROM results WHERE widget_run_id = 'run-b1')",
    )
    .execute(store.sqlite().unwrap())
    .await
    .unwrap();
    let err = export_bytes(&store, &ExportRequest::new(CLASS, Format::Jsonl))
        .await
        .unwrap_err();
    let ExportError::Privacy(hit) = err else {
        panic!("{err}")
    };
    assert_eq!(hit.what, HitKind::Email);
    assert_eq!(hit.field, "payload.widget_result.detail.note");
    sqlx::query("UPDATE results SET learner = 'jo@school.example' WHERE widget_run_id = 'run-b1'")
        .execute(store.sqlite().unwrap())
        .await
        .unwrap();
    let err = export_bytes(&store, &ExportRequest::new(CLASS, Format::Oneroster))
        .await
        .unwrap_err();
    let ExportError::Privacy(hit) = err else {
        panic!("{err}")
    };
    assert_eq!(
        (hit.place, hit.field.as_str()),
        ("results.csv line", "studentSourcedId")
    );
}

fn assert_only(dir: &Path, names: &[&str]) {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with("teacher.db-"))
        .collect();
    found.sort();
    assert_eq!(found, names, "files in the export folder");
}

#[tokio::test]
async fn a_cancelled_export_leaves_nothing_under_the_name() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let target = dir.path().join("grid.csv");
    let cancel = CancellationToken::new();
    cancel.cancel();
    let err = export_to_path(
        &store,
        &ExportRequest::new(CLASS, Format::Csv),
        &target,
        &mut |_| {},
        &cancel,
    )
    .await
    .unwrap_err();
    assert!(matches!(err, ExportError::Cancelled), "{err}");
    assert_only(dir.path(), &["teacher.db"]);
    // Negative control: not cancelled, the file appears, with progress reported to the end.
    let mut last = None;
    let summary = export_to_path(
        &store,
        &ExportRequest::new(CLASS, Format::Csv),
        &target,
        &mut |p| last = Some(p),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    assert_eq!(summary.rows, 6);
    let last = last.unwrap();
    assert_eq!((last.rows_done, last.rows_total), (6, 6));
    assert_only(dir.path(), &["grid.csv", "teacher.db"]);
}

#[tokio::test]
async fn unknown_classes_assignments_and_bad_settings_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let store = class_store(&dir).await;
    let err = export_bytes(&store, &ExportRequest::new("nope", Format::Csv))
        .await
        .unwrap_err();
    assert!(matches!(err, ExportError::NotFound(_)), "{err}");
    let mut req = ExportRequest::new(CLASS, Format::Csv);
    req.assignment_id = Some("as-nope".into());
    assert!(matches!(
        export_bytes(&store, &req).await.unwrap_err(),
        ExportError::NotFound(_)
    ));
    req.assignment_id = Some("as-1".into());
    assert!(export_bytes(&store, &req).await.is_ok());
    let mut req = ExportRequest::new(CLASS, Format::Xapi);
    req.home_page = "not a url".into();
    assert!(matches!(
        export_bytes(&store, &req).await.unwrap_err(),
        ExportError::Invalid(_)
    ));
    let mut req = ExportRequest::new(CLASS, Format::StandardsSummary);
    req.k = 3;
    assert!(matches!(
        export_bytes(&store, &req).await.unwrap_err(),
        ExportError::Invalid(_)
    ));
}

/// A school's shared PostgreSQL store writes every export byte for byte as a teacher's file
/// does from the same events; what it cannot write (names) is refused with the reason, not
/// written without it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_exports_as_a_teachers_file_does() {
    let Some(shared) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    let file = TestDb::open(Engine::Sqlite).await.unwrap();
    fill_class(&file.store).await;
    fill_class(&shared.store).await;
    for format in Format::ALL {
        let req = ExportRequest::new(CLASS, format);
        let from_file = export_bytes(&file.store, &req).await.unwrap();
        let from_shared = export_bytes(&shared.store, &req).await.unwrap();
        // Control: each export holds the class, so equal bytes say something.
        let text = String::from_utf8_lossy(&from_file);
        match format {
            // 3 learners x 2 steps and a header; 3 results.
            Format::Csv => assert_eq!(text.lines().count(), 7, "{text}"),
            Format::Jsonl => assert_eq!(text.lines().count(), 3, "{text}"),
            Format::StandardsCsv | Format::Xapi => {
                assert!(text.contains(A) && text.contains(B), "{format:?}: {text}")
            }
            // Aggregates: the standard, no learner.
            Format::StandardsSummary | Format::KnowledgeMap => assert!(
                text.contains("CCSS.MATH.CONTENT.4.NF.A.2") && !text.contains(A),
                "{format:?}: {text}"
            ),
            // A zip of CSV files.
            Format::Oneroster => assert!(from_file.starts_with(b"PK") && from_file.len() > 500),
        }
        assert!(
            from_shared == from_file,
            "{format:?} differs:\n{text}\n---\n{}",
            String::from_utf8_lossy(&from_shared)
        );
    }
    let mut identified = ExportRequest::new(CLASS, Format::Csv);
    identified.identified = true;
    let err = export_bytes(&shared.store, &identified).await.unwrap_err();
    assert!(
        matches!(&err, ExportError::Invalid(m) if m.contains("roster")),
        "{err}"
    );
}

/// Names stay home even with a shared store: a roster import into it is refused, and a dump of
/// every table of the shared database finds no canary name, while the same dump does find one
/// written there on purpose (the control).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_roster_never_reaches_a_shared_store() {
    let Some(shared) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    fill_class(&shared.store).await;
    let roster = parse_roster_csv(&format!(
        "anonymous_id,display_name\n{A},{CANARY_A}\n{B},{CANARY_B}\n"
    ))
    .unwrap();
    let err = shared
        .store
        .import_roster(CLASS, &roster)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("names stay"), "{err}");

    let dump = || async {
        let tables: Vec<String> = raw!(shared, |pool| sqlx::query_scalar(
            "SELECT tablename::TEXT FROM pg_tables WHERE schemaname = current_schema()"
        )
        .fetch_all(pool)
        .await
        .unwrap());
        assert!(tables.len() > 10, "{tables:?}");
        let mut text = String::new();
        for table in tables {
            let rows: String = raw!(shared, |pool| sqlx::query_scalar(&format!(
                "SELECT COALESCE(string_agg(t::TEXT, E'\\n'), '') FROM \"{table}\" t"
            ))
            .fetch_one(pool)
            .await
            .unwrap());
            text.push_str(&rows);
            text.push('\n');
        }
        text
    };
    let text = dump().await;
    assert!(text.contains(A), "the dump reads the stored events");
    no_canary(&text);

    // Control: a canary written into the shared store is found by the same dump.
    shared
        .store
        .upsert_class("class-control", CANARY_A, None)
        .await
        .unwrap();
    assert!(dump().await.contains(CANARY_A));
}

/// Beside a shared store, names live in the teacher's own file (the store's home): a roster
/// imported through the pair lands in the file, identified exports name learners from it, the
/// default export is scanned for its names — and `pg_dump` of the shared database finds no
/// name, while the same dump finds one written there on purpose (the control).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn beside_a_shared_store_names_stay_in_the_teachers_file() {
    let Some(shared) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    let home = TestDb::open(Engine::Sqlite).await.unwrap();
    fill_class(&shared.store).await;
    let paired = shared.store.clone().with_home(home.store.clone()).unwrap();
    let roster = parse_roster_csv(&format!(
        "anonymous_id,display_name\n{A},{CANARY_A}\n{B},{CANARY_B}\n"
    ))
    .unwrap();
    paired.import_roster(CLASS, &roster).await.unwrap();
    // The names are the teacher's: in the file, read through the pair, not in the shared store.
    assert_eq!(
        home.store.roster(CLASS).await.unwrap().name(A),
        Some(CANARY_A)
    );
    assert_eq!(paired.roster(CLASS).await.unwrap().name(B), Some(CANARY_B));
    assert!(shared.store.roster(CLASS).await.unwrap().is_empty());
    assert!(paired.holds_names() && !shared.store.holds_names());

    // An identified export names learners from the file; a default one does not, and its
    // privacy scan now knows the names to look for.
    let mut identified = ExportRequest::new(CLASS, Format::Csv);
    identified.identified = true;
    let named = String::from_utf8(export_bytes(&paired, &identified).await.unwrap()).unwrap();
    assert!(
        named.contains(CANARY_A) && named.contains(CANARY_B),
        "{named}"
    );
    let anonymous = export_bytes(&paired, &ExportRequest::new(CLASS, Format::Csv))
        .await
        .unwrap();
    no_canary(&String::from_utf8_lossy(&anonymous));
    assert_eq!(paired.all_roster_names().await.unwrap().len(), 2);

    let dump = pg_dump(&shared.location);
    assert!(
        dump.contains(A) && dump.contains("Period 3"),
        "the dump holds the class"
    );
    no_canary(&dump);
    // Control: a name written into the shared store is found by the same dump.
    shared
        .store
        .upsert_class("class-control", CANARY_B, None)
        .await
        .unwrap();
    assert!(pg_dump(&shared.location).contains(CANARY_B));

    // Only a shared store takes a home, and only a teacher's file is one.
    assert!(home.store.clone().with_home(home.store.clone()).is_err());
    assert!(
        shared
            .store
            .clone()
            .with_home(shared.store.clone())
            .is_err()
    );
}
