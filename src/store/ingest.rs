//! Ingest: a batch of feed frames (or backfilled results) in, one SQLite transaction out.
//!
//! Inside one `BEGIN IMMEDIATE` transaction the batch is deduplicated against the stored cursor,
//! parsed (AG-UI, then the contract), validated by the contract's state machine over the stored
//! state, appended to the ledger, applied to the derived tables, and the cursor is advanced.
//! Either all of that lands or none of it does, so a crash anywhere loses nothing (the feed
//! replays from the old cursor) and doubles nothing (the ledger is idempotent on
//! `(class_id, seq)`, results on `widget_run_id`). Taking the write lock first means two sync
//! processes on one database serialize their batches and each sees the other's cursor.

use std::collections::{HashMap, HashSet};

use a2learn_contract::sequence::lookup;
use a2learn_contract::transport::agui;
use a2learn_contract::{
    CallClaimed, CallFacts, Function, HostEvent, InMemoryState, Message, Parsed, Registry,
    Rejection, RunFacts, Sequencer,
};
use sqlx::{QueryBuilder, Sqlite, SqliteConnection};

use super::{Store, StoreError};

/// The most of a rejected frame that quarantine keeps. Enough to diagnose a widget; a frame of
/// megabytes is someone else's problem to keep.
pub const QUARANTINE_RAW_BYTES: usize = 4096;

/// SQLite's default limit is 32,766 bound parameters per statement; stay well inside it.
const ROWS_PER_STATEMENT: usize = 200;

/// One thing to ingest.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// An SSE event of the class feed: its `id:` (the seq, when present) and its `data:`.
    Frame { id: Option<String>, data: String },
    /// A result the host reported through `get_pathway_results`, from before the dashboard
    /// listened. It has no seq.
    Backfill(Box<Message>),
}

/// What a batch did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BatchOutcome {
    /// Contract and host events newly appended to the ledger (or backfill table).
    pub stored: u64,
    /// Frames already stored (seq at or below the cursor, or repeated within the batch), and
    /// results re-delivered with the same payload.
    pub duplicates: u64,
    /// Frames kept aside with a rule id.
    pub quarantined: u64,
    /// Well-formed frames that are not for the dashboard (other AG-UI events, unknown names).
    pub ignored: u64,
    /// The cursor after the batch.
    pub last_seq: Option<i64>,
    /// What changed, for the views to refresh.
    pub changes: Changes,
}

/// Which derived views a batch touched.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Changes {
    pub results: bool,
    pub struggles: bool,
    pub calls: bool,
    pub learners: bool,
    pub assignments: bool,
    pub quarantine: bool,
}

impl Changes {
    pub fn any(&self) -> bool {
        self.results
            || self.struggles
            || self.calls
            || self.learners
            || self.assignments
            || self.quarantine
    }

    pub fn merge(&mut self, other: Changes) {
        self.results |= other.results;
        self.struggles |= other.struggles;
        self.calls |= other.calls;
        self.learners |= other.learners;
        self.assignments |= other.assignments;
        self.quarantine |= other.quarantine;
    }
}

/// An event that passed every rule, ready to be written.
// Contract events are nearly all of them; boxing them would cost an allocation each for nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub(crate) enum Accepted {
    Contract {
        seq: Option<i64>,
        message: Message,
        payload: String,
        /// The same payload arrived before (backfill, then the feed): ledger only.
        redelivered: bool,
    },
    Claimed {
        seq: i64,
        claim: CallClaimed,
        payload: String,
    },
}

#[derive(Debug)]
struct QuarantineRow {
    seq: Option<i64>,
    rule_id: String,
    message: String,
    raw: String,
    raw_bytes: i64,
}

/// A snapshot's view of the class (from `STATE_SNAPSHOT`).
#[derive(Debug, Default)]
struct Snapshot {
    learners: Vec<String>,
    assignments: Vec<SnapshotAssignment>,
}

#[derive(Debug, serde::Deserialize)]
struct SnapshotAssignment {
    assignment_id: String,
    pathway_id: String,
    #[serde(default)]
    due_at: Option<String>,
    #[serde(default)]
    teacher_note: Option<String>,
}

