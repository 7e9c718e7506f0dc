//! What the diagnostics page and the sidebar read: quarantined frames, and per-class counts.

use super::engine::on_pool;
use super::{Store, StoreError};

/// A frame kept aside, with the rule that rejected it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct QuarantinedFrame {
    pub id: i64,
    pub class_id: String,
    pub seq: Option<i64>,
    pub rule_id: String,
    pub message: String,
    pub raw: String,
    pub raw_bytes: i64,
    pub received_at: i64,
}

/// A class with the counts the sidebar shows.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ClassCounts {
    pub class_id: String,
    pub title: String,
    pub host_id: Option<String>,
    pub join_code: Option<String>,
    pub learners: i64,
    pub open_requests: i64,
}

impl Store {
    /// The newest quarantined frames first, at most `limit` (on both engines).
    pub async fn quarantined(&self, limit: u32) -> Result<Vec<QuarantinedFrame>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as::<_, QuarantinedFrame>(
                "SELECT id, class_id, seq, rule_id, message, raw, raw_bytes, received_at \
                 FROM quarantine ORDER BY id DESC LIMIT $1",
            )
            .bind(i64::from(limit))
            .fetch_all(pool)
            .await?
        }))
    }

    /// How many frames each rule has rejected, most first.
    pub async fn quarantine_by_rule(&self) -> Result<Vec<(String, i64)>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT rule_id, COUNT(*) AS n FROM quarantine GROUP BY rule_id \
                 ORDER BY n DESC, rule_id",
            )
            .fetch_all(pool)
            .await?
        }))
    }

    /// The classes of a host (and those followed by id alone, with no host) with their learner
    /// counts and open help requests (assist calls still open). `None`: only those with no host.
    pub async fn class_counts(
        &self,
        host_id: Option<&str>,
    ) -> Result<Vec<ClassCounts>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            // SQLite's `IS` compares NULLs as values; PostgreSQL spells it out.
            let same_host = if PG {
                "c.host_id IS NOT DISTINCT FROM $1"
            } else {
                "c.host_id IS $1"
            };
            sqlx::query_as::<_, ClassCounts>(&format!(
                "SELECT c.class_id, c.title, c.host_id, c.join_code, \
                 (SELECT COUNT(*) FROM learners l WHERE l.class_id = c.class_id) AS learners, \
                 (SELECT COUNT(*) FROM calls k WHERE k.class_id = c.class_id \
                   AND k.state = 'open' AND k.function = 'assist') AS open_requests \
                 FROM classes c WHERE {same_host} OR c.host_id IS NULL \
                 ORDER BY c.created_at, c.class_id"
            ))
            .bind(host_id)
            .fetch_all(pool)
            .await?
        }))
    }
}
