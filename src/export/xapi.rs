//! `xapi`: one xAPI statement per completed widget run, as one JSON array.

use std::io::Write;

use futures_util::TryStreamExt;
use serde_json::{Value, json};

use super::common::{Export, Rows, check_serialized, count_results, numbered, scoped};
use super::{ExportError, Run, derived_uuid, rfc3339, segment};
use crate::store::engine::on_pool;

const VERB_COMPLETED: &str = "http://adlnet.gov/expapi/verbs/completed";
const VERB_ANSWERED: &str = "http://adlnet.gov/expapi/verbs/answered";

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
pub(super) async fn xapi(x: Export<'_, '_>, mut out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let n = pathways.len();
    run.total = count_results(store, &req.class_id, pathways).await?;
    // The steps are few: held in memory rather than joined per result.
    let steps_sql = format!(
        "SELECT pathway_id, widget_id, assesses, title FROM pathway_steps \
         WHERE pathway_id IN ({})",
        numbered(1, n)
    );
    let sql = format!(
        "SELECT widget_run_id, pathway_id, widget_id, learner, kind, standard, correct, score, \
         at_ms, payload FROM results_with_payload WHERE class_id = $1 AND pathway_id IN ({}) \
         ORDER BY at_ms, widget_run_id",
        numbered(2, n)
    );
    out.write_all(b"[")?;
    let mut number = 0;
    on_pool!(store.engine(), |pool| {
        let steps: Steps = scoped::<Db, (String, String, bool, String)>(&steps_sql, None, pathways)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|(p, w, a, t)| ((p, w), (a, t)))
            .collect();
        let mut rows = scoped::<Db, ResultRow>(&sql, Some(&req.class_id), pathways).fetch(pool);
        while let Some(r) = rows.try_next().await? {
            if !run.includes(&r.learner) {
                continue;
            }
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
    });
    out.write_all(b"\n]\n")?;
    out.flush()?;
    Ok(run.done)
}
