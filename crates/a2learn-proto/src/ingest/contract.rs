//! Stage 2, the contract level: the sequence state machine over the stored state of the runs and
//! calls a batch names (which the store loads up front, in a few statements, not one per event),
//! and redeliveries told apart from second events.

use std::collections::{HashMap, HashSet};

use a2learn_contract::sequence::lookup;
use a2learn_contract::{
    CallFacts, HostEvent, InMemoryState, Message, Parsed, Registry, Rejection, RunFacts, Sequencer,
};

use super::frames::payload_json;
use super::quarantine::{QuarantineRow, quarantine_row};
use super::{Accepted, BatchOutcome, IngestError, RowsTouched};

/// The rule a host's own set-aside is kept under (beside the contract's rule ids).
pub const SET_ASIDE_RULE: &str = "host.set_aside";

/// Runs the state machine over the parsed events in feed order: what passes is accepted, what
/// breaks a rule goes to `quarantine`, a redelivered completion or struggle is counted as such.
pub fn validate(
    state: &mut BatchState,
    registry: &Registry,
    parsed: Vec<(Option<i64>, Parsed, Option<String>)>,
    outcome: &mut BatchOutcome,
    quarantine: &mut Vec<QuarantineRow>,
) -> Result<Vec<Accepted>, IngestError> {
    let mut accepted = Vec::with_capacity(parsed.len());
    for (seq, item, raw) in parsed {
        match item {
            Parsed::Contract(mut message) => {
                // Kept as UTC whatever offset the host wrote (`contract.md` §1): the stored
                // payload, its order and its dedupe all see one form of each instant.
                message.times_to_utc();
                let payload = payload_json(&message)?;
                if state.is_redelivery(&message, &payload) {
                    outcome.duplicates += u64::from(seq.is_none());
                    if seq.is_some() {
                        accepted.push(Accepted::Contract {
                            seq,
                            message,
                            payload,
                            redelivered: true,
                        });
                    }
                    continue;
                }
                let mut sequencer = Sequencer::new(&mut state.facts);
                match sequencer.feed(registry, &message) {
                    Ok(transition) => {
                        let message = match transition.answered_function() {
                            Some(function) => message.resolve_response(function),
                            None => message,
                        };
                        state.remember_payload(&message, &payload);
                        accepted.push(Accepted::Contract {
                            seq,
                            message,
                            payload,
                            redelivered: false,
                        });
                    }
                    Err(Rejection::Rule(err)) => {
                        quarantine.push(quarantine_row(
                            seq,
                            err.rule_id().as_str(),
                            &err.to_string(),
                            raw.as_deref().unwrap_or(&payload),
                        ));
                    }
                    Err(Rejection::State(never)) => match never {},
                }
            }
            Parsed::Host(HostEvent::CallClaimed(claim)) => {
                let payload = serde_json::to_string(&claim).map_err(IngestError::Encode)?;
                if let Some(seq) = seq {
                    accepted.push(Accepted::Claimed {
                        seq,
                        claim,
                        payload,
                    });
                }
            }
            Parsed::Host(HostEvent::SetAside(set_aside)) => {
                let payload = serde_json::to_string(&set_aside).map_err(IngestError::Encode)?;
                quarantine.push(quarantine_row(
                    seq,
                    SET_ASIDE_RULE,
                    &format!(
                        "the host could not put {} into the contract: {}",
                        set_aside.source, set_aside.reason
                    ),
                    raw.as_deref().unwrap_or(&payload),
                ));
            }
            Parsed::Ignored(_) => {}
        }
    }
    Ok(accepted)
}

/// The state machine's memory: what the store knows of the runs and calls a batch names (the
/// `know_*` methods, called by the store's loader), plus what the batch itself accepts as it
/// goes. A follower that owns a class keeps one for the whole class between batches (loaded
/// once, fenced by the class's version in the store).
#[derive(Debug, Default, Clone, PartialEq)]
pub struct BatchState {
    facts: InMemoryState,
    /// Each run's stored payloads, as digests ([`payload_digest`]): enough to tell a
    /// redelivery from a second event, at 8 bytes a run rather than the payload.
    completed_payloads: HashMap<String, u64>,
    struggle_payloads: HashMap<String, u64>,
    /// The learner of each stored call the batch names: a response carries only the call id.
    call_learners: HashMap<String, String>,
}

