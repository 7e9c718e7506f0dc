//! Classes the teacher follows. A class is created on the host (which hands out its id and join
//! code); the store keeps what the dashboard needs to list and sync it, and which host it came
//! from (migrations/20261202000002_hosts.sql): the app follows the classes of the host it is
//! pointed at, not every class it ever knew.

use super::engine::{on_conn, on_pool};
use super::{Store, StoreError};

/// Longest class title accepted; a title is a label in the sidebar, not a document.
pub const MAX_TITLE_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ClassRow {
    pub class_id: String,
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
            return Err(StoreError::Invalid("a class needs a title".into()));
        }
        if title.chars().count() > MAX_TITLE_CHARS {
            return Err(StoreError::Invalid(format!(
                "a class title is at most {MAX_TITLE_CHARS} characters"
            )));
        }
        on_pool!(self.engine(), |pool| {
            sqlx::query(
                "INSERT INTO classes (class_id, title, join_code, created_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (class_id) DO UPDATE SET \
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
                "SELECT class_id, title, join_code, created_at, host_id FROM classes \
                 ORDER BY created_at, class_id",
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
                "SELECT class_id, title, join_code, created_at, host_id FROM classes \
                 WHERE host_id = $1 OR host_id IS NULL ORDER BY created_at, class_id",
            )
            .bind(host_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// Ties a class to the host it came from (the host is recorded when new), making the class
    /// when it is new. A class belongs to one host: tying it to another is refused — its id, its
    /// results and its cursor are that host's, and another host's class of the same id is
    /// another class.
    ///
    /// A new class is made bound, in the same transaction: a class without a host is followed
    /// with whichever host a dashboard points at ([`Store::classes_of_host`]), so one made first
    /// and bound after would, in between, be taken up by another app on a shared store and
    /// asked of its host, which does not know it (two co-teachers starting at once).
    pub async fn bind_class_to_host(
        &self,
        class_id: &str,
        host_id: &str,
    ) -> Result<(), StoreError> {
        if host_id.trim().is_empty() {
            return Err(StoreError::Invalid("a host needs an id".into()));
        }
        if class_id.trim().is_empty() {
            return Err(StoreError::Invalid("a class needs an id".into()));
        }
        let mut tx = self.engine().begin_write().await?;
        on_conn!(&mut tx.conn(), |conn| {
            sqlx::query(
                "INSERT INTO hosts (host_id, first_seen_at) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            )
            .bind(host_id)
            .bind(self.now_ms())
            .execute(&mut *conn)
            .await?;
            sqlx::query(
                "INSERT INTO classes (class_id, title, join_code, created_at, host_id) \
                 VALUES ($1, $1, NULL, $2, $3) ON CONFLICT (class_id) DO NOTHING",
            )
            .bind(class_id)
            .bind(self.now_ms())
            .bind(host_id)
            .execute(&mut *conn)
            .await?;
            let current: Option<(Option<String>,)> =
                sqlx::query_as("SELECT host_id FROM classes WHERE class_id = $1")
                    .bind(class_id)
                    .fetch_optional(&mut *conn)
                    .await?;
            match current {
                None => return Err(StoreError::NotFound(format!("no class {class_id}"))),
                Some((Some(theirs),)) if theirs != host_id => {
                    return Err(StoreError::Invalid(format!(
                        "class {class_id} belongs to the host {theirs}, not to {host_id}"
                    )));
                }
                Some((Some(_),)) => {}
                Some((None,)) => {
                    sqlx::query("UPDATE classes SET host_id = $1 WHERE class_id = $2")
                        .bind(host_id)
                        .bind(class_id)
                        .execute(&mut *conn)
                        .await?;
                }
            }
        });
        tx.commit().await?;
        Ok(())
    }
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
                "INSERT INTO classes (class_id, title, join_code, created_at) \
                 VALUES ($1, $2, NULL, $3) ON CONFLICT (class_id) DO NOTHING",
            )
            .bind(class_id)
            .bind(class_id)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        Ok(())
    }
}
