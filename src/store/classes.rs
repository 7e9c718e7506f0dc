//! Classes the teacher follows. A class is created on the host (which hands out its id and join
//! code); the store keeps what the dashboard needs to list and sync it, and which host it came
//! from (migrations/20261202000002_hosts.sql): the app follows the classes of the host it is
//! pointed at, not every class it ever knew.
//!
//! A class is named by its host and the host's id for it (`host_id`, `host_class_id`): class ids
//! are a host's names, so two hosts may both have a `c-1`, and both are followed and kept apart.
//! `class_id` is the store's key for a class, which every table refers to; it is the host's id
//! unless another host's class took that key first (migrations/20261207000002).

use super::engine::{on_conn, on_pool};
use super::{Store, StoreError};

/// Longest class title accepted; a title is a label in the sidebar, not a document.
pub const MAX_TITLE_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ClassRow {
    /// The store's key for the class (what every table, view and command names it by).
    pub class_id: String,
    /// The id the class's host knows it by: the feed's URL and every tool call use it.
    pub host_class_id: String,
    pub title: String,
    pub join_code: Option<String>,
    pub created_at: i64,
    /// The host the class came from; `None` for a class followed by id alone (the command
    /// line's `sync --class`), which is followed with whichever host the app is pointed at.
    pub host_id: Option<String>,
}

/// The host id of the embedded demo host: its address changes each start, its classes stay its.
pub const DEMO_HOST_ID: &str = "demo";

