//! Restart: the state rebuilt from the host's event log (classes, assignments, learners and
//! every frame; open calls, claims, pause and pacing from the frames).

use std::collections::BTreeMap;
use std::sync::Arc;

use a2learn_contract::transport::agui;
use a2learn_contract::{CallError, Function, HostEvent, Message, Parsed, RoomEcho};

use crate::clock::parse_rfc3339_ms;
use crate::persist::Record;
use crate::rng::Rng;
use crate::sim::Learner;

use super::scheduler::Action;
use super::{Call, CallState, Class, HostState, LoggedFrame};

impl HostState {
    pub(super) fn restore(&mut self, records: Vec<Record>) {
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
        let mut room: Vec<(String, RoomEcho)> = Vec::new();
        for class in self.classes.values() {
            for frame in &class.log {
                if frame.expect_rule.is_some() {
                    continue;
                }
                // Pause and pacing: the host's own echoes.
                if !frame.injected
                    && let Some((_, event)) = agui::room_echo(&frame.data)
                {
                    room.push((class.id.clone(), event));
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
        for (class_id, event) in room {
            if let Some(class) = self.classes.get_mut(&class_id) {
                class.apply_room(&event);
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
