//! The host's catalog (what `list_pathways` said), assignments and learners as the store keeps
//! them, and the contract registry built from the catalog.

use a2learn_contract::{Registry, RegistryEntry};
use serde::{Deserialize, Serialize};

use super::engine::{by_code_point, on_conn, on_pool};
use super::{Store, StoreError};

/// One pathway of the catalog, as `list_pathways` returns it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pathway {
    pub pathway_id: String,
    pub title: String,
    /// The host's version label (a number or a string on the wire; kept as text).
    #[serde(deserialize_with = "string_or_number")]
    pub version: String,
    pub steps: Vec<PathwayStep>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PathwayStep {
    pub widget_id: String,
    pub entry: RegistryEntry,
}

fn string_or_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::String(s) => Ok(s),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        other => Err(serde::de::Error::custom(format!(
            "version must be a string or a number, not {other}"
        ))),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct AssignmentRow {
    pub assignment_id: String,
    pub class_id: String,
    pub pathway_id: String,
    pub due_at: Option<i64>,
    pub teacher_note: Option<String>,
    pub created_at: i64,
}

impl Store {
    /// Replaces the catalog snapshot with `pathways`, in one transaction.
    pub async fn save_catalog(&self, pathways: &[Pathway]) -> Result<(), StoreError> {
        // Build the registry first: a catalog whose entries contradict each other is refused
        // whole rather than half stored.
        registry_of(pathways)?;
        let now = self.now_ms();
        let mut tx = self.engine().begin_write().await?;
        on_conn!(&mut tx.conn(), |conn| {
            sqlx::query("DELETE FROM pathways")
                .execute(&mut *conn)
                .await?;
            for p in pathways {
                sqlx::query(
                    "INSERT INTO pathways (pathway_id, title, version, fetched_at) VALUES ($1, $2, $3, $4)",
                )
                .bind(&p.pathway_id)
                .bind(&p.title)
                .bind(&p.version)
                .bind(now)
                .execute(&mut *conn)
                .await?;
                for (position, step) in p.steps.iter().enumerate() {
                    let entry = serde_json::to_string(&step.entry)
                        .map_err(|e| StoreError::Invalid(format!("registry entry: {e}")))?;
                    sqlx::query(
                        "INSERT INTO pathway_steps (pathway_id, position, widget_id, kind, title, \
                     standard, assesses, entry) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                    )
                    .bind(&p.pathway_id)
                    .bind(i64::try_from(position).unwrap_or(i64::MAX))
                    .bind(&step.widget_id)
                    .bind(&step.entry.kind)
                    .bind(&step.entry.title)
                    .bind(&step.entry.standard)
                    .bind(step.entry.assesses)
                    .bind(entry)
                    .execute(&mut *conn)
                    .await?;
                }
            }
        });
        tx.commit().await?;
        Ok(())
    }

    /// The stored catalog, pathways in id order and steps in pathway order.
    pub async fn catalog(&self) -> Result<Vec<Pathway>, StoreError> {
        let pathways: Vec<(String, String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as("SELECT pathway_id, title, version FROM pathways ORDER BY pathway_id")
                .fetch_all(pool)
                .await?
        });
        let steps: Vec<(String, String, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT pathway_id, widget_id, entry FROM pathway_steps ORDER BY pathway_id, position",
            )
            .fetch_all(pool)
            .await?
        });
        let mut out: Vec<Pathway> = pathways
            .into_iter()
            .map(|(pathway_id, title, version)| Pathway {
                pathway_id,
                title,
                version,
                steps: Vec::new(),
            })
            .collect();
        for (pathway_id, widget_id, entry) in steps {
            let entry: RegistryEntry = serde_json::from_str(&entry)
                .map_err(|e| StoreError::Invalid(format!("stored registry entry: {e}")))?;
            if let Some(p) = out.iter_mut().find(|p| p.pathway_id == pathway_id) {
                p.steps.push(PathwayStep { widget_id, entry });
            }
        }
        Ok(out)
    }

    /// The contract registry of the stored catalog.
    pub async fn registry(&self) -> Result<Registry, StoreError> {
        registry_of(&self.catalog().await?)
    }

    /// Records an assignment (create_class/assign_pathway answers, or the feed's snapshot).
    pub async fn upsert_assignment(
        &self,
        assignment_id: &str,
        class_id: &str,
        pathway_id: &str,
        due_at: Option<i64>,
        teacher_note: Option<&str>,
    ) -> Result<(), StoreError> {
        on_pool!(self.engine(), |pool| {
            sqlx::query(
                "INSERT INTO assignments (assignment_id, class_id, pathway_id, due_at, teacher_note, \
                 created_at) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (assignment_id) DO UPDATE SET \
                 due_at = excluded.due_at, teacher_note = excluded.teacher_note",
            )
            .bind(assignment_id)
            .bind(class_id)
            .bind(pathway_id)
            .bind(due_at)
            .bind(teacher_note)
            .bind(self.now_ms())
            .execute(pool)
            .await?;
        });
        Ok(())
    }

    pub async fn assignments(&self, class_id: &str) -> Result<Vec<AssignmentRow>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_as::<_, AssignmentRow>(
                "SELECT assignment_id, class_id, pathway_id, due_at, teacher_note, created_at \
             FROM assignments WHERE class_id = $1 ORDER BY created_at, rowid",
            )
            .bind(class_id)
            .fetch_all(pool)
            .await?
        }))
    }

    /// A pathway's title as the catalog gave it (`None` for a pathway it does not list).
    pub async fn pathway_title(&self, pathway_id: &str) -> Result<Option<String>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_scalar("SELECT title FROM pathways WHERE pathway_id = $1")
                .bind(pathway_id)
                .fetch_optional(pool)
                .await?
        }))
    }

    /// The anonymous ids of a class's learners, in id order.
    pub async fn learners(&self, class_id: &str) -> Result<Vec<String>, StoreError> {
        Ok(on_pool!(self.engine(), |pool| {
            sqlx::query_scalar(&format!(
                "SELECT learner FROM learners WHERE class_id = $1 ORDER BY {}",
                by_code_point("learner", PG)
            ))
            .bind(class_id)
            .fetch_all(pool)
            .await?
        }))
    }
}

/// One registry from all pathways' steps. A kind that appears twice must be declared the same way
/// both times; two different declarations of one kind would make validation depend on order.
pub(crate) fn registry_of(pathways: &[Pathway]) -> Result<Registry, StoreError> {
    let mut entries: Vec<RegistryEntry> = Vec::new();
    for step in pathways.iter().flat_map(|p| &p.steps) {
        match entries.iter().find(|e| e.kind == step.entry.kind) {
            Some(existing) if *existing == step.entry => {}
            Some(_) => {
                return Err(StoreError::Invalid(format!(
                    "the catalog declares kind {:?} in two different ways",
                    step.entry.kind
                )));
            }
            None => entries.push(step.entry.clone()),
        }
    }
    Registry::new(entries).map_err(|e| StoreError::Invalid(format!("catalog registry: {e}")))
}
