//! The sequence rules of `contract.md` §3 (quiet reporting, call bookkeeping) as one small
//! state machine, fed message by message.
//!
//! Its memory is pluggable ([`SequenceState`]) because the live pipeline ingests millions of
//! events under a fixed memory budget and must resume after a restart: this crate ships
//! [`InMemoryState`]; the store provides a durable one.
//!
//! Feeding is **check then commit**: [`Sequencer::check`] validates without mutating and
//! returns the [`Transition`] the message would cause; only [`Sequencer::commit`] records
//! it. A rejected message leaves no trace, and a pipeline can commit the transition in the
//! same database transaction that stores the event.
//!
//! The rules themselves are one pure function, [`sequence_rules`], of the message and the
//! few facts [`lookup`] names; a host with asynchronous storage (sqlx) can fetch those
//! facts itself and skip the synchronous [`SequenceState`] trait.
//!
//! The machine does not deduplicate re-deliveries: the same event delivered twice is a
//! second completion. A feed reader deduplicates by `(class_id, seq)` before feeding.
//!
//! ## Deadlines and the host's `timeout`
//!
//! A response whose `at` is after its call's `deadline` is rejected (`late-response`); a
//! response exactly at the deadline is on time. The host closes an unanswered call with an
//! `error {code: "timeout"}` response, which by its nature comes at or after the deadline (a
//! timer fires late, a host restarts): a `timeout` error is therefore exempt from
//! `late-response` and closes the call whenever it arrives. Rejecting it would leave the
//! call open forever in every dashboard. A response without `at` (it crossed A2UI, which
//! cannot carry one) cannot be judged late.

use std::collections::HashMap;
use std::convert::Infallible;

use time::OffsetDateTime;

use crate::error::ContractError;
use crate::rules::{Registry, check_value_function, parse_timestamp, validate_message};
use crate::types::{CallError, Function, Message};

/// What the state knows about one widget run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunFacts {
    pub completed: bool,
    pub struggled: bool,
}

/// What the state knows about one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallFacts {
    pub function: Function,
    pub deadline: OffsetDateTime,
    pub answered: bool,
}

/// The change an accepted message makes to the state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transition {
    Completed {
        widget_run_id: String,
    },
    Struggled {
        widget_run_id: String,
    },
    CallOpened {
        call_id: String,
        function: Function,
        deadline: OffsetDateTime,
    },
    CallAnswered {
        call_id: String,
        function: Function,
    },
}

impl Transition {
    /// The function a response answers, once the bookkeeping has resolved it. A caller that
    /// got an unnamed [`Message::Response`] (A2UI, MCP) uses it with
    /// [`Message::resolve_response`].
    pub fn answered_function(&self) -> Option<Function> {
        match self {
            Transition::CallAnswered { function, .. } => Some(*function),
            _ => None,
        }
    }
}

/// The memory of the state machine. Reads are `&self`; only [`SequenceState::apply`]
/// writes, so a check can never change it.
pub trait SequenceState {
    /// A storage failure (for the in-memory state: none).
    type Error: std::error::Error + Send + Sync + 'static;

    /// Has this run completed? struggled? (Both false for a run never seen.)
    fn run(&self, widget_run_id: &str) -> Result<RunFacts, Self::Error>;
    /// The call with this id, if a request opened it.
    fn call(&self, call_id: &str) -> Result<Option<CallFacts>, Self::Error>;
    /// Records an accepted transition.
    fn apply(&mut self, transition: &Transition) -> Result<(), Self::Error>;
}

/// The in-memory [`SequenceState`]: two hash maps. Fine for a CLI check of one file or a test;
/// a pipeline with millions of runs wants a disk-backed state.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InMemoryState {
    runs: HashMap<String, RunFacts>,
    calls: HashMap<String, CallFacts>,
}

impl InMemoryState {
    pub fn new() -> Self {
        Self::default()
    }

    /// Seeds what a store already knows about a run (a pipeline loads the runs a batch names,
    /// then feeds the batch through a [`Sequencer`] over this state).
    pub fn know_run(&mut self, widget_run_id: impl Into<String>, facts: RunFacts) {
        self.runs.insert(widget_run_id.into(), facts);
    }

    /// Seeds what a store already knows about a call.
    pub fn know_call(&mut self, call_id: impl Into<String>, facts: CallFacts) {
        self.calls.insert(call_id.into(), facts);
    }
}

