//! Stage 3, the writes: the ledger (and the backfill table), the one place each payload is kept,
//! then the derived tables (results, struggles, calls, learners: facts, no payloads) and a
//! snapshot's learners and assignments.

use std::collections::{HashMap, HashSet};

use a2learn_contract::Message;
use a2learn_contract::sequence::lookup;
use a2learn_contract::transport::agui;
use a2learn_proto::ingest::{RoomUpdate, Snapshot};
use sqlx::QueryBuilder;

use crate::store::engine::{Conn, on_conn};

use super::{Accepted, Changes, ROWS_PER_STATEMENT};
use crate::store::StoreError;
use crate::store::rollup::Touched;

pub(super) async fn write_ledger(
    conn: &mut Conn<'_>,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<u64, StoreError> {
    on_conn!(conn, |conn| {
        let mut stored = 0;
        let feed: Vec<(i64, &str, &str)> = accepted
            .iter()
            .filter_map(|a| match a {
                Accepted::Contract {
                    seq: Some(seq),
                    message,
                    payload,
                    ..
                } => Some((*seq, message.verb().name(), payload.as_str())),
                Accepted::Claimed { seq, payload, .. } => {
                    Some((*seq, "a2learn.host.call_claimed", payload.as_str()))
                }
                Accepted::Contract { seq: None, .. } => None,
            })
            .collect();
        for chunk in feed.chunks(ROWS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO ledger (class_id, seq, name, payload, received_at) ",
            );
            q.push_values(chunk, |mut row, (seq, name, payload)| {
                row.push_bind(class_id)
                    .push_bind(*seq)
                    .push_bind(*name)
                    .push_bind(*payload)
                    .push_bind(now);
            });
            q.push(" ON CONFLICT (class_id, seq) DO NOTHING");
            stored += q.build().execute(&mut *conn).await?.rows_affected();
        }
        let backfill: Vec<(&str, &str, &str)> = accepted
            .iter()
            .filter_map(|a| match a {
                Accepted::Contract {
                    seq: None,
                    message,
                    payload,
                    ..
                } => message.identity().map(|id| {
                    (
                        id.widget_run_id.as_str(),
                        message.verb().name(),
                        payload.as_str(),
                    )
                }),
                _ => None,
            })
            .collect();
        for chunk in backfill.chunks(ROWS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO backfill (widget_run_id, verb, class_id, payload, received_at) ",
            );
            q.push_values(chunk, |mut row, (run, verb, payload)| {
                row.push_bind(*run)
                    .push_bind(*verb)
                    .push_bind(class_id)
                    .push_bind(*payload)
                    .push_bind(now);
            });
            q.push(" ON CONFLICT (class_id, widget_run_id, verb) DO NOTHING");
            stored += q.build().execute(&mut *conn).await?.rows_affected();
        }
        Ok(stored)
    })
}

