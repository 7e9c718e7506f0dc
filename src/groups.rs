//! Groups of learners a teacher makes in a class ("to address different progress needs"), and
//! the groups the evidence suggests. Kept like the roster: in the teacher's own file, never sent
//! to a host. A learner may be in several groups. Every class view can be narrowed to a group
//! ([`Store::group`] gives its learners); a group's name is the teacher's words and goes through
//! the same scan as every text wherever it would leave the machine.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde::Serialize;

use crate::progress::knowledge::NodeState;
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// The longest group name.
pub const MAX_GROUP_NAME_CHARS: usize = 60;

/// A suggestion needs this many learners: one learner is not a group.
pub const MIN_SUGGESTED: usize = 2;

/// A group of a class: its name and its learners (anonymous ids, in id order).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct Group {
    pub name: String,
    pub learners: Vec<String>,
}

/// A group the evidence suggests, to make in one click.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct SuggestedGroup {
    /// What the learners share.
    pub basis: Basis,
    pub learners: Vec<String>,
}

/// Why a group is suggested.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    /// Their newest run of a step showed this misconception (the students' widget's words).
    Misconception(String),
    /// The knowledge map calls them "missed" on this standard.
    MissedStandard(String),
}

/// The rule for suggestions, over what the store holds of a class: `newest` maps each
/// (learner, step) to the misconception its newest run showed (if it showed one), `missed` each
/// standard to the learners the knowledge map calls "missed" on it. Learners who showed the same
/// misconception on their newest run of a step, or who missed the same standard, are suggested
/// together once there are [`MIN_SUGGESTED`] of them; the biggest first.
pub fn suggest(
    newest: &HashMap<(String, String), Option<String>>,
    missed: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<SuggestedGroup> {
    let mut by_misconception: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for ((learner, _step), shown) in newest {
        if let Some(m) = shown.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
            by_misconception.entry(m).or_default().insert(learner);
        }
    }
    let mut out: Vec<SuggestedGroup> = by_misconception
        .into_iter()
        .filter(|(_, l)| l.len() >= MIN_SUGGESTED)
        .map(|(m, learners)| SuggestedGroup {
            basis: Basis::Misconception(m.to_string()),
            learners: learners.into_iter().map(str::to_owned).collect(),
        })
        .collect();
    out.extend(missed.iter().filter(|(_, l)| l.len() >= MIN_SUGGESTED).map(
        |(standard, learners)| SuggestedGroup {
            basis: Basis::MissedStandard(standard.clone()),
            learners: learners.iter().cloned().collect(),
        },
    ));
    out.sort_by(|a, b| {
        b.learners
            .len()
            .cmp(&a.learners.len())
            .then(a.basis.cmp(&b.basis))
    });
    out
}

/// Each run's misconception (text only), with what picks the newest run of a learner's step.
const RUN_MISCONCEPTIONS_SQL: &str = "SELECT learner, widget_id, at_ms, widget_run_id, \
     CASE WHEN json_type(payload, '$.widget_result.detail.misconception') = 'text' \
     THEN json_extract(payload, '$.widget_result.detail.misconception') END \
     FROM results_with_payload WHERE class_id = $1";

/// [`RUN_MISCONCEPTIONS_SQL`] on PostgreSQL, whose JSON operators differ.
const RUN_MISCONCEPTIONS_SQL_PG: &str = "SELECT learner, widget_id, at_ms, widget_run_id, \
     CASE WHEN json_typeof(payload::json #> '{widget_result,detail,misconception}') = 'string' \
     THEN payload::json #>> '{widget_result,detail,misconception}' END \
     FROM results_with_payload WHERE class_id = $1";

fn valid_name(name: &str) -> Result<String, StoreError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(crate::error::Said::refused("error-group-name-empty").into());
    }
    if name.chars().count() > MAX_GROUP_NAME_CHARS {
        return Err(crate::error::Said::refused("error-group-name-too-long")
            .count("max", MAX_GROUP_NAME_CHARS as f64)
            .into());
    }
    if name.chars().any(char::is_control) {
        return Err(crate::error::Said::refused("error-group-name-one-line").into());
    }
    Ok(name.to_string())
}

impl Store {
    /// The groups of a class, by name (none on a shared store without its home).
    pub async fn groups(&self, class_id: &str) -> Result<Vec<Group>, StoreError> {
        let Some(pool) = self.home_pool() else {
            return Ok(Vec::new());
        };
        let rows: Vec<(String, Option<String>)> = sqlx::query_as(
            "SELECT g.name, m.learner FROM learner_groups g \
             LEFT JOIN learner_group_members m ON m.class_id = g.class_id AND m.name = g.name \
             WHERE g.class_id = ? ORDER BY g.name, m.learner",
        )
        .bind(class_id)
        .fetch_all(pool)
        .await?;
        let mut out: Vec<Group> = Vec::new();
        for (name, learner) in rows {
            if out.last().is_none_or(|g| g.name != name) {
                out.push(Group {
                    name,
                    learners: Vec::new(),
                });
            }
            if let (Some(g), Some(l)) = (out.last_mut(), learner) {
                g.learners.push(l);
            }
        }
        Ok(out)
    }

    /// One group of a class, or [`StoreError::NotFound`].
    pub async fn group(&self, class_id: &str, name: &str) -> Result<Group, StoreError> {
        self.groups(class_id)
            .await?
            .into_iter()
            .find(|g| g.name == name.trim())
            .ok_or_else(|| {
                crate::error::Said::not_found("error-group-not-found")
                    .with("name", name.trim())
                    .into()
            })
    }

