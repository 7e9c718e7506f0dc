//! The dialect of the upstream project (`adamstankiewicz/interactive-learning-experiences`, "ILE"):
//! its widget kinds, its telemetry rows and its chat reports, translated into the contract here and
//! nowhere else. The bridge (`a2learn-teacher bridge ile`) and `contract import --dialect ile` both
//! call this module; neither knows the upstream's shapes itself.
//!
//! What maps to what:
//! - a telemetry row (`interactions`, or one event of a `POST /api/telemetry` batch) is folded per
//!   learner and step: rows before a step's `widget_completed` make one *run*; the completion row
//!   becomes one `a2learn.widget_completed` (attempts from the run's checks, hints from its
//!   `hint_requested` rows, a 0-100 score rescaled to [0, 1]);
//! - three wrong checks in a row without a right one between them make the run's one
//!   `a2learn.widget_struggle`;
//! - `feedback_requested` is the student asking the model, not the teacher: no help request;
//! - every other row (`widget_shown`, `card_swiped`, …) is progress: it opens the run and counts
//!   nothing the contract carries.
//!
//! Ids: the caller gives each learner a pseudonym (the bridge: a keyed hash it keeps the key of);
//! the upstream's own student id never reaches this module's output.

use serde_json::{Map, Value, json};

use crate::types::{
    Event, Identity, Message, RegistryEntry, WidgetCompleted, WidgetResult, WidgetStruggle,
};

/// The upstream's widget kinds, each with whether it assesses (checks answers): its registry.
pub const KINDS: [(&str, &str, bool); 16] = [
    ("fraction-area-model", "Fraction area model", true),
    ("swiper-flashcard", "Swipe the cards", true),
    ("draft-meter", "Draft meter", true),
    ("defend-claim", "Defend a claim", true),
    ("drag-sort", "Drag to sort", true),
    ("drag-categorize", "Drag to categorize", true),
    ("crossword", "Crossword", true),
    ("timeline-builder", "Timeline builder", true),
    ("find-the-flaw", "Find the flaw", true),
    ("draw-the-curve", "Draw the curve", true),
    ("debate-ai", "Debate", true),
    ("writing-workshop", "Writing workshop", true),
    ("markdown-card", "Reading card", false),
    ("flashcard", "Flashcard", false),
    ("step-reveal", "Step by step", false),
    ("narrated-card", "Narrated card", false),
];

/// How many wrong checks in a row make a struggle.
pub const STRUGGLE_AFTER: u32 = 3;

/// The registry entry of an upstream kind: an assessing kind declares both events, another only
/// the completion; none declares a function (the upstream has no help channel).
pub fn registry_entry(kind: &str) -> Option<RegistryEntry> {
    let (kind, title, assesses) = KINDS.iter().find(|(k, _, _)| *k == kind)?;
    let mut events = vec![Event::WidgetCompleted];
    if *assesses {
        events.push(Event::WidgetStruggle);
    }
    Some(RegistryEntry {
        kind: (*kind).to_owned(),
        title: (*title).to_owned(),
        standard: None,
        assesses: *assesses,
        events,
        functions: Vec::new(),
    })
}

/// Every upstream kind's registry entry.
pub fn registry_entries() -> Vec<RegistryEntry> {
    KINDS
        .iter()
        .filter_map(|(kind, _, _)| registry_entry(kind))
        .collect()
}

/// Why an upstream row or message has no contract form. The row is kept aside with this, and
/// the feed goes on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DialectError {
    #[error("unknown widget kind {0:?} (not one of the upstream's 16)")]
    UnknownKind(String),
    #[error("the widget kind is null")]
    NullKind,
    #[error("no step of the pathway is a {kind} widget the learner has not finished")]
    NoStep { kind: String },
    #[error("unknown event type {0:?}")]
    UnknownEvent(String),
    #[error("not an upstream message: {0}")]
    NotUpstream(String),
    #[error("the report's JSON block is cut off or malformed: {0}")]
    BadBlock(String),
}

/// One step of a shared pathway (`plan.steps[i]`), with the widget id the bridge gives it
/// (stable: the session and the step's index).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    pub widget_id: String,
    pub kind: String,
    pub title: String,
}