/// Applies accepted events to the derived tables. Shared by live ingest and rebuild, so the two
/// cannot drift apart. Returns what changed and the grid rows the events touched (for the
/// rollup: live ingest refreshes those, a rebuild recomputes every row once at its end).
pub(crate) async fn apply_accepted(
    conn: &mut Conn<'_>,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<(Changes, Touched), StoreError> {
    on_conn!(conn, |conn| {
        let mut changes = Changes::default();
        let mut touched = Touched::default();
        let mut completions = Vec::new();
        let mut struggles = Vec::new();
        let mut learners: Vec<&str> = Vec::new();
        for item in accepted {
            let Accepted::Contract {
                seq,
                message,
                redelivered: false,
                ..
            } = item
            else {
                continue;
            };
            let identity = message.identity();
            if let Some(id) = identity {
                learners.push(id.learner.as_str());
            }
            // Results and struggles reach the rollup as their inserts return them (below); a
            // request opens a call on its cell, and a response changes a call of some cell.
            match (message, identity) {
                (Message::WidgetCompleted(m), _) => completions.push((*seq, m)),
                (Message::WidgetStruggle(m), _) => struggles.push((*seq, m)),
                (_, Some(id)) => touched.call_on(&id.pathway_id, &id.learner, &id.widget_id),
                (_, None) => {
                    if let Some(call) = lookup(message).call {
                        touched.call(call);
                    }
                }
            }
        }

        for chunk in completions.chunks(ROWS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO results (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
             standard, correct, attempts, hints, score, at_ms, seq, response) ",
            );
            q.push_values(chunk, |mut row, (seq, m)| {
                let r = &m.widget_result;
                row.push_bind(m.identity.widget_run_id.as_str())
                    .push_bind(class_id)
                    .push_bind(m.identity.pathway_id.as_str())
                    .push_bind(m.identity.widget_id.as_str())
                    .push_bind(m.identity.learner.as_str())
                    .push_bind(r.kind.as_str())
                    .push_bind(r.standard.as_deref())
                    .push_bind(r.correct)
                    .push_bind(i64::from(r.attempts))
                    .push_bind(i64::from(r.hints))
                    .push_bind(r.score)
                    .push_bind(agui::timestamp_ms(&m.identity.at).unwrap_or(now))
                    .push_bind(*seq)
                    .push_bind(r.detail.get("response").and_then(|v| v.as_str()));
            });
            // What was inserted (not a run stored before) is what the rollup adds.
            q.push(
                " ON CONFLICT (class_id, widget_run_id) DO NOTHING \
                 RETURNING pathway_id, learner, widget_id, at_ms, correct",
            );
            let inserted: Vec<(String, String, String, i64, Option<bool>)> =
                q.build_query_as().fetch_all(&mut *conn).await?;
            changes.results |= !inserted.is_empty();
            for (pathway, learner, widget, at_ms, correct) in inserted {
                touched.completion(&pathway, &learner, &widget, at_ms, correct);
            }
        }
        for chunk in struggles.chunks(ROWS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO struggles (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
             standard, failed_checks, hints, at_ms, seq) ",
            );
            q.push_values(chunk, |mut row, (seq, m)| {
                row.push_bind(m.identity.widget_run_id.as_str())
                    .push_bind(class_id)
                    .push_bind(m.identity.pathway_id.as_str())
                    .push_bind(m.identity.widget_id.as_str())
                    .push_bind(m.identity.learner.as_str())
                    .push_bind(m.kind.as_str())
                    .push_bind(m.standard.as_deref())
                    .push_bind(i64::from(m.failed_checks))
                    .push_bind(i64::from(m.hints))
                    .push_bind(agui::timestamp_ms(&m.identity.at).unwrap_or(now))
                    .push_bind(*seq);
            });
            q.push(
                " ON CONFLICT (class_id, widget_run_id) DO NOTHING \
                 RETURNING pathway_id, learner, widget_id, at_ms",
            );
            let inserted: Vec<(String, String, String, i64)> =
                q.build_query_as().fetch_all(&mut *conn).await?;
            changes.struggles |= !inserted.is_empty();
            for (pathway, learner, widget, at_ms) in inserted {
                touched.struggle(&pathway, &learner, &widget, at_ms);
            }
        }
        changes.results |= adopt_feed_seqs(&mut Conn::from(&mut *conn), class_id, accepted).await?;
        learners.sort_unstable();
        learners.dedup();
        changes.learners |=
            insert_learners(&mut Conn::from(&mut *conn), class_id, &learners, now).await?;

        changes.calls |= apply_calls(&mut Conn::from(&mut *conn), class_id, accepted, now).await?;
        Ok((changes, touched))
    })
}