impl Store {
    /// Ingests one batch for `class_id` in one transaction. See the module docs.
    pub async fn ingest(
        &self,
        class_id: &str,
        registry: &Registry,
        batch: Vec<Incoming>,
    ) -> Result<BatchOutcome, StoreError> {
        let now = self.now_ms();
        let mut tx = self.pool().begin_with("BEGIN IMMEDIATE").await?;
        let conn: &mut SqliteConnection = &mut tx;

        let cursor: Option<i64> =
            sqlx::query_scalar("SELECT last_seq FROM feed_cursors WHERE class_id = ?")
                .bind(class_id)
                .fetch_optional(&mut *conn)
                .await?;
        let mut outcome = BatchOutcome {
            last_seq: cursor,
            ..BatchOutcome::default()
        };

        // Seqs of this batch already stored (ledger or quarantine), for a replay that does not
        // start from the cursor (a lost cursor, a full replay): one range query per batch.
        let stored_seqs = stored_seqs_in(&mut *conn, class_id, &batch).await?;

        // 1. Frame level: dedupe by seq, parse, set aside what is malformed or not ours.
        let mut quarantine = Vec::new();
        let mut parsed: Vec<(Option<i64>, Parsed, Option<String>)> =
            Vec::with_capacity(batch.len());
        let mut snapshot = None;
        let mut high = cursor;
        for item in batch {
            match item {
                Incoming::Backfill(message) => {
                    parsed.push((None, Parsed::Contract(*message), None))
                }
                Incoming::Frame { id, data } => {
                    let seq = match id.as_deref().map(parse_seq) {
                        None => None,
                        Some(Ok(seq)) => Some(seq),
                        Some(Err(why)) => {
                            // Without a usable seq the frame cannot be placed in the log; keep it
                            // for diagnosis and go on.
                            quarantine.push(quarantine_row(None, "bad-frame", &why, &data));
                            continue;
                        }
                    };
                    if let Some(seq) = seq {
                        if high.is_some_and(|h| seq <= h) {
                            outcome.duplicates += 1;
                            continue;
                        }
                        high = Some(seq);
                        if stored_seqs.contains(&seq) {
                            outcome.duplicates += 1;
                            continue;
                        }
                    }
                    match agui::parse_event_str(&data) {
                        Ok(Parsed::Ignored(_)) => {
                            if seq.is_none() {
                                if let Some(s) = parse_snapshot(&data) {
                                    snapshot = Some(s);
                                }
                            }
                            outcome.ignored += 1;
                        }
                        Ok(p) => match seq {
                            Some(_) => parsed.push((seq, p, Some(data))),
                            None => {
                                // The spec gives every stored event a seq; one without cannot be
                                // resumed past, so it is not stored.
                                quarantine.push(quarantine_row(
                                    None,
                                    "bad-frame",
                                    "a2learn event without an id: line",
                                    &data,
                                ));
                            }
                        },
                        Err(err) => {
                            quarantine.push(quarantine_row(
                                seq,
                                err.rule_id().as_str(),
                                &err.to_string(),
                                &data,
                            ));
                        }
                    }
                }
            }
        }

        // 2. Contract level: the state machine over the stored state of the runs and calls this
        //    batch mentions, fetched in a few statements rather than one per event.
        let mut state = BatchState::load(&mut *conn, &parsed).await?;
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

        // 3. Write: ledger, derived tables, quarantine, snapshot, cursor.
        outcome.stored = write_ledger(&mut *conn, class_id, &accepted, now).await?;
        outcome.changes = apply_accepted(&mut *conn, class_id, &accepted, now).await?;
        if let Some(snapshot) = snapshot {
            outcome
                .changes
                .merge(apply_snapshot(&mut *conn, class_id, snapshot, now).await?);
        }
        outcome.quarantined = write_quarantine(&mut *conn, class_id, &quarantine, now).await?;
        outcome.changes.quarantine |= outcome.quarantined > 0;
        if high != cursor {
            if let Some(seq) = high {
                sqlx::query(
                    "INSERT INTO feed_cursors (class_id, last_seq, updated_at) VALUES (?, ?, ?) \
                     ON CONFLICT (class_id) DO UPDATE SET last_seq = excluded.last_seq, \
                     updated_at = excluded.updated_at",
                )
                .bind(class_id)
                .bind(seq)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            }
        }
        outcome.last_seq = high;
        tx.commit().await?;
        Ok(outcome)
    }

