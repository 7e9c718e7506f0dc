//! The frame level's one read of the store: the seqs a batch repeats.

use std::collections::HashSet;

use a2learn_proto::ingest::{Incoming, parse_seq};

use crate::store::StoreError;
use crate::store::engine::{Conn, on_conn};

/// The seqs in `batch`'s range that the ledger or quarantine already hold.
pub(super) async fn stored_seqs_in(
    conn: &mut Conn<'_>,
    class_id: &str,
    batch: &[Incoming],
) -> Result<HashSet<i64>, StoreError> {
    on_conn!(conn, |conn| {
        let seqs = batch.iter().filter_map(|item| match item {
            Incoming::Frame { id: Some(id), .. } => parse_seq(id).ok(),
            _ => None,
        });
        let (lo, hi) = seqs.fold((i64::MAX, i64::MIN), |(lo, hi), s| (lo.min(s), hi.max(s)));
        if lo > hi {
            return Ok(HashSet::new());
        }
        let rows: Vec<i64> = sqlx::query_scalar(
            "SELECT seq FROM ledger WHERE class_id = $1 AND seq BETWEEN $2 AND $3 \
         UNION SELECT seq FROM quarantine WHERE class_id = $1 AND seq BETWEEN $2 AND $3",
        )
        .bind(class_id)
        .bind(lo)
        .bind(hi)
        .fetch_all(&mut *conn)
        .await?;
        Ok(rows.into_iter().collect())
    })
}
