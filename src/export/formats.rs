//! The formats themselves: each streams its query into the writer, scanning every text field of
//! a default export before it is written.

use std::io::{Seek, Write};

use futures_util::TryStreamExt;
use serde_json::{Value, json};

use super::{ExportError, ExportRequest, Format, Run, date, derived_uuid, rfc3339, segment};
use crate::progress::suppression::{Table, suppress};
use crate::store::Store;

const VERB_COMPLETED: &str = "http://adlnet.gov/expapi/verbs/completed";
const VERB_ANSWERED: &str = "http://adlnet.gov/expapi/verbs/answered";

pub(super) async fn write<W: Write + Seek + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    out: W,
) -> Result<u64, ExportError> {
    match req.format {
        Format::Csv => steps_csv(store, req, pathways, run, out).await,
        Format::StandardsCsv => standards_csv(store, req, pathways, run, out).await,
        Format::StandardsSummary => standards_summary(store, req, pathways, run, out).await,
        Format::Jsonl => jsonl(store, req, pathways, run, out).await,
        Format::Xapi => xapi(store, req, pathways, run, out).await,
        Format::Oneroster => oneroster(store, req, pathways, run, out).await,
    }
}

/// `?, ?, ?` for an IN list (`NULL` for an empty one, which matches nothing).
fn placeholders(n: usize) -> String {
    if n == 0 {
        "NULL".to_string()
    } else {
        vec!["?"; n].join(", ")
    }
}

/// How many stored results the export will write (one per completed run): the progress total.
async fn count_results(
    store: &Store,
    class_id: &str,
    pathways: &[String],
) -> Result<u64, ExportError> {
    let sql = format!(
        "SELECT COUNT(*) FROM results WHERE class_id = ? AND pathway_id IN ({})",
        placeholders(pathways.len())
    );
    count(store, &sql, class_id, pathways).await
}

async fn count(
    store: &Store,
    sql: &str,
    class_id: &str,
    pathways: &[String],
) -> Result<u64, ExportError> {
    let mut q = sqlx::query_scalar::<_, i64>(sql).bind(class_id);
    for p in pathways {
        q = q.bind(p);
    }
    Ok(u64::try_from(q.fetch_one(store.pool()).await?).unwrap_or(0))
}

fn opt_bool(v: Option<bool>) -> &'static str {
    match v {
        Some(true) => "true",
        Some(false) => "false",
        None => "",
    }
}

fn opt_num<T: ToString>(v: Option<T>) -> String {
    v.map(|n| n.to_string()).unwrap_or_default()
}

/// The latest completed run of each learner x step (a learner may redo a step; the grid and the
/// gradebook show the newest result, as the class view does).
fn latest_cte(n_pathways: usize, extra: &str) -> String {
    format!(
        "WITH latest AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY learner, pathway_id, widget_id \
         ORDER BY at_ms DESC, widget_run_id DESC) AS rn FROM results \
         WHERE class_id = ? AND pathway_id IN ({}){extra})",
        placeholders(n_pathways)
    )
}

#[derive(sqlx::FromRow)]
struct StepRow {
    pathway_id: String,
    position: i64,
    widget_id: String,
    kind: String,
    standard: Option<String>,
}

#[derive(sqlx::FromRow)]
struct RunRow {
    learner: String,
    pathway_id: String,
    widget_id: String,
    kind: String,
    standard: Option<String>,
    correct: Option<bool>,
    attempts: i64,
    hints: i64,
    score: Option<f64>,
    at_ms: i64,
    widget_run_id: String,
}

impl RunRow {
    /// Whether this run replaces `kept` as the newest of its cell (`at_ms`, then
    /// `widget_run_id`, both descending, as the class view orders them).
    fn is_newer_than(&self, kept: &RunRow) -> bool {
        (self.at_ms, self.widget_run_id.as_str()) > (kept.at_ms, kept.widget_run_id.as_str())
    }
}

