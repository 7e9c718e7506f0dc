//! The catalog's standards and their prerequisites (`pathway-host.md` §1): what the knowledge
//! map draws as nodes and edges. Optional on the wire: a host without them gives an empty list,
//! and the map then shows the standards its steps name, without edges.

use serde::{Deserialize, Serialize};

use super::engine::{on_conn, on_pool};
use super::{Store, StoreError};

/// One standard of the catalog.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CatalogStandard {
    pub code: String,
    #[serde(default)]
    pub title: String,
    /// The standards this one builds on.
    #[serde(default)]
    pub requires: Vec<String>,
}

impl Store {
    /// Replaces the stored standards with `standards`, in one transaction. A prerequisite on
    /// itself is dropped (it would be a loop of one).
    pub async fn save_standards(&self, standards: &[CatalogStandard]) -> Result<(), StoreError> {
        let mut tx = self.engine().begin_write().await?;
        on_conn!(&mut tx.conn(), |conn| {
            sqlx::query("DELETE FROM catalog_standard_requires")
                .execute(&mut *conn)
                .await?;
            sqlx::query("DELETE FROM catalog_standards")
                .execute(&mut *conn)
                .await?;
            for (position, s) in standards.iter().enumerate() {
                let code = s.code.trim();
                if code.is_empty() {
                    continue;
                }
                sqlx::query(
                    "INSERT INTO catalog_standards (code, title, position) VALUES ($1, $2, $3) \
                 ON CONFLICT (code) DO NOTHING",
                )
                .bind(code)
                .bind(s.title.trim())
                .bind(i64::try_from(position).unwrap_or(i64::MAX))
                .execute(&mut *conn)
                .await?;
                for r in s.requires.iter().map(|r| r.trim()) {
                    if r.is_empty() || r == code {
                        continue;
                    }
                    sqlx::query(
                        "INSERT INTO catalog_standard_requires (code, requires) VALUES ($1, $2) \
                     ON CONFLICT DO NOTHING",
                    )
                    .bind(code)
                    .bind(r)
                    .execute(&mut *conn)
                    .await?;
                }
            }
        });
        tx.commit().await?;
        Ok(())
    }

    /// The stored standards in the host's order, each with its prerequisites (sorted).
    pub async fn standards(&self) -> Result<Vec<CatalogStandard>, StoreError> {
        let rows: Vec<(String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as("SELECT code, title FROM catalog_standards ORDER BY position, code")
                .fetch_all(pool)
                .await?
        });
        let edges: Vec<(String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT code, requires FROM catalog_standard_requires ORDER BY code, requires",
            )
            .fetch_all(pool)
            .await?
        });
        Ok(rows
            .into_iter()
            .map(|(code, title)| CatalogStandard {
                requires: edges
                    .iter()
                    .filter(|(c, _)| *c == code)
                    .map(|(_, r)| r.clone())
                    .collect(),
                code,
                title,
            })
            .collect())
    }
}