    /// Makes the group `name` of `learners` (or replaces the learners of the group of that
    /// name). Every learner must be the class's; a group has at least one.
    pub async fn save_group(
        &self,
        class_id: &str,
        name: &str,
        learners: &[String],
    ) -> Result<Group, StoreError> {
        let name = valid_name(name)?;
        let pool = self.own_pool("groups (they stay in a teacher's own file)")?;
        let class: BTreeSet<String> = self.learners(class_id).await?.into_iter().collect();
        let members: BTreeSet<&String> = learners.iter().collect();
        if members.is_empty() {
            return Err(crate::error::Said::refused("error-group-empty").into());
        }
        let strangers = members.iter().filter(|l| !class.contains(**l)).count();
        if strangers > 0 {
            return Err(crate::error::Said::refused("error-group-strangers")
                .count("strangers", strangers as f64)
                .into());
        }
        let now = self.now_ms();
        let mut tx = pool.begin().await?;
        sqlx::query(
            "INSERT INTO learner_groups (class_id, name, created_at) VALUES (?, ?, ?) \
             ON CONFLICT (class_id, name) DO NOTHING",
        )
        .bind(class_id)
        .bind(&name)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        sqlx::query("DELETE FROM learner_group_members WHERE class_id = ? AND name = ?")
            .bind(class_id)
            .bind(&name)
            .execute(&mut *tx)
            .await?;
        for learner in &members {
            sqlx::query(
                "INSERT INTO learner_group_members (class_id, name, learner) VALUES (?, ?, ?)",
            )
            .bind(class_id)
            .bind(&name)
            .bind(learner.as_str())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(Group {
            name,
            learners: members.into_iter().cloned().collect(),
        })
    }

    /// Deletes a group (its learners stay in the class).
    pub async fn delete_group(&self, class_id: &str, name: &str) -> Result<(), StoreError> {
        let pool = self.own_pool("groups (they stay in a teacher's own file)")?;
        let deleted = sqlx::query("DELETE FROM learner_groups WHERE class_id = ? AND name = ?")
            .bind(class_id)
            .bind(name.trim())
            .execute(pool)
            .await?;
        if deleted.rows_affected() == 0 {
            return Err(crate::error::Said::not_found("error-group-not-found")
                .with("name", name.trim())
                .into());
        }
        Ok(())
    }

    /// The groups the class's evidence suggests ([`suggest`]).
    pub async fn suggested_groups(
        &self,
        class_id: &str,
    ) -> Result<Vec<SuggestedGroup>, StoreError> {
        type Row = (String, String, i64, String, Option<String>);
        let rows: Vec<Row> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(if PG {
                RUN_MISCONCEPTIONS_SQL_PG
            } else {
                RUN_MISCONCEPTIONS_SQL
            })
            .bind(class_id)
            .fetch_all(pool)
            .await?
        });
        let mut newest: HashMap<(String, String), (i64, String, Option<String>)> = HashMap::new();
        for (learner, widget_id, at_ms, run, shown) in rows {
            let slot =
                newest
                    .entry((learner, widget_id))
                    .or_insert((i64::MIN, String::new(), None));
            if (at_ms, &run) > (slot.0, &slot.1) {
                *slot = (at_ms, run, shown);
            }
        }
        let newest = newest.into_iter().map(|(k, (_, _, m))| (k, m)).collect();
        let knowledge = self.class_knowledge(class_id).await?;
        let missed = knowledge
            .states
            .into_iter()
            .map(|(standard, learners)| {
                let missed = learners
                    .into_iter()
                    .filter(|(_, s)| *s == NodeState::Missed)
                    .map(|(l, _)| l)
                    .collect();
                (standard, missed)
            })
            .collect();
        Ok(suggest(&newest, &missed))
    }
}

/// The learners a class view is narrowed to: the whole class, or one group's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Scope {
    #[default]
    Class,
    Group {
        name: String,
        learners: BTreeSet<String>,
    },
}

impl Scope {
    /// The scope `group` names in `class_id` (the whole class for `None`); an unknown group is
    /// [`StoreError::NotFound`], never silently the whole class.
    pub async fn of(
        store: &Store,
        class_id: &str,
        group: Option<&str>,
    ) -> Result<Self, StoreError> {
        match group.map(str::trim).filter(|g| !g.is_empty()) {
            None => Ok(Self::Class),
            Some(name) => {
                let g = store.group(class_id, name).await?;
                Ok(Self::Group {
                    name: g.name,
                    learners: g.learners.into_iter().collect(),
                })
            }
        }
    }

    /// Whether `learner` is in view.
    pub fn includes(&self, learner: &str) -> bool {
        match self {
            Self::Class => true,
            Self::Group { learners, .. } => learners.contains(learner),
        }
    }

    /// The group's name, when the view is narrowed to one.
    pub fn group_name(&self) -> Option<&str> {
        match self {
            Self::Class => None,
            Self::Group { name, .. } => Some(name),
        }
    }

    /// The group's learners as a JSON array, for a query's `learner IN (...)` bound as one
    /// parameter (`None` for the whole class, whose queries get no filter).
    pub fn learners_json(&self) -> Option<String> {
        match self {
            Self::Class => None,
            Self::Group { learners, .. } => Some(
                serde_json::Value::from(learners.iter().cloned().collect::<Vec<_>>()).to_string(),
            ),
        }
    }

    /// `learners` narrowed to the scope, in their order.
    pub fn narrow(&self, learners: Vec<String>) -> Vec<String> {
        match self {
            Self::Class => learners,
            Self::Group { .. } => learners.into_iter().filter(|l| self.includes(l)).collect(),
        }
    }
}