/// The feed's copy of a result or struggle the backfill stored first is the same event: the row
/// takes the feed's seq (so it is ordered as the feed ordered it — a struggle and its completion
/// at the same second, say), and the payload, now the ledger's row of that seq, is no longer
/// kept twice. Runs only for redeliveries that came with a seq the ledger did not have, which
/// is the backfill's case; a replay of stored seqs never gets this far.
async fn adopt_feed_seqs(
    conn: &mut Conn<'_>,
    class_id: &str,
    accepted: &[Accepted],
) -> Result<bool, StoreError> {
    on_conn!(conn, |conn| {
        let mut adopted = false;
        for item in accepted {
            let Accepted::Contract {
                seq: Some(seq),
                message,
                redelivered: true,
                ..
            } = item
            else {
                continue;
            };
            let table = match message {
                Message::WidgetCompleted(_) => "results",
                Message::WidgetStruggle(_) => "struggles",
                _ => continue,
            };
            let Some(identity) = message.identity() else {
                continue;
            };
            let updated = sqlx::query(&format!(
                "UPDATE {table} SET seq = $1 WHERE class_id = $2 AND widget_run_id = $3 \
                 AND seq IS NULL"
            ))
            .bind(*seq)
            .bind(class_id)
            .bind(identity.widget_run_id.as_str())
            .execute(&mut *conn)
            .await?
            .rows_affected();
            if updated > 0 {
                sqlx::query(
                    "DELETE FROM backfill WHERE class_id = $1 AND widget_run_id = $2 AND verb = $3",
                )
                .bind(class_id)
                .bind(identity.widget_run_id.as_str())
                .bind(message.verb().name())
                .execute(&mut *conn)
                .await?;
                adopted = true;
            }
        }
        Ok(adopted)
    })
}

/// A call opened in this batch, with whatever the batch itself says about it afterwards.
struct NewCall<'a> {
    call_id: &'a str,
    function: &'static str,
    identity: &'a a2learn_contract::Identity,
    kind: &'a str,
    standard: Option<&'a str>,
    /// Its own copy of the request, only when the ledger does not hold it ([`own_copy`]).
    request: Option<&'a str>,
    deadline: &'a str,
    opened_seq: i64,
    state: &'static str,
    claimed_by: Option<&'a str>,
    /// Its own copy of the response, as `request`.
    response: Option<&'a str>,
    closed_at_ms: Option<i64>,
    closed_seq: Option<i64>,
}

/// A response or claim for a call opened in an earlier batch.
enum Later<'a> {
    Close {
        call_id: &'a str,
        state: &'static str,
        /// Its own copy of the response, only when the ledger does not hold it.
        response: Option<&'a str>,
        at_ms: i64,
        seq: Option<i64>,
    },
    Claim {
        call_id: &'a str,
        claimed_by: &'a str,
    },
}

/// The copy of an event's payload a call keeps: none when the ledger holds it (an event with a
/// seq), read back through `calls_with_payload`; the payload itself for one that came without.
fn own_copy(seq: Option<i64>, payload: &str) -> Option<&str> {
    seq.is_none().then_some(payload)
}

/// What a response does to its call.
fn closing_state(response: &a2learn_contract::FunctionResponse) -> &'static str {
    match (&response.value, &response.error) {
        (Some(_), _) => "answered",
        (None, Some(e)) if e.code == "declined" => "declined",
        (None, Some(e)) if e.code == a2learn_contract::CallError::TIMEOUT => "expired",
        _ => "failed",
    }
}

