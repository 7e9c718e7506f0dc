//! What the desk keeps locally besides the calls: saved replies, drafts of answers (per call, so
//! a restart loses nothing typed), and whether new requests make a sound and a notification.

use serde::Serialize;

use super::{Desk, DeskError, HOME, MAX_ANSWER_CHARS};
use crate::progress::names::Privacy;

/// The longest title of a saved reply (it is a button label).
pub const MAX_REPLY_TITLE_CHARS: usize = 80;

const MUTED_KEY: &str = "desk.muted";

/// An answer the teacher saved to reuse.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type, sqlx::FromRow)]
pub struct SavedReply {
    pub reply_id: i32,
    pub title: String,
    pub body: String,
}

impl SavedReply {
    /// The reply as a room may see it: its title (a button label), not its body.
    pub fn for_room(self) -> Self {
        Self {
            body: String::new(),
            ..self
        }
    }
}

fn check_reply(title: &str, body: &str) -> Result<(String, String), DeskError> {
    let title = title.trim();
    let n = title.chars().count();
    if n == 0 || n > MAX_REPLY_TITLE_CHARS {
        return Err(DeskError::InvalidAnswer(
            crate::error::Said::refused("error-desk-reply-title")
                .count("max", MAX_REPLY_TITLE_CHARS as f64),
        ));
    }
    // A saved reply is sent as an answer: the same bounds, checked when it is saved.
    let body = super::validate_answer(body)?;
    Ok((title.to_string(), body))
}

impl Desk<'_> {
    pub async fn replies(&self) -> Result<Vec<SavedReply>, DeskError> {
        Ok(sqlx::query_as(
            "SELECT reply_id, title, body FROM desk_replies ORDER BY title COLLATE NOCASE, reply_id",
        )
        .fetch_all(self.store.own_pool(HOME)?)
        .await?)
    }

    /// [`Desk::replies`] as `privacy` allows: a room sees titles, not bodies.
    pub async fn replies_as(&self, privacy: Privacy) -> Result<Vec<SavedReply>, DeskError> {
        let replies = self.replies().await?;
        Ok(match privacy {
            Privacy::Names => replies,
            Privacy::Projector { .. } => replies.into_iter().map(SavedReply::for_room).collect(),
        })
    }

    pub async fn create_reply(&self, title: &str, body: &str) -> Result<SavedReply, DeskError> {
        let (title, body) = check_reply(title, body)?;
        let now = self.store.now_ms();
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO desk_replies (title, body, created_at_ms, updated_at_ms) \
             VALUES (?, ?, ?, ?) RETURNING reply_id",
        )
        .bind(&title)
        .bind(&body)
        .bind(now)
        .bind(now)
        .fetch_one(self.store.own_pool(HOME)?)
        .await?;
        Ok(SavedReply {
            reply_id: i32::try_from(id).map_err(|_| DeskError::NotFound(id.to_string()))?,
            title,
            body,
        })
    }

    pub async fn update_reply(
        &self,
        reply_id: i32,
        title: &str,
        body: &str,
    ) -> Result<SavedReply, DeskError> {
        let (title, body) = check_reply(title, body)?;
        let done = sqlx::query(
            "UPDATE desk_replies SET title = ?, body = ?, updated_at_ms = ? WHERE reply_id = ?",
        )
        .bind(&title)
        .bind(&body)
        .bind(self.store.now_ms())
        .bind(reply_id)
        .execute(self.store.own_pool(HOME)?)
        .await?;
        if done.rows_affected() == 0 {
            return Err(DeskError::NotFound(format!("saved reply {reply_id}")));
        }
        Ok(SavedReply {
            reply_id,
            title,
            body,
        })
    }

    pub async fn delete_reply(&self, reply_id: i32) -> Result<(), DeskError> {
        let done = sqlx::query("DELETE FROM desk_replies WHERE reply_id = ?")
            .bind(reply_id)
            .execute(self.store.own_pool(HOME)?)
            .await?;
        if done.rows_affected() == 0 {
            return Err(DeskError::NotFound(format!("saved reply {reply_id}")));
        }
        Ok(())
    }

    /// The half-written answer to a call, if any.
    pub async fn draft(&self, call_id: &str) -> Result<Option<String>, DeskError> {
        let class_id = self.class_of(call_id).await?;
        Ok(
            sqlx::query_scalar("SELECT body FROM desk_drafts WHERE class_id = ? AND call_id = ?")
                .bind(&class_id)
                .bind(call_id)
                .fetch_optional(self.store.own_pool(HOME)?)
                .await?,
        )
    }

    /// Keeps a half-written answer; an empty one removes the draft. Not validated beyond a
    /// generous cap: a draft may be over the limit while the teacher trims it.
    pub async fn set_draft(&self, call_id: &str, body: &str) -> Result<(), DeskError> {
        let class_id = self.class_of(call_id).await?;
        if body.trim().is_empty() {
            sqlx::query("DELETE FROM desk_drafts WHERE class_id = ? AND call_id = ?")
                .bind(&class_id)
                .bind(call_id)
                .execute(self.store.own_pool(HOME)?)
                .await?;
            return Ok(());
        }
        if body.chars().count() > MAX_ANSWER_CHARS * 4 {
            return Err(DeskError::InvalidAnswer(
                crate::error::Said::refused("error-desk-draft-too-long")
                    .count("max", (MAX_ANSWER_CHARS * 4) as f64),
            ));
        }
        sqlx::query(
            "INSERT INTO desk_drafts (class_id, call_id, body, updated_at_ms) VALUES (?, ?, ?, ?) \
             ON CONFLICT (class_id, call_id) DO UPDATE SET body = excluded.body, \
             updated_at_ms = excluded.updated_at_ms",
        )
        .bind(&class_id)
        .bind(call_id)
        .bind(body)
        .bind(self.store.now_ms())
        .execute(self.store.own_pool(HOME)?)
        .await?;
        Ok(())
    }

    /// Are the sound and the notification on a new request turned off?
    pub async fn muted(&self) -> Result<bool, DeskError> {
        Ok(self.store.setting(MUTED_KEY).await?.as_deref() == Some("1"))
    }

    pub async fn set_muted(&self, muted: bool) -> Result<(), DeskError> {
        self.store
            .set_setting(MUTED_KEY, if muted { "1" } else { "0" })
            .await?;
        Ok(())
    }
}