/// A state borrowed for one batch is a state too.
impl<S: SequenceState + ?Sized> SequenceState for &mut S {
    type Error = S::Error;

    fn run(&self, widget_run_id: &str) -> Result<RunFacts, Self::Error> {
        (**self).run(widget_run_id)
    }

    fn call(&self, call_id: &str) -> Result<Option<CallFacts>, Self::Error> {
        (**self).call(call_id)
    }

    fn apply(&mut self, transition: &Transition) -> Result<(), Self::Error> {
        (**self).apply(transition)
    }
}

impl SequenceState for InMemoryState {
    type Error = Infallible;

    fn run(&self, widget_run_id: &str) -> Result<RunFacts, Infallible> {
        Ok(self.runs.get(widget_run_id).copied().unwrap_or_default())
    }

    fn call(&self, call_id: &str) -> Result<Option<CallFacts>, Infallible> {
        Ok(self.calls.get(call_id).copied())
    }

    fn apply(&mut self, transition: &Transition) -> Result<(), Infallible> {
        match transition {
            Transition::Completed { widget_run_id } => {
                self.runs
                    .entry(widget_run_id.clone())
                    .or_default()
                    .completed = true;
            }
            Transition::Struggled { widget_run_id } => {
                self.runs
                    .entry(widget_run_id.clone())
                    .or_default()
                    .struggled = true;
            }
            Transition::CallOpened {
                call_id,
                function,
                deadline,
            } => {
                self.calls.insert(
                    call_id.clone(),
                    CallFacts {
                        function: *function,
                        deadline: *deadline,
                        answered: false,
                    },
                );
            }
            Transition::CallAnswered { call_id, .. } => {
                if let Some(call) = self.calls.get_mut(call_id) {
                    call.answered = true;
                }
            }
        }
        Ok(())
    }
}

/// Why a message was not accepted: a contract rule, or the state's storage failed.
#[derive(Debug, thiserror::Error)]
pub enum Rejection<E: std::error::Error + 'static> {
    #[error(transparent)]
    Rule(#[from] ContractError),
    #[error("sequence state: {0}")]
    State(#[source] E),
}

impl<E: std::error::Error + 'static> Rejection<E> {
    /// The contract rule, when a rule (not storage) rejected the message.
    pub fn rule(&self) -> Option<&ContractError> {
        match self {
            Rejection::Rule(e) => Some(e),
            Rejection::State(_) => None,
        }
    }
}

/// The state machine: every rule of §3, single-message and sequence, over a
/// [`SequenceState`].
#[derive(Debug, Clone, Default)]
pub struct Sequencer<S> {
    state: S,
}

impl<S: SequenceState> Sequencer<S> {
    pub fn new(state: S) -> Self {
        Sequencer { state }
    }

    pub fn state(&self) -> &S {
        &self.state
    }

    pub fn into_state(self) -> S {
        self.state
    }

    /// Validates `message` (all single-message rules, then the sequence rules) without
    /// changing anything, and returns the transition to commit if it is accepted.
    pub fn check(
        &self,
        registry: &Registry,
        message: &Message,
    ) -> Result<Transition, Rejection<S::Error>> {
        validate_message(message, registry)?;
        self.check_sequence(message)
    }

    /// The sequence rules alone, for a caller that has run [`validate_message`] already.
    pub fn check_sequence(&self, message: &Message) -> Result<Transition, Rejection<S::Error>> {
        let keys = lookup(message);
        let facts = Facts {
            run: match keys.run {
                Some(run) => self.state.run(run).map_err(Rejection::State)?,
                None => RunFacts::default(),
            },
            call: match keys.call {
                Some(call) => self.state.call(call).map_err(Rejection::State)?,
                None => None,
            },
        };
        Ok(sequence_rules(message, &facts)?)
    }

    /// Records an accepted transition (from [`Sequencer::check`]).
    pub fn commit(&mut self, transition: &Transition) -> Result<(), S::Error> {
        self.state.apply(transition)
    }

    /// Check, then commit on acceptance.
    pub fn feed(
        &mut self,
        registry: &Registry,
        message: &Message,
    ) -> Result<Transition, Rejection<S::Error>> {
        let transition = self.check(registry, message)?;
        self.commit(&transition).map_err(Rejection::State)?;
        Ok(transition)
    }
}

