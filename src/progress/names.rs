//! The one place names are joined to anonymous ids for a view. Every view (grid, drill-down,
//! mastery, who needs me now) labels learners through [`Labeler`]; nothing else reads a roster
//! name for display. In projector-safe mode no name is ever read: learners get aliases
//! ("Learner 07") drawn afresh from a seed the UI picks each time the mode is switched on.

use std::collections::HashMap;

use crate::progress::grid::Learners;
use crate::roster::Roster;

/// How a view labels learners.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Privacy {
    /// Roster names where the teacher imported one, the anonymous id otherwise.
    Names,
    /// Projector-safe: aliases only, shuffled by `seed`; no name, no anonymous id.
    Projector { seed: u32 },
}

/// A seed for a fresh set of aliases (each projection, each switch into projector-safe mode):
/// drawn from the standard library's per-process random hash keys, so aliases cannot be
/// predicted from one session to the next.
pub fn fresh_seed() -> u32 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u8(0);
    // The low half of a random 64-bit hash.
    (h.finish() & u64::from(u32::MAX)) as u32
}

/// Labels for one class's learners.
#[derive(Debug, Clone)]
pub struct Labeler {
    labels: HashMap<String, String>,
    privacy: Privacy,
}

impl Labeler {
    /// `learners` is the class's whole learner list (aliases are numbered over all of them, so a
    /// learner keeps one alias across views while the seed stays the same). `roster` is only
    /// read in [`Privacy::Names`] mode.
    pub fn new(learners: &[String], roster: &Roster, privacy: Privacy) -> Self {
        let labels = match privacy {
            Privacy::Names => learners
                .iter()
                .map(|l| (l.clone(), roster.name(l).unwrap_or(l).to_string()))
                .collect(),
            Privacy::Projector { seed } => {
                // Aliases are words the window shows: in its language.
                let words = crate::error::window_words();
                let mut order: Vec<(u64, &String)> =
                    learners.iter().map(|l| (mix(seed, l), l)).collect();
                order.sort();
                let width = learners.len().to_string().len().max(2);
                order
                    .into_iter()
                    .enumerate()
                    .map(|(i, (_, l))| {
                        let n = format!("{:0width$}", i + 1);
                        (
                            l.clone(),
                            words.t_args("view-learner-alias", &[("n", n.into())]),
                        )
                    })
                    .collect()
            }
        };
        Self { labels, privacy }
    }

    pub fn privacy(&self) -> Privacy {
        self.privacy
    }

    pub fn projector_safe(&self) -> bool {
        matches!(self.privacy, Privacy::Projector { .. })
    }

    /// The label of one learner. A learner not in the list gets their id, or in projector-safe
    /// mode a placeholder (never the id: the id links to the roster).
    pub fn label(&self, learner: &str) -> String {
        match self.labels.get(learner) {
            Some(l) => l.clone(),
            None if self.projector_safe() => crate::error::window_words().t("view-learner"),
            None => learner.to_string(),
        }
    }

    /// The id a view may show beside the label: `None` in projector-safe mode.
    pub fn visible_id(&self, learner: &str) -> Option<String> {
        (!self.projector_safe()).then(|| learner.to_string())
    }
}

/// A 64-bit FNV-1a of the seed and the id, then a finalizer: a stable shuffle key.
fn mix(seed: u32, learner: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in seed.to_le_bytes().iter().chain(learner.as_bytes()) {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

impl crate::store::Store {
    /// The labels of one class's learners under `privacy`: the roster is read only when names
    /// may be shown.
    pub async fn labeler(
        &self,
        class_id: &str,
        privacy: Privacy,
    ) -> Result<Labeler, crate::store::StoreError> {
        let learners = self.learners(class_id).await?;
        let roster = match privacy {
            Privacy::Names => self.roster(class_id).await?,
            Privacy::Projector { .. } => Default::default(),
        };
        Ok(Labeler::new(&learners, &roster, privacy))
    }

    /// [`Store::labeler`] for the rows of some learners: a name needs only the roster, but an
    /// alias numbers the whole class, so projector-safe mode (and the whole class) reads it all.
    pub async fn labeler_of(
        &self,
        class_id: &str,
        privacy: Privacy,
        which: &Learners,
    ) -> Result<Labeler, crate::store::StoreError> {
        match (privacy, which) {
            (Privacy::Names, Learners::Only(ids)) => {
                Ok(Labeler::new(ids, &self.roster(class_id).await?, privacy))
            }
            _ => self.labeler(class_id, privacy).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roster::RosterEntry;

    fn roster() -> Roster {
        Roster::from_entries(&[RosterEntry {
            learner: "anon_aaaa1111".into(),
            display_name: "Ada Lovelace".into(),
        }])
    }

    fn learners() -> Vec<String> {
        (0..12)
            .map(|i| format!("anon_learner{i:02}"))
            .chain(["anon_aaaa1111".to_string()])
            .collect()
    }

    #[test]
    fn names_mode_uses_the_roster_and_falls_back_to_the_id() {
        let l = Labeler::new(&learners(), &roster(), Privacy::Names);
        assert_eq!(l.label("anon_aaaa1111"), "Ada Lovelace");
        assert_eq!(l.label("anon_learner03"), "anon_learner03");
        assert_eq!(
            l.visible_id("anon_learner03").as_deref(),
            Some("anon_learner03")
        );
    }

    #[test]
    fn projector_mode_shows_distinct_aliases_and_no_name_or_id() {
        let ls = learners();
        let l = Labeler::new(&ls, &roster(), Privacy::Projector { seed: 7 });
        let labels: Vec<String> = ls.iter().map(|x| l.label(x)).collect();
        let mut unique = labels.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), ls.len(), "aliases are distinct");
        assert!(labels.iter().all(|x| x.starts_with("Learner ")));
        assert!(
            !labels
                .iter()
                .any(|x| x.contains("Ada") || x.contains("anon_"))
        );
        assert_eq!(l.visible_id("anon_aaaa1111"), None);
        assert_eq!(l.label("anon_unknown99"), "Learner");
        // Another seed (the mode switched on again) draws other aliases.
        let again = Labeler::new(&ls, &roster(), Privacy::Projector { seed: 8 });
        let redrawn: Vec<String> = ls.iter().map(|x| again.label(x)).collect();
        assert_ne!(labels, redrawn);
        // The same seed gives the same aliases (stable across views).
        let same = Labeler::new(&ls, &roster(), Privacy::Projector { seed: 7 });
        assert_eq!(labels, ls.iter().map(|x| same.label(x)).collect::<Vec<_>>());
    }
}