/// CSV, one row per learner x step: every learner of the class x every step of the pathways in
/// scope, so a step not completed yet is a row with `status` = `not_completed` and empty result
/// fields (a teacher sees who has not finished, not only who has).
///
/// One ordered scan of the class's results (`results_grid_cover`'s order: no sort for a single
/// pathway) is merged with the learners in id order; the newest run of each (learner, step) is
/// kept, one learner at a time, and the steps fill in the cells without a run.
async fn steps_csv<W: Write + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    out: W,
) -> Result<u64, ExportError> {
    let n = pathways.len();
    run.total = count(
        store,
        &format!(
            "SELECT (SELECT COUNT(*) FROM learners WHERE class_id = ?) * \
             (SELECT COUNT(*) FROM pathway_steps WHERE pathway_id IN ({}))",
            placeholders(n)
        ),
        &req.class_id,
        pathways,
    )
    .await?;
    let sql = format!(
        "SELECT pathway_id, position, widget_id, kind, standard FROM pathway_steps \
         WHERE pathway_id IN ({}) ORDER BY pathway_id, position",
        placeholders(n)
    );
    let mut q = sqlx::query_as::<_, StepRow>(&sql);
    for p in pathways {
        q = q.bind(p);
    }
    let steps: Vec<StepRow> = q.fetch_all(store.pool()).await?;
    // Each step's cell: steps of one pathway naming the same widget share the newest run.
    let mut cell_of: std::collections::HashMap<&str, std::collections::HashMap<&str, usize>> =
        std::collections::HashMap::new();
    let mut step_cell = Vec::with_capacity(steps.len());
    for s in &steps {
        let cells = cell_of.entry(s.pathway_id.as_str()).or_default();
        let next = cells.len();
        let id = *cells.entry(s.widget_id.as_str()).or_insert(next);
        step_cell.push((s.pathway_id.as_str(), id));
    }
    let mut base = std::collections::HashMap::new();
    let mut width = 0;
    for p in pathways {
        if let Some(cells) = cell_of.get(p.as_str()) {
            base.insert(p.as_str(), width);
            width += cells.len();
        }
    }
    let cell_index = |pathway: &str, widget: &str| -> Option<usize> {
        let cells = cell_of.get(pathway)?;
        Some(base.get(pathway)? + cells.get(widget)?)
    };
    let step_cell: Vec<usize> = step_cell
        .iter()
        .map(|&(p, id)| base.get(p).copied().unwrap_or_default() + id)
        .collect();

    let learners: Vec<String> =
        sqlx::query_scalar("SELECT learner FROM learners WHERE class_id = ? ORDER BY learner")
            .bind(&req.class_id)
            .fetch_all(store.pool())
            .await?;
    // In the covering index's column order, at_ms ascending: a single pathway needs no sort
    // (ties on at_ms are broken by widget_run_id below, in Rust).
    let sql = format!(
        "SELECT learner, pathway_id, widget_id, kind, standard, correct, attempts, hints, score, \
         at_ms, widget_run_id FROM results WHERE class_id = ? AND pathway_id IN ({}) \
         ORDER BY learner, pathway_id, widget_id, at_ms",
        placeholders(n)
    );
    let mut q = sqlx::query_as::<_, RunRow>(&sql).bind(&req.class_id);
    for p in pathways {
        q = q.bind(p);
    }
    let mut rows = q.fetch(store.pool());

    let mut w = csv::Writer::from_writer(out);
    let mut header = vec!["anonymous_id"];
    if run.roster.is_some() {
        header.push("display_name");
    }
    header.extend([
        "pathway_id",
        "position",
        "widget_id",
        "kind",
        "standard",
        "status",
        "correct",
        "attempts",
        "hints",
        "score",
        "completed_at",
    ]);
    w.write_record(&header)?;
    let mut line = 1;
    let mut newest: Vec<Option<RunRow>> = Vec::new();
    newest.resize_with(width, || None);
    let mut pending = rows.try_next().await?;
    for learner in &learners {
        newest.iter_mut().for_each(|c| *c = None);
        while let Some(r) = pending.take() {
            match r.learner.as_str().cmp(learner.as_str()) {
                // The scan is past this learner: the run belongs to the next one.
                std::cmp::Ordering::Greater => {
                    pending = Some(r);
                    break;
                }
                // A learner the class does not list: not in the grid.
                std::cmp::Ordering::Less => {}
                std::cmp::Ordering::Equal => {
                    if let Some(slot) =
                        cell_index(&r.pathway_id, &r.widget_id).and_then(|i| newest.get_mut(i))
                    {
                        match slot {
                            Some(kept) if !r.is_newer_than(kept) => {}
                            _ => *slot = Some(r),
                        }
                    }
                }
            }
            pending = rows.try_next().await?;
        }
        let name = run.name(learner).map(str::to_owned);
        for (s, &cell) in steps.iter().zip(&step_cell) {
            line += 1;
            let r = newest.get(cell).and_then(Option::as_ref);
            let kind = r.map_or(s.kind.as_str(), |r| r.kind.as_str());
            let standard = r
                .and_then(|r| r.standard.as_deref())
                .or(s.standard.as_deref())
                .unwrap_or_default();
            for (field, text) in [
                ("anonymous_id", learner.as_str()),
                ("pathway_id", &s.pathway_id),
                ("widget_id", &s.widget_id),
                ("kind", kind),
                ("standard", standard),
            ] {
                run.check("line", line, field, text)?;
            }
            w.write_field(learner)?;
            if let Some(name) = &name {
                w.write_field(name)?;
            }
            w.write_field(&s.pathway_id)?;
            w.write_field(s.position.to_string())?;
            w.write_field(&s.widget_id)?;
            w.write_field(kind)?;
            w.write_field(standard)?;
            match r {
                Some(r) => {
                    w.write_field("completed")?;
                    w.write_field(opt_bool(r.correct))?;
                    w.write_field(r.attempts.to_string())?;
                    w.write_field(r.hints.to_string())?;
                    w.write_field(opt_num(r.score))?;
                    w.write_field(rfc3339(r.at_ms))?;
                }
                None => {
                    w.write_field("not_completed")?;
                    for _ in 0..5 {
                        w.write_field("")?;
                    }
                }
            }
            w.write_record(None::<&[u8]>)?;
            run.tick()?;
        }
    }
    w.flush()?;
    Ok(run.done)
}