/// The steps of a plan (`{steps: [{title, widgetKind, …}]}`), with widget ids `{session}-s{i}`.
pub fn plan_steps(session_id: &str, plan: &Value) -> Vec<Step> {
    plan.get("steps")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, step)| Step {
            widget_id: format!("{session_id}-s{}", i + 1),
            kind: step["widgetKind"].as_str().unwrap_or_default().to_owned(),
            title: step["title"].as_str().unwrap_or_default().to_owned(),
        })
        .collect()
}

/// One row of `interactions`, as the upstream stores it, with the learner already a pseudonym.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub learner: String,
    pub widget_kind: Option<String>,
    pub event_type: String,
    pub standard_code: Option<String>,
    pub correct: Option<bool>,
    pub payload: Value,
    /// `created_at`, RFC 3339.
    pub at: String,
}

/// The upstream's event types.
const EVENT_TYPES: [&str; 9] = [
    "widget_shown",
    "card_swiped",
    "partition_changed",
    "part_selected",
    "answer_checked",
    "hint_requested",
    "feedback_requested",
    "hesitation",
    "widget_completed",
];

/// One open run: a learner's work on one step since the last completion of it.
#[derive(Debug, Clone, Default)]
struct Run {
    checks: u32,
    failed: u32,
    wrong_in_a_row: u32,
    hints: u32,
    struggled: bool,
}

/// Folds one pathway's rows, in `id` order, into contract messages. One per shared pathway
/// (class); its state is what a restart rebuilds by folding the same rows again.
#[derive(Debug, Clone)]
pub struct Folder {
    pathway_id: String,
    steps: Vec<Step>,
    /// Per learner: which steps are done (by index), and the open run of each step.
    learners: std::collections::HashMap<String, LearnerState>,
}

#[derive(Debug, Clone, Default)]
struct LearnerState {
    done: Vec<bool>,
    /// Completed runs per step: the ordinal of the next run.
    finished_runs: Vec<u32>,
    runs: std::collections::HashMap<usize, Run>,
}

impl Folder {
    pub fn new(pathway_id: &str, steps: Vec<Step>) -> Self {
        Folder {
            pathway_id: pathway_id.to_owned(),
            steps,
            learners: std::collections::HashMap::new(),
        }
    }

    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Adds a step after the others, unless one has its widget id: for input that names no plan
    /// (a telemetry batch), where each kind the session uses is one step.
    pub fn ensure_step(&mut self, step: Step) {
        if self.steps.iter().all(|s| s.widget_id != step.widget_id) {
            self.steps.push(step);
            for learner in self.learners.values_mut() {
                learner.done.push(false);
                learner.finished_runs.push(0);
            }
        }
    }

    /// The step a row of `kind` belongs to, for this learner: the first step of that kind the
    /// learner has not finished, in plan order. A plan that uses a kind twice is worked in
    /// order: the second step's rows are the ones after the first step's completion. (The
    /// upstream stores no step index; this is the one reading its rows allow.)
    fn step_of(&self, learner: &LearnerState, kind: &str) -> Option<usize> {
        self.steps
            .iter()
            .enumerate()
            .find(|(i, s)| s.kind == kind && !learner.done.get(*i).copied().unwrap_or(false))
            .map(|(i, _)| i)
    }

