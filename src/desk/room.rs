//! What the teacher still owes the room, kept on this machine: follow-ups (a help request the
//! host closed unanswered — its deadline passed or it failed — stays listed as "missed — follow
//! up" until the teacher marks it done; it never leaves by itself) and visits (a "coming over"
//! the host accepted, listed in promise order until done). Nothing here reaches the network.
//! Follow-ups are the store's (a co-teacher on a shared store sees one marked done); visits are
//! the teacher's own promises, in their file.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::{Desk, DeskError, another_hosts_classes, not_another_hosts};
use crate::dto::ms;
use crate::progress::names::{Labeler, Privacy};
use crate::store::engine::{json_list, on_conn, on_pool};

/// The calls that are follow-ups: assist requests closed unanswered by the host (or past their
/// deadline with no answer from this desk), not yet marked done. `$1` is the clock; `$class` is
/// the class filter (spelled out per query: a `$2 IS NULL OR ...` filter would keep SQLite from
/// using the calls index and read every call of every class).
macro_rules! followups_sql {
    ($class:expr) => {
        concat!(
            "SELECT c.call_id, c.class_id, c.learner, c.pathway_id, \
             c.widget_id, c.at_ms, COALESCE(c.closed_at_ms, c.deadline_ms), \
             COALESCE((SELECT ps.title FROM pathway_steps ps WHERE ps.pathway_id = c.pathway_id \
             AND ps.widget_id = c.widget_id), c.widget_id) FROM calls c \
             WHERE c.function = 'assist' ",
            $class,
            " AND (c.state IN ('expired', 'failed') OR (c.state = 'open' AND c.deadline_ms <= $1)) \
             AND NOT EXISTS (SELECT 1 FROM desk_sent s \
                 WHERE s.class_id = c.class_id AND s.call_id = c.call_id) \
             AND NOT EXISTS (SELECT 1 FROM desk_followups_done d \
                 WHERE d.class_id = c.class_id AND d.call_id = c.call_id) \
             ORDER BY c.at_ms, c.call_id"
        )
    };
}

/// Follow-ups of one class (`$2`), in the SQL both engines read ("who needs me" runs it on a
/// shared store too).
pub const FOLLOWUPS_SQL: &str = followups_sql!("AND c.class_id = $2");
/// Follow-ups of every class the desk serves (`$2`: the host Settings name).
pub const FOLLOWUPS_ALL_SQL: &str =
    followups_sql!(concat!("AND ", not_another_hosts!("c.class_id", "$2")));

/// A learner the teacher owes a follow-up or a visit.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct RoomItem {
    pub call_id: String,
    pub class_id: String,
    /// The anonymous id, or an alias under projector-safe privacy.
    pub learner: String,
    /// The roster's local name, if any; never under projector-safe privacy.
    pub display_name: Option<String>,
    pub pathway_id: String,
    pub widget_id: String,
    /// The step's title from the catalog (the widget id when the catalog lacks it).
    pub step_title: String,
    /// When the student asked (a follow-up) or the teacher promised (a visit).
    pub since_ms: f64,
    /// When the host closed the request (a follow-up); none for a visit.
    pub closed_at_ms: Option<f64>,
}

/// What the help desk lists besides the queue.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct Room {
    /// Missed — follow up: oldest request first.
    pub follow_ups: Vec<RoomItem>,
    /// Visits promised, in promise order.
    pub visits: Vec<RoomItem>,
}

/// A row of [`FOLLOWUPS_SQL`] (and of the visits query): call, class, learner, pathway, widget,
/// since, closed, the step's title.
pub type Row = (
    String,
    String,
    String,
    String,
    String,
    i64,
    Option<i64>,
    String,
);

