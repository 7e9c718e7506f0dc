//! The host's state: classes, their event logs, open calls, the scheduler and the
//! simulated learners. Synchronous and I/O-free except for appending to the event log file;
//! the server holds it behind one mutex and never across an `.await`.
//!
//! Time: `elapsed_ms` is the host's own time since start (wall-equivalent milliseconds),
//! moved forward only by [`Core::advance_to`]; time stamps are `origin_ms + elapsed_ms`.
//! Simulated (virtual) durations are divided by the speed-up to become host time. The
//! scheduler is a priority queue ordered by (due time, insertion order), so a seed and a
//! sequence of calls at the same host times give the same log, byte for byte.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::sync::Arc;

use a2learn_contract::transport::agui;
use a2learn_contract::{
    AssistValue, CallClaimed, CallError, Function, FunctionResponse, HostEvent, Message, Parsed,
    Registry, ResponseValue, RuleId, ScoreValue, validate_message,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use tokio::sync::watch;

use crate::catalog::{self, Step};
use crate::clock::{parse_rfc3339_ms, rfc3339};
use crate::config::Faults;
use crate::error::{ErrorCode, HostError, ToolError};
use crate::inject::Injection;
use crate::persist::{Persist, Record};
use crate::rng::Rng;
use crate::sim::{Learner, SimOut};

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
    sim_frames: u64,
    malformed_cursor: usize,
    break_cursor: usize,
}

impl Class {
    fn new(id: String, title: String, join_code: String) -> Self {
        Class {
            id,
            title,
            join_code,
            assignments: Vec::new(),
            learners: Vec::new(),
            log: Vec::new(),
            next_seq: 1,
            notify: watch::Sender::new(0),
            sim_frames: 0,
            malformed_cursor: 0,
            break_cursor: 0,
        }
    }

