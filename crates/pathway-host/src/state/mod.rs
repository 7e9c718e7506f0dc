//! The host's state: classes, their event logs, open calls, the scheduler and the
//! simulated learners. Synchronous and I/O-free except for appending to the event log file;
//! the server holds it behind one mutex and never across an `.await`.
//!
//! Time: `elapsed_ms` is the host's own time since start (wall-equivalent milliseconds),
//! moved forward only by [`HostState::advance_to`]; time stamps are `origin_ms + elapsed_ms`.
//! Simulated (virtual) durations are divided by the speed-up to become host time. The
//! scheduler is a priority queue ordered by (due time, insertion order), so a seed and a
//! sequence of calls at the same host times give the same log, byte for byte.
//!
//! This file holds the state itself (the public types, [`HostState`], appending to a log, the
//! reads the server and the feed make); [`tools`] the MCP tools' logic; [`scheduler`] host time,
//! the simulated learners and fault cadence; [`restore`] the restart from the event log.

mod restore;
mod scheduler;
mod tools;

use std::collections::{BTreeMap, BTreeSet, BinaryHeap, HashMap};
use std::sync::Arc;

use a2learn_contract::{Function, Registry, RuleId};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::catalog::{self, Step};
use crate::clock::rfc3339;
use crate::config::Faults;
use crate::error::{ErrorCode, HostError, ToolError};
use crate::persist::{Persist, Record};
use crate::rng::Rng;
use crate::sim::Learner;

use scheduler::Scheduled;

/// One frame of a class's event log, as the feed sends it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoggedFrame {
    pub seq: u64,
    /// The `data:` payload: an AG-UI event as JSON, or (an injected fault) anything.
    pub data: String,
    /// Put there by fault injection (or [`crate::RunningHost::emit_raw`]) rather than by the
    /// simulation or a tool.
    pub injected: bool,
    /// For an injected fault: the kebab-case id of the contract rule that must reject it
    /// (`bad-frame` for frames that are not valid AG-UI). `None` for valid frames, including
    /// the valid set-up frames an injection needs (the first struggle before a second one).
    pub expect_rule: Option<String>,
}

impl LoggedFrame {
    /// The frame as JSON, if it is JSON.
    pub fn json(&self) -> Option<Value> {
        serde_json::from_str(&self.data).ok()
    }

    /// The expected rejection rule, parsed.
    pub fn rule(&self) -> Option<RuleId> {
        self.expect_rule.as_deref().and_then(|r| r.parse().ok())
    }
}

/// An assignment of a pathway to a class.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Assignment {
    pub assignment_id: String,
    pub pathway_id: String,
    pub assigned_at: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub teacher_note: Option<String>,
}

/// What the host knows about a class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    pub class_id: String,
    pub title: String,
    pub join_code: String,
    pub assignments: Vec<Assignment>,
    pub learners: Vec<String>,
    /// Paused by `pause_class` (`pathway-host.md` §3).
    pub paused: bool,
    /// `set_pacing`: `pathway_id` -> the last `widget_id` learners may open.
    pub pacing: BTreeMap<String, String>,
}

/// The state of a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CallState {
    Open,
    Answered,
    Expired,
}

/// A score or assist call the host knows about.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    pub call_id: String,
    pub class_id: String,
    pub function: Function,
    /// Epoch milliseconds.
    pub deadline_ms: i64,
    pub claimed_by: Option<String>,
    pub state: CallState,
    learner: Option<usize>,
}

pub(crate) struct Class {
    pub id: String,
    pub title: String,
    pub join_code: String,
    pub assignments: Vec<Assignment>,
    pub learners: Vec<Learner>,
    pub log: Vec<Arc<LoggedFrame>>,
    pub next_seq: u64,
    pub notify: watch::Sender<u64>,
    /// Paused by `pause_class`: the simulated learners emit nothing.
    pub paused: bool,
    /// `pathway_id` -> `up_to`: learners open no step after it.
    pub pacing: BTreeMap<String, String>,
    /// Learners whose wake-up came while the class was paused or their step was past the
    /// pacing limit: woken again when that changes.
    parked: BTreeSet<usize>,
    sim_frames: u64,
    malformed_cursor: usize,
    break_cursor: usize,
}

