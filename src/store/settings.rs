//! Key-value settings kept in the local store (host URL, preferences).

use super::engine::on_pool;
use super::{Store, StoreError};

impl Store {
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
                .bind(key)
                .fetch_optional(pool)
                .await?
        }))
    }

    pub async fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        if key.trim().is_empty() {
            return Err(StoreError::Invalid("a setting needs a name".into()));
        }
        on_pool!(self.engine(), |pool| {
            sqlx::query(
                "INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
            )
            .bind(key)
            .bind(value)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        Ok(())
    }
}
