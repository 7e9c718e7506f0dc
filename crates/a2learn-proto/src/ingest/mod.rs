//! A batch of feed frames (or backfilled results) through the two stages that need no store:
//! the frame level ([`read_frames`]: dedupe by seq, AG-UI parse, room controls) and the contract
//! level ([`validate`]: the sequence state machine over a [`BatchState`]). The core's
//! `Store::ingest` loads the state, runs both and writes what they accept in one transaction;
//! [`check_batch`] runs both for a class with nothing stored (the fuzz target's entry).

mod contract;
mod frames;
mod quarantine;

use a2learn_contract::{CallClaimed, Message, Registry};

pub use contract::{BatchState, validate};
pub use frames::{
    Frames, MAX_PAUSE_MESSAGE_CHARS, RoomUpdate, Snapshot, SnapshotAssignment, parse_seq,
    payload_json, read_frames, stored_message,
};
pub use quarantine::{QUARANTINE_RAW_BYTES, QuarantineRow, quarantine_row, truncate_utf8};

/// A payload that would not go to or come from its canonical JSON.
#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("cannot encode a payload: {0}")]
    Encode(#[source] serde_json::Error),
    #[error("the store holds an unreadable {name} payload: {source}")]
    Unreadable {
        name: String,
        #[source]
        source: serde_json::Error,
    },
}

/// One thing to ingest.
#[derive(Debug, Clone)]
pub enum Incoming {
    /// An SSE event of the class feed: its `id:` (the seq, when present) and its `data:`.
    Frame { id: Option<String>, data: String },
    /// A result the host reported through `get_pathway_results`, from before the dashboard
    /// listened: the payload as the host gave it, as the `CUSTOM` event of its verb (so the
    /// feed and the backfill are read, rejected and recognised in one form). It has no seq.
    Backfill { data: String },
}

impl Incoming {
    /// A `get_pathway_results` payload of verb `name` (`a2learn.widget_completed` or
    /// `a2learn.widget_struggle`), whatever it holds: a broken one is kept aside as the feed's
    /// would be.
    pub fn backfill(name: &str, value: &serde_json::Value) -> Incoming {
        Incoming::Backfill {
            data: serde_json::json!({"type": "CUSTOM", "name": name, "value": value}).to_string(),
        }
    }

    /// A message as the backfill would bring it (tests, tools).
    pub fn backfill_message(message: &Message) -> Result<Incoming, a2learn_contract::ProjectError> {
        Ok(Incoming::Backfill {
            data: a2learn_contract::transport::agui::project(message)?,
        })
    }
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

/// What the database-free half of the core's `Store::ingest` makes of a batch for a class with nothing
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

/// Runs the core's `Store::ingest` parse and validate stages on `batch` without a database. The fuzz
/// target `fuzz/fuzz_targets/agui_frame.rs` drives it: SQLite has no place in a fuzz loop, and
/// a copy of these stages there would drift from the ones the sync runs.
pub fn check_batch(
    class_id: &str,
    registry: &Registry,
    batch: Vec<Incoming>,
) -> Result<CheckedBatch, IngestError> {
    let mut outcome = BatchOutcome::default();
    let mut quarantined = Vec::new();
    let frames = read_frames(
        class_id,
        batch,
        None,
        &std::collections::HashSet::new(),
        &mut outcome,
        &mut quarantined,
    );
    outcome.last_seq = frames.high;
    let mut state = BatchState::default();
    let accepted = validate(
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
