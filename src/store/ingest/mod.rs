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

use a2learn_contract::Registry;
use a2learn_proto::ingest::{read_frames, validate};

use super::engine::{lock_class, on_conn, on_pool};
use super::{Store, StoreError, rollup};
use apply::{apply_accepted, apply_room, apply_snapshot, write_ledger};
use quarantine::write_quarantine;
use validate::load_state;

// The stages that need no store live in the I/O-free crate (the fuzz targets drive them there).
pub use a2learn_proto::ingest::{
    Accepted, BatchOutcome, Changes, CheckedBatch, Incoming, IngestError, MAX_PAUSE_MESSAGE_CHARS,
    QUARANTINE_RAW_BYTES, QuarantineRow, RowsTouched, check_batch, stored_message, truncate_utf8,
};
pub use rebuild::RebuildOutcome;

/// Rows per multi-row statement of a batch's writes and lookups. Larger statements mean fewer
/// per batch (each a round trip to a shared store's server): 500 rows ran 12-35% faster end to
/// end than 200 in two alternating pairs of `bench ingest` runs, on both engines. The widest table (results, 14
/// columns) stays far inside SQLite's 32,766 bound parameters per statement.
pub const ROWS_PER_STATEMENT: usize = 500;

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
        // A room echo names the class as its host does (the key may differ: see
        // `Store::bind_class_to_host`).
        let host_class_id: Option<Option<String>> = on_conn!(conn, |conn| {
            sqlx::query_scalar("SELECT host_class_id FROM classes WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(&mut *conn)
                .await?
        });
        let host_class_id = host_class_id.flatten();
        let mut outcome = BatchOutcome {
            last_seq: cursor,
            ..BatchOutcome::default()
        };

        // Seqs of this batch already stored (ledger or quarantine), for a replay that does not
        // start from the cursor (a lost cursor, a full replay): one range query per batch.
        let stored_seqs = parse::stored_seqs_in(conn, class_id, &batch).await?;

        // 1. Frame level: dedupe by seq, parse, set aside what is malformed or not ours.
        let mut quarantine = Vec::new();
        let frames = read_frames(
            host_class_id.as_deref().unwrap_or(class_id),
            batch,
            cursor,
            &stored_seqs,
            &mut outcome,
            &mut quarantine,
        );
        let high = frames.high;

        // 2. Contract level: the state machine over the stored state of the runs and calls this
        //    batch mentions, fetched in a few statements rather than one per event.
        let mut state = load_state(conn, class_id, &frames.parsed).await?;
        let accepted = validate(
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