impl BatchState {
    /// What the store knows of a run the batch names: whether it completed or struggled.
    pub fn know_run(&mut self, run: String, facts: RunFacts) {
        self.facts.know_run(run, facts);
    }

    /// The stored payload of a run's completion, to tell a redelivery from a second event.
    pub fn know_completed_payload(&mut self, run: String, payload: &str) {
        self.completed_payloads.insert(run, payload_digest(payload));
    }

    /// The stored payload of a run's struggle, to tell a redelivery from a second event.
    pub fn know_struggle_payload(&mut self, run: String, payload: &str) {
        self.struggle_payloads.insert(run, payload_digest(payload));
    }

    /// What the store knows of a call the batch names, and its learner (a response carries
    /// only the call id).
    pub fn know_call(&mut self, call_id: String, facts: CallFacts, learner: String) {
        self.call_learners.insert(call_id.clone(), learner);
        self.facts.know_call(call_id, facts);
    }

    /// Whose rows the accepted events change: the learner of each event, request and response
    /// (a response's through its call). A claim names only a call the batch did not load:
    /// every row.
    pub fn rows_touched(&self, accepted: &[Accepted]) -> RowsTouched {
        let mut learners: HashSet<&str> = HashSet::new();
        let mut batch_calls: HashMap<&str, &str> = HashMap::new();
        for item in accepted {
            let message = match item {
                Accepted::Contract {
                    redelivered: true, ..
                } => continue,
                Accepted::Contract { message, .. } => message,
                Accepted::Claimed { .. } => return RowsTouched::All,
            };
            let call = lookup(message).call;
            let learner = match message.identity() {
                Some(identity) => {
                    if let Some(call) = call {
                        batch_calls.insert(call, &identity.learner);
                    }
                    Some(identity.learner.as_str())
                }
                None => call.and_then(|c| {
                    batch_calls
                        .get(c)
                        .copied()
                        .or_else(|| self.call_learners.get(c).map(String::as_str))
                }),
            };
            match learner {
                Some(learner) => {
                    learners.insert(learner);
                }
                None => return RowsTouched::All,
            }
        }
        RowsTouched::learners(learners)
    }

    /// A completion or struggle whose run already holds exactly this payload: the same event
    /// delivered again (backfill, then the feed), not a second one.
    fn is_redelivery(&self, message: &Message, payload: &str) -> bool {
        let stored = match message {
            Message::WidgetCompleted(m) => self.completed_payloads.get(&m.identity.widget_run_id),
            Message::WidgetStruggle(m) => self.struggle_payloads.get(&m.identity.widget_run_id),
            _ => None,
        };
        stored.is_some_and(|d| *d == payload_digest(payload))
    }

    /// What an accepted event adds: its payload's digest, and a request's learner (a later
    /// batch's response names only the call).
    fn remember_payload(&mut self, message: &Message, payload: &str) {
        match message {
            Message::WidgetCompleted(m) => {
                self.completed_payloads
                    .insert(m.identity.widget_run_id.clone(), payload_digest(payload));
            }
            Message::WidgetStruggle(m) => {
                self.struggle_payloads
                    .insert(m.identity.widget_run_id.clone(), payload_digest(payload));
            }
            Message::AssistRequest(r) => {
                self.call_learners
                    .insert(r.call_id.clone(), r.identity.learner.clone());
            }
            Message::ScoreRequest(r) => {
                self.call_learners
                    .insert(r.call_id.clone(), r.identity.learner.clone());
            }
            _ => {}
        }
    }

    /// How many runs and calls it knows (what a reload is compared by, in tests).
    pub fn len(&self) -> (usize, usize) {
        (
            self.completed_payloads.len() + self.struggle_payloads.len(),
            self.call_learners.len(),
        )
    }

    pub fn is_empty(&self) -> bool {
        self.len() == (0, 0)
    }
}

/// A payload's digest for the redelivery check: SipHash with fixed keys, the same in every
/// process of one build (the digests live in memory only, never in the store).
pub fn payload_digest(payload: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[expect(
        deprecated,
        reason = "SipHasher13's fixed keys are what makes the digest stable within a build"
    )]
    let mut hasher = std::hash::SipHasher::new();
    payload.hash(&mut hasher);
    hasher.finish()
}
