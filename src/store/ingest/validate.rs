//! Stage 2, the contract level: the sequence state machine over the stored state of the runs and
//! calls a batch names (loaded in a few statements, not one per event), and redeliveries told
//! apart from second events.

use std::collections::{HashMap, HashSet};

use a2learn_contract::sequence::lookup;
use a2learn_contract::{
    CallFacts, Function, HostEvent, InMemoryState, Message, Parsed, Registry, Rejection, RunFacts,
    Sequencer,
};
use sqlx::QueryBuilder;

use crate::store::engine::{Conn, on_conn};

use super::parse::{json_error, payload_json};
use super::quarantine::{QuarantineRow, quarantine_row};
use super::{Accepted, BatchOutcome, ROWS_PER_STATEMENT, RowsTouched};
use crate::store::StoreError;

/// Runs the state machine over the parsed events in feed order: what passes is accepted, what
/// breaks a rule goes to `quarantine`, a redelivered completion or struggle is counted as such.
pub(super) fn validate(
    state: &mut BatchState,
    registry: &Registry,
    parsed: Vec<(Option<i64>, Parsed, Option<String>)>,
    outcome: &mut BatchOutcome,
    quarantine: &mut Vec<QuarantineRow>,
) -> Result<Vec<Accepted>, StoreError> {
    let mut accepted = Vec::with_capacity(parsed.len());
    for (seq, item, raw) in parsed {
        match item {
            Parsed::Contract(message) => {
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
                let payload = serde_json::to_string(&claim).map_err(json_error)?;
                if let Some(seq) = seq {
                    accepted.push(Accepted::Claimed {
                        seq,
                        claim,
                        payload,
                    });
                }
            }
            Parsed::Ignored(_) => {}
        }
    }
    Ok(accepted)
}

/// The state machine's memory for one batch: what the store knows of the runs and calls the
/// batch names, loaded up front, plus what the batch itself accepts as it goes.
#[derive(Debug, Default)]
pub(super) struct BatchState {
    facts: InMemoryState,
    completed_payloads: HashMap<String, String>,
    struggle_payloads: HashMap<String, String>,
    /// The learner of each stored call the batch names: a response carries only the call id.
    call_learners: HashMap<String, String>,
}

impl BatchState {
    pub(super) async fn load(
        conn: &mut Conn<'_>,
        class_id: &str,
        parsed: &[(Option<i64>, Parsed, Option<String>)],
    ) -> Result<Self, StoreError> {
        on_conn!(conn, |conn| {
            let mut runs = HashSet::new();
            let mut calls = HashSet::new();
            for (_, item, _) in parsed {
                if let Parsed::Contract(message) = item {
                    let wanted = lookup(message);
                    runs.extend(wanted.run);
                    calls.extend(wanted.call);
                }
            }
            let mut state = BatchState::default();
            let runs: Vec<&str> = runs.into_iter().collect();
            let mut known: HashMap<String, RunFacts> = HashMap::new();
            for chunk in runs.chunks(ROWS_PER_STATEMENT) {
                // A run id names a run within its class's feed: another class's run of the same id
                // is another run. The payloads are the ledger's or backfill's, through the views.
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT widget_run_id, 'c', payload FROM results_with_payload \
                     WHERE class_id = ",
                );
                q.push_bind(class_id.to_string());
                q.push(" AND widget_run_id IN (");
                push_list(&mut q, chunk);
                q.push(
                    ") UNION ALL SELECT widget_run_id, 's', payload FROM struggles_with_payload \
                     WHERE class_id = ",
                );
                q.push_bind(class_id.to_string());
                q.push(" AND widget_run_id IN (");
                push_list(&mut q, chunk);
                q.push(")");
                let rows: Vec<(String, String, String)> =
                    q.build_query_as().fetch_all(&mut *conn).await?;
                for (run, which, payload) in rows {
                    let facts = known.entry(run.clone()).or_default();
                    if which == "c" {
                        facts.completed = true;
                        state.completed_payloads.insert(run, payload);
                    } else {
                        facts.struggled = true;
                        state.struggle_payloads.insert(run, payload);
                    }
                }
            }
            for (run, facts) in known {
                state.facts.know_run(run, facts);
            }
            let calls: Vec<&str> = calls.into_iter().collect();
            for chunk in calls.chunks(ROWS_PER_STATEMENT) {
                let mut q = QueryBuilder::<Db>::new(
                    "SELECT call_id, function, deadline, state, learner FROM calls WHERE class_id = ",
                );
                q.push_bind(class_id.to_string());
                q.push(" AND call_id IN (");
                push_list(&mut q, chunk);
                q.push(")");
                let rows: Vec<(String, String, String, String, String)> =
                    q.build_query_as().fetch_all(&mut *conn).await?;
                for (call_id, function, deadline, call_state, learner) in rows {
                    state.call_learners.insert(call_id.clone(), learner);
                    let function = match function.as_str() {
                        "score" => Function::Score,
                        _ => Function::Assist,
                    };
                    let deadline = a2learn_contract::rules::parse_timestamp("deadline", &deadline)
                        .map_err(|e| StoreError::Invalid(format!("stored call deadline: {e}")))?;
                    state.facts.know_call(
                        call_id,
                        CallFacts {
                            function,
                            deadline,
                            answered: call_state != "open",
                        },
                    );
                }
            }
            Ok(state)
        })
    }

    /// Whose rows the accepted events change: the learner of each event, request and response
    /// (a response's through its call). A claim names only a call the batch did not load:
    /// every row.
    pub(super) fn rows_touched(&self, accepted: &[Accepted]) -> RowsTouched {
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
        match message {
            Message::WidgetCompleted(m) => self
                .completed_payloads
                .get(&m.identity.widget_run_id)
                .is_some_and(|p| p == payload),
            Message::WidgetStruggle(m) => self
                .struggle_payloads
                .get(&m.identity.widget_run_id)
                .is_some_and(|p| p == payload),
            _ => false,
        }
    }

    fn remember_payload(&mut self, message: &Message, payload: &str) {
        match message {
            Message::WidgetCompleted(m) => {
                self.completed_payloads
                    .insert(m.identity.widget_run_id.clone(), payload.to_string());
            }
            Message::WidgetStruggle(m) => {
                self.struggle_payloads
                    .insert(m.identity.widget_run_id.clone(), payload.to_string());
            }
            _ => {}
        }
    }
}

pub(super) fn push_list<'args, DB: sqlx::Database>(q: &mut QueryBuilder<'args, DB>, items: &[&str])
where
    String: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
{
    let mut sep = q.separated(", ");
    for item in items {
        sep.push_bind(item.to_string());
    }
}
