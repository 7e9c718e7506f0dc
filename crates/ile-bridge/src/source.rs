//! What the bridge reads from the upstream's database, and nothing else: explicit columns of
//! `pathway_sessions`, `session_opens` and `interactions`. No query names `students.display_name`
//! or any `roster_students` column: names never leave the upstream's database through here.
//! Every connection is read-only (`default_transaction_read_only`).

use sqlx::PgPool;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};

/// A shared pathway: one class.
#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub topic: String,
    pub plan: serde_json::Value,
}

/// One `interactions` row, with the upstream's student id (the caller makes it a pseudonym).
#[derive(Debug, Clone)]
pub struct SourceRow {
    pub id: i64,
    pub student_id: String,
    pub widget_kind: Option<String>,
    pub event_type: String,
    pub standard_code: Option<String>,
    pub correct: Option<bool>,
    pub payload: serde_json::Value,
    pub created_at_ms: i64,
}

#[derive(Clone)]
pub struct Source {
    pool: PgPool,
}

impl Source {
    /// Connects read-only: a write through this pool fails in the database itself.
    pub async fn connect(url: &str) -> Result<Self, sqlx::Error> {
        let options: PgConnectOptions = url
            .parse::<PgConnectOptions>()?
            .options([("default_transaction_read_only", "on")])
            .application_name("a2learn-ile-bridge");
        let pool = PgPoolOptions::new()
            .max_connections(4)
            .acquire_timeout(std::time::Duration::from_secs(5))
            .connect_lazy_with(options);
        Ok(Source { pool })
    }

    pub fn pool(&self) -> &PgPool {
        &self.pool
    }

    pub async fn sessions(&self) -> Result<Vec<Session>, sqlx::Error> {
        let rows: Vec<(String, String, serde_json::Value)> = sqlx::query_as(
            "SELECT id::text, topic, plan FROM pathway_sessions ORDER BY created_at, id",
        )
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(|(id, topic, plan)| Session { id, topic, plan })
            .collect())
    }

    pub async fn session(&self, id: &str) -> Result<Option<Session>, sqlx::Error> {
        let row: Option<(String, String, serde_json::Value)> = sqlx::query_as(
            "SELECT id::text, topic, plan FROM pathway_sessions WHERE id::text = $1",
        )
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.map(|(id, topic, plan)| Session { id, topic, plan }))
    }

    /// The upstream's ids of the students who opened the pathway or worked in it.
    pub async fn students(&self, session: &str) -> Result<Vec<String>, sqlx::Error> {
        sqlx::query_scalar(
            "SELECT student_id::text FROM session_opens WHERE session_id::text = $1 \
             UNION SELECT DISTINCT student_id::text FROM interactions WHERE session_id::text = $1",
        )
        .bind(session)
        .fetch_all(&self.pool)
        .await
    }

    /// The session's rows with `after < id <= upto`, in id order.
    pub async fn rows(
        &self,
        session: &str,
        after: i64,
        upto: i64,
    ) -> Result<Vec<SourceRow>, sqlx::Error> {
        type Raw = (
            i64,
            String,
            Option<String>,
            String,
            Option<String>,
            Option<bool>,
            serde_json::Value,
            i64,
        );
        let rows: Vec<Raw> = sqlx::query_as(
            "SELECT id, student_id::text, widget_kind, event_type, standard_code, correct, payload, \
                    (extract(epoch FROM created_at) * 1000)::bigint \
             FROM interactions WHERE session_id::text = $1 AND id > $2 AND id <= $3 ORDER BY id",
        )
        .bind(session)
        .bind(after)
        .bind(upto)
        .fetch_all(&self.pool)
        .await?;
        Ok(rows
            .into_iter()
            .map(
                |(id, student_id, widget_kind, event_type, standard_code, correct, payload, ms)| {
                    SourceRow {
                        id,
                        student_id,
                        widget_kind,
                        event_type,
                        standard_code,
                        correct,
                        payload,
                        created_at_ms: ms,
                    }
                },
            )
            .collect())
    }
}
