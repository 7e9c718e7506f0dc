//! Fault injection into a class's event log: frames that are not valid AG-UI, and
//! contract-breaking payloads, one per negative control of `contract.md` §5.
//!
//! Each injection appends its frames to the log with their own `seq` (so a reader's
//! quarantine can be checked against the log) and marks the breaking frame with the rule id
//! that must reject it. Sequence rules need a valid set-up first (a second struggle needs a
//! first one): set-up frames are logged as injected with no rule, and they are valid, on a
//! fresh widget run or call that no simulated learner uses. A set-up request opens a real
//! call at the host, which expires with a `timeout` like any other.

use a2learn_contract::transport::agui;
use a2learn_contract::{
    AnsweredBy, AssistArgs, AssistRequest, AssistValue, CallError, FunctionResponse, Identity,
    Message, ResponseValue, RuleId, WidgetCompleted, WidgetResult, WidgetStruggle,
};
use serde_json::{Map, json};

use crate::catalog;
use crate::clock::rfc3339;
use crate::error::{ErrorCode, ToolError};
use crate::state::{HostState, with_timestamp};

/// One kind of injected fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Injection {
    /// `data:` that is not JSON.
    NotJson,
    /// JSON that is not an AG-UI event (no `type`).
    NotAgui,
    /// An a2learn `CUSTOM` event whose payload lacks the contract's fields.
    BadPayload,
    VerdictNotAssessing,
    CorrectWithoutAttempt,
    EmptyProse,
    ProseTooLong,
    EmailInProse,
    DigitRunInProse,
    NonAnonymousLearner,
    UndeclaredEmission,
    UnknownKind,
    StruggleTooEarly,
    SecondStruggle,
    StruggleAfterCompletion,
    SecondCompletion,
    ValueAndError,
    NoValueNoError,
    UnknownCall,
    AlreadyAnswered,
    LateResponse,
    DuplicateCall,
}

impl Injection {
    /// Frames that are not valid AG-UI (rule `bad-frame`).
    pub const MALFORMED: [Injection; 3] = [
        Injection::NotJson,
        Injection::NotAgui,
        Injection::BadPayload,
    ];

    /// Valid AG-UI carrying a payload that breaks a contract rule.
    pub const CONTRACT: [Injection; 19] = [
        Injection::VerdictNotAssessing,
        Injection::CorrectWithoutAttempt,
        Injection::EmptyProse,
        Injection::ProseTooLong,
        Injection::EmailInProse,
        Injection::DigitRunInProse,
        Injection::NonAnonymousLearner,
        Injection::UndeclaredEmission,
        Injection::UnknownKind,
        Injection::StruggleTooEarly,
        Injection::SecondStruggle,
        Injection::StruggleAfterCompletion,
        Injection::SecondCompletion,
        Injection::ValueAndError,
        Injection::NoValueNoError,
        Injection::UnknownCall,
        Injection::AlreadyAnswered,
        Injection::LateResponse,
        Injection::DuplicateCall,
    ];

    /// Every injection.
    pub fn all() -> Vec<Injection> {
        Self::MALFORMED
            .iter()
            .chain(Self::CONTRACT.iter())
            .copied()
            .collect()
    }

