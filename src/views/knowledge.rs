//! The class's knowledge map: standards as nodes with how many learners are in each state
//! (known, missed, doesn't know yet, taught, not met yet — [`crate::progress::knowledge`]),
//! prerequisite edges from the catalog, and the misconceptions learners showed. The teacher's
//! own screen sees every count; projector-safe mode (and the projector window) see them through
//! the small-cell suppression. The learners behind a node are listed by their labels (aliases
//! in projector-safe mode).

use serde::Serialize;

use super::ViewError;
use crate::dto::count_i32 as n32;
use crate::groups::Scope;
use crate::progress::knowledge::{ClassKnowledge, NodeState};
use crate::progress::names::Privacy;
use crate::progress::suppression::{Table, Visibility, suppress};
use crate::store::Store;

/// One state's count on a node; `count` is `None` when suppressed (`shown` says why).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StateCountView {
    pub state: NodeState,
    pub label: String,
    pub count: Option<i32>,
    pub visibility: Visibility,
    /// What to print: the count, or the suppression's wording.
    pub shown: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct KnowledgeNodeView {
    pub code: String,
    /// The catalog's title of the standard (its code when the host gives none).
    pub title: String,
    pub counts: Vec<StateCountView>,
    pub learners: i32,
}

/// `from` is a prerequisite of `to`.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct KnowledgeEdgeView {
    pub from: String,
    pub to: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct MisconceptionView {
    /// Unique in the map: `standard` + name.
    pub id: String,
    pub standard: String,
    pub name: String,
    /// Learners who showed it; `None` when suppressed.
    pub learners: Option<i32>,
    pub shown: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct KnowledgeMapView {
    pub nodes: Vec<KnowledgeNodeView>,
    pub edges: Vec<KnowledgeEdgeView>,
    pub misconceptions: Vec<MisconceptionView>,
    /// The threshold the counts were suppressed with; `None` on the teacher's own screen.
    pub k: Option<i32>,
}

/// Builds the map from the class's derived states. `k`: suppress with it (projector-safe mode,
/// the projector window), or show every count (`None`).
pub fn map_view(
    knowledge: &ClassKnowledge,
    catalog: &[crate::store::CatalogStandard],
    k: Option<u32>,
) -> KnowledgeMapView {
    // Nodes: the catalog's standards first, in its order, then any other the events name.
    let mut codes: Vec<&str> = catalog
        .iter()
        .map(|s| s.code.as_str())
        .filter(|c| knowledge.states.contains_key(*c))
        .collect();
    for code in knowledge.states.keys() {
        if !codes.contains(&code.as_str()) {
            codes.push(code);
        }
    }
    let mut table = Table::new(codes.len(), NodeState::ALL.len());
    let counts: Vec<_> = codes.iter().map(|c| knowledge.counts(c)).collect();
    for (row, c) in counts.iter().enumerate() {
        let mut total = 0;
        for (col, state) in NodeState::ALL.iter().enumerate() {
            let n = u32::try_from(c.get(state).copied().unwrap_or(0)).unwrap_or(u32::MAX);
            table.set(row, col, n);
            total += n;
        }
        // Every learner of the class is in some state: the row total is the class size, which
        // the room knows anyway, so it is published and the suppression protects against it.
        table.set_row_total(row, total);
    }
    let suppression = k.map(|k| suppress(&table, k));
    let nodes = codes
        .iter()
        .enumerate()
        .map(|(row, code)| {
            let title = catalog
                .iter()
                .find(|s| s.code == *code)
                .map(|s| s.title.clone())
                .filter(|t| !t.is_empty())
                .unwrap_or_else(|| (*code).to_owned());
            let mut learners = 0;
            let counts = NodeState::ALL
                .iter()
                .enumerate()
                .map(|(col, state)| {
                    let n = counts[row].get(state).copied().unwrap_or(0);
                    learners += n;
                    let visibility = match &suppression {
                        Some(s) => s.cell(row, col),
                        None => Visibility::Shown,
                    };
                    let hidden = visibility.is_hidden();
                    StateCountView {
                        state: *state,
                        label: state.label().to_owned(),
                        count: (!hidden).then(|| n32(n)),
                        visibility,
                        shown: match (hidden, k) {
                            (true, Some(k)) => visibility.placeholder(k).unwrap_or_default(),
                            _ => n.to_string(),
                        },
                    }
                })
                .collect();
            KnowledgeNodeView {
                code: (*code).to_owned(),
                title,
                counts,
                learners: n32(learners),
            }
        })
        .collect();
    let edges = catalog
        .iter()
        .filter(|s| codes.contains(&s.code.as_str()))
        .flat_map(|s| {
            s.requires
                .iter()
                .filter(|r| codes.contains(&r.as_str()))
                .map(|r| KnowledgeEdgeView {
                    from: r.clone(),
                    to: s.code.clone(),
                })
        })
        .collect();
    let misconceptions = knowledge
        .misconceptions
        .iter()
        .map(|((standard, name), learners)| {
            let n = learners.len();
            let hidden = k.is_some_and(|k| n < k as usize);
            MisconceptionView {
                id: format!("{standard}::{name}"),
                standard: standard.clone(),
                name: name.clone(),
                learners: (!hidden).then(|| n32(n)),
                shown: match k {
                    Some(k) if hidden => Visibility::Primary.placeholder(k).unwrap_or_default(),
                    _ => n.to_string(),
                },
            }
        })
        .collect();
    KnowledgeMapView {
        nodes,
        edges,
        misconceptions,
        k: k.map(n32),
    }
}

/// The class's knowledge map as the window shows it under `privacy`.
pub async fn knowledge_map(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    scope: &Scope,
) -> Result<KnowledgeMapView, ViewError> {
    let knowledge = store
        .class_knowledge(class_id)
        .await?
        .only(|l| scope.includes(l));
    let catalog = store.standards().await?;
    let k = match privacy {
        Privacy::Names => None,
        Privacy::Projector { .. } => Some(store.suppression_k().await?),
    };
    Ok(map_view(&knowledge, &catalog, k))
}

/// The learners of one state on a node.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct NodeLearnersView {
    pub state: NodeState,
    pub label: String,
    /// Labels (names where the teacher imported a roster; aliases in projector-safe mode).
    pub learners: Vec<String>,
}

