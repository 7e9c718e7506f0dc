//! Key-value settings, of two kinds.
//!
//! A teacher's own choices (`setting`: the host they follow and its token's account, the grid's
//! idle time, the small-group threshold, the export's last folder, whom the host knows them as
//! on the desk) live in their file — beside a shared store, its home — so that two co-teachers
//! on one store keep theirs apart: one may follow the demo host while the other follows the
//! school's. Marks about the store's data (`store_setting`: a class's backfill is done) live in
//! the store, where every process writing it sees them. On a teacher's file both are the same
//! table; a shared store opened alone (a follower, a report) keeps both in its own table.

use sqlx::SqlitePool;

use super::engine::{Pool, on_pool};
use super::{Store, StoreError};

impl Store {
    /// A choice of the teacher's ([`Store::home_pool`], else the store's own table).
    pub async fn setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        read(&self.settings_pool(), key).await
    }

    pub async fn set_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        write(&self.settings_pool(), key, value, self.now_ms()).await
    }

    /// The teacher's setting `key`, made `value` if it has none: the value kept either way. Two
    /// callers at once get the same one (the first write wins, the second reads it back), for a
    /// name made once — a random one must not be replaced by another caller's.
    pub async fn setting_or_keep(&self, key: &str, value: &str) -> Result<String, StoreError> {
        if key.trim().is_empty() {
            return Err(StoreError::Invalid("a setting needs a name".into()));
        }
        let pool = self.settings_pool();
        on_pool!(&pool, |pool| {
            sqlx::query(
                "INSERT INTO settings (key, value, updated_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (key) DO NOTHING",
            )
            .bind(key)
            .bind(value)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        read(&pool, key)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("the setting {key} was not kept")))
    }

    /// A mark about the store's data, kept in the store whatever its home.
    pub async fn store_setting(&self, key: &str) -> Result<Option<String>, StoreError> {
        read(self.engine(), key).await
    }

    pub async fn set_store_setting(&self, key: &str, value: &str) -> Result<(), StoreError> {
        write(self.engine(), key, value, self.now_ms()).await
    }

    fn settings_pool(&self) -> Pool {
        match self.home_pool() {
            Some(home) => Pool::Sqlite(SqlitePool::clone(home)),
            None => self.engine().clone(),
        }
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
