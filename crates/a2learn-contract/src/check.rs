//! Checking and projecting files of messages, one message per line, in any of the three
//! transports: the logic of `a2learn-teacher contract check` and `contract project`, kept
//! here (no I/O) so it is unit-testable and the CLI stays thin.
//!
//! Output lines:
//! - `LINE ok` — a contract message (or a host event) that passed every rule;
//! - `LINE ok (ignored: REASON)` — well-formed for its transport but not a contract message
//!   (an unknown `CUSTOM` name, another event type or method): readers skip these, so they
//!   are not rejections and count as accepted;
//! - `LINE rejected RULE-ID: MESSAGE`.
//!
//! and a summary `checked N: A accepted, R rejected`. Blank lines are skipped and not
//! counted; `LINE` is the 1-based line number in the input. Sequence rules apply across the
//! lines of one input.

use std::collections::HashMap;
use std::fmt;

use crate::error::ContractError;
use crate::rules::{Registry, check_opaque_id};
use crate::sequence::{InMemoryState, Sequencer};
use crate::transport::{HostEvent, Parsed, ProjectError, Transport, parse_line, project_to_string};
use crate::types::{Function, Message};

/// The verdict on one line.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Accepted {
        transport: Transport,
        message: Box<Message>,
    },
    Host {
        transport: Transport,
        event: HostEvent,
    },
    Ignored {
        transport: Transport,
        reason: String,
    },
    Rejected(ContractError),
    /// Another project's message that carries what the contract carries, in its own shapes
    /// (see [`crate::dialect`]): not read as a contract message, and not silently ignored
    /// either. Counted as rejected.
    Upstream(&'static str),
}

/// One checked line.
#[derive(Debug, Clone, PartialEq)]
pub struct LineReport {
    /// 1-based line number.
    pub line: usize,
    pub outcome: Outcome,
}

impl LineReport {
    pub fn is_rejected(&self) -> bool {
        matches!(self.outcome, Outcome::Rejected(_) | Outcome::Upstream(_))
    }
}

impl fmt::Display for LineReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Outcome::Accepted { message, .. } => {
                write!(f, "{} ok", self.line)?;
                match offset_warning(message) {
                    Some(warning) => write!(f, " (warning: {warning})"),
                    None => Ok(()),
                }
            }
            Outcome::Host { .. } => write!(f, "{} ok", self.line),
            Outcome::Ignored { reason, .. } => write!(f, "{} ok (ignored: {reason})", self.line),
            Outcome::Rejected(e) => write!(f, "{} rejected {}: {e}", self.line, e.rule_id()),
            Outcome::Upstream(what) => write!(
                f,
                "{} not a2learn: {what}; translate it with `a2learn-teacher contract import \
                 --dialect ile`",
                self.line
            ),
        }
    }
}

/// What a reader says of a message whose times carry an offset: accepted and kept as UTC,
/// but a writer sends `Z` (`contract.md` §1). `None` when every time is UTC.
pub fn offset_warning(message: &Message) -> Option<String> {
    let (field, time) = message
        .times()
        .into_iter()
        .find(|(_, t)| crate::rfc3339::has_offset(t))?;
    Some(format!(
        "{field} {time} is not in UTC; readers keep the same instant as UTC, writers send Z"
    ))
}

/// Totals over a checked input.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub checked: usize,
    pub accepted: usize,
    pub rejected: usize,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "checked {}: {} accepted, {} rejected",
            self.checked, self.accepted, self.rejected
        )
    }
}

/// Checks lines one at a time, keeping the sequence state between them.
#[derive(Debug)]
pub struct Checker {
    registry: Registry,
    sequencer: Sequencer<InMemoryState>,
    summary: Summary,
}

impl Checker {
    pub fn new(registry: Registry) -> Self {
        Checker {
            registry,
            sequencer: Sequencer::new(InMemoryState::new()),
            summary: Summary::default(),
        }
    }

    /// Checks one line; `None` for a blank line.
    pub fn check_line(&mut self, line: usize, text: &str) -> Option<LineReport> {
        if text.trim().is_empty() {
            return None;
        }
        let outcome = self.outcome(text);
        self.summary.checked += 1;
        match outcome {
            Outcome::Rejected(_) | Outcome::Upstream(_) => self.summary.rejected += 1,
            _ => self.summary.accepted += 1,
        }
        Some(LineReport { line, outcome })
    }