impl Desk<'_> {
    /// Follow-ups and visits, labelled as `privacy` allows. `class_id: None` is every class the
    /// desk serves (not another host's).
    pub async fn room(&self, class_id: Option<&str>, privacy: Privacy) -> Result<Room, DeskError> {
        let host_id = self.store.named_host_id().await?;
        let now = self.store.now_ms();
        let follow_ups: Vec<Row> = on_pool!(self.store.engine(), |pool| {
            match class_id {
                Some(class_id) => sqlx::query_as(FOLLOWUPS_SQL).bind(now).bind(class_id),
                None => sqlx::query_as(FOLLOWUPS_ALL_SQL)
                    .bind(now)
                    .bind(host_id.as_deref()),
            }
            .fetch_all(pool)
            .await?
        });
        let visits = self.open_visits(class_id, host_id.as_deref()).await?;
        let mut labels: std::collections::HashMap<String, Labeler> = Default::default();
        let mut out = Room {
            follow_ups: Vec::with_capacity(follow_ups.len()),
            visits: Vec::with_capacity(visits.len()),
        };
        for (rows, list) in [(follow_ups, &mut out.follow_ups), (visits, &mut out.visits)] {
            for (call_id, class_id, learner, pathway_id, widget_id, since, closed, step_title) in
                rows
            {
                if !labels.contains_key(&class_id) {
                    let labeler = self.store.labeler(&class_id, privacy).await?;
                    labels.insert(class_id.clone(), labeler);
                }
                let label = labels.get(&class_id);
                let (learner, display_name) = match (privacy, label) {
                    (Privacy::Names, Some(l)) => {
                        let name = l.label(&learner);
                        let display = (name != learner).then_some(name);
                        (learner, display)
                    }
                    (_, Some(l)) => (l.label(&learner), None),
                    (_, None) => ("Learner".to_string(), None),
                };
                list.push(RoomItem {
                    call_id,
                    class_id,
                    learner,
                    display_name,
                    pathway_id,
                    widget_id,
                    step_title,
                    since_ms: ms(since),
                    closed_at_ms: closed.map(ms),
                });
            }
        }
        Ok(out)
    }

    /// The visits this teacher promised and has not made (their own, in their file: none on a
    /// shared store read without it), of one class or of every class the desk serves, with the
    /// steps' titles from the store's catalog.
    async fn open_visits(
        &self,
        class_id: Option<&str>,
        host_id: Option<&str>,
    ) -> Result<Vec<Row>, DeskError> {
        let Some(home) = self.store.home_pool() else {
            return Ok(Vec::new());
        };
        let visits: Vec<(String, String, String, String, String, i64)> = sqlx::query_as(
            "SELECT call_id, class_id, learner, pathway_id, widget_id, promised_at_ms \
             FROM desk_visits WHERE done_at_ms IS NULL AND (?1 IS NULL OR class_id = ?1) \
             ORDER BY promised_at_ms, call_id",
        )
        .bind(class_id)
        .fetch_all(home)
        .await?;
        if visits.is_empty() {
            return Ok(Vec::new());
        }
        // The classes and the catalog are the store's, which beside a shared store is another
        // database than the visits': two reads merged here rather than one join.
        let (others, titles): (Vec<String>, Vec<(String, String, String)>) =
            on_pool!(self.store.engine(), |pool| {
                let others = sqlx::query_scalar(another_hosts_classes!("$1"))
                    .bind(host_id)
                    .fetch_all(pool)
                    .await?;
                let pathways: Vec<&str> = visits.iter().map(|v| v.3.as_str()).collect();
                let titles = sqlx::query_as(&format!(
                    "SELECT pathway_id, widget_id, title FROM pathway_steps \
                     WHERE pathway_id IN ({})",
                    json_list("$1", PG)
                ))
                .bind(serde_json::Value::from(pathways).to_string())
                .fetch_all(pool)
                .await?;
                (others, titles)
            });
        let others: HashSet<String> = others.into_iter().collect();
        let titles: HashMap<(String, String), String> = titles
            .into_iter()
            .map(|(pathway, widget, title)| ((pathway, widget), title))
            .collect();
        Ok(visits
            .into_iter()
            .filter(|v| !others.contains(&v.1))
            .map(
                |(call_id, class_id, learner, pathway_id, widget_id, since)| {
                    let title = titles
                        .get(&(pathway_id.clone(), widget_id.clone()))
                        .cloned()
                        .unwrap_or_else(|| widget_id.clone());
                    (
                        call_id, class_id, learner, pathway_id, widget_id, since, None, title,
                    )
                },
            )
            .collect())
    }

    /// The teacher followed up: the learner leaves the follow-up list (and the grid's and "who
    /// needs me"'s follow-up signal), on every desk of a shared store.
    pub async fn follow_up_done(&self, call_id: &str) -> Result<(), DeskError> {
        let class_id = self.class_of(call_id).await?;
        let mut tx = self.store.engine().begin_write().await?;
        let conn = &mut tx.conn();
        on_conn!(conn, |c| {
            sqlx::query(
                "INSERT INTO desk_followups_done (class_id, call_id, done_at_ms) \
                 VALUES ($1, $2, $3) ON CONFLICT (class_id, call_id) DO NOTHING",
            )
            .bind(&class_id)
            .bind(call_id)
            .bind(self.store.now_ms())
            .execute(&mut *c)
            .await?;
        });
        super::refresh_call_row(conn, &class_id, call_id).await?;
        tx.commit().await?;
        tracing::info!(call_id, "follow-up done");
        Ok(())
    }

    /// The teacher made the visit they promised.
    pub async fn visit_done(&self, call_id: &str) -> Result<(), DeskError> {
        let class_id = self.class_of(call_id).await?;
        let done = sqlx::query(
            "UPDATE desk_visits SET done_at_ms = ? \
             WHERE class_id = ? AND call_id = ? AND done_at_ms IS NULL",
        )
        .bind(self.store.now_ms())
        .bind(&class_id)
        .bind(call_id)
        .execute(self.store.own_pool(super::HOME)?)
        .await?;
        if done.rows_affected() == 0 {
            return Err(DeskError::NotFound(format!("open visit for {call_id}")));
        }
        tracing::info!(call_id, "visit done");
        Ok(())
    }
}
