//! The built-in catalog: widget kinds (registry entries, `contract.md` §2) and the pathways
//! built from them.
//!
//! The kinds mix assessing and non-assessing widgets and declare their emissions the way a
//! real widget would: only assessing kinds struggle or ask for a score; a kind that cannot
//! check its own answer (`explain_reasoning`) declares `score`; `multiplication_facts`
//! deliberately declares no struggle, and `intro_video` no function, so the fault injector
//! has undeclared emissions to make.

use a2learn_contract::{Event, Function, Registry, RegistryEntry};
use serde::Serialize;

/// One step of a pathway: a widget instance and its kind's registry entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    pub widget_id: String,
    pub entry: RegistryEntry,
}

/// A pathway as `list_pathways` returns it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Pathway {
    pub pathway_id: String,
    pub title: String,
    pub version: String,
    pub steps: Vec<Step>,
}

fn entry(
    kind: &str,
    title: &str,
    standard: Option<&str>,
    assesses: bool,
    events: &[Event],
    functions: &[Function],
) -> RegistryEntry {
    RegistryEntry {
        kind: kind.to_owned(),
        title: title.to_owned(),
        standard: standard.map(str::to_owned),
        assesses,
        events: events.to_vec(),
        functions: functions.to_vec(),
    }
}

/// Every widget kind of the catalog.
pub fn kinds() -> Vec<RegistryEntry> {
    use Event::{WidgetCompleted as C, WidgetStruggle as S};
    use Function::{Assist as A, Score as Sc};
    vec![
        entry("intro_video", "Short video", None, false, &[C], &[]),
        entry(
            "reading_passage",
            "Reading passage",
            None,
            false,
            &[C],
            &[A],
        ),
        entry(
            "reflection_journal",
            "Reflection journal",
            None,
            false,
            &[C],
            &[],
        ),
        entry(
            "fraction_compare",
            "Compare two fractions",
            Some("CCSS.MATH.CONTENT.4.NF.A.2"),
            true,
            &[C, S],
            &[A],
        ),
        entry(
            "equivalent_fractions",
            "Find equivalent fractions",
            Some("CCSS.MATH.CONTENT.4.NF.A.1"),
            true,
            &[C, S],
            &[A],
        ),
        entry(
            "number_line_place",
            "Place a fraction on a number line",
            Some("CCSS.MATH.CONTENT.3.NF.A.2"),
            true,
            &[C, S],
            &[],
        ),
        entry(
            "explain_reasoning",
            "Explain your reasoning",
            Some("CCSS.MATH.PRACTICE.MP3"),
            true,
            &[C],
            &[Sc, A],
        ),
        entry(
            "multiplication_facts",
            "Multiplication facts",
            Some("CCSS.MATH.CONTENT.3.OA.C.7"),
            true,
            &[C],
            &[],
        ),
        entry(
            "area_model",
            "Area model",
            Some("CCSS.MATH.CONTENT.3.MD.C.7"),
            true,
            &[C, S],
            &[A],
        ),
        entry(
            "main_idea",
            "Find the main idea",
            Some("CCSS.ELA-LITERACY.RI.4.2"),
            true,
            &[C, S],
            &[A],
        ),
        entry(
            "vocab_in_context",
            "Words in context",
            Some("CCSS.ELA-LITERACY.L.4.4"),
            true,
            &[C, S],
            &[],
        ),
        entry(
            "summary_writing",
            "Write a summary",
            Some("CCSS.ELA-LITERACY.RI.4.2"),
            true,
            &[C],
            &[Sc, A],
        ),
    ]
}

/// The registry of the catalog's kinds.
pub fn registry() -> Registry {
    // The entries above are fixed and satisfy rule 1; a failure here is a bug in this file,
    // caught by the tests, so an empty registry is an acceptable fallback.
    Registry::new(kinds()).unwrap_or_default()
}

fn kind(name: &str) -> RegistryEntry {
    kinds()
        .into_iter()
        .find(|k| k.kind == name)
        .unwrap_or_else(|| entry(name, name, None, false, &[Event::WidgetCompleted], &[]))
}

fn pathway(id: &str, title: &str, prefix: &str, kinds: &[&str]) -> Pathway {
    Pathway {
        pathway_id: id.to_owned(),
        title: title.to_owned(),
        version: "1.0.0".to_owned(),
        steps: kinds
            .iter()
            .enumerate()
            .map(|(i, k)| Step {
                widget_id: format!("{prefix}-w{}-{}", i + 1, k.replace('_', "-")),
                entry: kind(k),
            })
            .collect(),
    }
}

/// The pathways of the catalog (3, of 6 to 9 widgets each).
pub fn pathways() -> Vec<Pathway> {
    PATHWAYS.clone()
}

