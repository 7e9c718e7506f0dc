//! The class header's room controls (`pathway-host.md` §3): whether the class is paused, each
//! assignment's pacing limit, and which controls the host offers. Actions go through
//! [`crate::room`]; what the header shows is what the feed reported, so every dashboard watching
//! the class shows the same.

use serde::{Deserialize, Serialize};

use super::ViewError;
use crate::dto::{count_i32 as n32, ms};
use crate::host::offers::HostOffers;
use crate::live::Live;
use crate::room;

/// One assignment's pacing, for the header and the pacing control.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct PacingView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub pathway_title: String,
    /// The last step learners may open; none when the pathway is not paced.
    pub up_to: Option<String>,
    pub up_to_title: Option<String>,
    /// The limit as a step number (1-based) of the pathway, for "up to step N".
    pub up_to_step: Option<i32>,
    /// The pathway's steps (`widget_id`, title) in order: the choices of the control.
    pub steps: Vec<PacingStepView>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct PacingStepView {
    pub widget_id: String,
    pub title: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RoomView {
    pub paused: bool,
    /// What the paused widgets show.
    pub message: Option<String>,
    /// When this dashboard learned of the pause (or its end).
    pub since_ms: Option<f64>,
    pub pacing: Vec<PacingView>,
    /// The host has `pause_class` and `resume_class`: the pause button is shown.
    pub can_pause: bool,
    /// The host has `set_pacing`: the pacing controls are shown.
    pub can_pace: bool,
    /// Why the controls are missing when the host could not be asked (offline); none otherwise.
    pub tools_unknown: Option<String>,
}

/// The header's room state and the controls the host offers. A host that cannot be reached
/// still shows the stored state, without controls.
pub async fn room_view(live: &Live, class_id: &str) -> Result<RoomView, ViewError> {
    let store = live.store();
    let state = store.room_state(class_id).await?;
    let (tools, tools_unknown) = match live.offers().await {
        Ok(tools) => (tools, None),
        Err(e) => (HostOffers::unasked(), Some(e.to_string())),
    };
    let catalog = store.catalog().await?;
    let mut pacing = Vec::new();
    for a in store.assignments(class_id).await? {
        let pathway = catalog.iter().find(|p| p.pathway_id == a.pathway_id);
        let steps: Vec<PacingStepView> = pathway
            .map(|p| {
                p.steps
                    .iter()
                    .map(|s| PacingStepView {
                        widget_id: s.widget_id.clone(),
                        title: s.entry.title.clone(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let up_to = state
            .pacing
            .iter()
            .find(|p| p.pathway_id == a.pathway_id)
            .map(|p| p.up_to.clone());
        let position = up_to
            .as_ref()
            .and_then(|w| steps.iter().position(|s| &s.widget_id == w));
        pacing.push(PacingView {
            assignment_id: a.assignment_id,
            pathway_title: pathway.map_or_else(|| a.pathway_id.clone(), |p| p.title.clone()),
            pathway_id: a.pathway_id,
            up_to_title: position.map(|i| steps[i].title.clone()),
            up_to_step: position.map(|i| n32(i + 1)),
            up_to,
            steps,
        });
    }
    Ok(RoomView {
        paused: state.paused,
        message: state.message,
        since_ms: state.updated_at_ms.map(ms),
        pacing,
        can_pause: tools.pause,
        can_pace: tools.pacing,
        tools_unknown,
    })
}

#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct PacingInput {
    pub class_id: String,
    pub pathway_id: String,
    /// The last step learners may open; none lifts the limit.
    pub up_to: Option<String>,
}

pub async fn pause(live: &Live, class_id: &str, message: Option<&str>) -> Result<(), ViewError> {
    Ok(room::pause(live, class_id, message).await?)
}

pub async fn resume(live: &Live, class_id: &str) -> Result<(), ViewError> {
    Ok(room::resume(live, class_id).await?)
}

pub async fn set_pacing(live: &Live, input: PacingInput) -> Result<(), ViewError> {
    Ok(room::set_pacing(
        live,
        &input.class_id,
        &input.pathway_id,
        input.up_to.as_deref(),
    )
    .await?)
}