/// Applies requests, responses and claims in feed order. Calls opened in this batch are written
/// once, in multi-row statements, with their in-batch response and claim folded in (a call is
/// usually opened and closed within one replayed batch); only responses and claims for calls of
/// earlier batches take a statement each. The earlier-batch updates run before the inserts, so
/// they can only touch calls that existed before the batch, as a one-by-one pass would.
async fn apply_calls(
    conn: &mut Conn<'_>,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<bool, StoreError> {
    on_conn!(conn, |conn| {
        let mut new_calls: Vec<NewCall<'_>> = Vec::new();
        let mut index: HashMap<&str, usize> = HashMap::new();
        let mut later: Vec<Later<'_>> = Vec::new();
        for item in accepted {
            match item {
                Accepted::Contract {
                    seq,
                    message,
                    payload,
                    redelivered: false,
                } => {
                    let opened = match message {
                        Message::ScoreRequest(m) => Some((
                            "score",
                            &m.call_id,
                            &m.identity,
                            &m.kind,
                            &m.standard,
                            &m.deadline,
                        )),
                        Message::AssistRequest(m) => Some((
                            "assist",
                            &m.call_id,
                            &m.identity,
                            &m.kind,
                            &m.standard,
                            &m.deadline,
                        )),
                        _ => None,
                    };
                    if let Some((function, call_id, identity, kind, standard, deadline)) = opened {
                        index.entry(call_id.as_str()).or_insert(new_calls.len());
                        new_calls.push(NewCall {
                            call_id,
                            function,
                            identity,
                            kind,
                            standard: standard.as_deref(),
                            request: own_copy(*seq, payload),
                            deadline,
                            opened_seq: seq.unwrap_or(0),
                            state: "open",
                            claimed_by: None,
                            response: None,
                            closed_at_ms: None,
                            closed_seq: None,
                        });
                        continue;
                    }
                    let Some((_, response)) = message.response() else {
                        continue;
                    };
                    let state = closing_state(response);
                    let at_ms = response
                        .at
                        .as_deref()
                        .and_then(agui::timestamp_ms)
                        .unwrap_or(now);
                    match index
                        .get(response.call_id.as_str())
                        .map(|&i| &mut new_calls[i])
                    {
                        Some(call) if call.state == "open" => {
                            call.state = state;
                            call.response = own_copy(*seq, payload);
                            call.closed_at_ms = Some(at_ms);
                            call.closed_seq = *seq;
                        }
                        Some(_) => {}
                        None => later.push(Later::Close {
                            call_id: &response.call_id,
                            state,
                            response: own_copy(*seq, payload),
                            at_ms,
                            seq: *seq,
                        }),
                    }
                }
                Accepted::Claimed { claim, .. } => {
                    match index
                        .get(claim.call_id.as_str())
                        .map(|&i| &mut new_calls[i])
                    {
                        Some(call) => call.claimed_by = Some(&claim.claimed_by),
                        None => later.push(Later::Claim {
                            call_id: &claim.call_id,
                            claimed_by: &claim.claimed_by,
                        }),
                    }
                }
                _ => {}
            }
        }

        let mut changed = apply_later(&mut Conn::from(&mut *conn), class_id, &later).await?;
        // 19 columns: 100 rows keep a statement far inside SQLite's bound-parameter limit.
        for chunk in new_calls.chunks(100) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, \
             widget_run_id, learner, kind, standard, request, at_ms, deadline, deadline_ms, \
             opened_seq, state, claimed_by, response, closed_at_ms, closed_seq) ",
            );
            q.push_values(chunk, |mut row, c| {
                row.push_bind(c.call_id)
                    .push_bind(class_id)
                    .push_bind(c.function)
                    .push_bind(c.identity.pathway_id.as_str())
                    .push_bind(c.identity.widget_id.as_str())
                    .push_bind(c.identity.widget_run_id.as_str())
                    .push_bind(c.identity.learner.as_str())
                    .push_bind(c.kind)
                    .push_bind(c.standard)
                    .push_bind(c.request)
                    .push_bind(agui::timestamp_ms(&c.identity.at).unwrap_or(now))
                    .push_bind(c.deadline)
                    .push_bind(agui::timestamp_ms(c.deadline).unwrap_or(now))
                    .push_bind(c.opened_seq)
                    .push_bind(c.state)
                    .push_bind(c.claimed_by)
                    .push_bind(c.response)
                    .push_bind(c.closed_at_ms)
                    .push_bind(c.closed_seq);
            });
            q.push(" ON CONFLICT (class_id, call_id) DO NOTHING");
            changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
        }
        Ok(changed)
    })
}

/// A close of an earlier batch's call, as the update binds it: call id, state, the response's
/// own copy ([`own_copy`]), the time and the seq that closed it.
type Close<'a> = (&'a str, &'a str, Option<&'a str>, i64, Option<i64>);

