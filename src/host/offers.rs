//! What the configured host offers, from its `tools/list`: the dashboard shows a control only
//! when the host has the tool behind it (`pathway-host.md` §3 says so of the room controls; the
//! same rule keeps a read-only host — the bridge over the upstream's database — from being
//! offered a "Create class" it can only refuse).

use std::collections::BTreeSet;

use crate::room::{PAUSE_CLASS, RESUME_CLASS, SET_PACING};

pub const CREATE_CLASS: &str = "create_class";
pub const ASSIGN_PATHWAY: &str = "assign_pathway";
pub const CLAIM: &str = "claim";
pub const RESPOND: &str = "respond";

/// Which controls the host can honour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HostOffers {
    pub create_class: bool,
    pub assign_pathway: bool,
    /// `claim` and `respond`: the help desk's answers.
    pub answer: bool,
    /// `pause_class` and `resume_class` (a pause the teacher could not lift is not offered).
    pub pause: bool,
    pub pacing: bool,
}

impl HostOffers {
    pub fn from_names(names: &BTreeSet<String>) -> Self {
        let has = |tool: &str| names.contains(tool);
        HostOffers {
            create_class: has(CREATE_CLASS),
            assign_pathway: has(ASSIGN_PATHWAY),
            answer: has(CLAIM) && has(RESPOND),
            pause: has(PAUSE_CLASS) && has(RESUME_CLASS),
            pacing: has(SET_PACING),
        }
    }

    /// What is assumed while the host cannot be asked: the §1 tools every writing host has
    /// (a refusal then explains itself), none of the optional ones.
    pub fn unasked() -> Self {
        HostOffers {
            create_class: true,
            assign_pathway: true,
            answer: true,
            pause: false,
            pacing: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> BTreeSet<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_control_needs_its_tools() {
        let all = HostOffers::from_names(&names(&[
            "create_class",
            "assign_pathway",
            "claim",
            "respond",
            "pause_class",
            "resume_class",
            "set_pacing",
        ]));
        assert!(all.create_class && all.assign_pathway && all.answer && all.pause && all.pacing);
        let pause_alone = HostOffers::from_names(&names(&["pause_class", "claim"]));
        assert!(!pause_alone.pause, "a pause without resume is not offered");
        assert!(
            !pause_alone.answer,
            "a claim without respond is not offered"
        );
        let pacing = HostOffers::from_names(&names(&["set_pacing"]));
        assert!(pacing.pacing && !pacing.pause);
    }

    #[test]
    fn a_read_only_host_offers_no_write_control() {
        let bridge = HostOffers::from_names(&names(&[
            "list_pathways",
            "get_pathway_results",
            "list_classes",
        ]));
        assert_eq!(
            bridge,
            HostOffers {
                create_class: false,
                assign_pathway: false,
                answer: false,
                pause: false,
                pacing: false,
            }
        );
    }
}
