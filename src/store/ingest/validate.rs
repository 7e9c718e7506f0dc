//! The contract level's read of the store: what it knows of the runs and calls a batch names,
//! loaded in a few statements (not one per event) into the I/O-free
//! `a2learn_proto::ingest::BatchState` that validates the batch.

use std::collections::{HashMap, HashSet};

use a2learn_contract::sequence::lookup;
use a2learn_contract::{CallFacts, Function, Parsed, RunFacts};
use a2learn_proto::ingest::BatchState;
use sqlx::QueryBuilder;

use crate::store::StoreError;
use crate::store::engine::{Conn, on_conn};

use super::ROWS_PER_STATEMENT;

/// The stored state of the runs and calls that `parsed` names.
pub(super) async fn load_state(
    conn: &mut Conn<'_>,
    class_id: &str,
    parsed: &[(Option<i64>, Parsed, Option<String>)],
) -> Result<BatchState, StoreError> {
    let mut runs = HashSet::new();
    let mut calls = HashSet::new();
    for (_, item, _) in parsed {
        if let Parsed::Contract(message) = item {
            let wanted = lookup(message);
            runs.extend(wanted.run);
            calls.extend(wanted.call);
        }
    }
    let runs: Vec<&str> = runs.into_iter().collect();
    let calls: Vec<&str> = calls.into_iter().collect();
    let mut state = BatchState::default();
    for chunk in runs.chunks(ROWS_PER_STATEMENT) {
        load_runs(conn, class_id, Some(chunk), &mut state).await?;
    }
    for chunk in calls.chunks(ROWS_PER_STATEMENT) {
        load_calls(conn, class_id, Some(chunk), &mut state).await?;
    }
    Ok(state)
}

/// The stored state of every run and call of the class: what a follower that owns the class
/// keeps in memory between batches (`ClassMemory`).
pub(super) async fn load_class_state(
    conn: &mut Conn<'_>,
    class_id: &str,
) -> Result<BatchState, StoreError> {
    let mut state = BatchState::default();
    load_runs(conn, class_id, None, &mut state).await?;
    load_calls(conn, class_id, None, &mut state).await?;
    Ok(state)
}

/// The runs named (all of the class's with `None`): whether each completed or struggled, and
/// the payloads, to tell a redelivery from a second event.
async fn load_runs(
    conn: &mut Conn<'_>,
    class_id: &str,
    named: Option<&[&str]>,
    state: &mut BatchState,
) -> Result<(), StoreError> {
    on_conn!(conn, |conn| {
        // A run id names a run within its class's feed: another class's run of the same id is
        // another run. The payloads are the ledger's or backfill's, through the views.
        let mut q = QueryBuilder::<Db>::new(
            "SELECT widget_run_id, 'c', payload FROM results_with_payload WHERE class_id = ",
        );
        q.push_bind(class_id.to_string());
        push_named(&mut q, "widget_run_id", named);
        q.push(" UNION ALL SELECT widget_run_id, 's', payload FROM struggles_with_payload WHERE class_id = ");
        q.push_bind(class_id.to_string());
        push_named(&mut q, "widget_run_id", named);
        let rows: Vec<(String, String, String)> = q.build_query_as().fetch_all(&mut *conn).await?;
        let mut known: HashMap<String, RunFacts> = HashMap::new();
        for (run, which, payload) in rows {
            let facts = known.entry(run.clone()).or_default();
            if which == "c" {
                facts.completed = true;
                state.know_completed_payload(run, &payload);
            } else {
                facts.struggled = true;
                state.know_struggle_payload(run, &payload);
            }
        }
        for (run, facts) in known {
            state.know_run(run, facts);
        }
        Ok(())
    })
}

/// The calls named (all of the class's with `None`): function, deadline, whether answered, and
/// whose they are.
async fn load_calls(
    conn: &mut Conn<'_>,
    class_id: &str,
    named: Option<&[&str]>,
    state: &mut BatchState,
) -> Result<(), StoreError> {
    on_conn!(conn, |conn| {
        let mut q = QueryBuilder::<Db>::new(
            "SELECT call_id, function, deadline, state, learner FROM calls WHERE class_id = ",
        );
        q.push_bind(class_id.to_string());
        push_named(&mut q, "call_id", named);
        let rows: Vec<(String, String, String, String, String)> =
            q.build_query_as().fetch_all(&mut *conn).await?;
        for (call_id, function, deadline, call_state, learner) in rows {
            let function = match function.as_str() {
                "score" => Function::Score,
                _ => Function::Assist,
            };
            let deadline = a2learn_contract::rules::parse_timestamp("deadline", &deadline)
                .map_err(|e| StoreError::Invalid(format!("stored call deadline: {e}")))?;
            state.know_call(
                call_id,
                CallFacts {
                    function,
                    deadline,
                    answered: call_state != "open",
                },
                learner,
            );
        }
        Ok(())
    })
}

/// ` AND <column> IN (<named>)`, or nothing when every row of the class is wanted.
fn push_named<'args, DB: sqlx::Database>(
    q: &mut QueryBuilder<'args, DB>,
    column: &str,
    named: Option<&[&str]>,
) where
    String: sqlx::Encode<'args, DB> + sqlx::Type<DB>,
{
    if let Some(named) = named {
        q.push(format!(" AND {column} IN ("));
        push_list(q, named);
        q.push(")");
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