/// The state a message's sequence rules read: fetch these (e.g. asynchronously from a
/// store), then call [`sequence_rules`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Lookup<'a> {
    /// The run whose completion/struggle facts are needed (events).
    pub run: Option<&'a str>,
    /// The call whose facts are needed (requests and responses).
    pub call: Option<&'a str>,
}

/// What [`sequence_rules`] must know about one message.
pub fn lookup(message: &Message) -> Lookup<'_> {
    match message {
        Message::WidgetCompleted(m) => Lookup {
            run: Some(&m.identity.widget_run_id),
            call: None,
        },
        Message::WidgetStruggle(m) => Lookup {
            run: Some(&m.identity.widget_run_id),
            call: None,
        },
        Message::ScoreRequest(r) => Lookup {
            run: None,
            call: Some(&r.call_id),
        },
        Message::AssistRequest(r) => Lookup {
            run: None,
            call: Some(&r.call_id),
        },
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => Lookup {
            run: None,
            call: Some(&r.call_id),
        },
    }
}

/// The facts named by [`lookup`]: the run's (default when unknown or not asked for) and the
/// call's (`None` when no request opened it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Facts {
    pub run: RunFacts,
    pub call: Option<CallFacts>,
}

/// The sequence rules as a pure function of a message and the facts [`lookup`] names. This
/// is the whole state machine; [`Sequencer`] only fetches the facts from a
/// [`SequenceState`] and records the transition. A host whose storage is asynchronous calls
/// it directly: `lookup`, fetch, `sequence_rules`, then store the transition with the event.
pub fn sequence_rules(message: &Message, facts: &Facts) -> Result<Transition, ContractError> {
    match message {
        Message::WidgetCompleted(m) => {
            if facts.run.completed {
                return Err(ContractError::SecondCompletion);
            }
            Ok(Transition::Completed {
                widget_run_id: m.identity.widget_run_id.clone(),
            })
        }
        Message::WidgetStruggle(m) => {
            if facts.run.struggled {
                return Err(ContractError::SecondStruggle);
            }
            if facts.run.completed {
                return Err(ContractError::StruggleAfterCompletion);
            }
            // `failed_checks >= 2` is a single-message rule (rules.rs); repeated here so
            // that the sequence rules alone still enforce all of quiet reporting.
            if m.failed_checks < 2 {
                return Err(ContractError::StruggleTooEarly {
                    failed_checks: m.failed_checks,
                });
            }
            Ok(Transition::Struggled {
                widget_run_id: m.identity.widget_run_id.clone(),
            })
        }
        Message::ScoreRequest(r) => open(&r.call_id, Function::Score, &r.deadline, facts),
        Message::AssistRequest(r) => open(&r.call_id, Function::Assist, &r.deadline, facts),
        Message::ScoreResponse(_) | Message::AssistResponse(_) | Message::Response(_) => {
            answer(message, facts)
        }
    }
}

fn open(
    call_id: &str,
    function: Function,
    deadline: &str,
    facts: &Facts,
) -> Result<Transition, ContractError> {
    let deadline = parse_timestamp("deadline", deadline)?;
    if facts.call.is_some() {
        return Err(ContractError::DuplicateCall {
            call_id: call_id.to_owned(),
        });
    }
    Ok(Transition::CallOpened {
        call_id: call_id.to_owned(),
        function,
        deadline,
    })
}

fn answer(message: &Message, facts: &Facts) -> Result<Transition, ContractError> {
    let Some((named, response)) = message.response() else {
        return Err(ContractError::bad_frame("not a response"));
    };
    let call_id = &response.call_id;
    let Some(call) = facts.call else {
        return Err(ContractError::UnknownCall {
            call_id: call_id.clone(),
            why: "was never opened by a request".into(),
        });
    };
    if let Some(named) = named
        && named != call.function
    {
        return Err(ContractError::UnknownCall {
            call_id: call_id.clone(),
            why: format!(
                "is a {} call, not a {} call",
                call.function.as_str(),
                named.as_str()
            ),
        });
    }
    if call.answered {
        return Err(ContractError::AlreadyAnswered {
            call_id: call_id.clone(),
        });
    }
    if let Some(value) = &response.value {
        check_value_function(call.function, value)?;
    }
    let is_timeout = response
        .error
        .as_ref()
        .is_some_and(|e| e.code == CallError::TIMEOUT);
    if let Some(at) = &response.at
        && !is_timeout
    {
        let at_time = parse_timestamp("at", at)?;
        if at_time > call.deadline {
            return Err(ContractError::LateResponse {
                at: at.clone(),
                deadline: format_time(call.deadline),
            });
        }
    }
    Ok(Transition::CallAnswered {
        call_id: call_id.clone(),
        function: call.function,
    })
}

