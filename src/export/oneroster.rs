//! `oneroster`: a OneRoster 1.1 results bundle (a zip of bulk CSV files).

use std::io::{Seek, Write};

use futures_util::TryStreamExt;

use super::common::{Export, Rows, count, latest_cte, numbered, scoped};
use super::{date, derived_uuid};
use crate::store::engine::on_pool;

#[derive(sqlx::FromRow)]
struct LineItemRow {
    pathway_id: String,
    widget_id: String,
    title: String,
    kind: String,
    standard: Option<String>,
    assigned_at: Option<i64>,
    due_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct GradeRow {
    widget_run_id: String,
    pathway_id: String,
    widget_id: String,
    learner: String,
    correct: Option<bool>,
    attempts: i64,
    hints: i64,
    score: Option<f64>,
    at_ms: i64,
}

/// The OneRoster 1.1 manifest, lineItems and results headers, in the specification's order.
const MANIFEST_HEADER: [&str; 2] = ["propertyName", "value"];
const LINE_ITEMS_HEADER: [&str; 12] = [
    "sourcedId",
    "status",
    "dateLastModified",
    "title",
    "description",
    "assignDate",
    "dueDate",
    "classSourcedId",
    "categorySourcedId",
    "gradingPeriodSourcedId",
    "resultValueMin",
    "resultValueMax",
];
const RESULTS_HEADER: [&str; 9] = [
    "sourcedId",
    "status",
    "dateLastModified",
    "lineItemSourcedId",
    "studentSourcedId",
    "scoreStatus",
    "score",
    "scoreDate",
    "comment",
];
const USERS_HEADER: [&str; 18] = [
    "sourcedId",
    "status",
    "dateLastModified",
    "enabledUser",
    "orgSourcedIds",
    "role",
    "username",
    "userIds",
    "givenName",
    "familyName",
    "middleName",
    "identifier",
    "email",
    "sms",
    "phone",
    "agentSourcedIds",
    "grades",
    "password",
];
/// OneRoster requires a category and a grading period on each line item; this app has neither,
/// so every line item names these (the bundle marks categories.csv and academicSessions.csv
/// absent, the receiving system maps them).
pub const CATEGORY_SOURCED_ID: &str = "a2learn-step";
pub const GRADING_PERIOD_SOURCED_ID: &str = "a2learn-term";

fn line_item_id(class_id: &str, pathway_id: &str, widget_id: &str) -> String {
    derived_uuid(
        "lineItem",
        &format!("{class_id}\u{1f}{pathway_id}\u{1f}{widget_id}"),
    )
    .to_string()
}

/// OneRoster 1.1 results, as a zip of bulk CSV files: `manifest.csv`, `lineItems.csv` (one per
/// step in scope) and `results.csv` (one per learner x step completed: the newest run). The
/// student is the anonymous id. Bulk files leave `status` and `dateLastModified` empty, as the
/// specification asks. `score` is the widget's score, else 1/0 from `correct`, else 1 for a
/// completed non-assessing step (with scoreStatus `submitted` rather than `fully graded`).
/// An identified export adds `users.csv` (username = anonymous id, names from the roster).
pub(super) async fn oneroster(x: Export<'_, '_>, out: impl Write + Seek + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let n = pathways.len();
    let cte = latest_cte(n, "");
    run.total = count(
        store,
        &format!("{cte} SELECT COUNT(*) FROM latest WHERE rn = 1"),
        &req.class_id,
        pathways,
    )
    .await?;
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(3));
    let mut zip = zip::ZipWriter::new(out);

    zip.start_file("manifest.csv", options)?;
    {
        let mut w = csv::Writer::from_writer(&mut zip);
        w.write_record(MANIFEST_HEADER)?;
        let users = if run.roster.is_some() {
            "bulk"
        } else {
            "absent"
        };
        for (k, v) in [
            ("manifest.version", "1.0"),
            ("oneroster.version", "1.1"),
            ("file.academicSessions", "absent"),
            ("file.categories", "absent"),
            ("file.classes", "absent"),
            ("file.classResources", "absent"),
            ("file.courses", "absent"),
            ("file.courseResources", "absent"),
            ("file.demographics", "absent"),
            ("file.enrollments", "absent"),
            ("file.lineItems", "bulk"),
            ("file.orgs", "absent"),
            ("file.resources", "absent"),
            ("file.results", "bulk"),
            ("file.users", users),
            ("source.systemName", "a2learn Teacher"),
            ("source.systemCode", "a2learn-teacher"),
        ] {
            w.write_record([k, v])?;
        }
        w.flush()?;
    }