impl Store {
    /// Records a class (or updates its title and join code when it is known already).
    pub async fn upsert_class(
        &self,
        class_id: &str,
        title: &str,
        join_code: Option<&str>,
    ) -> Result<(), StoreError> {
        let title = title.trim();
        if class_id.trim().is_empty() {
            return Err(StoreError::Invalid("a class needs an id".into()));
        }
        if title.is_empty() {
            return Err(crate::error::Said::refused("error-class-title-empty").into());
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(crate::error::Said::refused("error-class-title-too-long")
                .count("max", MAX_TITLE_CHARS as f64)
                .into());
        }
        on_pool!(self.engine(), |pool| {
            sqlx::query(
                "INSERT INTO classes (class_id, host_class_id, title, join_code, created_at) \
                 VALUES ($1, $1, $2, $3, $4) ON CONFLICT (class_id) DO UPDATE SET \
                 title = excluded.title, join_code = COALESCE(excluded.join_code, classes.join_code)",
            )
            .bind(class_id)
            .bind(title)
            .bind(join_code)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    /// Every class, oldest first (the order a teacher added them).
    pub async fn classes(&self) -> Result<Vec<ClassRow>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as::<_, ClassRow>(
                "SELECT class_id, COALESCE(host_class_id, class_id) AS host_class_id, title, \
                 join_code, created_at, host_id FROM classes ORDER BY created_at, class_id",
            )
            .fetch_all(pool)
            .await?
        }))
    }

    /// The classes the app follows with `host_id`: that host's own, and those followed by id
    /// alone (no host). Oldest first.
    pub async fn classes_of_host(&self, host_id: &str) -> Result<Vec<ClassRow>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as::<_, ClassRow>(
                "SELECT class_id, COALESCE(host_class_id, class_id) AS host_class_id, title, \
                 join_code, created_at, host_id FROM classes \
                 WHERE host_id = $1 OR host_id IS NULL ORDER BY created_at, class_id",
            )
            .bind(host_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// The store's key for the class `host_class_id` of `host_id`, making the class (and
    /// recording the host) when it is new. A class followed by id alone (no host yet) of that
    /// id becomes this host's. When another host's class holds the key already, this host's
    /// class gets a key of its own: `<id>@<8 hex digits of the host's SHA-256>` — both kept,
    /// each with its own results, cursor and desk.
    ///
    /// A new class is made bound, in the same transaction: a class without a host is followed
    /// with whichever host a dashboard points at ([`Store::classes_of_host`]), so one made first
    /// and bound after would, in between, be taken up by another app on a shared store and
    /// asked of its host, which does not know it (two co-teachers starting at once).
    pub async fn bind_class_to_host(
        &self,
        host_class_id: &str,
        host_id: &str,
    ) -> Result<String, StoreError> {
        if host_id.trim().is_empty() {
            return Err(StoreError::Invalid("a host needs an id".into()));
        }
        if host_class_id.trim().is_empty() {
            return Err(StoreError::Invalid("a class needs an id".into()));
        }
        // Two followers (or two co-teachers' apps) may bind the same class at once; the
        // loser of that race finds the winner's row on its next try.
        for _ in 0..3 {
            if let Some(key) = self.try_bind_class_to_host(host_class_id, host_id).await? {
                return Ok(key);
            }
        }
        Err(StoreError::Invalid(format!(
            "class {host_class_id} of host {host_id} could not be bound: its key kept being taken"
        )))
    }

    /// One attempt of [`Store::bind_class_to_host`]: `None` when another writer took the key
    /// this attempt chose between its read and its insert.
    async fn try_bind_class_to_host(
        &self,
        host_class_id: &str,
        host_id: &str,
    ) -> Result<Option<String>, StoreError> {
        let now = self.now_ms();
        let mut tx = self.engine().begin_write().await?;
        let key = on_conn!(&mut tx.conn(), |conn| {
            sqlx::query(
                "INSERT INTO hosts (host_id, first_seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(host_id)
            .bind(now)
            .execute(&mut *conn)
            .await?;
            let known: Option<String> = sqlx::query_scalar(
                "SELECT class_id FROM classes WHERE host_id = $1 AND host_class_id = $2",
            )
            .bind(host_id)
            .bind(host_class_id)
            .fetch_optional(&mut *conn)
            .await?;
            if known.is_some() {
                known
            } else {
                let holder: Option<(Option<String>,)> =
                    sqlx::query_as("SELECT host_id FROM classes WHERE class_id = $1")
                        .bind(host_class_id)
                        .fetch_optional(&mut *conn)
                        .await?;
                let key = match holder {
                    // Followed by id alone until now: it is this host's.
                    Some((None,)) => {
                        sqlx::query(
                            "UPDATE classes SET host_id = $1, host_class_id = $2 WHERE class_id = $2",
                        )
                        .bind(host_id)
                        .bind(host_class_id)
                        .execute(&mut *conn)
                        .await?;
                        host_class_id.to_string()
                    }
                    None => host_class_id.to_string(),
                    Some((Some(_),)) => {
                        let mut key = another_hosts_key(host_class_id, host_id);
                        let mut n = 1;
                        while sqlx::query_scalar::<_, String>(
                            "SELECT class_id FROM classes WHERE class_id = $1",
                        )
                        .bind(&key)
                        .fetch_optional(&mut *conn)
                        .await?
                        .is_some()
                        {
                            n += 1;
                            key = format!("{}-{n}", another_hosts_key(host_class_id, host_id));
                        }
                        key
                    }
                };
                // No conflict target: a concurrent insert of this host's class under the
                // same key trips the (host, class) index, not the key's, and PostgreSQL only
                // turns a conflict on the named index into "do nothing".
                sqlx::query(
                    "INSERT INTO classes (class_id, host_class_id, title, join_code, created_at, host_id) \
                     VALUES ($1, $2, $2, NULL, $3, $4) ON CONFLICT DO NOTHING",
                )
                .bind(&key)
                .bind(host_class_id)
                .bind(now)
                .bind(host_id)
                .execute(&mut *conn)
                .await?;
                sqlx::query_scalar::<_, String>(
                    "SELECT class_id FROM classes WHERE host_id = $1 AND host_class_id = $2",
                )
                .bind(host_id)
                .bind(host_class_id)
                .fetch_optional(&mut *conn)
                .await?
            }
        });
        tx.commit().await?;
        Ok(key)
    }

    /// The id the host knows a class by (the store's key for a class followed by id alone, or
    /// not stored at all).
    pub async fn host_class_id(&self, class_id: &str) -> Result<String, StoreError> {
        let known: Option<Option<String>> = on_pool!(self.engine(), |pool| {
            sqlx::query_scalar("SELECT host_class_id FROM classes WHERE class_id = $1")
                .bind(class_id)
                .fetch_optional(pool)
                .await?
        });
        Ok(known.flatten().unwrap_or_else(|| class_id.to_string()))
    }
}

/// The key of a class whose host's id another host's class holds here already.
fn another_hosts_key(host_class_id: &str, host_id: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(host_id.as_bytes());
    let short: String = digest.iter().take(4).map(|b| format!("{b:02x}")).collect();
    format!("{host_class_id}@{short}")
}

impl Store {
    /// Makes sure a class row exists for `class_id` (a class followed by id alone, before its
    /// title is known, is listed under its id).
    pub async fn ensure_class(&self, class_id: &str) -> Result<(), StoreError> {
        if class_id.trim().is_empty() {
            return Err(StoreError::Invalid("a class needs an id".into()));
        }
        on_pool!(self.engine(), |pool| {
            sqlx::query(
                "INSERT INTO classes (class_id, host_class_id, title, join_code, created_at) \
                 VALUES ($1, $1, $1, NULL, $2) ON CONFLICT (class_id) DO NOTHING",
            )
            .bind(class_id)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        Ok(())
    }
}