/// Who is in each state on one standard (clicking a node).
pub async fn node_learners(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    code: &str,
    scope: &Scope,
) -> Result<Vec<NodeLearnersView>, ViewError> {
    let knowledge = store
        .class_knowledge(class_id)
        .await?
        .only(|l| scope.includes(l));
    let labeler = store.labeler(class_id, privacy).await?;
    let states = knowledge.states.get(code);
    Ok(NodeState::ALL
        .iter()
        .map(|state| {
            let mut learners: Vec<String> = states
                .into_iter()
                .flat_map(|m| m.iter())
                .filter(|(_, s)| *s == state)
                .map(|(l, _)| labeler.label(l))
                .collect();
            learners.sort();
            NodeLearnersView {
                state: *state,
                label: state.label().to_owned(),
                learners,
            }
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::CatalogStandard;

    fn knowledge() -> ClassKnowledge {
        let mut k = ClassKnowledge::default();
        let states = [
            ("a", NodeState::Known),
            ("b", NodeState::Known),
            ("c", NodeState::Known),
            ("d", NodeState::Missed),
            ("e", NodeState::Candidate),
        ];
        for code in ["S1", "S2"] {
            k.states.insert(
                code.into(),
                states.iter().map(|(l, s)| (l.to_string(), *s)).collect(),
            );
        }
        k.misconceptions
            .insert(("S1".into(), "m".into()), ["d".to_string()].into());
        k
    }

    fn catalog() -> Vec<CatalogStandard> {
        vec![
            CatalogStandard {
                code: "S1".into(),
                title: "First".into(),
                requires: vec![],
            },
            CatalogStandard {
                code: "S2".into(),
                title: "".into(),
                requires: vec!["S1".into(), "S9".into()],
            },
        ]
    }

    #[test]
    fn the_teacher_sees_every_count_and_the_known_edges() {
        let view = map_view(&knowledge(), &catalog(), None);
        assert_eq!(view.nodes.len(), 2);
        assert_eq!(view.nodes[0].title, "First");
        assert_eq!(
            view.nodes[1].title, "S2",
            "the code when the host gives no title"
        );
        let counts: Vec<Option<i32>> = view.nodes[0].counts.iter().map(|c| c.count).collect();
        assert_eq!(counts, [Some(3), Some(1), Some(0), Some(0), Some(1)]);
        assert_eq!(view.nodes[0].learners, 5);
        // S9 is not a node of the class: no edge to nowhere.
        assert_eq!(view.edges.len(), 1);
        assert_eq!((&*view.edges[0].from, &*view.edges[0].to), ("S1", "S2"));
        assert_eq!(view.misconceptions[0].learners, Some(1));
    }

    #[test]
    fn the_projector_sees_counts_through_the_suppression() {
        let view = map_view(&knowledge(), &catalog(), Some(3));
        let node = &view.nodes[0];
        // 3 known is shown; the 1 missed and 1 not-met are "fewer than 3".
        assert_eq!(node.counts[0].count, Some(3));
        assert_eq!(node.counts[1].count, None);
        assert_eq!(node.counts[1].shown, "fewer than 3");
        assert!(
            node.counts
                .iter()
                .all(|c| c.count.is_none_or(|n| n == 0 || n >= 3))
        );
        // A misconception shown by one learner is not printed.
        assert_eq!(view.misconceptions[0].learners, None);
        assert_eq!(view.k, Some(3));
    }
}