    /// The rule that must reject the breaking frame.
    pub fn rule(self) -> RuleId {
        match self {
            Injection::NotJson | Injection::NotAgui | Injection::BadPayload => RuleId::BadFrame,
            Injection::VerdictNotAssessing => RuleId::VerdictNotAssessing,
            Injection::CorrectWithoutAttempt => RuleId::CorrectWithoutAttempt,
            Injection::EmptyProse => RuleId::EmptyProse,
            Injection::ProseTooLong => RuleId::ProseTooLong,
            Injection::EmailInProse | Injection::DigitRunInProse => RuleId::PiiInPayload,
            Injection::NonAnonymousLearner => RuleId::NonAnonymousId,
            Injection::UndeclaredEmission => RuleId::UndeclaredEmission,
            Injection::UnknownKind => RuleId::UnknownKind,
            Injection::StruggleTooEarly => RuleId::StruggleTooEarly,
            Injection::SecondStruggle => RuleId::SecondStruggle,
            Injection::StruggleAfterCompletion => RuleId::StruggleAfterCompletion,
            Injection::SecondCompletion => RuleId::SecondCompletion,
            Injection::ValueAndError => RuleId::ValueAndError,
            Injection::NoValueNoError => RuleId::NoValueNoError,
            Injection::UnknownCall => RuleId::UnknownCall,
            Injection::AlreadyAnswered => RuleId::AlreadyAnswered,
            Injection::LateResponse => RuleId::LateResponse,
            Injection::DuplicateCall => RuleId::DuplicateCall,
        }
    }
}

/// What one injection appends.
enum Frame {
    /// A valid set-up message.
    Setup(Message),
    /// The breaking message.
    Breaking(Message),
    /// Breaking raw text (not JSON, or not AG-UI).
    Raw(String),
}

struct Ctx {
    learner: String,
    at: String,
    now_ms: i64,
    /// Five minutes ahead, at the host's speed.
    deadline_ms: i64,
}

impl Ctx {
    fn identity(&self, run: &str, kind: &str) -> Identity {
        let (pathway_id, widget_id) = widget_of(kind);
        Identity {
            learner: self.learner.clone(),
            widget_run_id: run.to_owned(),
            widget_id,
            pathway_id,
            at: self.at.clone(),
        }
    }

    fn completed(&self, run: &str, kind: &str, correct: Option<bool>, attempts: u32) -> Message {
        let entry = catalog::registry().get(kind).cloned();
        Message::WidgetCompleted(WidgetCompleted {
            prose: format!("The learner {}.", crate::sim::phrase(kind)),
            identity: self.identity(run, kind),
            widget_result: WidgetResult {
                kind: kind.to_owned(),
                standard: entry.and_then(|e| e.standard),
                correct,
                attempts,
                hints: 0,
                score: None,
                detail: Map::new(),
            },
        })
    }

    fn struggle(&self, run: &str, kind: &str, failed_checks: u32) -> Message {
        let entry = catalog::registry().get(kind).cloned();
        Message::WidgetStruggle(WidgetStruggle {
            prose: format!("The learner is stuck after {failed_checks} failed checks."),
            identity: self.identity(run, kind),
            kind: kind.to_owned(),
            standard: entry.and_then(|e| e.standard),
            failed_checks,
            hints: 1,
        })
    }

    fn assist(&self, call_id: &str, run: &str, deadline_ms: i64) -> Message {
        let kind = "fraction_compare";
        Message::AssistRequest(AssistRequest {
            call_id: call_id.to_owned(),
            identity: self.identity(run, kind),
            kind: kind.to_owned(),
            standard: catalog::registry()
                .get(kind)
                .and_then(|e| e.standard.clone()),
            deadline: rfc3339(deadline_ms),
            args: AssistArgs {
                question: "Which fraction is bigger?".to_owned(),
                attempts: 1,
                hints: 0,
            },
        })
    }

    fn response(&self, call_id: &str, value: bool, error: bool, at: &str) -> Message {
        Message::AssistResponse(FunctionResponse {
            call_id: call_id.to_owned(),
            at: Some(at.to_owned()),
            value: value.then(|| {
                ResponseValue::Assist(AssistValue {
                    answer: "Make the denominators the same first.".to_owned(),
                    answered_by: AnsweredBy::Teacher,
                })
            }),
            error: error.then(|| CallError {
                code: "declined".to_owned(),
                message: "Ask your neighbour first.".to_owned(),
            }),
        })
    }
}

