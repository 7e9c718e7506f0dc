//! Classes the teacher follows. A class is created on the host (which hands out its id and join
//! code); the store keeps what the dashboard needs to list and sync it.

use super::{Store, StoreError};

/// Longest class title accepted; a title is a label in the sidebar, not a document.
pub const MAX_TITLE_CHARS: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct ClassRow {
    pub class_id: String,
    pub title: String,
    pub join_code: Option<String>,
    pub created_at: i64,
}

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
        sqlx::query(
            "INSERT INTO classes (class_id, title, join_code, created_at) VALUES (?, ?, ?, ?) \
             ON CONFLICT (class_id) DO UPDATE SET title = excluded.title, \
             join_code = COALESCE(excluded.join_code, classes.join_code)",
        )
        .bind(class_id)
        .bind(title)
        .bind(join_code)
        .bind(self.now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }

    /// Every class, oldest first (the order a teacher added them).
    pub async fn classes(&self) -> Result<Vec<ClassRow>, StoreError> {
        Ok(sqlx::query_as::<_, ClassRow>(
            "SELECT class_id, title, join_code, created_at FROM classes \
             ORDER BY created_at, class_id",
        )
        .fetch_all(self.pool())
        .await?)
    }
}

impl Store {
    /// Makes sure a class row exists for `class_id` (a class followed by id alone, before its
    /// title is known, is listed under its id).
    pub async fn ensure_class(&self, class_id: &str) -> Result<(), StoreError> {
        if class_id.trim().is_empty() {
            return Err(StoreError::Invalid("a class needs an id".into()));
        }
        sqlx::query(
            "INSERT INTO classes (class_id, title, join_code, created_at) VALUES (?, ?, NULL, ?) \
             ON CONFLICT (class_id) DO NOTHING",
        )
        .bind(class_id)
        .bind(class_id)
        .bind(self.now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
