//! `standards-csv` (one row per learner x standard with evidence) and `standards-summary` (one
//! row per standard for the class, small groups suppressed): both count the same evidence.

use std::io::Write;

use futures_util::TryStreamExt;

use super::common::{
    Export, Rows, count, latest_cte, learner_clause, learner_header, scoped, scoped_for,
};
use crate::progress::suppression::{Table, suppress};
use crate::store::engine::on_pool;

/// The evidence on one standard, as both standards exports count it ([`EVIDENCE`]).
#[derive(sqlx::FromRow)]
struct Evidence {
    steps: i64,
    checked: i64,
    correct: i64,
    attempts: i64,
    hints: i64,
    mean_score: Option<f64>,
}

/// The CSV columns of [`Evidence::figures`], in order.
const EVIDENCE_COLUMNS: [&str; 6] = [
    "steps_completed",
    "steps_checked",
    "steps_correct",
    "attempts",
    "hints",
    "mean_score",
];

impl Evidence {
    /// The figures as printed, in the order of [`EVIDENCE_COLUMNS`].
    fn figures(&self) -> [String; 6] {
        [
            self.steps.to_string(),
            self.checked.to_string(),
            self.correct.to_string(),
            self.attempts.to_string(),
            self.hints.to_string(),
            mean(self.mean_score),
        ]
    }
}

#[derive(sqlx::FromRow)]
struct StandardRow {
    learner: String,
    standard: String,
    #[sqlx(flatten)]
    evidence: Evidence,
}

/// In SQL both engines read: `correct` is 0/1 on SQLite and a boolean on PostgreSQL, whose SUM
/// of a BIGINT is a NUMERIC (cast back).
const EVIDENCE: &str = "COUNT(*) AS steps, \
    COALESCE(SUM(CASE WHEN correct IS NOT NULL THEN 1 ELSE 0 END), 0) AS checked, \
    COALESCE(SUM(CASE WHEN correct THEN 1 ELSE 0 END), 0) AS correct, \
    CAST(COALESCE(SUM(attempts), 0) AS BIGINT) AS attempts, \
    CAST(COALESCE(SUM(hints), 0) AS BIGINT) AS hints, \
    AVG(score) AS mean_score";

fn mean(v: Option<f64>) -> String {
    v.map(|m| format!("{m:.3}")).unwrap_or_default()
}

/// CSV, one row per learner x standard with evidence: the learner's newest run of each step
/// that names the standard, counted (steps completed, checked, correct; attempts and hints
/// summed; mean score). Learners without evidence on a standard have no row for it.
pub(super) async fn standards_csv(x: Export<'_, '_>, out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let cte = latest_cte(pathways.len(), " AND standard IS NOT NULL");
    run.total = count(
        store,
        &format!(
            "{cte} SELECT COUNT(*) FROM \
             (SELECT DISTINCT learner, standard FROM latest WHERE rn = 1) AS pairs"
        ),
        &req.class_id,
        pathways,
    )
    .await?;
    let sql = format!(
        "{cte} SELECT learner, standard, {EVIDENCE} FROM latest WHERE rn = 1 \
         GROUP BY learner, standard ORDER BY learner, standard"
    );
    let mut w = csv::Writer::from_writer(out);
    let mut columns = vec!["standard"];
    columns.extend(EVIDENCE_COLUMNS);
    w.write_record(learner_header(run, &columns))?;
    let mut line = 1;
    on_pool!(store.engine(), |pool| {
        let mut rows = scoped::<Db, StandardRow>(&sql, Some(&req.class_id), pathways).fetch(pool);
        while let Some(r) = rows.try_next().await? {
            if !run.includes(&r.learner) {
                continue;
            }
            line += 1;
            run.check("line", line, "anonymous_id", &r.learner)?;
            run.check("line", line, "standard", &r.standard)?;
            let mut record: Vec<String> = vec![r.learner.clone()];
            if let Some(name) = run.name(&r.learner) {
                record.push(name.to_string());
            }
            record.push(r.standard);
            record.extend(r.evidence.figures());
            w.write_record(&record)?;
            run.tick()?;
        }
    });
    w.flush()?;
    Ok(run.done)
}