/// A (pathway, widget) of the catalog that uses `kind`, for realistic ids.
fn widget_of(kind: &str) -> (String, String) {
    for p in catalog::pathways() {
        if let Some(s) = p.steps.iter().find(|s| s.entry.kind == kind) {
            return (p.pathway_id.clone(), s.widget_id.clone());
        }
    }
    (
        "fractions-compare-4".to_owned(),
        format!("frc-w9-{}", kind.replace('_', "-")),
    )
}

impl HostState {
    /// Appends one injected fault (with its set-up frames) to a class's log; returns the
    /// `seq` of every appended frame, the breaking one last.
    pub fn inject(&mut self, class_id: &str, injection: Injection) -> Result<Vec<u64>, ToolError> {
        if !self.classes.contains_key(class_id) {
            return Err(ToolError::new(
                ErrorCode::UnknownClass,
                format!("no class {class_id:?}"),
            ));
        }
        let learner = self
            .learner_ids(class_id)
            .first()
            .cloned()
            .unwrap_or_else(|| "lrn-injected".to_owned());
        let now_ms = self.now_ms();
        let five_minutes = (300_000.0 / self.speed()).round() as i64;
        let ctx = Ctx {
            learner,
            at: rfc3339(now_ms),
            now_ms,
            deadline_ms: now_ms + five_minutes.max(1000),
        };
        let run = format!("run-{}", self.inject_rng().letters(12));
        let call = format!("call-{}", self.inject_rng().letters(12));
        let mut frames = Vec::new();
        // Calls the set-up frames open at the host: (call id, deadline, already answered).
        let mut opens: Vec<(String, i64, bool)> = Vec::new();
        match injection {
            Injection::NotJson => frames.push(Frame::Raw(
                r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{"prose":"#
                    .to_owned(),
            )),
            Injection::NotAgui => frames.push(Frame::Raw(
                json!({"event": "widget_completed", "learner": ctx.learner}).to_string(),
            )),
            Injection::BadPayload => frames.push(Frame::Raw(
                json!({
                    "type": "CUSTOM",
                    "name": "a2learn.widget_completed",
                    "value": {"prose": "The learner finished."},
                    "timestamp": now_ms,
                })
                .to_string(),
            )),
            Injection::VerdictNotAssessing => {
                frames.push(Frame::Breaking(ctx.completed(
                    &run,
                    "intro_video",
                    Some(true),
                    1,
                )));
            }
            Injection::CorrectWithoutAttempt => frames.push(Frame::Breaking(ctx.completed(
                &run,
                "fraction_compare",
                Some(true),
                0,
            ))),
            Injection::EmptyProse
            | Injection::ProseTooLong
            | Injection::EmailInProse
            | Injection::DigitRunInProse => {
                let mut m = ctx.completed(&run, "fraction_compare", Some(true), 1);
                if let Message::WidgetCompleted(c) = &mut m {
                    c.prose = match injection {
                        Injection::EmptyProse => "   ".to_owned(),
                        Injection::ProseTooLong => "The learner compared fractions. ".repeat(40),
                        Injection::EmailInProse => {
                            "The learner sent the answer to jo.smith@example.org.".to_owned()
                        }
                        _ => "Student 20481937 compared pairs of fractions.".to_owned(),
                    };
                }
                frames.push(Frame::Breaking(m));
            }
            Injection::NonAnonymousLearner => {
                let mut m = ctx.completed(&run, "fraction_compare", Some(true), 1);
                if let Message::WidgetCompleted(c) = &mut m {
                    c.identity.learner = "20481937".to_owned();
                }
                frames.push(Frame::Breaking(m));
            }
            Injection::UndeclaredEmission => {
                // multiplication_facts assesses but does not declare widget_struggle.
                frames.push(Frame::Breaking(ctx.struggle(
                    &run,
                    "multiplication_facts",
                    2,
                )));
            }
            Injection::UnknownKind => {
                let mut m = ctx.completed(&run, "fraction_compare", None, 1);
                if let Message::WidgetCompleted(c) = &mut m {
                    c.widget_result.kind = "mystery_widget".to_owned();
                    c.widget_result.standard = None;
                }
                frames.push(Frame::Breaking(m));
            }
            Injection::StruggleTooEarly => {
                frames.push(Frame::Breaking(ctx.struggle(&run, "fraction_compare", 1)));
            }
            Injection::SecondStruggle => {
                frames.push(Frame::Setup(ctx.struggle(&run, "fraction_compare", 2)));
                frames.push(Frame::Breaking(ctx.struggle(&run, "fraction_compare", 3)));
            }
            Injection::StruggleAfterCompletion => {
                frames.push(Frame::Setup(ctx.completed(
                    &run,
                    "fraction_compare",
                    Some(false),
                    3,
                )));
                frames.push(Frame::Breaking(ctx.struggle(&run, "fraction_compare", 3)));
            }
            Injection::SecondCompletion => {
                frames.push(Frame::Setup(ctx.completed(
                    &run,
                    "fraction_compare",
                    Some(true),
                    1,
                )));
                frames.push(Frame::Breaking(ctx.completed(
                    &run,
                    "fraction_compare",
                    Some(true),
                    2,
                )));
            }
            Injection::ValueAndError | Injection::NoValueNoError => {
                frames.push(Frame::Setup(ctx.assist(&call, &run, ctx.deadline_ms)));
                opens.push((call.clone(), ctx.deadline_ms, false));
                let both = injection == Injection::ValueAndError;
                frames.push(Frame::Breaking(ctx.response(&call, both, both, &ctx.at)));
            }
            Injection::UnknownCall => {
                frames.push(Frame::Breaking(ctx.response(&call, true, false, &ctx.at)));
            }
            Injection::AlreadyAnswered => {
                frames.push(Frame::Setup(ctx.assist(&call, &run, ctx.deadline_ms)));
                frames.push(Frame::Setup(ctx.response(&call, true, false, &ctx.at)));
                opens.push((call.clone(), ctx.deadline_ms, true));
                frames.push(Frame::Breaking(ctx.response(&call, false, true, &ctx.at)));
            }
            Injection::LateResponse => {
                // A request whose deadline has just passed, then an answer after it.
                let deadline = ctx.now_ms - 1000;
                frames.push(Frame::Setup(ctx.assist(&call, &run, deadline)));
                opens.push((call.clone(), deadline, false));
                frames.push(Frame::Breaking(ctx.response(&call, true, false, &ctx.at)));
            }
            Injection::DuplicateCall => {
                frames.push(Frame::Setup(ctx.assist(&call, &run, ctx.deadline_ms)));
                opens.push((call.clone(), ctx.deadline_ms, false));
                let other_run = format!("run-{}", self.inject_rng().letters(12));
                frames.push(Frame::Breaking(ctx.assist(
                    &call,
                    &other_run,
                    ctx.deadline_ms,
                )));
            }
        }
        let rule = injection.rule();
        let mut seqs = Vec::new();
        for frame in frames {
            let (data, expect) = match frame {
                Frame::Setup(m) => (project(&m), None),
                Frame::Breaking(m) => (project(&m), Some(rule)),
                Frame::Raw(text) => (text, Some(rule)),
            };
            if let Some(seq) = self.append(class_id, data, true, expect) {
                seqs.push(seq);
            }
        }
        for (call_id, deadline_ms, answered) in opens {
            self.open_injected_call(class_id, &call_id, deadline_ms, answered);
        }
        Ok(seqs)
    }
}

fn project(message: &Message) -> String {
    match agui::project(message) {
        Ok(line) => line,
        // Projection fails only for unnamed responses, which this module never builds.
        Err(e) => with_timestamp(
            &json!({"type": "CUSTOM", "name": "a2learn.invalid", "value": e.to_string()})
                .to_string(),
            0,
        ),
    }
}
