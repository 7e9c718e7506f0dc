//! Ingest: a batch of feed frames (or backfilled results) in, one SQLite transaction out.
//!
//! Inside one `BEGIN IMMEDIATE` transaction the batch is deduplicated against the stored cursor,
//! parsed (AG-UI, then the contract), validated by the contract's state machine over the stored
//! state (a follower's [`ClassMemory`] of it, fenced by the class's version), appended to the
//! ledger, applied to the derived tables, and the cursor is advanced.
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
use a2learn_proto::ingest::{BatchState, read_frames, validate};

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

/// A class's contract state, kept in memory by the follower that writes the class (the runs
/// and calls of the whole class, the payload digests the redelivery check needs), so a batch is
/// validated without reading them back. The store stays the truth: the memory is loaded from it
/// once, kept current by each batch this follower commits, and fenced by the class's version
/// (`class_versions`). A batch whose expected version is not the stored one — another follower,
/// `db rebuild`, anything else that wrote the class since — reloads the state from the store
/// first; a batch that does not commit drops it.
#[derive(Debug, Default)]
pub struct ClassMemory {
    /// The version this follower last wrote; `None`: nothing loaded.
    version: Option<i64>,
    state: BatchState,
    /// The class's rollup rows (the grid's cells).
    cells: rollup::CellCache,
    /// Test hook: trust the memory without looking at the version (the negative control of
    /// the fence's tests).
    unfenced: bool,
    /// How many batches found the version moved and reloaded.
    pub reloads: u64,
}

impl ClassMemory {
    pub fn new() -> Self {
        Self::default()
    }

    /// The fence switched off: the memory is trusted whatever else wrote the class. Only for
    /// the tests that show what the fence prevents.
    pub fn unfenced() -> Self {
        ClassMemory {
            unfenced: true,
            ..Self::default()
        }
    }

    /// The state kept, for a test that compares it with a reload.
    pub fn state(&self) -> &BatchState {
        &self.state
    }

    /// Whether the fence is off ([`ClassMemory::unfenced`]).
    pub fn unfenced_for_tests(&self) -> bool {
        self.unfenced
    }

    /// The rollup rows kept, for the same test.
    pub fn cells(&self) -> &rollup::CellCache {
        &self.cells
    }

    fn drop_state(&mut self) {
        self.version = None;
        self.state = BatchState::default();
        self.cells = rollup::CellCache::default();
    }
}

impl Store {
    /// Ingests one batch for `class_id` in one transaction, reading the state of the runs and
    /// calls it names from the store. See the module docs.
    pub async fn ingest(
        &self,
        class_id: &str,
        registry: &Registry,
        batch: Vec<Incoming>,
    ) -> Result<BatchOutcome, StoreError> {
        self.ingest_batch(class_id, registry, batch, None).await
    }

    /// Ingests one batch with the class's state in `memory` (a follower's, across batches),
    /// fenced by the class's version. See [`ClassMemory`].
    pub async fn ingest_with(
        &self,
        class_id: &str,
        registry: &Registry,
        batch: Vec<Incoming>,
        memory: &mut ClassMemory,
    ) -> Result<BatchOutcome, StoreError> {
        let result = self
            .ingest_batch(class_id, registry, batch, Some(&mut *memory))
            .await;
        if result.is_err() {
            // What the memory took from a batch that did not commit is not the store's.
            memory.drop_state();
        }
        result
    }

    /// Reads the class's state and rollup rows from the store, as a reload would: what a test
    /// compares a follower's memory with.
    pub async fn class_state(
        &self,
        class_id: &str,
    ) -> Result<(BatchState, rollup::CellCache), StoreError> {
        // In a transaction of its own, rolled back: one consistent read of the class.
        let mut tx = self.engine().begin_write().await?;
        let state = validate::load_class_state(&mut tx.conn(), class_id).await?;
        let cells = rollup::load_cells(&mut tx.conn(), class_id).await?;
        Ok((state, cells))
    }

    /// Bumps the version of every class (or of one): whatever a follower keeps in memory of
    /// them is stale from now on. `db rebuild`, every ingest without a memory and the desk's
    /// refresh of a cell call it.
    pub(crate) async fn bump_class_versions(
        conn: &mut super::engine::Conn<'_>,
        class_id: Option<&str>,
    ) -> Result<(), StoreError> {
        on_conn!(conn, |conn| {
            match class_id {
                Some(class_id) => {
                    sqlx::query(
                        "UPDATE class_versions SET version = version + 1 WHERE class_id = $1",
                    )
                    .bind(class_id)
                    .execute(&mut *conn)
                    .await?
                }
                None => {
                    sqlx::query("UPDATE class_versions SET version = version + 1")
                        .execute(&mut *conn)
                        .await?
                }
            };
        });
        Ok(())
    }

