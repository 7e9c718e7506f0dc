//! Key-value settings kept in the local store (host URL, preferences).

use super::{Store, StoreError};

impl Store {
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar("SELECT value FROM settings WHERE key = ?")
                .bind(key)
                .fetch_optional(self.pool())
                .await?,
        )
    }

    pub async fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        if key.trim().is_empty() {
            return Err(StoreError::Invalid("a setting needs a name".into()));
        }
        sqlx::query(
            "INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(value)
        .bind(self.now_ms())
        .execute(self.pool())
        .await?;
        Ok(())
    }
}