#[derive(sqlx::FromRow)]
struct SummaryRow {
    standard: String,
    learners: i64,
    #[sqlx(flatten)]
    evidence: Evidence,
}

/// CSV, one row per standard for the whole class, plus an `all standards` row: the class x
/// standard table of the class view, through the same suppression function. A standard with
/// evidence from fewer than k learners prints the placeholder in every figure; complementary
/// suppression hides one more standard where the `all standards` total would give it away.
pub(super) async fn standards_summary(x: Export<'_, '_>, out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    // A group's summary counts its learners only (and is suppressed like the class's).
    let learners = run.scope.learners_json();
    let (per_standard, total): (Vec<SummaryRow>, Option<SummaryRow>) =
        on_pool!(store.engine(), |pool| {
            let only = learner_clause(learners.is_some(), pathways.len() + 2, PG);
            let cte = latest_cte(pathways.len(), &format!(" AND standard IS NOT NULL{only}"));
            // A class has tens of standards: the table fits in memory.
            let sql = format!(
                "{cte} SELECT standard, COUNT(DISTINCT learner) AS learners, {EVIDENCE} \
                 FROM latest WHERE rn = 1 GROUP BY standard ORDER BY standard"
            );
            // Only when some learner has evidence: an empty class has no total row.
            let total_sql = format!(
                "{cte} SELECT CAST('all standards' AS TEXT) AS standard, \
                 COUNT(DISTINCT learner) AS learners, {EVIDENCE} FROM latest WHERE rn = 1 \
                 HAVING COUNT(*) > 0"
            );
            let per_standard =
                scoped_for::<Db, SummaryRow>(&sql, &req.class_id, pathways, learners.as_deref())
                    .fetch_all(pool)
                    .await?;
            let total = scoped_for::<Db, SummaryRow>(
                &total_sql,
                &req.class_id,
                pathways,
                learners.as_deref(),
            )
            .fetch_optional(pool)
            .await?;
            (per_standard, total)
        });
    run.total = per_standard.len() as u64 + 1;

    let learners = crate::dto::count_u32;
    let mut table = Table::new(1, per_standard.len());
    for (c, r) in per_standard.iter().enumerate() {
        table.set(0, c, learners(r.learners));
    }
    if let Some(t) = &total {
        table.set_row_total(0, learners(t.learners));
    }
    let hidden = suppress(&table, run.k);

    let mut w = csv::Writer::from_writer(out);
    let mut header = vec!["standard", "learners"];
    header.extend(EVIDENCE_COLUMNS);
    header.push("suppressed");
    w.write_record(&header)?;
    let rows = per_standard
        .iter()
        .enumerate()
        .map(|(c, r)| (r, hidden.cell(0, c)))
        .chain(total.iter().map(|t| (t, hidden.row_total(0))));
    let mut line = 1;
    for (r, visibility) in rows {
        line += 1;
        run.check("line", line, "standard", &r.standard)?;
        let figures = match visibility.placeholder(run.k) {
            // Empty (no learners) has nothing to hide: print its zeros.
            Some(text) if visibility.is_hidden() => vec![text; 7],
            _ => {
                let mut figures = vec![r.learners.to_string()];
                figures.extend(r.evidence.figures());
                figures
            }
        };
        let mut record = vec![r.standard.clone()];
        record.extend(figures);
        record.push(
            match visibility {
                v if v.is_hidden() => serde_json::to_value(v)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default(),
                _ => String::new(),
            }
            .to_string(),
        );
        w.write_record(&record)?;
        run.tick()?;
    }
    w.flush()?;
    Ok(run.done)
}