#[derive(sqlx::FromRow)]
struct StandardRow {
    learner: String,
    standard: String,
    steps: i64,
    checked: i64,
    correct: i64,
    attempts: i64,
    hints: i64,
    mean_score: Option<f64>,
}

const EVIDENCE: &str = "COUNT(*) AS steps, \
    COALESCE(SUM(CASE WHEN correct IS NOT NULL THEN 1 ELSE 0 END), 0) AS checked, \
    COALESCE(SUM(CASE WHEN correct = 1 THEN 1 ELSE 0 END), 0) AS correct, \
    COALESCE(SUM(attempts), 0) AS attempts, COALESCE(SUM(hints), 0) AS hints, \
    AVG(score) AS mean_score";

fn mean(v: Option<f64>) -> String {
    v.map(|m| format!("{m:.3}")).unwrap_or_default()
}

/// CSV, one row per learner x standard with evidence: the learner's newest run of each step
/// that names the standard, counted (steps completed, checked, correct; attempts and hints
/// summed; mean score). Learners without evidence on a standard have no row for it.
async fn standards_csv<W: Write + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    out: W,
) -> Result<u64, ExportError> {
    let cte = latest_cte(pathways.len(), " AND standard IS NOT NULL");
    run.total = count(
        store,
        &format!(
            "{cte} SELECT COUNT(*) FROM (SELECT DISTINCT learner, standard FROM latest WHERE rn = 1)"
        ),
        &req.class_id,
        pathways,
    )
    .await?;
    let sql = format!(
        "{cte} SELECT learner, standard, {EVIDENCE} FROM latest WHERE rn = 1 \
         GROUP BY learner, standard ORDER BY learner, standard"
    );
    let mut q = sqlx::query_as::<_, StandardRow>(&sql).bind(&req.class_id);
    for p in pathways {
        q = q.bind(p);
    }
    let mut rows = q.fetch(store.pool());
    let mut w = csv::Writer::from_writer(out);
    let mut header = vec!["anonymous_id"];
    if run.roster.is_some() {
        header.push("display_name");
    }
    header.extend([
        "standard",
        "steps_completed",
        "steps_checked",
        "steps_correct",
        "attempts",
        "hints",
        "mean_score",
    ]);
    w.write_record(&header)?;
    let mut line = 1;
    while let Some(r) = rows.try_next().await? {
        line += 1;
        run.check("line", line, "anonymous_id", &r.learner)?;
        run.check("line", line, "standard", &r.standard)?;
        let mut record: Vec<String> = vec![r.learner.clone()];
        if let Some(name) = run.name(&r.learner) {
            record.push(name.to_string());
        }
        record.extend([
            r.standard,
            r.steps.to_string(),
            r.checked.to_string(),
            r.correct.to_string(),
            r.attempts.to_string(),
            r.hints.to_string(),
            mean(r.mean_score),
        ]);
        w.write_record(&record)?;
        run.tick()?;
    }
    w.flush()?;
    Ok(run.done)
}