    /// The resume cursor of a class: the highest seq stored.
    pub async fn cursor(&self, class_id: &str) -> Result<Option<i64>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT last_seq FROM feed_cursors WHERE class_id = ?")
                .bind(class_id)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    /// Rebuilds results, struggles and calls from the backfill table and the ledger, in one
    /// transaction. The derived tables afterwards equal what live ingest produced.
    pub async fn rebuild(&self) -> Result<RebuildOutcome, StoreError> {
        let now = self.now_ms();
        let mut tx = self.pool().begin_with("BEGIN IMMEDIATE").await?;
        let conn: &mut SqliteConnection = &mut tx;
        for table in ["results", "struggles", "calls"] {
            sqlx::query(&format!("DELETE FROM {table}"))
                .execute(&mut *conn)
                .await?;
        }
        let mut outcome = RebuildOutcome::default();

        let backfill: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT class_id, verb, payload FROM backfill ORDER BY class_id, received_at, \
             widget_run_id, verb",
        )
        .fetch_all(&mut *conn)
        .await?;
        for (class_id, verb, payload) in backfill {
            let message = stored_message(&verb, &payload)?;
            let accepted = [Accepted::Contract {
                seq: None,
                message,
                payload,
                redelivered: false,
            }];
            apply_accepted(&mut *conn, &class_id, &accepted, now).await?;
            outcome.backfill += 1;
        }

        // The ledger in seq order, a page at a time, so memory stays flat on big stores.
        let mut after: (String, i64) = (String::new(), i64::MIN);
        loop {
            let rows: Vec<(String, i64, String, String)> = sqlx::query_as(
                "SELECT class_id, seq, name, payload FROM ledger \
                 WHERE (class_id, seq) > (?, ?) ORDER BY class_id, seq LIMIT 5000",
            )
            .bind(&after.0)
            .bind(after.1)
            .fetch_all(&mut *conn)
            .await?;
            let Some(last) = rows.last() else { break };
            after = (last.0.clone(), last.1);
            let mut by_class: Vec<(String, Vec<Accepted>)> = Vec::new();
            for (class_id, seq, name, payload) in rows {
                let accepted = if name == "a2learn.host.call_claimed" {
                    let claim: CallClaimed = serde_json::from_str(&payload).map_err(json_error)?;
                    Accepted::Claimed {
                        seq,
                        claim,
                        payload,
                    }
                } else {
                    Accepted::Contract {
                        seq: Some(seq),
                        message: stored_message(&name, &payload)?,
                        payload,
                        redelivered: false,
                    }
                };
                match by_class.last_mut() {
                    Some((c, list)) if *c == class_id => list.push(accepted),
                    _ => by_class.push((class_id, vec![accepted])),
                }
                outcome.ledger += 1;
            }
            for (class_id, accepted) in by_class {
                apply_accepted(&mut *conn, &class_id, &accepted, now).await?;
            }
        }
        tx.commit().await?;
        Ok(outcome)
    }
}

/// What `rebuild` replayed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RebuildOutcome {
    pub backfill: u64,
    pub ledger: u64,
}

