//! The class timeline: ledger events of one class counted per time bucket and per kind of event,
//! by the time the app received them.

use serde::Serialize;

use crate::store::engine::{json_list, on_pool};
use crate::store::{Store, StoreError};

/// Fewest buckets' worth of width: a bucket is at least this wide.
pub const MIN_BUCKET_MS: i64 = 10_000;
/// About this many buckets across the class's history.
pub const TARGET_BUCKETS: i64 = 60;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Timeline {
    pub bucket_ms: i64,
    /// Bucket start times, ascending, without gaps.
    pub starts_ms: Vec<i64>,
    pub completions: Vec<u32>,
    pub struggles: Vec<u32>,
    pub help_requests: Vec<u32>,
    pub other: Vec<u32>,
}

/// A bucket width for events spanning `span_ms`: a round number of seconds, at least
/// [`MIN_BUCKET_MS`].
pub fn bucket_width(span_ms: i64) -> i64 {
    let raw = (span_ms / TARGET_BUCKETS).max(MIN_BUCKET_MS);
    // Round up to a whole 10 s.
    (raw + MIN_BUCKET_MS - 1) / MIN_BUCKET_MS * MIN_BUCKET_MS
}

/// Buckets `(received_at, name)` events (pure: the store only feeds it rows).
pub fn bucket(events: &[(i64, i64, String)], bucket_ms: i64) -> Timeline {
    let mut t = Timeline {
        bucket_ms,
        starts_ms: Vec::new(),
        completions: Vec::new(),
        struggles: Vec::new(),
        help_requests: Vec::new(),
        other: Vec::new(),
    };
    let Some(first) = events.iter().map(|e| e.0).min() else {
        return t;
    };
    let last = events.iter().map(|e| e.0).max().unwrap_or(first);
    let n = usize::try_from((last - first) / bucket_ms + 1).unwrap_or(0);
    t.starts_ms = (0..n).map(|i| first + i as i64 * bucket_ms).collect();
    t.completions = vec![0; n];
    t.struggles = vec![0; n];
    t.help_requests = vec![0; n];
    t.other = vec![0; n];
    for (start, count, name) in events {
        let i = usize::try_from((start - first) / bucket_ms)
            .unwrap_or(0)
            .min(n - 1);
        let c = u32::try_from(*count).unwrap_or(u32::MAX);
        let series = match name.as_str() {
            "a2learn.widget_completed" => &mut t.completions,
            "a2learn.widget_struggle" => &mut t.struggles,
            "a2learn.assist" => &mut t.help_requests,
            _ => &mut t.other,
        };
        series[i] += c;
    }
    t
}

impl Store {
    /// On both engines (the same statements).
    pub async fn timeline(&self, class_id: &str) -> Result<Timeline, StoreError> {
        self.timeline_of(class_id, None).await
    }

    /// [`Store::timeline`] of some learners only (a group's, the JSON array of
    /// `groups::Scope::learners_json`): the events that name one of them (completions,
    /// struggles, help requests; an answer names its call, not a learner).
    pub async fn timeline_of(
        &self,
        class_id: &str,
        only: Option<String>,
    ) -> Result<Timeline, StoreError> {
        let span: (Option<i64>, Option<i64>) = on_pool!(self.engine(), |pool| {
            let sql = format!(
                "SELECT MIN(received_at), MAX(received_at) FROM ledger WHERE class_id = $1{}",
                learner_filter(only.is_some(), 2, PG)
            );
            sqlx::query_as(&sql)
                .bind(class_id)
                .bind(only.as_deref())
                .fetch_one(pool)
                .await?
        });
        let (Some(min), Some(max)) = span else {
            return Ok(bucket(&[], MIN_BUCKET_MS));
        };
        let width = bucket_width(max - min);
        let rows: Vec<(i64, i64, String)> = on_pool!(self.engine(), |pool| {
            let sql = format!(
                "SELECT $1 + ((received_at - $1) / $2) * $2 AS start, COUNT(*), name \
                 FROM ledger WHERE class_id = $3{} GROUP BY start, name ORDER BY start",
                learner_filter(only.is_some(), 4, PG)
            );
            sqlx::query_as(&sql)
                .bind(min)
                .bind(width)
                .bind(class_id)
                .bind(only.as_deref())
                .fetch_all(pool)
                .await?
        });
        Ok(bucket(&rows, width))
    }
}

/// The ledger rows whose payload names a learner of the JSON array at `$param` (nothing when
/// `on` is false: the parameter is then bound as NULL and unused).
fn learner_filter(on: bool, param: usize, pg: bool) -> String {
    if !on {
        return format!(" AND CAST(${param} AS TEXT) IS NULL");
    }
    let learner = if pg {
        "(payload::json ->> 'learner')"
    } else {
        "json_extract(payload, '$.learner')"
    };
    format!(
        " AND {learner} IN ({})",
        json_list(&format!("${param}"), pg)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_fall_into_gapless_buckets_by_kind() {
        let rows = vec![
            (1_000, 3, "a2learn.widget_completed".to_string()),
            (1_000, 1, "a2learn.assist".to_string()),
            (31_000, 2, "a2learn.widget_struggle".to_string()),
            (31_000, 1, "a2learn.host.call_claimed".to_string()),
        ];
        let t = bucket(&rows, 10_000);
        assert_eq!(t.starts_ms, vec![1_000, 11_000, 21_000, 31_000]);
        assert_eq!(t.completions, vec![3, 0, 0, 0]);
        assert_eq!(t.help_requests, vec![1, 0, 0, 0]);
        assert_eq!(t.struggles, vec![0, 0, 0, 2]);
        assert_eq!(t.other, vec![0, 0, 0, 1]);
        assert!(bucket(&[], 10_000).starts_ms.is_empty());
    }

    #[test]
    fn bucket_widths_are_whole_ten_seconds() {
        assert_eq!(bucket_width(0), 10_000);
        assert_eq!(bucket_width(3_600_000), 60_000);
        assert_eq!(bucket_width(3_600_001) % 10_000, 0);
    }
}