impl Class {
    pub(super) fn new(id: String, title: String, join_code: String) -> Self {
        Class {
            id,
            title,
            join_code,
            assignments: Vec::new(),
            learners: Vec::new(),
            log: Vec::new(),
            next_seq: 1,
            notify: watch::Sender::new(0),
            paused: false,
            pacing: BTreeMap::new(),
            parked: BTreeSet::new(),
            sim_frames: 0,
            malformed_cursor: 0,
            break_cursor: 0,
        }
    }

    /// The assigned steps in order, each pathway cut after its pacing limit.
    pub(super) fn plan(&self) -> Vec<(String, Step)> {
        self.assignments
            .iter()
            .filter_map(|a| catalog::find_pathway(&a.pathway_id))
            .flat_map(|p| {
                let id = p.pathway_id.clone();
                let open = match self.pacing.get(&id) {
                    Some(up_to) => p
                        .steps
                        .iter()
                        .position(|s| &s.widget_id == up_to)
                        .map_or(p.steps.len(), |i| i + 1),
                    None => p.steps.len(),
                };
                p.steps.into_iter().take(open).map(move |s| (id.clone(), s))
            })
            .collect()
    }

    /// May a learner work on (and complete) this step under the class's pacing?
    pub(super) fn within_pacing(&self, pathway_id: &str, widget_id: &str) -> bool {
        let Some(up_to) = self.pacing.get(pathway_id) else {
            return true;
        };
        let Some(pathway) = catalog::find_pathway(pathway_id) else {
            return true;
        };
        let index = |w: &str| pathway.steps.iter().position(|s| s.widget_id == w);
        match (index(widget_id), index(up_to)) {
            (Some(step), Some(limit)) => step <= limit,
            _ => true,
        }
    }
}

pub(crate) struct StateConfig {
    pub origin_ms: i64,
    pub speed: f64,
    pub help_wait: Option<std::time::Duration>,
    pub seed: u64,
    pub learners: usize,
    pub simulate: bool,
    pub faults: Faults,
}

pub(crate) struct HostState {
    origin_ms: i64,
    elapsed_ms: u64,
    speed: f64,
    /// Real milliseconds a help request stays open, when not scaled by `speed`.
    help_wait_ms: Option<u64>,
    seed: u64,
    generation: u64,
    learners_per_class: usize,
    simulate: bool,
    registry: Registry,
    pub classes: BTreeMap<String, Class>,
    class_count: u64,
    calls: HashMap<String, Call>,
    queue: BinaryHeap<Scheduled>,
    order: u64,
    persist: Option<Persist>,
    pub faults: Faults,
    inject_rng: Rng,
}