/// A pathway that breaks the catalog's rules (a step builds on a widget the pathway does not
/// have): what `list_pathways` adds under [`crate::Faults::broken_catalog`].
pub fn broken_pathway() -> serde_json::Value {
    let mut pathway = serde_json::to_value(&PATHWAYS[0]).unwrap_or_default();
    pathway["pathway_id"] = "broken-requires".into();
    if let Some(step) = pathway["steps"].get_mut(1) {
        step["requires"] = serde_json::json!(["no-such-widget"]);
    }
    pathway
}

/// Built once: the simulation looks a pathway up at every step it plans, and building the
/// catalog each time (every kind's entry, for every step) took most of a long simulation's time
/// (a 100,000-frame bench log: 26-30 s, 67% of the bench's CPU samples under `perf`).
static PATHWAYS: std::sync::LazyLock<Vec<Pathway>> = std::sync::LazyLock::new(build_pathways);

fn build_pathways() -> Vec<Pathway> {
    vec![
        pathway(
            "fractions-compare-4",
            "Comparing fractions",
            "frc",
            &[
                "intro_video",
                "equivalent_fractions",
                "number_line_place",
                "fraction_compare",
                "fraction_compare",
                "explain_reasoning",
                "reflection_journal",
            ],
        ),
        pathway(
            "multiplication-area-3",
            "Multiplication and area",
            "mul",
            &[
                "intro_video",
                "multiplication_facts",
                "multiplication_facts",
                "area_model",
                "area_model",
                "explain_reasoning",
            ],
        ),
        pathway(
            "main-idea-4",
            "Finding the main idea",
            "rdg",
            &[
                "intro_video",
                "reading_passage",
                "vocab_in_context",
                "main_idea",
                "reading_passage",
                "main_idea",
                "summary_writing",
                "vocab_in_context",
                "reflection_journal",
            ],
        ),
    ]
}

/// A standard the catalog's steps name, with the standards it builds on (`pathway-host.md` §1,
/// `list_pathways`' optional `standards`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standard {
    pub code: String,
    pub title: String,
    pub requires: Vec<String>,
}

fn standard(code: &str, title: &str, requires: &[&str]) -> Standard {
    Standard {
        code: format!("CCSS.{code}"),
        title: title.to_owned(),
        requires: requires.iter().map(|r| format!("CCSS.{r}")).collect(),
    }
}

/// The standards of the catalog and their prerequisites, as the Common Core progressions
/// describe them: fractions on a number line come before equivalence, equivalence before
/// comparison; area builds on multiplication; a passage's main idea builds on its words.
pub fn standards() -> Vec<Standard> {
    vec![
        standard("MATH.CONTENT.3.NF.A.2", "Fractions on a number line", &[]),
        standard(
            "MATH.CONTENT.4.NF.A.1",
            "Equivalent fractions",
            &["MATH.CONTENT.3.NF.A.2"],
        ),
        standard(
            "MATH.CONTENT.4.NF.A.2",
            "Compare two fractions",
            &["MATH.CONTENT.4.NF.A.1", "MATH.CONTENT.3.NF.A.2"],
        ),
        standard("MATH.CONTENT.3.OA.C.7", "Multiply within 100", &[]),
        standard(
            "MATH.CONTENT.3.MD.C.7",
            "Area and multiplication",
            &["MATH.CONTENT.3.OA.C.7"],
        ),
        standard("MATH.PRACTICE.MP3", "Construct viable arguments", &[]),
        standard("ELA-LITERACY.L.4.4", "Word meaning from context", &[]),
        standard(
            "ELA-LITERACY.RI.4.2",
            "Main idea and summary",
            &["ELA-LITERACY.L.4.4"],
        ),
    ]
}

pub fn find_pathway(pathway_id: &str) -> Option<Pathway> {
    PATHWAYS
        .iter()
        .find(|p| p.pathway_id == pathway_id)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_passes_the_contract_and_pathways_are_sized() {
        let registry = Registry::new(kinds()).expect("catalog kinds are valid");
        let paths = pathways();
        assert!(paths.len() >= 3);
        for p in &paths {
            assert!((5..=12).contains(&p.steps.len()), "{}", p.pathway_id);
            let mut ids = std::collections::HashSet::new();
            for s in &p.steps {
                assert!(registry.get(&s.entry.kind).is_some());
                assert!(ids.insert(s.widget_id.clone()), "duplicate widget id");
            }
            assert!(p.steps.iter().any(|s| s.entry.assesses));
            assert!(p.steps.iter().any(|s| !s.entry.assesses));
        }
    }

    #[test]
    fn every_standard_a_step_names_is_declared_and_prerequisites_are_known() {
        let declared: std::collections::HashSet<String> =
            standards().into_iter().map(|s| s.code).collect();
        for k in kinds() {
            if let Some(code) = k.standard {
                assert!(declared.contains(&code), "{code} is not declared");
            }
        }
        for s in standards() {
            for r in &s.requires {
                assert!(declared.contains(r), "{} requires unknown {r}", s.code);
                assert_ne!(r, &s.code);
            }
        }
        assert!(standards().iter().any(|s| !s.requires.is_empty()));
    }
}
