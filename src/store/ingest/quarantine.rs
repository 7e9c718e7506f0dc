//! Quarantine rows (`a2learn_proto::ingest::QuarantineRow`) into the store.

use sqlx::QueryBuilder;

use a2learn_proto::ingest::QuarantineRow;

use crate::store::engine::{Conn, on_conn};

use super::ROWS_PER_STATEMENT;
use crate::store::StoreError;

pub(super) async fn write_quarantine(
    conn: &mut Conn<'_>,
    class_id: &str,
    rows: &[QuarantineRow],
    now: i64,
) -> Result<u64, StoreError> {
    on_conn!(conn, |conn| {
        let mut stored = 0;
        for chunk in rows.chunks(ROWS_PER_STATEMENT) {
            let mut q = QueryBuilder::<Db>::new(
                "INSERT INTO quarantine (class_id, seq, rule_id, message, raw, raw_bytes, received_at) ",
            );
            q.push_values(chunk, |mut row, r| {
                row.push_bind(class_id)
                    .push_bind(r.seq())
                    .push_bind(r.rule_id())
                    .push_bind(r.message())
                    .push_bind(r.raw())
                    .push_bind(r.raw_bytes())
                    .push_bind(now);
            });
            q.push(" ON CONFLICT DO NOTHING");
            stored += q.build().execute(&mut *conn).await?.rows_affected();
        }
        Ok(stored)
    })
}