#[derive(sqlx::FromRow)]
struct SummaryRow {
    standard: String,
    learners: i64,
    steps: i64,
    checked: i64,
    correct: i64,
    attempts: i64,
    hints: i64,
    mean_score: Option<f64>,
}

/// CSV, one row per standard for the whole class, plus an `all standards` row: the class x
/// standard table of the class view, through the same suppression function. A standard with
/// evidence from fewer than k learners prints the placeholder in every figure; complementary
/// suppression hides one more standard where the `all standards` total would give it away.
async fn standards_summary<W: Write + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    out: W,
) -> Result<u64, ExportError> {
    let cte = latest_cte(pathways.len(), " AND standard IS NOT NULL");
    fn bind<'q>(
        sql: &'q str,
        class_id: &'q str,
        pathways: &'q [String],
    ) -> sqlx::query::QueryAs<'q, sqlx::Sqlite, SummaryRow, sqlx::sqlite::SqliteArguments<'q>> {
        let mut q = sqlx::query_as::<_, SummaryRow>(sql).bind(class_id);
        for p in pathways {
            q = q.bind(p);
        }
        q
    }
    // A class has tens of standards: the table fits in memory.
    let sql = format!(
        "{cte} SELECT standard, COUNT(DISTINCT learner) AS learners, {EVIDENCE} \
         FROM latest WHERE rn = 1 GROUP BY standard ORDER BY standard"
    );
    let per_standard: Vec<SummaryRow> = bind(&sql, &req.class_id, pathways)
        .fetch_all(store.pool())
        .await?;
    // Only when some learner has evidence: an empty class has no total row.
    let sql = format!(
        "{cte} SELECT 'all standards' AS standard, COUNT(DISTINCT learner) AS learners, \
         {EVIDENCE} FROM latest WHERE rn = 1 HAVING COUNT(*) > 0"
    );
    let total: Option<SummaryRow> = bind(&sql, &req.class_id, pathways)
        .fetch_optional(store.pool())
        .await?;
    run.total = per_standard.len() as u64 + 1;

    let learners = |n: i64| u32::try_from(n).unwrap_or(u32::MAX);
    let mut table = Table::new(1, per_standard.len());
    for (c, r) in per_standard.iter().enumerate() {
        table.set(0, c, learners(r.learners));
    }
    if let Some(t) = &total {
        table.set_row_total(0, learners(t.learners));
    }
    let hidden = suppress(&table, run.k);

    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "standard",
        "learners",
        "steps_completed",
        "steps_checked",
        "steps_correct",
        "attempts",
        "hints",
        "mean_score",
        "suppressed",
    ])?;
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
            _ => vec![
                r.learners.to_string(),
                r.steps.to_string(),
                r.checked.to_string(),
                r.correct.to_string(),
                r.attempts.to_string(),
                r.hints.to_string(),
                mean(r.mean_score),
            ],
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

