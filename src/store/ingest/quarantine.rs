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
    // In the batch's order (Diagnostics lists the newest first). A row that names its payload
    // may already be kept from the other way in (backfill or feed): it takes a statement or two
    // of its own; rejections are rare. Runs of the others go in multi-row statements.
    let mut stored = 0;
    let mut start = 0;
    for (i, row) in rows.iter().enumerate() {
        if row.payload_key().is_some() {
            stored += write_plain(conn, class_id, &rows[start..i], now).await?;
            stored += write_keyed(conn, class_id, row, now).await?;
            start = i + 1;
        }
    }
    stored += write_plain(conn, class_id, &rows[start..], now).await?;
    Ok(stored)
}

async fn write_plain(
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

/// One payload, one row: the feed's copy of a payload the backfill kept gives that row its seq
/// (the row the feed would have added, with the feed's frame); a backfilled payload already
/// kept is not kept again. Returns the rows added.
async fn write_keyed(
    conn: &mut Conn<'_>,
    class_id: &str,
    row: &QuarantineRow,
    now: i64,
) -> Result<u64, StoreError> {
    on_conn!(conn, |conn| {
        let key = row.payload_key();
        if let Some(seq) = row.seq() {
            let adopted = sqlx::query(
                "UPDATE quarantine SET seq = $1, raw = $2, raw_bytes = $3 WHERE id = \
                 (SELECT id FROM quarantine WHERE class_id = $4 AND payload_key = $5 \
                  AND seq IS NULL ORDER BY id LIMIT 1)",
            )
            .bind(seq)
            .bind(row.raw())
            .bind(row.raw_bytes())
            .bind(class_id)
            .bind(key)
            .execute(&mut *conn)
            .await?
            .rows_affected();
            if adopted > 0 {
                return Ok(0);
            }
        } else {
            let kept: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM quarantine WHERE class_id = $1 AND payload_key = $2 LIMIT 1",
            )
            .bind(class_id)
            .bind(key)
            .fetch_optional(&mut *conn)
            .await?;
            if kept.is_some() {
                return Ok(0);
            }
        }
        Ok(sqlx::query(
            "INSERT INTO quarantine \
             (class_id, seq, rule_id, message, raw, raw_bytes, received_at, payload_key) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
        )
        .bind(class_id)
        .bind(row.seq())
        .bind(row.rule_id())
        .bind(row.message())
        .bind(row.raw())
        .bind(row.raw_bytes())
        .bind(now)
        .bind(key)
        .execute(&mut *conn)
        .await?
        .rows_affected())
    })
}