    fn outcome(&mut self, text: &str) -> Outcome {
        if let Some(what) = serde_json::from_str::<serde_json::Value>(text)
            .ok()
            .as_ref()
            .and_then(crate::dialect::ile::looks_upstream)
        {
            return Outcome::Upstream(what);
        }
        let (transport, parsed) = match parse_line(text) {
            Ok(p) => p,
            Err(e) => return Outcome::Rejected(e),
        };
        match parsed {
            Parsed::Ignored(reason) => Outcome::Ignored { transport, reason },
            Parsed::Host(event) => match check_host_event(&event) {
                Ok(()) => Outcome::Host { transport, event },
                Err(e) => Outcome::Rejected(e),
            },
            Parsed::Contract(message) => match self.sequencer.check(&self.registry, &message) {
                Ok(transition) => {
                    // The in-memory state cannot fail.
                    let Ok(()) = self.sequencer.commit(&transition);
                    let message = match transition.answered_function() {
                        Some(function) => message.resolve_response(function),
                        None => message,
                    };
                    Outcome::Accepted {
                        transport,
                        message: Box::new(message),
                    }
                }
                Err(rejection) => match rejection {
                    crate::Rejection::Rule(e) => Outcome::Rejected(e),
                    crate::Rejection::State(never) => match never {},
                },
            },
        }
    }

    pub fn summary(&self) -> Summary {
        self.summary
    }
}

/// A claim names a call and an opaque teacher id (never an e-mail address); a set-aside says
/// which record and why, in bounded, non-empty text with no e-mail address.
pub fn check_host_event(event: &HostEvent) -> Result<(), ContractError> {
    match event {
        HostEvent::CallClaimed(c) => {
            check_opaque_id("call_id", &c.call_id)?;
            check_opaque_id("claimed_by", &c.claimed_by)
        }
        HostEvent::SetAside(s) => {
            crate::rules::check_host_text("source", &s.source)?;
            crate::rules::check_host_text("reason", &s.reason)
        }
    }
}

/// Checks a whole input: the report of every non-blank line, and the totals.
pub fn check_text(registry: Registry, text: &str) -> (Vec<LineReport>, Summary) {
    let mut checker = Checker::new(registry);
    let reports = text
        .lines()
        .enumerate()
        .filter_map(|(i, line)| checker.check_line(i + 1, line))
        .collect();
    (reports, checker.summary())
}

/// Why a line could not be projected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProjectLineError {
    #[error("{0}")]
    Parse(ContractError),
    #[error("not a contract message ({0})")]
    NotContract(String),
    #[error(transparent)]
    Project(ProjectError),
}

/// Projects lines one at a time. It remembers the function of each request it has seen,
/// so that a response whose transport did not name its function (A2UI, MCP) can still be
/// projected into AG-UI when its request came earlier in the input.
#[derive(Debug)]
pub struct Projector {
    to: Transport,
    calls: HashMap<String, Function>,
}

impl Projector {
    pub fn new(to: Transport) -> Self {
        Projector {
            to,
            calls: HashMap::new(),
        }
    }

    /// The projection of one line; `None` for a blank line.
    pub fn project_line(&mut self, text: &str) -> Option<Result<String, ProjectLineError>> {
        if text.trim().is_empty() {
            return None;
        }
        Some(self.project(text))
    }

    fn project(&mut self, text: &str) -> Result<String, ProjectLineError> {
        let (_, parsed) = parse_line(text).map_err(ProjectLineError::Parse)?;
        let message = match parsed {
            Parsed::Contract(m) => m,
            Parsed::Host(event) => {
                return match self.to {
                    Transport::Agui => crate::transport::agui::project_host(&event)
                        .map_err(ProjectLineError::Project),
                    _ => Err(ProjectLineError::NotContract(
                        "a host event exists on AG-UI only".into(),
                    )),
                };
            }
            Parsed::Ignored(reason) => return Err(ProjectLineError::NotContract(reason)),
        };
        match &message {
            Message::ScoreRequest(r) => {
                self.calls.insert(r.call_id.clone(), Function::Score);
            }
            Message::AssistRequest(r) => {
                self.calls.insert(r.call_id.clone(), Function::Assist);
            }
            _ => {}
        }
        let message = match &message {
            Message::Response(r) => match self.calls.get(&r.call_id) {
                Some(function) => message.clone().resolve_response(*function),
                None => message,
            },
            _ => message,
        };
        project_to_string(&message, self.to).map_err(ProjectLineError::Project)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{Event, RegistryEntry};

    fn registry() -> Registry {
        Registry::new(vec![RegistryEntry {
            kind: "fraction_compare".into(),
            title: "Compare fractions".into(),
            standard: None,
            assesses: true,
            events: vec![Event::WidgetCompleted, Event::WidgetStruggle],
            functions: vec![Function::Score, Function::Assist],
        }])
        .unwrap()
    }

    const COMPLETED: &str = r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{"prose":"Done.","learner":"anon_k3x9q2","widget_run_id":"r1","widget_id":"w1","pathway_id":"p1","at":"2026-03-02T10:00:00Z","widget_result":{"kind":"fraction_compare","correct":null,"attempts":1,"hints":0,"detail":{}}}}"#;