fn format_time(t: OffsetDateTime) -> String {
    crate::rfc3339::format(t).unwrap_or_else(|| t.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RuleId;
    use crate::types::*;

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

    fn identity(run: &str) -> Identity {
        Identity {
            learner: "anon_k3x9q2".into(),
            widget_run_id: run.into(),
            widget_id: "w-1".into(),
            pathway_id: "p-1".into(),
            at: "2026-03-02T10:00:00Z".into(),
        }
    }

    fn completed(run: &str) -> Message {
        Message::WidgetCompleted(WidgetCompleted {
            prose: "Done.".into(),
            identity: identity(run),
            widget_result: WidgetResult {
                kind: "fraction_compare".into(),
                standard: None,
                correct: None,
                attempts: 1,
                hints: 0,
                score: None,
                detail: Default::default(),
            },
        })
    }

    fn struggle(run: &str) -> Message {
        Message::WidgetStruggle(WidgetStruggle {
            prose: "Stuck.".into(),
            identity: identity(run),
            kind: "fraction_compare".into(),
            standard: None,
            failed_checks: 2,
            hints: 1,
        })
    }

    fn assist(call: &str) -> Message {
        Message::AssistRequest(AssistRequest {
            call_id: call.into(),
            identity: identity("run-1"),
            kind: "fraction_compare".into(),
            standard: None,
            deadline: "2026-03-02T10:05:00Z".into(),
            args: AssistArgs {
                question: "Why is 3/4 bigger?".into(),
                attempts: 1,
                hints: 0,
            },
        })
    }

    fn answer(call: &str, at: &str) -> Message {
        Message::AssistResponse(FunctionResponse {
            call_id: call.into(),
            at: Some(at.into()),
            value: Some(ResponseValue::Assist(AssistValue {
                answer: "Compare them to one half.".into(),
                answered_by: AnsweredBy::Teacher,
            })),
            error: None,
        })
    }

    fn timeout(call: &str, at: &str) -> Message {
        Message::Response(FunctionResponse {
            call_id: call.into(),
            at: Some(at.into()),
            value: None,
            error: Some(CallError {
                code: "timeout".into(),
                message: "nobody answered".into(),
            }),
        })
    }

    fn feed_all(messages: &[Message]) -> Vec<Option<RuleId>> {
        let registry = registry();
        let mut seq = Sequencer::new(InMemoryState::new());
        messages
            .iter()
            .map(|m| {
                seq.feed(&registry, m)
                    .err()
                    .and_then(|e| e.rule().map(|r| r.rule_id()))
            })
            .collect()
    }

    #[test]
    fn quiet_reporting() {
        assert_eq!(
            feed_all(&[struggle("r1"), completed("r1"), completed("r1")]),
            vec![None, None, Some(RuleId::SecondCompletion)]
        );
        assert_eq!(
            feed_all(&[struggle("r1"), struggle("r1")]),
            vec![None, Some(RuleId::SecondStruggle)]
        );
        assert_eq!(
            feed_all(&[completed("r1"), struggle("r1"), struggle("r2")]),
            vec![None, Some(RuleId::StruggleAfterCompletion), None]
        );
    }

    #[test]
    fn a_rejected_message_leaves_no_trace() {
        let registry = registry();
        let mut seq = Sequencer::new(InMemoryState::new());
        // A completion that breaks a single-message rule must not count as the completion.
        let Message::WidgetCompleted(mut bad) = completed("r1") else {
            unreachable!()
        };
        bad.prose = String::new();
        assert!(seq.feed(&registry, &Message::WidgetCompleted(bad)).is_err());
        assert_eq!(seq.state().run("r1").unwrap(), RunFacts::default());
        assert!(seq.feed(&registry, &completed("r1")).is_ok());
        // check alone never records.
        assert!(seq.check(&registry, &struggle("r2")).is_ok());
        assert_eq!(seq.state().run("r2").unwrap(), RunFacts::default());
    }

    #[test]
    fn call_bookkeeping() {
        assert_eq!(
            feed_all(&[
                assist("c1"),
                answer("c1", "2026-03-02T10:01:00Z"),
                answer("c1", "2026-03-02T10:02:00Z"),
                answer("c2", "2026-03-02T10:02:00Z"),
                assist("c1"),
            ]),
            vec![
                None,
                None,
                Some(RuleId::AlreadyAnswered),
                Some(RuleId::UnknownCall),
                Some(RuleId::DuplicateCall)
            ]
        );
    }

    #[test]
    fn deadlines() {
        // Exactly at the deadline is on time; one second after is late; a late answer does
        // not close the call, so the host's timeout still can.
        assert_eq!(
            feed_all(&[assist("c1"), answer("c1", "2026-03-02T10:05:00Z")]),
            vec![None, None]
        );
        assert_eq!(
            feed_all(&[
                assist("c1"),
                answer("c1", "2026-03-02T10:05:01Z"),
                timeout("c1", "2026-03-02T10:05:02Z"),
                timeout("c1", "2026-03-02T10:05:03Z"),
            ]),
            vec![
                None,
                Some(RuleId::LateResponse),
                None,
                Some(RuleId::AlreadyAnswered)
            ]
        );
        // A non-timeout error after the deadline is late like a value.
        let Message::Response(mut declined) = timeout("c1", "2026-03-02T10:06:00Z") else {
            unreachable!()
        };
        declined.error = Some(CallError {
            code: "declined".into(),
            message: "not now".into(),
        });
        assert_eq!(
            feed_all(&[assist("c1"), Message::Response(declined)]),
            vec![None, Some(RuleId::LateResponse)]
        );
    }

    #[test]
    fn responses_must_match_the_calls_function() {
        // A response named for the other function does not answer this call; a value of
        // the other function's shape is malformed.
        let Message::Response(declined) = timeout("c1", "2026-03-02T10:01:00Z") else {
            unreachable!()
        };
        assert_eq!(
            feed_all(&[assist("c1"), Message::ScoreResponse(declined)]),
            vec![None, Some(RuleId::UnknownCall)]
        );
        let Message::AssistResponse(r) = answer("c1", "2026-03-02T10:01:00Z") else {
            unreachable!()
        };
        assert_eq!(
            feed_all(&[assist("c1"), Message::ScoreResponse(r.clone())]),
            vec![None, Some(RuleId::BadFrame)]
        );
        // An unnamed response is resolved by the call; the transition names the function.
        let registry = registry();
        let mut seq = Sequencer::new(InMemoryState::new());
        seq.feed(&registry, &assist("c1")).unwrap();
        let t = seq.feed(&registry, &Message::Response(r)).unwrap();
        assert_eq!(t.answered_function(), Some(Function::Assist));
    }

    #[test]
    fn the_pure_rules_read_only_the_facts_lookup_names() {
        let message = answer("c1", "2026-03-02T10:01:00Z");
        assert_eq!(
            lookup(&message),
            Lookup {
                run: None,
                call: Some("c1")
            }
        );
        let deadline = parse_timestamp("deadline", "2026-03-02T10:05:00Z").unwrap();
        let open = CallFacts {
            function: Function::Assist,
            deadline,
            answered: false,
        };
        let facts = |call| Facts {
            run: RunFacts::default(),
            call,
        };
        assert!(sequence_rules(&message, &facts(Some(open))).is_ok());
        let answered = CallFacts {
            answered: true,
            ..open
        };
        assert_eq!(
            sequence_rules(&message, &facts(Some(answered))).map_err(|e| e.rule_id()),
            Err(RuleId::AlreadyAnswered)
        );
        assert_eq!(
            sequence_rules(&message, &facts(None)).map_err(|e| e.rule_id()),
            Err(RuleId::UnknownCall)
        );
        let done = Facts {
            run: RunFacts {
                completed: true,
                struggled: false,
            },
            call: None,
        };
        assert_eq!(lookup(&completed("r9")).run, Some("r9"));
        assert_eq!(
            sequence_rules(&completed("r9"), &done).map_err(|e| e.rule_id()),
            Err(RuleId::SecondCompletion)
        );
    }
}
