//! Ingest: a batch of feed frames (or backfilled results) in, one SQLite transaction out.
//!
//! Inside one `BEGIN IMMEDIATE` transaction the batch is deduplicated against the stored cursor,
//! parsed (AG-UI, then the contract), validated by the contract's state machine over the stored
//! state, appended to the ledger, applied to the derived tables, and the cursor is advanced.
//! Either all of that lands or none of it does, so a crash anywhere loses nothing (the feed
//! replays from the old cursor) and doubles nothing (the ledger is idempotent on
//! `(class_id, seq)`, results on `widget_run_id`). Taking the write lock first means two sync
//! processes on one database serialize their batches and each sees the other's cursor.

mod apply;
mod parse;
mod quarantine;
mod rebuild;
mod validate;

use a2learn_contract::{CallClaimed, Message, Registry};

use super::engine::{lock_class, on_conn, on_pool};
use super::{Store, StoreError, rollup};
use apply::{apply_accepted, apply_room, apply_snapshot, write_ledger};
use quarantine::write_quarantine;
use validate::BatchState;

pub use parse::{MAX_PAUSE_MESSAGE_CHARS, stored_message};
pub use quarantine::{QUARANTINE_RAW_BYTES, QuarantineRow, truncate_utf8};
pub use rebuild::RebuildOutcome;

/// Rows per multi-row statement of a batch's writes and lookups. Larger statements mean fewer
/// per batch (each a round trip to a shared store's server): 500 rows ran 12-35% faster end to
/// end than 200 in two alternating pairs of `bench ingest` runs, on both engines. The widest table (results, 14
/// columns) stays far inside SQLite's 32,766 bound parameters per statement.
pub const ROWS_PER_STATEMENT: usize = 500;

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
    /// Whose rows in the views of the class the batch changed (results, struggles, calls).
    pub rows: RowsTouched,
}

/// Whose rows of a class's per-learner views (the grid) a change touched, so a view can
/// refetch those rows instead of the whole class: at classroom rates a whole-class reload per
/// notification grows with the class, a few rows do not.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum RowsTouched {
    /// No learner's row.
    #[default]
    None,
    /// These learners' rows, and no other.
    Learners(std::collections::BTreeSet<String>),
    /// Every row: the change is not about named learners (a snapshot, an answer from this
    /// dashboard, a claim), or names more than [`RowsTouched::MAX_NAMED`].
    All,
}

impl RowsTouched {
    /// Beyond this many learners a whole reload is as cheap as naming them.
    pub const MAX_NAMED: usize = 200;

    pub fn learners<S: Into<String>>(ids: impl IntoIterator<Item = S>) -> Self {
        let mut touched = RowsTouched::None;
        touched.merge(RowsTouched::Learners(
            ids.into_iter().map(Into::into).collect(),
        ));
        touched
    }

    pub fn merge(&mut self, other: RowsTouched) {
        let merged = match (std::mem::take(self), other) {
            (RowsTouched::All, _) | (_, RowsTouched::All) => RowsTouched::All,
            (RowsTouched::None, other) | (other, RowsTouched::None) => other,
            (RowsTouched::Learners(mut a), RowsTouched::Learners(b)) => {
                a.extend(b);
                RowsTouched::Learners(a)
            }
        };
        *self = match merged {
            RowsTouched::Learners(ids) if ids.len() > Self::MAX_NAMED => RowsTouched::All,
            RowsTouched::Learners(ids) if ids.is_empty() => RowsTouched::None,
            other => other,
        };
    }
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
    /// The host's pause or pacing of the class.
    pub room: bool,
}

impl Changes {
    pub fn any(&self) -> bool {
        self.results
            || self.struggles
            || self.calls
            || self.learners
            || self.assignments
            || self.quarantine
            || self.room
    }

    pub fn merge(&mut self, other: Changes) {
        self.results |= other.results;
        self.struggles |= other.struggles;
        self.calls |= other.calls;
        self.learners |= other.learners;
        self.assignments |= other.assignments;
        self.quarantine |= other.quarantine;
        self.room |= other.room;
    }
}

