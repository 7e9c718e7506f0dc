//! The class page's groups: the teacher's groups of the class, the groups the evidence suggests
//! (`crate::groups::suggest`), the filter in force, and the learners to make a group of. In
//! projector-safe mode a room may be looking: no learner is listed, no suggestion (they name a
//! misconception beside learners), and a group whose name holds a roster name is shown as
//! "a group".

use serde::Serialize;

use super::ViewError;
use crate::dto::count_i32 as n32;
use crate::groups::{Basis, Group, SuggestedGroup};
use crate::progress::names::Privacy;
use crate::store::Store;

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GroupView {
    pub name: String,
    /// Learners of the group in the class.
    pub size: i32,
    /// Anonymous ids (empty in projector-safe mode).
    pub learners: Vec<String>,
    /// Their labels (names where the teacher imported a roster), in the same order.
    pub labels: Vec<String>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct SuggestedGroupView {
    /// The name the group gets when made: the misconception, or "Missed <standard>" in the
    /// window's language.
    pub name: String,
    /// What the learners' newest runs showed (the students' widget's words), or
    pub misconception: Option<String>,
    /// the standard the knowledge map calls them "missed" on.
    pub missed_standard: Option<String>,
    pub learners: Vec<String>,
    pub labels: Vec<String>,
}

/// One learner of the class, to pick for a new group.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct LearnerOption {
    pub learner: String,
    pub label: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct GroupsView {
    pub groups: Vec<GroupView>,
    pub suggested: Vec<SuggestedGroupView>,
    /// The group the class's views are narrowed to.
    pub filter: Option<String>,
    /// The class's learners (none in projector-safe mode).
    pub learners: Vec<LearnerOption>,
    /// Groups can be made here (a teacher's own file; not a shared store without its home).
    pub can_save: bool,
}

/// The groups part of the class page.
pub async fn groups_view(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    filter: Option<String>,
) -> Result<GroupsView, ViewError> {
    let labels = store.labeler(class_id, privacy).await?;
    let class = store.learners(class_id).await?;
    let room = privacy != Privacy::Names;
    let scanner = store.name_scanner().await?;
    let groups = store
        .groups(class_id)
        .await?
        .into_iter()
        .map(|g: Group| {
            let members: Vec<String> = g
                .learners
                .into_iter()
                .filter(|l| class.contains(l))
                .collect();
            let name = if room && scanner.scan(&g.name).is_some() {
                "a group".to_string()
            } else {
                g.name
            };
            GroupView {
                name,
                size: n32(members.len()),
                labels: if room {
                    Vec::new()
                } else {
                    members.iter().map(|l| labels.label(l)).collect()
                },
                learners: if room { Vec::new() } else { members },
            }
        })
        .collect();
    let suggested = if room {
        Vec::new()
    } else {
        store
            .suggested_groups(class_id)
            .await?
            .into_iter()
            .map(|s: SuggestedGroup| {
                let (name, misconception, missed_standard) = match s.basis {
                    Basis::Misconception(m) => (m.clone(), Some(m), None),
                    Basis::MissedStandard(code) => (
                        crate::error::window_words()
                            .t_args("view-missed-group-name", &[("standard", (&code).into())]),
                        None,
                        Some(code),
                    ),
                };
                SuggestedGroupView {
                    labels: s.learners.iter().map(|l| labels.label(l)).collect(),
                    name: name
                        .chars()
                        .take(crate::groups::MAX_GROUP_NAME_CHARS)
                        .collect(),
                    misconception,
                    missed_standard,
                    learners: s.learners,
                }
            })
            .collect()
    };
    let learners = if room {
        Vec::new()
    } else {
        class
            .iter()
            .map(|l| LearnerOption {
                learner: l.clone(),
                label: labels.label(l),
            })
            .collect()
    };
    Ok(GroupsView {
        groups,
        suggested,
        // The room sees that a group is shown, and its name only when it names nobody.
        filter: filter.map(|f| {
            if room && scanner.scan(&f).is_some() {
                "a group".to_string()
            } else {
                f
            }
        }),
        learners,
        can_save: store.holds_names(),
    })
}

/// Makes or refills a group from the teacher's window (not in projector-safe mode: the room
/// would see whom the teacher groups).
pub async fn save_group(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    name: &str,
    learners: &[String],
) -> Result<(), ViewError> {
    if privacy != Privacy::Names {
        return Err(crate::error::Said::hidden_from_room("error-hidden-groups").into());
    }
    store.save_group(class_id, name, learners).await?;
    Ok(())
}