    zip.start_file("lineItems.csv", options)?;
    {
        let sql = format!(
            "SELECT s.pathway_id, s.widget_id, s.title, s.kind, s.standard, \
             a.assigned_at, a.due_at FROM pathway_steps s LEFT JOIN ( \
               SELECT pathway_id, MIN(created_at) AS assigned_at, MAX(due_at) AS due_at \
               FROM assignments WHERE class_id = $1 GROUP BY pathway_id) a \
             ON a.pathway_id = s.pathway_id \
             WHERE s.pathway_id IN ({}) ORDER BY s.pathway_id, s.position",
            numbered(2, n)
        );
        let items: Vec<LineItemRow> = on_pool!(store.engine(), |pool| {
            scoped::<Db, LineItemRow>(&sql, Some(&req.class_id), pathways)
                .fetch_all(pool)
                .await?
        });
        let mut w = csv::Writer::from_writer(&mut zip);
        w.write_record(LINE_ITEMS_HEADER)?;
        for (i, item) in items.iter().enumerate() {
            let line = i as u64 + 2;
            let description = match &item.standard {
                Some(s) => format!("{} ({s})", item.kind),
                None => item.kind.clone(),
            };
            run.check("lineItems.csv line", line, "title", &item.title)?;
            run.check("lineItems.csv line", line, "description", &description)?;
            let assigned = item.assigned_at.map(date).unwrap_or_default();
            let due = item.due_at.map(date).unwrap_or_else(|| assigned.clone());
            w.write_record([
                line_item_id(&req.class_id, &item.pathway_id, &item.widget_id).as_str(),
                "",
                "",
                &item.title,
                &description,
                &assigned,
                &due,
                &req.class_id,
                CATEGORY_SOURCED_ID,
                GRADING_PERIOD_SOURCED_ID,
                "0.0",
                "1.0",
            ])?;
        }
        w.flush()?;
    }

    zip.start_file("results.csv", options)?;
    let mut students: Vec<String> = Vec::new();
    {
        let sql = format!(
            "{cte} SELECT widget_run_id, pathway_id, widget_id, learner, correct, attempts, \
             hints, score, at_ms FROM latest WHERE rn = 1 ORDER BY learner, pathway_id, widget_id"
        );
        let mut w = csv::Writer::from_writer(&mut zip);
        w.write_record(RESULTS_HEADER)?;
        let mut line = 1;
        on_pool!(store.engine(), |pool| {
            let mut rows = scoped::<Db, GradeRow>(&sql, Some(&req.class_id), pathways).fetch(pool);
            while let Some(r) = rows.try_next().await? {
                if !run.includes(&r.learner) {
                    continue;
                }
                line += 1;
                run.check("results.csv line", line, "studentSourcedId", &r.learner)?;
                let (score, status) = match (r.score, r.correct) {
                    (Some(s), _) => (s, "fully graded"),
                    (None, Some(c)) => (if c { 1.0 } else { 0.0 }, "fully graded"),
                    (None, None) => (1.0, "submitted"),
                };
                let comment = format!(
                    "{} attempt(s), {} hint(s){}",
                    r.attempts,
                    r.hints,
                    match r.correct {
                        Some(true) => ", correct",
                        Some(false) => ", incorrect",
                        None => "",
                    }
                );
                if run.roster.is_some() && students.last() != Some(&r.learner) {
                    students.push(r.learner.clone());
                }
                w.write_record([
                    derived_uuid("result", &r.widget_run_id)
                        .to_string()
                        .as_str(),
                    "",
                    "",
                    &line_item_id(&req.class_id, &r.pathway_id, &r.widget_id),
                    &r.learner,
                    status,
                    &score.to_string(),
                    &date(r.at_ms),
                    &comment,
                ])?;
                run.tick()?;
            }
        });
        w.flush()?;
    }

    if run.roster.is_some() {
        zip.start_file("users.csv", options)?;
        let mut w = csv::Writer::from_writer(&mut zip);
        w.write_record(USERS_HEADER)?;
        for learner in &students {
            let name = run.name(learner).unwrap_or_default();
            let (given, family) = name.rsplit_once(' ').map_or((name, ""), |(g, f)| (g, f));
            let mut record = vec![""; USERS_HEADER.len()];
            record[0] = learner;
            record[3] = "true";
            record[5] = "student";
            record[6] = learner;
            record[8] = given;
            record[9] = family;
            w.write_record(&record)?;
        }
        w.flush()?;
    }
    zip.finish()?;
    Ok(run.done)
}
