//! `knowledge-map`: the class's knowledge map as one JSON document (issue 16's interface):
//! standards and misconceptions as nodes with per-state learner counts, prerequisite edges from
//! the catalog and the pathways' step order between standards. Counts go through the same
//! small-cell suppression as `standards-summary` (a suppressed figure is the string
//! "fewer than k", or the complementary wording); no learner id is written, so the identified
//! flag changes nothing. A misconception node carries the standard it was shown on, how many
//! learners showed it, and where those learners stand now on that standard (`states`).

use std::collections::BTreeSet;
use std::io::Write;

use serde_json::{Map, Value, json};

use super::common::{Export, Rows};
use crate::progress::knowledge::{ClassKnowledge, NodeState};
use crate::progress::suppression::{Table, Visibility, suppress};
use crate::views::knowledge::{KnowledgeNodeView, map_view};

/// The state names of the JSON (`dont-know`, not the UI's wording).
fn key(state: NodeState) -> &'static str {
    match state {
        NodeState::Known => "known",
        NodeState::Missed => "missed",
        NodeState::DontKnow => "dont-know",
        NodeState::Taught => "taught",
        NodeState::Candidate => "candidate",
    }
}

fn states(node: &KnowledgeNodeView) -> Value {
    let mut out = Map::new();
    for c in &node.counts {
        let figure = match c.count {
            Some(n) => Value::from(n),
            None => Value::from(c.shown.clone()),
        };
        out.insert(key(c.state).to_owned(), figure);
    }
    Value::Object(out)
}

/// Where the learners who showed a misconception stand now on its standard, through the
/// suppression (the row total, how many showed it, is published beside it).
fn misconception_states(
    knowledge: &ClassKnowledge,
    standard: &str,
    who: &BTreeSet<String>,
    k: u32,
) -> Value {
    let on_standard = knowledge.states.get(standard);
    let mut table = Table::new(1, NodeState::ALL.len());
    let mut counts = [0u32; 5];
    for learner in who {
        let state = on_standard
            .and_then(|m| m.get(learner))
            .copied()
            .unwrap_or(NodeState::Candidate);
        if let Some(col) = NodeState::ALL.iter().position(|s| *s == state) {
            counts[col] += 1;
        }
    }
    for (col, n) in counts.iter().enumerate() {
        table.set(0, col, *n);
    }
    table.set_row_total(0, counts.iter().sum());
    let hidden = suppress(&table, k);
    let mut out = Map::new();
    for (col, state) in NodeState::ALL.iter().enumerate() {
        let v = hidden.cell(0, col);
        let value = if v.is_hidden() {
            Value::from(v.placeholder(k).unwrap_or_default())
        } else {
            Value::from(counts[col])
        };
        out.insert(key(*state).to_owned(), value);
    }
    Value::Object(out)
}

pub(super) async fn knowledge_map(x: Export<'_, '_>, mut out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let knowledge = store
        .class_knowledge(&req.class_id)
        .await?
        .only(|l| run.includes(l));
    let catalog = store.standards().await?;
    let view = map_view(&knowledge, &catalog, Some(run.k));
    let learners = run.scope.narrow(store.learners(&req.class_id).await?).len();
    run.total = (view.nodes.len() + view.misconceptions.len()) as u64;

    let mut nodes = Vec::new();
    for (i, node) in view.nodes.iter().enumerate() {
        let row = i as u64 + 1;
        run.check("node", row, "id", &node.code)?;
        run.check("node", row, "title", &node.title)?;
        nodes.push(json!({
            "id": node.code,
            "title": node.title,
            "kind": "standard",
            "states": states(node),
        }));
        run.tick()?;
    }
    // The view lists the misconceptions in the same (map) order, with their suppressed counts.
    for (i, (((standard, name), who), shown)) in knowledge
        .misconceptions
        .iter()
        .zip(&view.misconceptions)
        .enumerate()
    {
        let row = (view.nodes.len() + i) as u64 + 1;
        // A misconception's name comes from a widget: scanned like any free text.
        run.check("node", row, "title", name)?;
        nodes.push(json!({
            "id": format!("{standard}::{name}"),
            "title": name,
            "kind": "misconception",
            "standard": standard,
            "states": misconception_states(&knowledge, standard, who, run.k),
            "learners": shown
                .learners
                .map_or_else(|| Value::from(shown.shown.clone()), Value::from),
        }));
        run.tick()?;
    }
    let mut edges: Vec<Value> = view
        .edges
        .iter()
        .map(|e| json!({"from": e.from, "to": e.to, "type": "requires"}))
        .collect();
    // The order the class meets the standards in: consecutive standards of each pathway in
    // scope, where the catalog does not already relate them.
    let codes: Vec<&str> = view.nodes.iter().map(|n| n.code.as_str()).collect();
    for p in store.catalog().await? {
        if !pathways.contains(&p.pathway_id) {
            continue;
        }
        let mut seen: Vec<&str> = Vec::new();
        for s in &p.steps {
            if let Some(code) = s.entry.standard.as_deref()
                && codes.contains(&code)
                && seen.last() != Some(&code)
                && !seen.contains(&code)
            {
                seen.push(code);
            }
        }
        for pair in seen.windows(2) {
            let related = edges.iter().any(|e| {
                (e["from"] == pair[0] && e["to"] == pair[1])
                    || (e["from"] == pair[1] && e["to"] == pair[0])
            });
            if !related {
                edges.push(json!({"from": pair[0], "to": pair[1], "type": "sequence"}));
            }
        }
    }
    let suppressed =
        view.nodes.iter().flat_map(|n| &n.counts).any(|c| {
            c.visibility == Visibility::Primary || c.visibility == Visibility::Complementary
        });
    let doc = json!({
        "class_id": req.class_id,
        "learners": learners,
        "k": run.k,
        "suppressed": suppressed,
        "nodes": nodes,
        "edges": edges,
    });
    serde_json::to_writer_pretty(&mut out, &doc)?;
    out.write_all(b"\n")?;
    Ok(run.done)
}
