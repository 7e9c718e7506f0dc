//! Key-value settings kept in the local store (host URL, preferences).
//!
//! Two kinds: the store's (`setting`), and the teacher's own (`own_setting`: whom the host knows
//! this teacher as, whether the desk makes a sound), which beside a shared store stay in the
//! teacher's file so that two co-teachers on one store keep theirs apart. On a teacher's file
//! both are the same table.

use super::engine::{Pool, on_pool};
use super::{Store, StoreError};

impl Store {
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        read(self.engine(), key).await
    }

    pub async fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        write(self.engine(), key, value, self.now_ms()).await
    }

    /// A setting of the teacher's own ([`Store::home_pool`]); `what` names it in the error on a
    /// shared store without its home.
    pub(crate) async fn own_setting(
        &self,
        what: &'static str,
        key: &str,
    ) -> Result<Option<String>, StoreError> {
        read(&Pool::Sqlite(self.own_pool(what)?.clone()), key).await
    }

    pub(crate) async fn set_own_setting(
        &self,
        what: &'static str,
        key: &str,
        value: &str,
    ) -> Result<(), StoreError> {
        let pool = Pool::Sqlite(self.own_pool(what)?.clone());
        write(&pool, key, value, self.now_ms()).await
    }
}

async fn read(pool: &Pool, key: &str) -> Result<Option<String>, StoreError> {
    Ok(on_pool!(pool, |pool| {
        sqlx::query_scalar("SELECT value FROM settings WHERE key = $1")
            .bind(key)
            .fetch_optional(pool)
            .await?
    }))
}

async fn write(pool: &Pool, key: &str, value: &str, now_ms: i64) -> Result<(), StoreError> {
    if key.trim().is_empty() {
        return Err(StoreError::Invalid("a setting needs a name".into()));
    }
    on_pool!(pool, |pool| {
        sqlx::query(
            "INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
        )
        .bind(key)
        .bind(value)
        .bind(now_ms)
        .execute(pool)
        .await?;
    });
    Ok(())
}