/// Rows per statement of the later-batch updates (5 columns each).
const LATER_PER_STATEMENT: usize = 100;

/// Closes and claims for calls opened in earlier batches, in two multi-row statements (not one
/// per call): a replayed feed closes dozens of earlier calls per batch, and on a shared store
/// each statement is a round trip to the server. A close lands only on a call still open (the
/// first response wins, as the validator already ensured); of several claims of one call the
/// batch's last wins, as applying them in feed order would.
async fn apply_later(
    conn: &mut Conn<'_>,
    class_id: &str,
    later: &[Later<'_>],
) -> Result<bool, StoreError> {
    let mut closes: Vec<Close<'_>> = Vec::new();
    let mut closing: HashSet<&str> = HashSet::new();
    let mut claims: HashMap<&str, &str> = HashMap::new();
    for update in later {
        match update {
            Later::Close {
                call_id,
                state,
                response,
                at_ms,
                seq,
            } => {
                if closing.insert(call_id) {
                    closes.push((call_id, state, *response, *at_ms, *seq));
                }
            }
            Later::Claim {
                call_id,
                claimed_by,
            } => {
                claims.insert(call_id, claimed_by);
            }
        }
    }
    let claims: Vec<(&str, &str)> = claims.into_iter().collect();
    on_conn!(conn, |conn| {
        let mut changed = false;
        for chunk in closes.chunks(LATER_PER_STATEMENT) {
            let mut q =
                QueryBuilder::<Db>::new("WITH v (call_id, state, response, at_ms, seq) AS (");
            q.push_values(chunk, |mut row, (call_id, state, response, at_ms, seq)| {
                row.push_bind(*call_id)
                    .push_bind(*state)
                    .push_bind(*response)
                    .push_bind(*at_ms)
                    .push_bind(*seq);
            });
            q.push(
                ") UPDATE calls SET state = v.state, response = v.response, \
                 closed_at_ms = v.at_ms, closed_seq = v.seq FROM v \
                 WHERE calls.class_id = ",
            );
            q.push_bind(class_id);
            q.push(" AND calls.call_id = v.call_id AND calls.state = 'open'");
            changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
        }
        for chunk in claims.chunks(LATER_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new("WITH v (call_id, claimed_by) AS (");
            q.push_values(chunk, |mut row, (call_id, claimed_by)| {
                row.push_bind(*call_id).push_bind(*claimed_by);
            });
            q.push(") UPDATE calls SET claimed_by = v.claimed_by FROM v WHERE calls.class_id = ");
            q.push_bind(class_id);
            q.push(" AND calls.call_id = v.call_id");
            changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
        }
        Ok(changed)
    })
}

async fn insert_learners(
    conn: &mut Conn<'_>,
    class_id: &str,
    learners: &[&str],
    now: i64,
) -> Result<bool, StoreError> {
    on_conn!(conn, |conn| {
        let mut changed = false;
        for chunk in learners.chunks(ROWS_PER_STATEMENT) {
            let mut q =
                QueryBuilder::<Db>::new("INSERT INTO learners (class_id, learner, first_seen_at) ");
            q.push_values(chunk, |mut row, learner| {
                row.push_bind(class_id).push_bind(*learner).push_bind(now);
            });
            q.push(" ON CONFLICT (class_id, learner) DO NOTHING");
            changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
        }
        Ok(changed)
    })
}

pub(super) async fn apply_snapshot(
    conn: &mut Conn<'_>,
    class_id: &str,
    snapshot: Snapshot,
    now: i64,
) -> Result<Changes, StoreError> {
    on_conn!(conn, |conn| {
        let mut changes = Changes::default();
        let learners: Vec<&str> = snapshot.learners.iter().map(String::as_str).collect();
        changes.learners =
            insert_learners(&mut Conn::from(&mut *conn), class_id, &learners, now).await?;
        for a in &snapshot.assignments {
            let due_at = a.due_at.as_deref().and_then(agui::timestamp_ms);
            let done = sqlx::query(
                "INSERT INTO assignments (assignment_id, class_id, pathway_id, due_at, teacher_note, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (assignment_id) DO UPDATE SET \
                 due_at = excluded.due_at, teacher_note = excluded.teacher_note \
                 WHERE assignments.due_at IS DISTINCT FROM excluded.due_at \
                 OR assignments.teacher_note IS DISTINCT FROM excluded.teacher_note",
            )
            .bind(&a.assignment_id)
            .bind(class_id)
            .bind(&a.pathway_id)
            .bind(due_at)
            .bind(&a.teacher_note)
            .bind(now)
            .execute(&mut *conn)
            .await?;
            changes.assignments |= done.rows_affected() > 0;
        }
        Ok(changes)
    })
}

/// The room controls of a class as stored: whether it is paused (with the message), and the
/// pacing limit per pathway.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Room {
    paused: bool,
    message: Option<String>,
    pacing: std::collections::BTreeMap<String, String>,
}

