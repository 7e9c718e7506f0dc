//! Host time and the simulated class: the queue of what is due (learners' next steps, call
//! deadlines), ordered by (due time, insertion order); the learners' outputs applied (calls
//! opened, expired, answered) and the faults injected at their cadence.

use std::cmp::Ordering;
use std::collections::HashMap;

use a2learn_contract::transport::agui;
use a2learn_contract::{CallError, Function, FunctionResponse, Message};

use crate::clock::rfc3339;
use crate::inject::Injection;
use crate::sim::SimOut;

use super::{Call, CallState, HostState};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Action {
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
pub(super) struct Scheduled {
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

impl HostState {
    /// Virtual (simulated) milliseconds to host milliseconds.
    pub(super) fn host_ms(&self, virtual_ms: u64) -> u64 {
        ((virtual_ms as f64 / self.speed).round() as u64).max(1)
    }

    pub(super) fn schedule(&mut self, due: u64, action: Action) {
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

    pub(super) fn wake_first(&mut self, class_id: &str, idx: usize) {
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

    pub(super) fn wake(&mut self, class_id: &str, idx: usize, virtual_delay: u64) {
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

    pub(super) fn run_learner(&mut self, class_id: &str, idx: usize, token: u64) {
        let at = self.now_at();
        let Some(class) = self.classes.get_mut(class_id) else {
            return;
        };
        let Some(learner) = class.learners.get(idx) else {
            return;
        };
        if learner.token != token {
            return;
        }
        // Paused, or past the pacing limit: the learner does nothing until that changes.
        let held = class.paused
            || learner
                .current_step()
                .is_some_and(|(p, w)| !class.within_pacing(p, w));
        if held {
            class.parked.insert(idx);
            return;
        }
        let plan = class.plan();
        let Some(learner) = class.learners.get_mut(idx) else {
            return;
        };
        let outs = learner.step(&plan, &at);
        self.apply(class_id, Some(idx), outs);
    }

    /// After a resume or a pacing change: learners that were held, and those with nothing
    /// left to do under the old limit, pick up their work again within seconds.
    pub(super) fn wake_held(&mut self, class_id: &str) {
        if !self.simulate {
            return;
        }
        let Some(class) = self.classes.get_mut(class_id) else {
            return;
        };
        if class.paused {
            return;
        }
        let mut wake = std::mem::take(&mut class.parked);
        wake.extend(
            class
                .learners
                .iter()
                .enumerate()
                .filter(|(_, l)| l.is_idle())
                .map(|(i, _)| i),
        );
        for idx in wake {
            self.wake_first(class_id, idx);
        }
    }

    pub(super) fn apply(&mut self, class_id: &str, idx: Option<usize>, outs: Vec<SimOut>) {
        let mut deadlines: HashMap<String, (Function, u64)> = HashMap::new();
        for out in &outs {
            if let SimOut::Open {
                call_id,
                function,
                deadline_in_ms,
            } = out
            {
                let host_ms = match (function, self.help_wait_ms) {
                    (Function::Assist, Some(wait)) => wait,
                    _ => self.host_ms(*deadline_in_ms),
                };
                deadlines.insert(call_id.clone(), (*function, host_ms));
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

    pub(super) fn open_call(
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
    pub(super) fn expire(&mut self, call_id: &str) {
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
    pub(super) fn deliver(&mut self, call: &Call, response: FunctionResponse) {
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

    pub(super) fn emit_message(&mut self, class_id: &str, message: &Message) {
        match agui::project(message) {
            Ok(line) => {
                self.append(class_id, line, false, None);
                self.after_valid_frame(class_id);
            }
            Err(e) => tracing::warn!(error = %e, "cannot project a message; dropped"),
        }
    }

    /// Fault cadence: counts the valid frames of a class and injects when a switch says so.
    pub(super) fn after_valid_frame(&mut self, class_id: &str) {
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
}