/// The seqs in `batch`'s range that the ledger or quarantine already hold.
async fn stored_seqs_in(
    conn: &mut SqliteConnection,
    class_id: &str,
    batch: &[Incoming],
) -> Result<HashSet<i64>, StoreError> {
    let seqs = batch.iter().filter_map(|item| match item {
        Incoming::Frame { id: Some(id), .. } => parse_seq(id).ok(),
        _ => None,
    });
    let (lo, hi) = seqs.fold((i64::MAX, i64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
    if lo > hi {
        return Ok(HashSet::new());
    }
    let rows: Vec<i64> = sqlx::query_scalar(
        "SELECT seq FROM ledger WHERE class_id = ?1 AND seq BETWEEN ?2 AND ?3 \
         UNION SELECT seq FROM quarantine WHERE class_id = ?1 AND seq BETWEEN ?2 AND ?3",
    )
    .bind(class_id)
    .bind(lo)
    .bind(hi)
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows.into_iter().collect())
}

fn parse_seq(id: &str) -> Result<i64, String> {
    let trimmed = id.trim();
    match trimmed.parse::<i64>() {
        Ok(seq) if seq >= 0 && !trimmed.starts_with('+') => Ok(seq),
        _ => Err(format!(
            "the id: line is not a decimal seq ({} bytes)",
            id.len()
        )),
    }
}

fn quarantine_row(seq: Option<i64>, rule_id: &str, message: &str, raw: &str) -> QuarantineRow {
    QuarantineRow {
        seq,
        rule_id: rule_id.to_string(),
        message: message.to_string(),
        raw: truncate_utf8(raw, QUARANTINE_RAW_BYTES).to_string(),
        raw_bytes: i64::try_from(raw.len()).unwrap_or(i64::MAX),
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a character boundary.
pub fn truncate_utf8(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

fn json_error(err: serde_json::Error) -> StoreError {
    StoreError::Invalid(format!("cannot encode a payload: {err}"))
}

/// The canonical JSON of a message's payload (what the ledger stores).
fn payload_json(message: &Message) -> Result<String, StoreError> {
    let result = match message {
        Message::WidgetCompleted(m) => serde_json::to_string(m),
        Message::WidgetStruggle(m) => serde_json::to_string(m),
        Message::ScoreRequest(m) => serde_json::to_string(m),
        Message::AssistRequest(m) => serde_json::to_string(m),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            serde_json::to_string(r)
        }
    };
    result.map_err(json_error)
}

/// A stored payload back into its message, by verb name.
fn stored_message(name: &str, payload: &str) -> Result<Message, StoreError> {
    let value = serde_json::json!({ "verb": name, "payload": serde_json::from_str::<serde_json::Value>(payload).map_err(json_error)? });
    serde_json::from_value(value).map_err(|e| {
        StoreError::Invalid(format!("the store holds an unreadable {name} payload: {e}"))
    })
}

fn parse_snapshot(data: &str) -> Option<Snapshot> {
    let value: serde_json::Value = serde_json::from_str(data).ok()?;
    if value.get("type")?.as_str()? != "STATE_SNAPSHOT" {
        return None;
    }
    let snap = value.get("snapshot")?;
    let learners = snap
        .get("learners")
        .and_then(|l| l.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str())
                // Only anonymous ids enter the store; anything else is dropped unseen (it may be
                // a name, so it is not logged either).
                .filter(|id| a2learn_contract::rules::check_learner(id).is_ok())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let assignments = snap
        .get("assignments")
        .and_then(|a| a.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| serde_json::from_value::<SnapshotAssignment>(v.clone()).ok())
                .collect()
        })
        .unwrap_or_default();
    Some(Snapshot {
        learners,
        assignments,
    })
}

/// The state machine's memory for one batch: what the store knows of the runs and calls the
/// batch names, loaded up front, plus what the batch itself accepts as it goes.
#[derive(Debug, Default)]
struct BatchState {
    facts: InMemoryState,
    completed_payloads: HashMap<String, String>,
    struggle_payloads: HashMap<String, String>,
}

impl BatchState {
    async fn load(
        conn: &mut SqliteConnection,
        parsed: &[(Option<i64>, Parsed, Option<String>)],
    ) -> Result<Self, StoreError> {
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
            let mut q = QueryBuilder::<Sqlite>::new(
                "SELECT widget_run_id, 'c', payload FROM results WHERE widget_run_id IN (",
            );
            push_list(&mut q, chunk);
            q.push(") UNION ALL SELECT widget_run_id, 's', payload FROM struggles WHERE widget_run_id IN (");
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
            let mut q = QueryBuilder::<Sqlite>::new(
                "SELECT call_id, function, deadline, state FROM calls WHERE call_id IN (",
            );
            push_list(&mut q, chunk);
            q.push(")");
            let rows: Vec<(String, String, String, String)> =
                q.build_query_as().fetch_all(&mut *conn).await?;
            for (call_id, function, deadline, call_state) in rows {
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

fn push_list(q: &mut QueryBuilder<'_, Sqlite>, items: &[&str]) {
    let mut sep = q.separated(", ");
    for item in items {
        sep.push_bind(item.to_string());
    }
}

async fn write_ledger(
    conn: &mut SqliteConnection,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<u64, StoreError> {
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
        let mut q = QueryBuilder::<Sqlite>::new(
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
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO backfill (widget_run_id, verb, class_id, payload, received_at) ",
        );
        q.push_values(chunk, |mut row, (run, verb, payload)| {
            row.push_bind(*run)
                .push_bind(*verb)
                .push_bind(class_id)
                .push_bind(*payload)
                .push_bind(now);
        });
        q.push(" ON CONFLICT (widget_run_id, verb) DO NOTHING");
        stored += q.build().execute(&mut *conn).await?.rows_affected();
    }
    Ok(stored)
}

/// Applies accepted events to the derived tables. Shared by live ingest and rebuild, so the two
/// cannot drift apart.
pub(crate) async fn apply_accepted(
    conn: &mut SqliteConnection,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<Changes, StoreError> {
    let mut changes = Changes::default();
    let mut completions = Vec::new();
    let mut struggles = Vec::new();
    let mut learners: Vec<&str> = Vec::new();
    for item in accepted {
        let Accepted::Contract {
            seq,
            message,
            payload,
            redelivered: false,
        } = item
        else {
            continue;
        };
        if let Some(identity) = message.identity() {
            learners.push(identity.learner.as_str());
        }
        match message {
            Message::WidgetCompleted(m) => completions.push((*seq, m, payload.as_str())),
            Message::WidgetStruggle(m) => struggles.push((*seq, m, payload.as_str())),
            _ => {}
        }
    }

    for chunk in completions.chunks(ROWS_PER_STATEMENT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO results (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
             standard, correct, attempts, hints, score, at_ms, seq, payload) ",
        );
        q.push_values(chunk, |mut row, (seq, m, payload)| {
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
                .push_bind(*payload);
        });
        q.push(" ON CONFLICT (widget_run_id) DO NOTHING");
        changes.results |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
    }
    for chunk in struggles.chunks(ROWS_PER_STATEMENT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO struggles (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
             standard, failed_checks, hints, at_ms, seq, payload) ",
        );
        q.push_values(chunk, |mut row, (seq, m, payload)| {
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
                .push_bind(*seq)
                .push_bind(*payload);
        });
        q.push(" ON CONFLICT (widget_run_id) DO NOTHING");
        changes.struggles |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
    }
    learners.sort_unstable();
    learners.dedup();
    changes.learners |= insert_learners(&mut *conn, class_id, &learners, now).await?;

    changes.calls |= apply_calls(&mut *conn, class_id, accepted, now).await?;
    Ok(changes)
}

/// A call opened in this batch, with whatever the batch itself says about it afterwards.
struct NewCall<'a> {
    call_id: &'a str,
    function: &'static str,
    identity: &'a a2learn_contract::Identity,
    kind: &'a str,
    standard: Option<&'a str>,
    request: &'a str,
    deadline: &'a str,
    opened_seq: i64,
    state: &'static str,
    claimed_by: Option<&'a str>,
    response: Option<&'a str>,
    closed_at_ms: Option<i64>,
    closed_seq: Option<i64>,
}

/// A response or claim for a call opened in an earlier batch.
enum Later<'a> {
    Close {
        call_id: &'a str,
        state: &'static str,
        response: &'a str,
        at_ms: i64,
        seq: Option<i64>,
    },
    Claim {
        call_id: &'a str,
        claimed_by: &'a str,
    },
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
    conn: &mut SqliteConnection,
    class_id: &str,
    accepted: &[Accepted],
    now: i64,
) -> Result<bool, StoreError> {
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
                        request: payload,
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
                        call.response = Some(payload);
                        call.closed_at_ms = Some(at_ms);
                        call.closed_seq = *seq;
                    }
                    Some(_) => {}
                    None => later.push(Later::Close {
                        call_id: &response.call_id,
                        state,
                        response: payload,
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

    let mut changed = false;
    for update in &later {
        let done =
            match update {
                Later::Close {
                    call_id,
                    state,
                    response,
                    at_ms,
                    seq,
                } => sqlx::query(
                    "UPDATE calls SET state = ?, response = ?, closed_at_ms = ?, closed_seq = ? \
                     WHERE call_id = ? AND state = 'open'",
                )
                .bind(*state)
                .bind(*response)
                .bind(*at_ms)
                .bind(*seq)
                .bind(*call_id)
                .execute(&mut *conn)
                .await?,
                Later::Claim {
                    call_id,
                    claimed_by,
                } => {
                    sqlx::query("UPDATE calls SET claimed_by = ? WHERE call_id = ?")
                        .bind(*claimed_by)
                        .bind(*call_id)
                        .execute(&mut *conn)
                        .await?
                }
            };
        changed |= done.rows_affected() > 0;
    }
    // 19 columns: 100 rows keep a statement far inside SQLite's bound-parameter limit.
    for chunk in new_calls.chunks(100) {
        let mut q = QueryBuilder::<Sqlite>::new(
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
        q.push(" ON CONFLICT (call_id) DO NOTHING");
        changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
    }
    Ok(changed)
}

async fn insert_learners(
    conn: &mut SqliteConnection,
    class_id: &str,
    learners: &[&str],
    now: i64,
) -> Result<bool, StoreError> {
    let mut changed = false;
    for chunk in learners.chunks(ROWS_PER_STATEMENT) {
        let mut q =
            QueryBuilder::<Sqlite>::new("INSERT INTO learners (class_id, learner, first_seen_at) ");
        q.push_values(chunk, |mut row, learner| {
            row.push_bind(class_id).push_bind(*learner).push_bind(now);
        });
        q.push(" ON CONFLICT (class_id, learner) DO NOTHING");
        changed |= q.build().execute(&mut *conn).await?.rows_affected() > 0;
    }
    Ok(changed)
}

async fn apply_snapshot(
    conn: &mut SqliteConnection,
    class_id: &str,
    snapshot: Snapshot,
    now: i64,
) -> Result<Changes, StoreError> {
    let mut changes = Changes::default();
    let learners: Vec<&str> = snapshot.learners.iter().map(String::as_str).collect();
    changes.learners = insert_learners(&mut *conn, class_id, &learners, now).await?;
    for a in &snapshot.assignments {
        let due_at = a.due_at.as_deref().and_then(agui::timestamp_ms);
        let done = sqlx::query(
            "INSERT INTO assignments (assignment_id, class_id, pathway_id, due_at, teacher_note, \
             created_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (assignment_id) DO UPDATE SET \
             due_at = excluded.due_at, teacher_note = excluded.teacher_note \
             WHERE due_at IS NOT excluded.due_at OR teacher_note IS NOT excluded.teacher_note",
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
}

async fn write_quarantine(
    conn: &mut SqliteConnection,
    class_id: &str,
    rows: &[QuarantineRow],
    now: i64,
) -> Result<u64, StoreError> {
    let mut stored = 0;
    for chunk in rows.chunks(ROWS_PER_STATEMENT) {
        let mut q = QueryBuilder::<Sqlite>::new(
            "INSERT INTO quarantine (class_id, seq, rule_id, message, raw, raw_bytes, received_at) ",
        );
        q.push_values(chunk, |mut row, r| {
            row.push_bind(class_id)
                .push_bind(r.seq)
                .push_bind(r.rule_id.as_str())
                .push_bind(r.message.as_str())
                .push_bind(r.raw.as_str())
                .push_bind(r.raw_bytes)
                .push_bind(now);
        });
        q.push(" ON CONFLICT DO NOTHING");
        stored += q.build().execute(&mut *conn).await?.rows_affected();
    }
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seq_must_be_a_plain_decimal() {
        assert_eq!(parse_seq("42"), Ok(42));
        assert_eq!(parse_seq("0"), Ok(0));
        assert!(parse_seq("-1").is_err());
        assert!(parse_seq("+1").is_err());
        assert!(parse_seq("abc").is_err());
        assert!(parse_seq("").is_err());
        assert!(
            parse_seq("99999999999999999999").is_err(),
            "overflow is not a seq"
        );
    }

    #[test]
    fn truncation_keeps_whole_characters() {
        assert_eq!(
            truncate_utf8("héllo", 2),
            "h",
            "é is two bytes and does not fit"
        );
        assert_eq!(truncate_utf8("héllo", 3), "hé");
        assert_eq!(truncate_utf8("abc", 10), "abc");
    }
}