impl HostState {
    /// A fresh host, or one restored from its event log.
    pub fn new(config: StateConfig, persist: Option<Persist>) -> Result<Self, HostError> {
        let mut state = HostState {
            origin_ms: config.origin_ms,
            elapsed_ms: 0,
            speed: if config.speed > 0.0 {
                config.speed
            } else {
                1.0
            },
            help_wait_ms: config
                .help_wait
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX).max(1)),
            seed: config.seed,
            generation: 0,
            learners_per_class: config.learners,
            simulate: config.simulate,
            registry: catalog::registry(),
            classes: BTreeMap::new(),
            class_count: 0,
            calls: HashMap::new(),
            queue: BinaryHeap::new(),
            order: 0,
            persist: None,
            faults: config.faults,
            inject_rng: Rng::new(0),
        };
        if let Some(mut persist) = persist {
            let records = persist.load()?;
            state.restore(records);
            state.persist = Some(persist);
        }
        state.inject_rng = Rng::derive(state.seed, &format!("inject/{}", state.generation));
        let generation = state.generation;
        state.record(&Record::Start { generation });
        Ok(state)
    }

    fn record(&mut self, record: &Record) {
        if let Some(persist) = self.persist.as_mut() {
            persist.append(record);
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.origin_ms + i64::try_from(self.elapsed_ms).unwrap_or(i64::MAX / 2)
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.elapsed_ms
    }

    fn now_at(&self) -> String {
        rfc3339(self.now_ms())
    }

    /// Appends a frame to a class's log (and its file), and wakes its feeds.
    pub fn append(
        &mut self,
        class_id: &str,
        data: String,
        injected: bool,
        expect_rule: Option<RuleId>,
    ) -> Option<u64> {
        let class = self.classes.get_mut(class_id)?;
        let seq = class.next_seq;
        class.next_seq += 1;
        let frame = LoggedFrame {
            seq,
            data,
            injected,
            expect_rule: expect_rule.map(|r| r.as_str().to_owned()),
        };
        let record = Record::Frame {
            class_id: class_id.to_owned(),
            seq,
            data: frame.data.clone(),
            injected,
            expect_rule: frame.expect_rule.clone(),
        };
        class.log.push(Arc::new(frame));
        class.notify.send_replace(seq);
        self.record(&record);
        Some(seq)
    }

    pub fn snapshot(&self, class_id: &str) -> Option<Value> {
        let class = self.classes.get(class_id)?;
        Some(json!({
            "class_id": class.id,
            "learners": class.learners.iter().map(|l| l.id.clone()).collect::<Vec<_>>(),
            "assignments": class.assignments,
            "paused": class.paused,
            "pacing": class.pacing,
        }))
    }

    pub fn subscribe(&self, class_id: &str) -> Option<watch::Receiver<u64>> {
        self.classes.get(class_id).map(|c| c.notify.subscribe())
    }

    pub fn frames_after(&self, class_id: &str, after: u64, limit: usize) -> Vec<Arc<LoggedFrame>> {
        let Some(class) = self.classes.get(class_id) else {
            return Vec::new();
        };
        let start = class.log.partition_point(|f| f.seq <= after);
        class.log[start..].iter().take(limit).cloned().collect()
    }

    pub fn log(&self, class_id: &str) -> Vec<LoggedFrame> {
        self.classes
            .get(class_id)
            .map(|c| c.log.iter().map(|f| (**f).clone()).collect())
            .unwrap_or_default()
    }

    pub fn calls(&self, class_id: &str) -> Vec<Call> {
        let mut calls: Vec<Call> = self
            .calls
            .values()
            .filter(|c| c.class_id == class_id)
            .cloned()
            .collect();
        calls.sort_by(|a, b| a.call_id.cmp(&b.call_id));
        calls
    }

    pub fn class_info(&self, class_id: &str) -> Option<ClassInfo> {
        self.classes.get(class_id).map(|c| ClassInfo {
            class_id: c.id.clone(),
            title: c.title.clone(),
            join_code: c.join_code.clone(),
            assignments: c.assignments.clone(),
            learners: c.learners.iter().map(|l| l.id.clone()).collect(),
            paused: c.paused,
            pacing: c.pacing.clone(),
        })
    }

    pub fn class_ids(&self) -> Vec<String> {
        self.classes.keys().cloned().collect()
    }

    pub fn learner_ids(&self, class_id: &str) -> Vec<String> {
        self.classes
            .get(class_id)
            .map(|c| c.learners.iter().map(|l| l.id.clone()).collect())
            .unwrap_or_default()
    }

    // ---- injection helpers used by inject.rs ----

    pub(crate) fn inject_rng(&mut self) -> &mut Rng {
        &mut self.inject_rng
    }

    pub(crate) fn open_injected_call(
        &mut self,
        class_id: &str,
        call_id: &str,
        deadline_ms: i64,
        answered: bool,
    ) {
        self.open_call(class_id, call_id, Function::Assist, deadline_ms, None);
        if answered && let Some(call) = self.calls.get_mut(call_id) {
            call.state = CallState::Answered;
        }
    }

    pub(crate) fn speed(&self) -> f64 {
        self.speed
    }
}

pub(super) fn unknown_class(class_id: &str) -> ToolError {
    ToolError::new(ErrorCode::UnknownClass, format!("no class {class_id:?}"))
}

pub(super) fn expired(call_id: &str) -> ToolError {
    ToolError::new(
        ErrorCode::Expired,
        format!("call {call_id:?} is past its deadline"),
    )
}

/// Adds an AG-UI `timestamp` (epoch ms) to an event line that has none.
pub(crate) fn with_timestamp(line: &str, ms: i64) -> String {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(mut obj)) => {
            obj.entry("timestamp").or_insert(Value::from(ms));
            Value::Object(obj).to_string()
        }
        _ => line.to_owned(),
    }
}