    /// Folds one row; the messages it completes (none for most rows).
    pub fn fold(&mut self, row: &Row) -> Result<Vec<Message>, DialectError> {
        let kind = row.widget_kind.as_deref().ok_or(DialectError::NullKind)?;
        let entry =
            registry_entry(kind).ok_or_else(|| DialectError::UnknownKind(kind.to_owned()))?;
        if !EVENT_TYPES.contains(&row.event_type.as_str()) {
            return Err(DialectError::UnknownEvent(row.event_type.clone()));
        }
        let n = self.steps.len();
        let mut state = self
            .learners
            .remove(&row.learner)
            .unwrap_or_else(|| LearnerState {
                done: vec![false; n],
                finished_runs: vec![0; n],
                runs: std::collections::HashMap::new(),
            });
        let Some(index) = self.step_of(&state, kind) else {
            self.learners.insert(row.learner.clone(), state);
            return Err(DialectError::NoStep {
                kind: kind.to_owned(),
            });
        };
        let ordinal = state.finished_runs[index] + 1;
        let step = &self.steps[index];
        let identity = Identity {
            learner: row.learner.clone(),
            widget_run_id: format!("{}-r{ordinal}-{}", step.widget_id, row.learner),
            widget_id: step.widget_id.clone(),
            pathway_id: self.pathway_id.clone(),
            at: row.at.clone(),
        };
        let mut out = Vec::new();
        let run = state.runs.entry(index).or_default();
        match row.event_type.as_str() {
            "answer_checked" => {
                if let Some(correct) = row.correct {
                    run.checks += 1;
                    if correct {
                        run.wrong_in_a_row = 0;
                    } else {
                        run.failed += 1;
                        run.wrong_in_a_row += 1;
                    }
                }
                if entry.assesses && !run.struggled && run.wrong_in_a_row >= STRUGGLE_AFTER {
                    run.struggled = true;
                    out.push(Message::WidgetStruggle(WidgetStruggle {
                        prose: format!(
                            "Checked {} wrong answers in a row on \"{}\" without a right one.",
                            run.wrong_in_a_row, step.title
                        ),
                        identity,
                        kind: kind.to_owned(),
                        standard: row.standard_code.clone(),
                        failed_checks: run.failed,
                        hints: run.hints,
                    }));
                }
            }
            "hint_requested" => run.hints += 1,
            "widget_completed" => {
                let run = state.runs.remove(&index).unwrap_or_default();
                state.done[index] = true;
                state.finished_runs[index] += 1;
                out.push(Message::WidgetCompleted(completed(
                    step, &entry, &run, row, identity,
                )));
            }
            // Progress, and the student asking the model (`feedback_requested`): nothing the
            // contract carries.
            _ => {}
        }
        self.learners.insert(row.learner.clone(), state);
        Ok(out)
    }
}

/// The completion of a run: the verdict only for a kind that assesses, `attempts` at least 1
/// when a verdict is given, a 0-100 score rescaled.
fn completed(
    step: &Step,
    entry: &RegistryEntry,
    run: &Run,
    row: &Row,
    identity: Identity,
) -> WidgetCompleted {
    let correct = if entry.assesses { row.correct } else { None };
    let score = entry
        .assesses
        .then(|| row.payload.get("score").and_then(Value::as_f64))
        .flatten()
        .filter(|s| (0.0..=100.0).contains(s))
        .map(|s| s / 100.0);
    let attempts = if correct.is_some() || score.is_some() {
        run.checks.max(1)
    } else {
        run.checks
    };
    let verdict = match correct {
        Some(true) => "right",
        Some(false) => "not all right",
        None => "finished",
    };
    let detail = match &row.payload {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    WidgetCompleted {
        prose: format!(
            "Finished \"{}\" ({}) after {} checks and {} hints.",
            step.title, verdict, attempts, run.hints
        ),
        identity,
        widget_result: WidgetResult {
            kind: step.kind.clone(),
            standard: row.standard_code.clone(),
            correct,
            attempts,
            hints: run.hints,
            score,
            detail,
        },
    }
}

/// A chat report (`ui/update-model-context`) as the upstream's widgets send it: the prose in the
/// first text block, a fenced JSON block in the second (`{"type": "widget_result" |
/// "widget_progress", kind, standardCode, attempts, hintsUsed, completed, correct, score 0-100,
/// detail}`). A chat carries no learner or run ids: `ids` names them.
pub fn from_chat_report(message: &Value, ids: &Identity) -> Result<Option<Message>, DialectError> {
    if message.get("method").and_then(Value::as_str) != Some("ui/update-model-context") {
        return Err(DialectError::NotUpstream(
            "not a ui/update-model-context message".into(),
        ));
    }
    let content = message["params"]["content"]
        .as_array()
        .ok_or_else(|| DialectError::NotUpstream("params.content is not a list".into()))?;
    let texts: Vec<&str> = content
        .iter()
        .filter(|b| b["type"] == "text")
        .filter_map(|b| b["text"].as_str())
        .collect();
    let (Some(prose), Some(block)) = (texts.first(), texts.get(1)) else {
        return Err(DialectError::NotUpstream(
            "no second text block with the widget's result".into(),
        ));
    };
    let block = fenced_json(block)?;
    match block["type"].as_str() {
        Some("widget_progress") => return Ok(None),
        Some("widget_result") => {}
        other => {
            return Err(DialectError::BadBlock(format!(
                "type is {}, not widget_result or widget_progress",
                other.map_or_else(|| "missing".to_owned(), |t| format!("{t:?}"))
            )));
        }
    }
    let kind = match &block["kind"] {
        Value::Null => return Err(DialectError::NullKind),
        Value::String(k) => k.clone(),
        other => return Err(DialectError::BadBlock(format!("kind is {other}"))),
    };
    let entry = registry_entry(&kind).ok_or_else(|| DialectError::UnknownKind(kind.clone()))?;
    if block["completed"] == json!(false) {
        return Ok(None);
    }
    let count = |key: &str| -> Result<u32, DialectError> {
        match &block[key] {
            Value::Null => Ok(0),
            v => v
                .as_f64()
                .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= f64::from(u32::MAX))
                .map(|f| f as u32)
                .ok_or_else(|| DialectError::BadBlock(format!("{key} is {v}, not a count"))),
        }
    };
    let correct = if entry.assesses {
        block["correct"].as_bool()
    } else {
        None
    };
    let score = if entry.assesses {
        match &block["score"] {
            Value::Null => None,
            v => Some(
                v.as_f64()
                    .filter(|s| (0.0..=100.0).contains(s))
                    .ok_or_else(|| DialectError::BadBlock(format!("score is {v}, not 0-100")))?
                    / 100.0,
            ),
        }
    } else {
        None
    };
    let mut attempts = count("attempts")?;
    if correct.is_some() || score.is_some() {
        attempts = attempts.max(1);
    }
    let detail = match &block["detail"] {
        Value::Object(map) => map.clone(),
        _ => Map::new(),
    };
    Ok(Some(Message::WidgetCompleted(WidgetCompleted {
        prose: (*prose).trim().to_owned(),
        identity: ids.clone(),
        widget_result: WidgetResult {
            kind,
            standard: block["standardCode"].as_str().map(str::to_owned),
            correct,
            attempts,
            hints: count("hintsUsed")?,
            score,
            detail,
        },
    })))
}

