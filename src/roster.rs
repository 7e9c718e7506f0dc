//! The roster: names a teacher attaches to anonymous learner ids, from a CSV file, kept in the
//! local store only. This module is the one place that reads names; everything that shows a
//! name gets it from [`Roster`].
//!
//! The CSV is parsed by the I/O-free `a2learn_proto::roster` (which the fuzz target drives);
//! this module stores it and reads it back.

use std::collections::HashMap;

pub use a2learn_proto::roster::{
    MAX_NAME_CHARS, MAX_ROWS, RosterEntry, RosterErrors, RowError, parse_roster_csv,
};

use crate::store::{Store, StoreError};

/// The names of one class's learners, by anonymous id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Roster {
    names: HashMap<String, String>,
}

impl Roster {
    /// A roster from parsed entries (tests, and views built without a store).
    pub fn from_entries(entries: &[RosterEntry]) -> Self {
        Self {
            names: entries
                .iter()
                .map(|e| (e.learner.clone(), e.display_name.clone()))
                .collect(),
        }
    }

    /// Only [`crate::progress::names::Labeler`] calls this to show a name; everything else
    /// that needs a name to *avoid* it uses [`Roster::names`].
    pub fn name(&self, learner: &str) -> Option<&str> {
        self.names.get(learner).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.names.len()
    }

    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Every name, for scanning text that must not contain one (exports, logs).
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.values().map(String::as_str)
    }
}

impl Store {
    /// Replaces a class's roster with `entries`, in one transaction.
    pub async fn import_roster(
        &self,
        class_id: &str,
        entries: &[RosterEntry],
    ) -> Result<(), StoreError> {
        let now = self.now_ms();
        // Names never go into a school's shared store: a roster belongs to a teacher's file
        // (beside a shared store, its home).
        let pool = self.own_pool("a roster (names stay in a teacher's own file)")?;
        if let Some(home) = self.home() {
            // The file's roster names a class it has no results of: a row for it to belong to.
            home.ensure_class(class_id).await?;
        }
        let mut tx = pool.begin().await?;
        sqlx::query("DELETE FROM roster WHERE class_id = ?")
            .bind(class_id)
            .execute(&mut *tx)
            .await?;
        for e in entries {
            sqlx::query(
                "INSERT INTO roster (class_id, learner, display_name, imported_at) \
                 VALUES (?, ?, ?, ?)",
            )
            .bind(class_id)
            .bind(&e.learner)
            .bind(&e.display_name)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The roster of a class (empty when none was imported, and always on a shared store
    /// without its home, which holds no names: [`Store::import_roster`] refuses one there).
    pub async fn roster(&self, class_id: &str) -> Result<Roster, StoreError> {
        let Some(pool) = self.home_pool() else {
            return Ok(Roster::default());
        };
        let rows: Vec<(String, String)> =
            sqlx::query_as("SELECT learner, display_name FROM roster WHERE class_id = ?")
                .bind(class_id)
                .fetch_all(pool)
                .await?;
        Ok(Roster {
            names: rows.into_iter().collect(),
        })
    }

    /// Every name in every roster, for the export linter and the privacy tests (none on a
    /// shared store without its home).
    pub async fn all_roster_names(&self) -> Result<Vec<String>, StoreError> {
        let Some(pool) = self.home_pool() else {
            return Ok(Vec::new());
        };
        Ok(
            sqlx::query_scalar("SELECT DISTINCT display_name FROM roster ORDER BY display_name")
                .fetch_all(pool)
                .await?,
        )
    }
}