/// Scans a serialised JSON text; on a hit, walks the value to name the field (a match that spans
/// JSON syntax is reported against the whole line).
fn check_serialized(
    run: &Run<'_>,
    place: &'static str,
    row: u64,
    prefix: &str,
    text: &str,
) -> Result<(), ExportError> {
    let Some(scanner) = &run.scanner else {
        return Ok(());
    };
    let Some(what) = scanner.scan(text) else {
        return Ok(());
    };
    let value: Value = serde_json::from_str(text)?;
    run.check_json(place, row, prefix, &value)?;
    Err(crate::privacy::PrivacyHit {
        what,
        place,
        row,
        field: prefix.to_string(),
    }
    .into())
}

/// JSON lines: each stored result's contract payload, byte for byte as stored, in time order.
/// An identified export wraps each line: `{"display_name": ..., "payload": <as stored>}`.
async fn jsonl<W: Write + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    mut out: W,
) -> Result<u64, ExportError> {
    let n = pathways.len();
    run.total = count_results(store, &req.class_id, pathways).await?;
    let sql = format!(
        "SELECT learner, payload FROM results WHERE class_id = ? AND pathway_id IN ({}) \
         ORDER BY at_ms, widget_run_id",
        placeholders(n)
    );
    let mut q = sqlx::query_as::<_, (String, String)>(&sql).bind(&req.class_id);
    for p in pathways {
        q = q.bind(p);
    }
    let mut rows = q.fetch(store.pool());
    let mut line = 0;
    while let Some((learner, payload)) = rows.try_next().await? {
        line += 1;
        check_serialized(run, "line", line, "payload", &payload)?;
        match run.name(&learner) {
            Some(name) => {
                let name = serde_json::to_string(name)?;
                writeln!(out, "{{\"display_name\":{name},\"payload\":{payload}}}")?;
            }
            None => {
                out.write_all(payload.as_bytes())?;
                out.write_all(b"\n")?;
            }
        }
        run.tick()?;
    }
    out.flush()?;
    Ok(run.done)
}

#[derive(sqlx::FromRow)]
struct ResultRow {
    widget_run_id: String,
    pathway_id: String,
    widget_id: String,
    learner: String,
    kind: String,
    standard: Option<String>,
    correct: Option<bool>,
    score: Option<f64>,
    at_ms: i64,
    payload: String,
}

/// What a statement needs to know about a step: whether it assesses, and its title.
type Steps = std::collections::HashMap<(String, String), (bool, String)>;

#[derive(serde::Deserialize)]
struct Prose {
    #[serde(default)]
    prose: String,
}

/// One xAPI statement for one completed widget run.
fn statement(run: &Run<'_>, steps: &Steps, r: &ResultRow) -> Result<Value, ExportError> {
    let home = &run.home_page;
    let prose = serde_json::from_str::<Prose>(&r.payload)?.prose;
    // Unknown steps (not in the stored catalog): a verdict in the result means it assessed.
    let step = steps.get(&(r.pathway_id.clone(), r.widget_id.clone()));
    let assesses = step.map_or(r.correct.is_some() || r.score.is_some(), |s| s.0);
    let (verb, verb_name) = if assesses {
        (VERB_ANSWERED, "answered")
    } else {
        (VERB_COMPLETED, "completed")
    };
    let mut account = json!({"homePage": home, "name": r.learner});
    let mut actor = json!({"objectType": "Agent"});
    if let Some(name) = run.name(&r.learner) {
        actor["name"] = json!(name);
    }
    actor["account"] = account.take();
    let mut result = json!({"completion": true, "response": prose});
    if assesses && let Some(correct) = r.correct {
        result["success"] = json!(correct);
    }
    if let Some(score) = r.score {
        result["score"] = json!({"scaled": score});
    }
    let mut context = json!({
        "registration": derived_uuid("registration", &r.widget_run_id).to_string(),
        "platform": "a2learn",
        "contextActivities": {
            "parent": [{
                "objectType": "Activity",
                "id": format!("{home}/pathways/{}", segment(&r.pathway_id)),
            }],
        },
    });
    if let Some(standard) = &r.standard {
        context["contextActivities"]["category"] = json!([{
            "objectType": "Activity",
            "id": format!("{home}/standards/{}", segment(standard)),
            "definition": {"name": {"en-US": standard}},
        }]);
    }
    let title = step.map_or_else(|| r.kind.clone(), |s| s.1.clone());
    Ok(json!({
        "id": derived_uuid("statement", &r.widget_run_id).to_string(),
        "actor": actor,
        "verb": {"id": verb, "display": {"en-US": verb_name}},
        "object": {
            "objectType": "Activity",
            "id": format!("{home}/pathways/{}/widgets/{}", segment(&r.pathway_id), segment(&r.widget_id)),
            "definition": {
                "name": {"en-US": title},
                "type": "http://adlnet.gov/expapi/activities/interaction",
            },
        },
        "result": result,
        "context": context,
        "timestamp": rfc3339(r.at_ms),
    }))
}