    async fn ingest_batch(
        &self,
        class_id: &str,
        registry: &Registry,
        batch: Vec<Incoming>,
        mut memory: Option<&mut ClassMemory>,
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

        // The fence's read: the memory is current if the class's version is the one it last
        // wrote; else it is loaded from the store now, before validating.
        if let Some(memory) = memory.as_deref_mut() {
            fence_check(conn, class_id, memory).await?;
        }

        // 2. Contract level: the state machine over the state of the runs and calls this batch
        //    mentions: the follower's memory of the class, or fetched in a few statements.
        let mut fetched;
        let (state, cells) = match &mut memory {
            Some(memory) => (&mut memory.state, Some(&mut memory.cells)),
            None => {
                fetched = load_state(conn, class_id, &frames.parsed).await?;
                (&mut fetched, None)
            }
        };
        let accepted = validate(
            state,
            registry,
            frames.parsed,
            &mut outcome,
            &mut quarantine,
        )?;

        // 3. Write: ledger, derived tables, quarantine, snapshot, cursor.
        outcome.stored = write_ledger(conn, class_id, &accepted, now).await?;
        let (changes, touched) = apply_accepted(conn, class_id, &accepted, now).await?;
        outcome.changes = changes;
        rollup::refresh_touched(conn, class_id, touched, cells).await?;
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
        // The fence's write, the transaction's last statement (all its reads come before its
        // writes: on SQLite a read after a write may have to spill pages, and one that fails
        // part way on a full disk leaves the pooled connection inside a transaction).
        match memory {
            Some(memory) => fence_move(conn, class_id, memory).await?,
            // A write without the class's memory (a backfill, a tool): whatever a follower
            // keeps of the class is stale after it.
            None => Self::bump_class_versions(conn, Some(class_id)).await?,
        }
        outcome.last_seq = high;
        tx.commit().await?;
        Ok(outcome)
    }

    /// The newest work stored for a class (a result's or a struggle's time, from its host),
    /// and when its feed last stored a frame: what the freshness line is made of.
    pub async fn newest_work(
        &self,
        class_id: &str,
    ) -> Result<(Option<i64>, Option<i64>), StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT (SELECT MAX(at_ms) FROM (SELECT MAX(at_ms) AS at_ms FROM results WHERE class_id = $1 \
                 UNION ALL SELECT MAX(at_ms) FROM struggles WHERE class_id = $1) AS newest), \
                 (SELECT updated_at FROM feed_cursors WHERE class_id = $1)",
            )
            .bind(class_id)
            .fetch_one(pool)
            .await?
        }))
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

/// The fence's check, with the batch's reads: when the class's stored version is not the one
/// `memory` last wrote (or nothing is loaded), another writer changed the class, and its state
/// is loaded from the store. The class is locked: no other batch of it runs meanwhile.
async fn fence_check(
    conn: &mut super::engine::Conn<'_>,
    class_id: &str,
    memory: &mut ClassMemory,
) -> Result<(), StoreError> {
    if memory.unfenced && memory.version.is_some() {
        return Ok(());
    }
    let stored: i64 = on_conn!(conn, |conn| {
        sqlx::query_scalar::<_, i64>("SELECT version FROM class_versions WHERE class_id = $1")
            .bind(class_id)
            .fetch_optional(&mut *conn)
            .await?
            .unwrap_or(0)
    });
    match memory.version {
        Some(expected) if expected == stored => return Ok(()),
        Some(_) => {
            memory.drop_state();
            memory.reloads += 1;
        }
        None => {}
    }
    memory.state = validate::load_class_state(conn, class_id).await?;
    memory.cells = rollup::load_cells(conn, class_id).await?;
    memory.version = Some(stored);
    Ok(())
}

/// The fence's write: the version moves on from the one the memory holds, or the batch fails
/// (`UPDATE ... WHERE version = expected` changed nothing: a writer that did not take the
/// class's lock got in between) and is retried from a reload.
async fn fence_move(
    conn: &mut super::engine::Conn<'_>,
    class_id: &str,
    memory: &mut ClassMemory,
) -> Result<(), StoreError> {
    let expected = memory.version.unwrap_or(0);
    let moved = on_conn!(conn, |conn| {
        sqlx::query(
            "INSERT INTO class_versions (class_id, version) VALUES ($1, $2) \
             ON CONFLICT (class_id) DO UPDATE SET version = excluded.version \
             WHERE class_versions.version = $3",
        )
        .bind(class_id)
        .bind(expected + 1)
        .bind(expected)
        .execute(&mut *conn)
        .await?
        .rows_affected()
    });
    if moved != 1 && !memory.unfenced {
        return Err(StoreError::Invalid(format!(
            "class {class_id} was written by another writer during the batch; it is retried"
        )));
    }
    memory.version = Some(expected + 1);
    Ok(())
}