    #[test]
    fn reports_each_line_and_the_totals() {
        let input = format!(
            "{COMPLETED}\n\n{}\n{COMPLETED}\nnot json\n",
            r#"{"type":"CUSTOM","name":"someone.else","value":{}}"#
        );
        let (reports, summary) = check_text(registry(), &input);
        let lines: Vec<String> = reports.iter().map(ToString::to_string).collect();
        assert_eq!(lines[0], "1 ok");
        assert!(lines[1].starts_with("3 ok (ignored: "), "{}", lines[1]);
        assert_eq!(
            lines[2],
            "4 rejected second-completion: widget run already completed"
        );
        assert!(
            lines[3].starts_with("5 rejected bad-frame: not JSON"),
            "{}",
            lines[3]
        );
        assert_eq!(
            summary,
            Summary {
                checked: 4,
                accepted: 2,
                rejected: 2
            }
        );
        assert_eq!(summary.to_string(), "checked 4: 2 accepted, 2 rejected");
    }

    #[test]
    fn an_upstream_message_is_named_and_pointed_to_import() {
        let chat = serde_json::json!({"jsonrpc": "2.0", "method": "ui/update-model-context",
            "params": {"content": [{"type": "text", "text": "Sorted them."},
                {"type": "text", "text": "```json\n{\"type\":\"widget_result\",\"kind\":\"drag-sort\"}\n```"}]}});
        let (reports, summary) = check_text(registry(), &chat.to_string());
        assert_eq!(
            reports[0].to_string(),
            "1 not a2learn: an upstream (ILE) chat report; translate it with `a2learn-teacher \
             contract import --dialect ile`"
        );
        assert_eq!(
            summary.rejected, 1,
            "not ok (ignored): the file says nothing the contract reads"
        );
    }

    #[test]
    fn an_offset_is_accepted_with_a_warning() {
        let local = COMPLETED.replace("2026-03-02T10:00:00Z", "2026-03-02T15:30:00+05:30");
        let (reports, summary) = check_text(registry(), &format!("{COMPLETED}\n{local}\n"));
        assert_eq!(reports[0].to_string(), "1 ok", "UTC: no warning");
        assert_eq!(
            reports[1].to_string(),
            "2 rejected second-completion: widget run already completed",
            "the same run at the same instant, whatever the offset"
        );
        let (reports, summary_alone) = check_text(registry(), &local);
        assert_eq!(
            reports[0].to_string(),
            "1 ok (warning: at 2026-03-02T15:30:00+05:30 is not in UTC; readers keep the same \
             instant as UTC, writers send Z)"
        );
        assert_eq!((summary.accepted, summary_alone.rejected), (1, 0));
    }

    #[test]
    fn projector_resolves_unnamed_responses_from_earlier_requests() {
        // MCP tool results are matched to their call by id and do not name the function.
        let request = r#"{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"a2learn_assist","arguments":{"call_id":"c1","learner":"anon_k3x9q2","widget_run_id":"r1","widget_id":"w1","pathway_id":"p1","at":"2026-03-02T10:00:00Z","kind":"fraction_compare","deadline":"2026-03-02T10:05:00Z","args":{"question":"Why?","attempts":1,"hints":0}}}}"#;
        let response = r#"{"jsonrpc":"2.0","id":"c1","result":{"content":[],"isError":true,"structuredContent":{"call_id":"c1","at":"2026-03-02T10:01:00Z","error":{"code":"declined","message":"Ask in class."}}}}"#;
        let mut fresh = Projector::new(Transport::Agui);
        assert!(matches!(
            fresh.project_line(response),
            Some(Err(ProjectLineError::Project(
                ProjectError::UnnamedResponse { .. }
            )))
        ));
        let mut projector = Projector::new(Transport::Agui);
        assert!(projector.project_line(request).is_some_and(|r| r.is_ok()));
        let line = projector.project_line(response).unwrap().unwrap();
        assert!(
            line.contains(r#""name":"a2learn.assist.response""#),
            "{line}"
        );
        assert_eq!(projector.project_line("   "), None);
    }
}