    /// The assigned steps in order.
    fn plan(&self) -> Vec<(String, Step)> {
        self.assignments
            .iter()
            .filter_map(|a| catalog::find_pathway(&a.pathway_id))
            .flat_map(|p| {
                let id = p.pathway_id.clone();
                p.steps.into_iter().map(move |s| (id.clone(), s))
            })
            .collect()
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Action {
    Learner {
        class_id: String,
        idx: usize,
        token: u64,
    },
    Deadline {
        call_id: String,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Scheduled {
    due: u64,
    order: u64,
    action: Action,
}

impl Ord for Scheduled {
    fn cmp(&self, other: &Self) -> Ordering {
        // Reversed: BinaryHeap is a max-heap and the earliest must come out first.
        (other.due, other.order).cmp(&(self.due, self.order))
    }
}

impl PartialOrd for Scheduled {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

pub(crate) struct CoreConfig {
    pub origin_ms: i64,
    pub speed: f64,
    pub seed: u64,
    pub learners: usize,
    pub simulate: bool,
    pub faults: Faults,
}

pub(crate) struct Core {
    origin_ms: i64,
    elapsed_ms: u64,
    speed: f64,
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

impl Core {
    /// A fresh host, or one restored from its event log.
    pub fn new(config: CoreConfig, persist: Option<Persist>) -> Result<Self, HostError> {
        let mut core = Core {
            origin_ms: config.origin_ms,
            elapsed_ms: 0,
            speed: if config.speed > 0.0 {
                config.speed
            } else {
                1.0
            },
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
            core.restore(records);
            core.persist = Some(persist);
        }
        core.inject_rng = Rng::derive(core.seed, &format!("inject/{}", core.generation));
        let generation = core.generation;
        core.record(&Record::Start { generation });
        Ok(core)
    }

    fn restore(&mut self, records: Vec<Record>) {
        let mut learner_ids: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for record in records {
            match record {
                Record::Start { generation } => self.generation = generation + 1,
                Record::Class {
                    class_id,
                    title,
                    join_code,
                } => {
                    self.class_count += 1;
                    self.classes
                        .insert(class_id.clone(), Class::new(class_id, title, join_code));
                }
                Record::Assignment {
                    class_id,
                    assignment,
                } => {
                    if let Some(class) = self.classes.get_mut(&class_id) {
                        class.assignments.push(assignment);
                    }
                }
                Record::Learners { class_id, learners } => {
                    learner_ids.insert(class_id, learners);
                }
                Record::Frame {
                    class_id,
                    seq,
                    data,
                    injected,
                    expect_rule,
                } => {
                    if let Some(class) = self.classes.get_mut(&class_id) {
                        class.next_seq = class.next_seq.max(seq + 1);
                        class.log.push(Arc::new(LoggedFrame {
                            seq,
                            data,
                            injected,
                            expect_rule,
                        }));
                        class.notify.send_replace(seq);
                    }
                }
            }
        }
        // Calls, claims and learner progress are facts of the log: replay its valid frames.
        let mut done: Vec<(String, String, String, String)> = Vec::new();
        for class in self.classes.values() {
            for frame in &class.log {
                if frame.expect_rule.is_some() {
                    continue;
                }
                let Ok(parsed) = agui::parse_event_str(&frame.data) else {
                    continue;
                };
                match parsed {
                    Parsed::Contract(Message::ScoreRequest(r)) => {
                        self.calls.insert(
                            r.call_id.clone(),
                            restored_call(&class.id, &r.call_id, Function::Score, &r.deadline),
                        );
                    }
                    Parsed::Contract(Message::AssistRequest(r)) => {
                        self.calls.insert(
                            r.call_id.clone(),
                            restored_call(&class.id, &r.call_id, Function::Assist, &r.deadline),
                        );
                    }
                    Parsed::Contract(Message::ScoreResponse(r) | Message::AssistResponse(r)) => {
                        if let Some(call) = self.calls.get_mut(&r.call_id) {
                            let timeout = r
                                .error
                                .as_ref()
                                .is_some_and(|e| e.code == CallError::TIMEOUT);
                            call.state = if timeout {
                                CallState::Expired
                            } else {
                                CallState::Answered
                            };
                        }
                    }
                    Parsed::Contract(Message::WidgetCompleted(m)) => {
                        done.push((
                            class.id.clone(),
                            m.identity.learner.clone(),
                            m.identity.pathway_id.clone(),
                            m.identity.widget_id.clone(),
                        ));
                    }
                    Parsed::Host(HostEvent::CallClaimed(c)) => {
                        if let Some(call) = self.calls.get_mut(&c.call_id) {
                            call.claimed_by = Some(c.claimed_by.clone());
                        }
                    }
                    _ => {}
                }
            }
        }
        for (class_id, ids) in learner_ids {
            let generation = self.generation;
            let seed = self.seed;
            if let Some(class) = self.classes.get_mut(&class_id) {
                class.learners = ids
                    .into_iter()
                    .enumerate()
                    .map(|(i, id)| {
                        Learner::new(
                            id,
                            Rng::derive(seed, &format!("{class_id}/learner/{i}/{generation}")),
                        )
                    })
                    .collect();
            }
        }
        for (class_id, learner, pathway_id, widget_id) in done {
            if let Some(class) = self.classes.get_mut(&class_id)
                && let Some(l) = class.learners.iter_mut().find(|l| l.id == learner)
            {
                l.mark_done(&pathway_id, &widget_id);
            }
        }
        // Open calls expire at their deadline, as before the restart.
        let mut open: Vec<(String, i64)> = self
            .calls
            .values()
            .filter(|c| c.state == CallState::Open)
            .map(|c| (c.call_id.clone(), c.deadline_ms))
            .collect();
        // A fixed order, so that two calls with the same deadline expire in the same order
        // on every restart (the map's order is random).
        open.sort_by(|a, b| (a.1, &a.0).cmp(&(b.1, &b.0)));
        for (call_id, deadline_ms) in open {
            let due = u64::try_from(deadline_ms - self.origin_ms).unwrap_or(0);
            self.schedule(due, Action::Deadline { call_id });
        }
        if self.simulate {
            let classes: Vec<(String, usize)> = self
                .classes
                .values()
                .filter(|c| !c.assignments.is_empty())
                .map(|c| (c.id.clone(), c.learners.len()))
                .collect();
            for (class_id, n) in classes {
                for idx in 0..n {
                    self.wake_first(&class_id, idx);
                }
            }
        }
        self.class_count = self.class_count.max(self.classes.len() as u64);
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

    /// Virtual (simulated) milliseconds to host milliseconds.
    fn host_ms(&self, virtual_ms: u64) -> u64 {
        ((virtual_ms as f64 / self.speed).round() as u64).max(1)
    }

    fn schedule(&mut self, due: u64, action: Action) {
        self.order += 1;
        self.queue.push(Scheduled {
            due,
            order: self.order,
            action,
        });
    }

    /// Runs everything due up to `elapsed_ms` (host time), in order.
    pub fn advance_to(&mut self, elapsed_ms: u64) {
        while let Some(next) = self.queue.peek() {
            if next.due > elapsed_ms {
                break;
            }
            let Some(next) = self.queue.pop() else { break };
            self.elapsed_ms = self.elapsed_ms.max(next.due);
            match next.action {
                Action::Learner {
                    class_id,
                    idx,
                    token,
                } => self.run_learner(&class_id, idx, token),
                Action::Deadline { call_id } => self.expire(&call_id),
            }
        }
        self.elapsed_ms = self.elapsed_ms.max(elapsed_ms);
    }

    // ---- the simulation ----

    fn wake_first(&mut self, class_id: &str, idx: usize) {
        let Some(learner) = self
            .classes
            .get_mut(class_id)
            .and_then(|c| c.learners.get_mut(idx))
        else {
            return;
        };
        let delay = learner.first_delay();
        self.wake(class_id, idx, delay);
    }

    fn wake(&mut self, class_id: &str, idx: usize, virtual_delay: u64) {
        let due = self.elapsed_ms + self.host_ms(virtual_delay);
        let Some(learner) = self
            .classes
            .get_mut(class_id)
            .and_then(|c| c.learners.get_mut(idx))
        else {
            return;
        };
        learner.token += 1;
        let token = learner.token;
        self.schedule(
            due,
            Action::Learner {
                class_id: class_id.to_owned(),
                idx,
                token,
            },
        );
    }

    fn run_learner(&mut self, class_id: &str, idx: usize, token: u64) {
        let at = self.now_at();
        let Some(class) = self.classes.get_mut(class_id) else {
            return;
        };
        let plan = class.plan();
        let Some(learner) = class.learners.get_mut(idx) else {
            return;
        };
        if learner.token != token {
            return;
        }
        let outs = learner.step(&plan, &at);
        self.apply(class_id, Some(idx), outs);
    }

    fn apply(&mut self, class_id: &str, idx: Option<usize>, outs: Vec<SimOut>) {
        let mut deadlines: HashMap<String, (Function, u64)> = HashMap::new();
        for out in &outs {
            if let SimOut::Open {
                call_id,
                function,
                deadline_in_ms,
            } = out
            {
                deadlines.insert(call_id.clone(), (*function, self.host_ms(*deadline_in_ms)));
            }
        }
        for out in outs {
            match out {
                SimOut::Emit(message) => {
                    let mut message = *message;
                    let call = match &mut message {
                        Message::ScoreRequest(r) => Some((&r.call_id, &mut r.deadline)),
                        Message::AssistRequest(r) => Some((&r.call_id, &mut r.deadline)),
                        _ => None,
                    };
                    if let Some((call_id, deadline)) = call
                        && let Some((function, host_ms)) = deadlines.get(call_id.as_str())
                    {
                        let deadline_ms = self.now_ms() + i64::try_from(*host_ms).unwrap_or(0);
                        *deadline = rfc3339(deadline_ms);
                        let call_id = call_id.clone();
                        self.open_call(class_id, &call_id, *function, deadline_ms, idx);
                    }
                    self.emit_message(class_id, &message);
                }
                SimOut::Open { .. } => {}
                SimOut::Wake(delay) => {
                    if let Some(idx) = idx {
                        self.wake(class_id, idx, delay);
                    }
                }
            }
        }
    }

    fn open_call(
        &mut self,
        class_id: &str,
        call_id: &str,
        function: Function,
        deadline_ms: i64,
        learner: Option<usize>,
    ) {
        self.calls.insert(
            call_id.to_owned(),
            Call {
                call_id: call_id.to_owned(),
                class_id: class_id.to_owned(),
                function,
                deadline_ms,
                claimed_by: None,
                state: CallState::Open,
                learner,
            },
        );
        let due = u64::try_from(deadline_ms - self.origin_ms).unwrap_or(0);
        self.schedule(
            due,
            Action::Deadline {
                call_id: call_id.to_owned(),
            },
        );
    }

    /// Closes an unanswered call at its deadline with a `timeout` error.
    fn expire(&mut self, call_id: &str) {
        let Some(call) = self.calls.get_mut(call_id) else {
            return;
        };
        if call.state != CallState::Open {
            return;
        }
        call.state = CallState::Expired;
        let call = call.clone();
        let response = FunctionResponse {
            call_id: call.call_id.clone(),
            at: Some(self.now_at()),
            value: None,
            error: Some(CallError {
                code: CallError::TIMEOUT.to_owned(),
                message: "No answer before the deadline.".to_owned(),
            }),
        };
        self.deliver(&call, response);
    }

    /// Echoes a response on the feed and hands it to the waiting widget.
    fn deliver(&mut self, call: &Call, response: FunctionResponse) {
        let message = match call.function {
            Function::Score => Message::ScoreResponse(response.clone()),
            Function::Assist => Message::AssistResponse(response.clone()),
        };
        self.emit_message(&call.class_id, &message);
        if let Some(idx) = call.learner {
            let outs = match self
                .classes
                .get_mut(&call.class_id)
                .and_then(|c| c.learners.get_mut(idx))
            {
                Some(learner) => learner.on_response(&response),
                None => Vec::new(),
            };
            self.apply(&call.class_id.clone(), Some(idx), outs);
        }
    }

    fn emit_message(&mut self, class_id: &str, message: &Message) {
        match agui::project(message) {
            Ok(line) => {
                self.append(class_id, line, false, None);
                self.after_valid_frame(class_id);
            }
            Err(e) => tracing::warn!(error = %e, "cannot project a message; dropped"),
        }
    }

    /// Fault cadence: counts the valid frames of a class and injects when a switch says so.
    fn after_valid_frame(&mut self, class_id: &str) {
        let Some(class) = self.classes.get_mut(class_id) else {
            return;
        };
        class.sim_frames += 1;
        let n = class.sim_frames;
        let mut todo = Vec::new();
        if self.faults.malformed_every > 0 && n % u64::from(self.faults.malformed_every) == 0 {
            todo.push(Injection::MALFORMED[class.malformed_cursor % Injection::MALFORMED.len()]);
            class.malformed_cursor += 1;
        }
        if self.faults.contract_break_every > 0
            && n % u64::from(self.faults.contract_break_every) == 0
        {
            todo.push(Injection::CONTRACT[class.break_cursor % Injection::CONTRACT.len()]);
            class.break_cursor += 1;
        }
        for injection in todo {
            let _ = self.inject(class_id, injection);
        }
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

    // ---- tools ----

    pub fn create_class(&mut self, title: &str) -> Result<(String, String), ToolError> {
        let title = title.trim();
        if title.is_empty() || title.chars().count() > 200 {
            return Err(ToolError::invalid("title must be 1 to 200 characters"));
        }
        let (class_id, join_code) = loop {
            self.class_count += 1;
            let mut rng = Rng::derive(
                self.seed,
                &format!("class/{}/{}", self.generation, self.class_count),
            );
            let id = format!("cls-{}", rng.letters(10));
            if !self.classes.contains_key(&id) {
                break (id, rng.letters(6).to_uppercase());
            }
        };
        self.classes.insert(
            class_id.clone(),
            Class::new(class_id.clone(), title.to_owned(), join_code.clone()),
        );
        self.record(&Record::Class {
            class_id: class_id.clone(),
            title: title.to_owned(),
            join_code: join_code.clone(),
        });
        Ok((class_id, join_code))
    }

    pub fn assign(
        &mut self,
        class_id: &str,
        pathway_id: &str,
        due_at: Option<&str>,
        teacher_note: Option<&str>,
    ) -> Result<String, ToolError> {
        let Some(class) = self.classes.get(class_id) else {
            return Err(unknown_class(class_id));
        };
        if catalog::find_pathway(pathway_id).is_none() {
            return Err(ToolError::new(
                ErrorCode::UnknownPathway,
                format!("no pathway {pathway_id:?}"),
            ));
        }
        if let Some(existing) = class
            .assignments
            .iter()
            .find(|a| a.pathway_id == pathway_id)
        {
            return Ok(existing.assignment_id.clone());
        }
        if let Some(due) = due_at
            && parse_rfc3339_ms(due).is_none()
        {
            return Err(ToolError::invalid("due_at is not an RFC 3339 time"));
        }
        if let Some(note) = teacher_note
            && note.chars().count() > 2000
        {
            return Err(ToolError::invalid(
                "teacher_note is longer than 2000 characters",
            ));
        }
        let mut rng = Rng::derive(self.seed, &format!("{class_id}/assignment/{pathway_id}"));
        let assignment = Assignment {
            assignment_id: format!("asg-{}", rng.letters(10)),
            pathway_id: pathway_id.to_owned(),
            assigned_at: self.now_at(),
            due_at: due_at.map(str::to_owned),
            teacher_note: teacher_note.map(str::to_owned),
        };
        let id = assignment.assignment_id.clone();
        let first = class.assignments.is_empty();
        let learners_needed = first && class.learners.is_empty() && self.learners_per_class > 0;
        if let Some(class) = self.classes.get_mut(class_id) {
            class.assignments.push(assignment.clone());
        }
        self.record(&Record::Assignment {
            class_id: class_id.to_owned(),
            assignment,
        });
        if learners_needed {
            let mut rng = Rng::derive(self.seed, &format!("{class_id}/learners"));
            let generation = self.generation;
            let seed = self.seed;
            let learners: Vec<Learner> = (0..self.learners_per_class)
                .map(|i| {
                    Learner::new(
                        format!("lrn-{}", rng.letters(10)),
                        Rng::derive(seed, &format!("{class_id}/learner/{i}/{generation}")),
                    )
                })
                .collect();
            let ids = learners.iter().map(|l| l.id.clone()).collect();
            if let Some(class) = self.classes.get_mut(class_id) {
                class.learners = learners;
            }
            self.record(&Record::Learners {
                class_id: class_id.to_owned(),
                learners: ids,
            });
        }
        if self.simulate {
            // Learners with nothing to do pick the new pathway up.
            let idle: Vec<usize> = self
                .classes
                .get(class_id)
                .map(|c| {
                    c.learners
                        .iter()
                        .enumerate()
                        .filter(|(_, l)| l.is_idle())
                        .map(|(i, _)| i)
                        .collect()
                })
                .unwrap_or_default();
            for idx in idle {
                self.wake_first(class_id, idx);
            }
        }
        Ok(id)
    }

    pub fn results(&self, class_id: &str, pathway_id: &str) -> Result<Value, ToolError> {
        let class = self
            .classes
            .get(class_id)
            .ok_or_else(|| unknown_class(class_id))?;
        if catalog::find_pathway(pathway_id).is_none() {
            return Err(ToolError::new(
                ErrorCode::UnknownPathway,
                format!("no pathway {pathway_id:?}"),
            ));
        }
        let mut completed = Vec::new();
        let mut struggles = Vec::new();
        for frame in &class.log {
            if frame.injected {
                continue;
            }
            let Some(event) = frame.json() else { continue };
            let Some(value) = event.get("value") else {
                continue;
            };
            if value.get("pathway_id").and_then(Value::as_str) != Some(pathway_id) {
                continue;
            }
            match event.get("name").and_then(Value::as_str) {
                Some("a2learn.widget_completed") => completed.push(value.clone()),
                Some("a2learn.widget_struggle") => struggles.push(value.clone()),
                _ => {}
            }
        }
        Ok(json!({"completed": completed, "struggles": struggles}))
    }

    fn open_call_for(&self, call_id: &str) -> Result<&Call, ToolError> {
        let call = self.calls.get(call_id).ok_or_else(|| {
            ToolError::new(ErrorCode::UnknownCall, format!("no call {call_id:?}"))
        })?;
        match call.state {
            CallState::Answered => Err(ToolError::new(
                ErrorCode::AlreadyAnswered,
                format!("call {call_id:?} is already answered"),
            )),
            CallState::Expired => Err(expired(call_id)),
            CallState::Open if self.now_ms() > call.deadline_ms => Err(expired(call_id)),
            CallState::Open => Ok(call),
        }
    }

    pub fn claim(&mut self, teacher: &str, call_id: &str) -> Result<String, ToolError> {
        let call = self.open_call_for(call_id)?;
        match &call.claimed_by {
            Some(by) if by == teacher => return Ok(teacher.to_owned()),
            Some(_) => {
                return Err(ToolError::new(
                    ErrorCode::AlreadyClaimed,
                    format!("call {call_id:?} is claimed by another teacher"),
                ));
            }
            None => {}
        }
        let class_id = call.class_id.clone();
        if let Some(call) = self.calls.get_mut(call_id) {
            call.claimed_by = Some(teacher.to_owned());
        }
        let event = HostEvent::CallClaimed(CallClaimed {
            call_id: call_id.to_owned(),
            claimed_by: teacher.to_owned(),
        });
        match agui::project_host(&event) {
            Ok(line) => {
                let line = with_timestamp(&line, self.now_ms());
                self.append(&class_id, line, false, None);
                self.after_valid_frame(&class_id);
            }
            Err(e) => tracing::warn!(error = %e, "cannot project a claim"),
        }
        Ok(teacher.to_owned())
    }

    pub fn respond(
        &mut self,
        teacher: &str,
        call_id: &str,
        value: Option<Value>,
        error: Option<Value>,
    ) -> Result<(), ToolError> {
        let call = self.open_call_for(call_id)?.clone();
        if let Some(by) = &call.claimed_by
            && by != teacher
        {
            return Err(ToolError::new(
                ErrorCode::AlreadyClaimed,
                format!("call {call_id:?} is claimed by another teacher"),
            ));
        }
        // Shape errors name the expected shape only: serde's messages would quote the
        // teacher's text back.
        let (value, error) = match (value, error) {
            (Some(_), Some(_)) => {
                return Err(ToolError::invalid(
                    "give exactly one of value and error, not both",
                ));
            }
            (None, None) => {
                return Err(ToolError::invalid("give exactly one of value and error"));
            }
            (Some(v), None) => {
                let value = match call.function {
                    Function::Score => serde_json::from_value::<ScoreValue>(v)
                        .map(ResponseValue::Score)
                        .map_err(|_| {
                            ToolError::invalid(
                                "value of a score call is {correct: bool, score: 0..1, feedback?: string}",
                            )
                        })?,
                    Function::Assist => serde_json::from_value::<AssistValue>(v)
                        .map(ResponseValue::Assist)
                        .map_err(|_| {
                            ToolError::invalid(
                                "value of an assist call is {answer: string, answered_by: \"teacher\"}",
                            )
                        })?,
                };
                (Some(value), None)
            }
            (None, Some(e)) => {
                let error = serde_json::from_value::<CallError>(e)
                    .map_err(|_| ToolError::invalid("error is {code: string, message: string}"))?;
                (None, Some(error))
            }
        };
        let response = FunctionResponse {
            call_id: call_id.to_owned(),
            at: Some(self.now_at()),
            value,
            error,
        };
        let message = match call.function {
            Function::Score => Message::ScoreResponse(response.clone()),
            Function::Assist => Message::AssistResponse(response.clone()),
        };
        validate_message(&message, &self.registry)
            .map_err(|e| ToolError::invalid(format!("{}: {e}", e.rule_id())))?;
        if let Some(c) = self.calls.get_mut(call_id) {
            c.state = CallState::Answered;
        }
        self.deliver(&call, response);
        Ok(())
    }

    // ---- reading ----

    pub fn snapshot(&self, class_id: &str) -> Option<Value> {
        let class = self.classes.get(class_id)?;
        Some(json!({
            "class_id": class.id,
            "learners": class.learners.iter().map(|l| l.id.clone()).collect::<Vec<_>>(),
            "assignments": class.assignments,
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

fn restored_call(class_id: &str, call_id: &str, function: Function, deadline: &str) -> Call {
    Call {
        call_id: call_id.to_owned(),
        class_id: class_id.to_owned(),
        function,
        deadline_ms: parse_rfc3339_ms(deadline).unwrap_or(0),
        claimed_by: None,
        state: CallState::Open,
        learner: None,
    }
}

fn unknown_class(class_id: &str) -> ToolError {
    ToolError::new(ErrorCode::UnknownClass, format!("no class {class_id:?}"))
}

fn expired(call_id: &str) -> ToolError {
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