/// An event that passed every rule, ready to be written.
#[expect(
    clippy::large_enum_variant,
    reason = "contract events are nearly all of them; boxing would allocate once each for nothing"
)]
#[derive(Debug, Clone)]
pub enum Accepted {
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

/// What the database-free half of [`Store::ingest`] makes of a batch for a class with nothing
/// stored yet (no cursor, no stored seqs, runs or calls): the frame level and the contract level,
/// the very functions `ingest` runs, without the writes.
#[derive(Debug)]
pub struct CheckedBatch {
    /// What would be written to the ledger (or backfill), in feed order.
    pub accepted: Vec<Accepted>,
    /// What would be kept aside, with its rule id.
    pub quarantined: Vec<QuarantineRow>,
    /// The counts `ingest` reports (`stored` and `quarantined` are left to the writes).
    pub outcome: BatchOutcome,
}

/// Runs [`Store::ingest`]'s parse and validate stages on `batch` without a database. The fuzz
/// target `fuzz/fuzz_targets/agui_frame.rs` drives it: SQLite has no place in a fuzz loop, and
/// a copy of these stages there would drift from the ones the sync runs.
pub fn check_batch(
    class_id: &str,
    registry: &Registry,
    batch: Vec<Incoming>,
) -> Result<CheckedBatch, StoreError> {
    let mut outcome = BatchOutcome::default();
    let mut quarantined = Vec::new();
    let frames = parse::read_frames(
        class_id,
        batch,
        None,
        &std::collections::HashSet::new(),
        &mut outcome,
        &mut quarantined,
    );
    outcome.last_seq = frames.high;
    let mut state = BatchState::default();
    let accepted = validate::validate(
        &mut state,
        registry,
        frames.parsed,
        &mut outcome,
        &mut quarantined,
    )?;
    Ok(CheckedBatch {
        accepted,
        quarantined,
        outcome,
    })
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
        let mut tx = self.engine().begin_write().await?;
        let conn = &mut tx.conn();
        lock_class(conn, class_id).await?;
        let cursor: Option<i64> = on_conn!(conn, |conn| {
            sqlx::query_scalar("SELECT last_seq FROM feed_cursors WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(&mut *conn)
                .await?
        });
        let mut outcome = BatchOutcome {
            last_seq: cursor,
            ..BatchOutcome::default()
        };

        // Seqs of this batch already stored (ledger or quarantine), for a replay that does not
        // start from the cursor (a lost cursor, a full replay): one range query per batch.
        let stored_seqs = parse::stored_seqs_in(conn, class_id, &batch).await?;

        // 1. Frame level: dedupe by seq, parse, set aside what is malformed or not ours.
        let mut quarantine = Vec::new();
        let frames = parse::read_frames(
            class_id,
            batch,
            cursor,
            &stored_seqs,
            &mut outcome,
            &mut quarantine,
        );
        let high = frames.high;

        // 2. Contract level: the state machine over the stored state of the runs and calls this
        //    batch mentions, fetched in a few statements rather than one per event.
        let mut state = BatchState::load(conn, class_id, &frames.parsed).await?;
        let accepted = validate::validate(
            &mut state,
            registry,
            frames.parsed,
            &mut outcome,
            &mut quarantine,
        )?;

        // 3. Write: ledger, derived tables, quarantine, snapshot, cursor.
        outcome.stored = write_ledger(conn, class_id, &accepted, now).await?;
        let (changes, touched) = apply_accepted(conn, class_id, &accepted, now).await?;
        outcome.changes = changes;
        rollup::refresh_touched(conn, class_id, touched).await?;
        if outcome.changes.any() {
            outcome.rows = state.rows_touched(&accepted);
        }
        if let Some(snapshot) = frames.snapshot {
            let changes = apply_snapshot(conn, class_id, snapshot, now).await?;
            if changes.any() {
                outcome.rows = RowsTouched::All;
            }
            outcome.changes.merge(changes);
        }
        outcome.changes.room |= apply_room(conn, class_id, &frames.room, now).await?;
        outcome.quarantined = write_quarantine(conn, class_id, &quarantine, now).await?;
        outcome.changes.quarantine |= outcome.quarantined > 0;
        if high != cursor
            && let Some(seq) = high
        {
            on_conn!(conn, |conn| {
                sqlx::query(
                    "INSERT INTO feed_cursors (class_id, last_seq, updated_at) VALUES ($1, $2, $3) \
                     ON CONFLICT (class_id) DO UPDATE SET last_seq = excluded.last_seq, \
                     updated_at = excluded.updated_at",
                )
                .bind(class_id)
                .bind(seq)
                .bind(now)
                .execute(&mut *conn)
                .await?;
            });
        }
        outcome.last_seq = high;
        tx.commit().await?;
        Ok(outcome)
    }

    /// The resume cursor of a class: the highest seq stored.
    pub async fn cursor(&self, class_id: &str) -> Result<Option<i64>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_scalar("SELECT last_seq FROM feed_cursors WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(pool)
                .await?
        }))
    }
}