/// xAPI statements, one JSON array (what an LRS takes in one POST), one statement per completed
/// widget run, in time order. Ids derive from the run id, so a re-export gives the same ids and
/// an LRS recognises a re-post as the same statements.
async fn xapi<W: Write + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    mut out: W,
) -> Result<u64, ExportError> {
    let n = pathways.len();
    run.total = count_results(store, &req.class_id, pathways).await?;
    // The steps are few: held in memory rather than joined per result.
    let sql = format!(
        "SELECT pathway_id, widget_id, assesses, title FROM pathway_steps \
         WHERE pathway_id IN ({})",
        placeholders(n)
    );
    let mut q = sqlx::query_as::<_, (String, String, bool, String)>(&sql);
    for p in pathways {
        q = q.bind(p);
    }
    let steps: Steps = q
        .fetch_all(store.pool())
        .await?
        .into_iter()
        .map(|(p, w, a, t)| ((p, w), (a, t)))
        .collect();
    let sql = format!(
        "SELECT widget_run_id, pathway_id, widget_id, learner, kind, standard, correct, score, \
         at_ms, payload FROM results WHERE class_id = ? AND pathway_id IN ({}) \
         ORDER BY at_ms, widget_run_id",
        placeholders(n)
    );
    let mut q = sqlx::query_as::<_, ResultRow>(&sql).bind(&req.class_id);
    for p in pathways {
        q = q.bind(p);
    }
    let mut rows = q.fetch(store.pool());
    out.write_all(b"[")?;
    let mut number = 0;
    while let Some(r) = rows.try_next().await? {
        number += 1;
        let text = serde_json::to_string(&statement(run, &steps, &r)?)?;
        check_serialized(run, "statement", number, "statement", &text)?;
        if number > 1 {
            out.write_all(b",")?;
        }
        out.write_all(b"\n")?;
        out.write_all(text.as_bytes())?;
        run.tick()?;
    }
    out.write_all(b"\n]\n")?;
    out.flush()?;
    Ok(run.done)
}

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
async fn oneroster<W: Write + Seek + Send>(
    store: &Store,
    req: &ExportRequest,
    pathways: &[String],
    run: &mut Run<'_>,
    out: W,
) -> Result<u64, ExportError> {
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
               FROM assignments WHERE class_id = ? GROUP BY pathway_id) a \
             ON a.pathway_id = s.pathway_id \
             WHERE s.pathway_id IN ({}) ORDER BY s.pathway_id, s.position",
            placeholders(n)
        );
        let mut q = sqlx::query_as::<_, LineItemRow>(&sql).bind(&req.class_id);
        for p in pathways {
            q = q.bind(p);
        }
        let items = q.fetch_all(store.pool()).await?;
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
        let mut q = sqlx::query_as::<_, GradeRow>(&sql).bind(&req.class_id);
        for p in pathways {
            q = q.bind(p);
        }
        let mut rows = q.fetch(store.pool());
        let mut w = csv::Writer::from_writer(&mut zip);
        w.write_record(RESULTS_HEADER)?;
        let mut line = 1;
        while let Some(r) = rows.try_next().await? {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_cover_the_empty_list() {
        assert_eq!(placeholders(0), "NULL");
        assert_eq!(placeholders(3), "?, ?, ?");
    }
}
