//! `csv`: one row per learner x step, every step of the scope for every learner of the class.

use std::collections::HashMap;
use std::io::Write;

use futures_util::TryStreamExt;

use super::common::{Export, Rows, count, learner_header, numbered, scoped};
use super::rfc3339;
use crate::store::engine::{by_code_point, on_pool};

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
pub(super) async fn steps_csv(x: Export<'_, '_>, out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let n = pathways.len();
    run.total = count(
        store,
        &format!(
            "SELECT (SELECT COUNT(*) FROM learners WHERE class_id = $1) * \
             (SELECT COUNT(*) FROM pathway_steps WHERE pathway_id IN ({}))",
            numbered(2, n)
        ),
        &req.class_id,
        pathways,
    )
    .await?;
    on_pool!(store.engine(), |pool| {
        let sql = format!(
            "SELECT pathway_id, position, widget_id, kind, standard FROM pathway_steps \
         WHERE pathway_id IN ({}) ORDER BY pathway_id, position",
            numbered(1, n)
        );
        let steps: Vec<StepRow> = scoped::<Db, StepRow>(&sql, None, pathways)
            .fetch_all(pool)
            .await?;
        // Each step's cell: steps of one pathway naming the same widget share the newest run.
        let mut cell_of: HashMap<&str, HashMap<&str, usize>> = HashMap::new();
        let mut step_cell = Vec::with_capacity(steps.len());
        for s in &steps {
            let cells = cell_of.entry(s.pathway_id.as_str()).or_default();
            let next = cells.len();
            let id = *cells.entry(s.widget_id.as_str()).or_insert(next);
            step_cell.push((s.pathway_id.as_str(), id));
        }
        let mut base = HashMap::new();
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

        // The runs are merged with the learners in Rust's byte order.
        let learner_order = by_code_point("learner", PG);
        let learners: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT learner FROM learners WHERE class_id = $1 ORDER BY {learner_order}"
        ))
        .bind(&req.class_id)
        .fetch_all(pool)
        .await?;
        // A group's export lists its learners only; the others' runs are skipped as unlisted.
        let learners = run.scope.narrow(learners);
        // In the covering index's column order, at_ms ascending: a single pathway needs no sort
        // (ties on at_ms are broken by widget_run_id below, in Rust).
        let sql = format!(
            "SELECT learner, pathway_id, widget_id, kind, standard, correct, attempts, hints, score, \
         at_ms, widget_run_id FROM results WHERE class_id = $1 AND pathway_id IN ({}) \
         ORDER BY {learner_order}, pathway_id, widget_id, at_ms",
            numbered(2, n)
        );
        let mut rows = scoped::<Db, RunRow>(&sql, Some(&req.class_id), pathways).fetch(pool);

        let mut w = csv::Writer::from_writer(out);
        w.write_record(learner_header(
            run,
            &[
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
            ],
        ))?;
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
    });
    Ok(run.done)
}
