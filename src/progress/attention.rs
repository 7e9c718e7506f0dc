//! "Who needs me now": one ranked list of the learners of a class who need the teacher, each
//! with its reason and how long ago it started (from the injected clock).
//!
//! Four signals, ranked in this order, oldest first within each:
//! 0. a missed help request to follow up ([`crate::desk::room`]): the host closed it unanswered,
//!    and the teacher has not marked it done — the student asked and nobody came;
//! 1. an open help request (`a2learn.assist` call, state `open`, its deadline not passed);
//! 2. a struggle signal on a step with no completion of that step after it;
//! 3. repeated failures: [`REPEATED_FAILURES`] or more incorrect completions of one step by one
//!    learner, with no correct completion after the newest incorrect one.

use serde::Serialize;

use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// Incorrect completions of one step by one learner that count as repeated failure.
pub const REPEATED_FAILURES: u32 = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// Variant order is the ranking: a missed request comes first.
    FollowUp,
    HelpRequest,
    Struggling,
    RepeatedFailures,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NeedsMe {
    pub reason: Reason,
    pub learner: String,
    pub pathway_id: String,
    pub widget_id: String,
    /// When it started (the request, the struggle, the newest failure).
    pub since_ms: i64,
    /// Failed checks (struggle) or incorrect completions (repeated failures); 0 for requests.
    pub count: u32,
}

/// Orders the signals: by reason, then the longest waiting first.
pub fn rank(mut items: Vec<NeedsMe>) -> Vec<NeedsMe> {
    items.sort_by(|a, b| {
        (a.reason, a.since_ms, &a.learner, &a.widget_id).cmp(&(
            b.reason,
            b.since_ms,
            &b.learner,
            &b.widget_id,
        ))
    });
    items
}

/// Open help requests still before their deadline (class at `$1`, the clock at `$2`): past it a
/// request is a follow-up ([`crate::desk::room::FOLLOWUPS_SQL`]), not one still waiting.
pub const OPEN_REQUESTS_SQL: &str = "SELECT learner, pathway_id, widget_id, at_ms FROM calls \
     WHERE class_id = $1 AND state = 'open' AND deadline_ms > $2 AND function = 'assist'";

/// A struggle with no completion of its step after it (class at `$1`); per learner and step the
/// newest, with its failed checks: SQLite takes a bare column from the row of `MAX`, PostgreSQL
/// says so with `DISTINCT ON`.
pub fn struggling_sql(pg: bool) -> String {
    let (newest, order) = if pg {
        (
            "SELECT DISTINCT ON (s.learner, s.pathway_id, s.widget_id) s.learner, \
             s.pathway_id, s.widget_id, s.at_ms, s.failed_checks",
            "ORDER BY s.learner, s.pathway_id, s.widget_id, s.at_ms DESC",
        )
    } else {
        (
            "SELECT s.learner, s.pathway_id, s.widget_id, MAX(s.at_ms), s.failed_checks",
            "GROUP BY s.learner, s.pathway_id, s.widget_id",
        )
    };
    format!(
        "{newest} FROM struggles s WHERE s.class_id = $1 AND NOT EXISTS (SELECT 1 \
         FROM results r WHERE r.class_id = s.class_id AND r.pathway_id = s.pathway_id \
         AND r.learner = s.learner AND r.widget_id = s.widget_id \
         AND r.at_ms >= s.at_ms) {order}"
    )
}

/// Repeated failures (at least `$2`, class at `$1`) with no correct completion after the newest
/// one: SQLite names the newest by its alias in `HAVING`, PostgreSQL repeats the aggregate.
pub fn repeated_failures_sql(pg: bool) -> String {
    let last_bad = if pg { "MAX(r.at_ms)" } else { "last_bad" };
    format!(
        "SELECT learner, pathway_id, widget_id, MAX(at_ms) AS last_bad, COUNT(*) \
         FROM results r WHERE class_id = $1 AND correct = FALSE \
         GROUP BY learner, pathway_id, widget_id \
         HAVING COUNT(*) >= $2 AND NOT EXISTS (SELECT 1 FROM results g \
         WHERE g.class_id = $1 AND g.pathway_id = r.pathway_id \
         AND g.learner = r.learner AND g.widget_id = r.widget_id \
         AND g.correct = TRUE AND g.at_ms > {last_bad})"
    )
}

impl Store {
    /// On both engines: the same statements but two, which SQLite and PostgreSQL spell
    /// differently (a struggle's newest failed checks, a failure's newest time in `HAVING`).
    pub async fn needs_me(&self, class_id: &str) -> Result<Vec<NeedsMe>, StoreError> {
        let mut items = Vec::new();
        let missed: Vec<crate::desk::room::Row> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(crate::desk::room::FOLLOWUPS_SQL)
                .bind(self.now_ms())
                .bind(class_id)
                .fetch_all(pool)
                .await?
        });
        items.extend(
            missed
                .into_iter()
                .map(|(_, _, learner, pathway_id, widget_id, at, _, _)| NeedsMe {
                    reason: Reason::FollowUp,
                    learner,
                    pathway_id,
                    widget_id,
                    since_ms: at,
                    count: 0,
                }),
        );
        let requests: Vec<(String, String, String, i64)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(OPEN_REQUESTS_SQL)
                .bind(class_id)
                .bind(self.now_ms())
                .fetch_all(pool)
                .await?
        });
        items.extend(
            requests
                .into_iter()
                .map(|(learner, pathway_id, widget_id, at)| NeedsMe {
                    reason: Reason::HelpRequest,
                    learner,
                    pathway_id,
                    widget_id,
                    since_ms: at,
                    count: 0,
                }),
        );
        let struggles: Vec<(String, String, String, i64, i64)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(&struggling_sql(PG))
                .bind(class_id)
                .fetch_all(pool)
                .await?
        });
        items.extend(
            struggles
                .into_iter()
                .map(|(learner, pathway_id, widget_id, at, failed)| NeedsMe {
                    reason: Reason::Struggling,
                    learner,
                    pathway_id,
                    widget_id,
                    since_ms: at,
                    count: u32::try_from(failed).unwrap_or(0),
                }),
        );
        let failures: Vec<(String, String, String, i64, i64)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(&repeated_failures_sql(PG))
                .bind(class_id)
                .bind(i64::from(REPEATED_FAILURES))
                .fetch_all(pool)
                .await?
        });
        items.extend(
            failures
                .into_iter()
                .map(|(learner, pathway_id, widget_id, at, n)| NeedsMe {
                    reason: Reason::RepeatedFailures,
                    learner,
                    pathway_id,
                    widget_id,
                    since_ms: at,
                    count: u32::try_from(n).unwrap_or(0),
                }),
        );
        Ok(rank(items))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(reason: Reason, learner: &str, since_ms: i64) -> NeedsMe {
        NeedsMe {
            reason,
            learner: learner.into(),
            pathway_id: "p".into(),
            widget_id: "w".into(),
            since_ms,
            count: 0,
        }
    }

    #[test]
    fn requests_come_first_then_struggles_then_failures_oldest_first() {
        let ranked = rank(vec![
            item(Reason::RepeatedFailures, "a", 1),
            item(Reason::Struggling, "b", 50),
            item(Reason::HelpRequest, "c", 90),
            item(Reason::HelpRequest, "d", 10),
            item(Reason::Struggling, "e", 20),
        ]);
        let order: Vec<&str> = ranked.iter().map(|i| i.learner.as_str()).collect();
        assert_eq!(order, vec!["d", "c", "e", "b", "a"]);
    }
}
