//! `db rebuild`: the derived tables again from the backfill table and the ledger, through the
//! same [`apply_accepted`] as live ingest.

use a2learn_contract::CallClaimed;

use super::apply::apply_accepted;
use super::stored_message;
use super::{Accepted, IngestError};
use crate::store::engine::{Conn, on_conn};
use crate::store::{Store, StoreError, rollup};

impl Store {
    /// Rebuilds results, struggles and calls from the backfill table and the ledger, and the
    /// grid's rollup from them, in one transaction. The derived tables afterwards equal what live ingest produced.
    pub async fn rebuild(&self) -> Result<RebuildOutcome, StoreError> {
        let now = self.now_ms();
        let mut tx = self.engine().begin_write().await?;
        let outcome = on_conn!(&mut tx.conn(), |conn| {
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
                apply_accepted(&mut Conn::from(&mut *conn), &class_id, &accepted, now).await?;
                outcome.backfill += 1;
            }

            // The ledger in seq order, a page at a time, so memory stays flat on big stores.
            let mut after: (String, i64) = (String::new(), i64::MIN);
            loop {
                let rows: Vec<(String, i64, String, String)> = sqlx::query_as(
                    "SELECT class_id, seq, name, payload FROM ledger \
                 WHERE (class_id, seq) > ($1, $2) ORDER BY class_id, seq LIMIT 5000",
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
                        let claim: CallClaimed =
                            serde_json::from_str(&payload).map_err(|source| {
                                IngestError::Unreadable {
                                    name: "call_claimed".into(),
                                    source,
                                }
                            })?;
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
                    apply_accepted(&mut Conn::from(&mut *conn), &class_id, &accepted, now).await?;
                }
            }
            // The grid's rollup once, over the rebuilt tables (not per replayed event).
            rollup::rebuild(&mut Conn::from(&mut *conn)).await?;
            // Every class was rewritten: what a follower keeps in memory of one is stale.
            Store::bump_class_versions(&mut Conn::from(&mut *conn), None).await?;
            outcome
        });
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