impl Room {
    fn apply(&mut self, update: &RoomUpdate) {
        match update {
            RoomUpdate::Snapshot { paused, pacing } => {
                if let Some(paused) = *paused {
                    // The snapshot carries no message: keep the echo's while still paused.
                    if !paused || !self.paused {
                        self.message = None;
                    }
                    self.paused = paused;
                }
                if let Some(pacing) = pacing {
                    self.pacing = pacing.iter().cloned().collect();
                }
            }
            RoomUpdate::Paused { message } => {
                self.paused = true;
                self.message = message.clone();
            }
            RoomUpdate::Resumed => {
                self.paused = false;
                self.message = None;
            }
            RoomUpdate::Pacing { pathway_id, up_to } => match up_to {
                Some(w) => {
                    self.pacing.insert(pathway_id.clone(), w.clone());
                }
                None => {
                    self.pacing.remove(pathway_id);
                }
            },
        }
    }
}

/// Applies the batch's room updates in feed order; whether the stored state changed.
pub(super) async fn apply_room(
    conn: &mut Conn<'_>,
    class_id: &str,
    updates: &[RoomUpdate],
    now: i64,
) -> Result<bool, StoreError> {
    on_conn!(conn, |conn| {
        if updates.is_empty() {
            return Ok(false);
        }
        let pause: Option<(bool, Option<String>)> =
            sqlx::query_as("SELECT paused, message FROM room_pause WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(&mut *conn)
                .await?;
        let pacing: Vec<(String, String)> =
            sqlx::query_as("SELECT pathway_id, up_to FROM room_pacing WHERE class_id = $1")
                .bind(class_id)
                .fetch_all(&mut *conn)
                .await?;
        let (paused, message) = pause.clone().unwrap_or_default();
        let before = Room {
            paused,
            message,
            pacing: pacing.into_iter().collect(),
        };
        let mut after = before.clone();
        for update in updates {
            after.apply(update);
        }
        if after == before {
            return Ok(false);
        }
        if (after.paused, &after.message) != (before.paused, &before.message) || pause.is_none() {
            sqlx::query(
                "INSERT INTO room_pause (class_id, paused, message, updated_at_ms) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (class_id) DO UPDATE SET paused = excluded.paused, \
                 message = excluded.message, updated_at_ms = excluded.updated_at_ms",
            )
            .bind(class_id)
            .bind(after.paused)
            .bind(&after.message)
            .bind(now)
            .execute(&mut *conn)
            .await?;
        }
        if after.pacing != before.pacing {
            sqlx::query("DELETE FROM room_pacing WHERE class_id = $1")
                .bind(class_id)
                .execute(&mut *conn)
                .await?;
            for (pathway_id, up_to) in &after.pacing {
                sqlx::query(
                    "INSERT INTO room_pacing (class_id, pathway_id, up_to, updated_at_ms) \
                 VALUES ($1, $2, $3, $4)",
                )
                .bind(class_id)
                .bind(pathway_id)
                .bind(up_to)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            }
        }
        Ok(true)
    })
}