/// The JSON object inside a Markdown fence of any backtick length (```` ```json ````, `````…`),
/// or a bare object.
fn fenced_json(text: &str) -> Result<Value, DialectError> {
    let trimmed = text.trim();
    let body = match trimmed.find('`') {
        Some(start) if trimmed[start..].starts_with("```") => {
            let rest = &trimmed[start..];
            let ticks = rest.chars().take_while(|c| *c == '`').count();
            let fence = &rest[..ticks];
            let after = &rest[ticks..];
            // The info string (`json`) runs to the end of the first line.
            let body_start = after.find('\n').map_or(after.len(), |i| i + 1);
            let body = &after[body_start..];
            let Some(end) = body.rfind(fence) else {
                return Err(DialectError::BadBlock(format!(
                    "the {ticks}-backtick fence is never closed (a truncated report?)"
                )));
            };
            &body[..end]
        }
        _ => trimmed,
    };
    let value: Value =
        serde_json::from_str(body.trim()).map_err(|e| DialectError::BadBlock(e.to_string()))?;
    if !value.is_object() {
        return Err(DialectError::BadBlock(
            "the block is not a JSON object".into(),
        ));
    }
    Ok(value)
}

/// Is this JSON an upstream message the contract's readers do not take as such (a chat report
/// with a result block, or a telemetry batch)? `contract check` names it and points to
/// `contract import --dialect ile`.
pub fn looks_upstream(value: &Value) -> Option<&'static str> {
    if value.get("method").and_then(Value::as_str) == Some("ui/update-model-context") {
        let second = value["params"]["content"]
            .as_array()
            .and_then(|c| c.get(1))
            .and_then(|b| b["text"].as_str())
            .unwrap_or_default();
        if second.contains("widget_result") || second.contains("widget_progress") {
            return Some("an upstream (ILE) chat report");
        }
    }
    if value.get("events").is_some_and(Value::is_array)
        && (value.get("sessionId").is_some() || value.get("studentId").is_some())
    {
        return Some("an upstream (ILE) telemetry batch");
    }
    None
}
