//! The MCP tools' logic: create a class, assign a pathway, read results, claim and respond to
//! calls (`pathway-host.md` §1), and run the room: pause, resume and pace a class (§3).

use a2learn_contract::transport::agui;
use a2learn_contract::{
    AssistValue, CallClaimed, CallError, Function, FunctionResponse, HostEvent, Message,
    ResponseValue, RoomEcho, ScoreValue, validate_message,
};
use serde_json::{Value, json};

use crate::catalog::{self};
use crate::clock::parse_rfc3339_ms;
use crate::error::{ErrorCode, ToolError};
use crate::persist::Record;
use crate::rng::Rng;
use crate::sim::Learner;

use super::{
    Assignment, Call, CallState, Class, HostState, expired, unknown_class, with_timestamp,
};

impl HostState {
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

    /// Every class on this host, by id: `{classes: [{class_id, title}]}`. The reference host
    /// keeps no owner per class, so every token sees them all.
    pub fn list_classes(&self) -> Value {
        let classes: Vec<Value> = self
            .classes
            .values()
            .map(|c| serde_json::json!({"class_id": c.id, "title": c.title}))
            .collect();
        serde_json::json!({ "classes": classes })
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

    pub(super) fn open_call_for(&self, call_id: &str) -> Result<&Call, ToolError> {
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
}

/// The longest pause message (`pathway-host.md` §3).
pub(crate) const MAX_PAUSE_MESSAGE_CHARS: usize = 200;

impl Class {
    /// Applies a room control to the class's state; whether it changed anything (a new
    /// message alone is not a change of state).
    pub(super) fn apply_room(&mut self, event: &RoomEcho) -> bool {
        match event {
            RoomEcho::Paused { .. } => !std::mem::replace(&mut self.paused, true),
            RoomEcho::Resumed => std::mem::replace(&mut self.paused, false),
            RoomEcho::Pacing { pathway_id, up_to } => {
                let before = match up_to {
                    Some(w) => self.pacing.insert(pathway_id.clone(), w.clone()),
                    None => self.pacing.remove(pathway_id),
                };
                before != *up_to
            }
        }
    }
}

impl HostState {
    /// `pause_class`: the class's learners emit nothing until `resume_class`. Pausing a
    /// paused class with another message echoes the new message.
    pub fn pause_class(&mut self, class_id: &str, message: Option<&str>) -> Result<(), ToolError> {
        if !self.classes.contains_key(class_id) {
            return Err(unknown_class(class_id));
        }
        if let Some(m) = message
            && m.chars().count() > MAX_PAUSE_MESSAGE_CHARS
        {
            return Err(ToolError::invalid(format!(
                "message is longer than {MAX_PAUSE_MESSAGE_CHARS} characters"
            )));
        }
        let event = RoomEcho::Paused {
            message: message.map(str::to_owned),
        };
        let changed = self.room(class_id, &event);
        let repeated_message = !changed && message.is_some();
        if changed || repeated_message {
            self.echo_room(class_id, &event);
        }
        Ok(())
    }

    /// `resume_class`: the class's learners go on where they were.
    pub fn resume_class(&mut self, class_id: &str) -> Result<(), ToolError> {
        if !self.classes.contains_key(class_id) {
            return Err(unknown_class(class_id));
        }
        if self.room(class_id, &RoomEcho::Resumed) {
            self.echo_room(class_id, &RoomEcho::Resumed);
            self.wake_held(class_id);
        }
        Ok(())
    }

    /// `set_pacing`: learners open no step of the pathway after `up_to` (`None`: no limit).
    pub fn set_pacing(
        &mut self,
        class_id: &str,
        pathway_id: &str,
        up_to: Option<&str>,
    ) -> Result<(), ToolError> {
        if !self.classes.contains_key(class_id) {
            return Err(unknown_class(class_id));
        }
        let Some(pathway) = catalog::find_pathway(pathway_id) else {
            return Err(ToolError::new(
                ErrorCode::UnknownPathway,
                format!("no pathway {pathway_id:?}"),
            ));
        };
        // The message names the field, not what was sent: it could be any text.
        if let Some(w) = up_to
            && !pathway.steps.iter().any(|s| s.widget_id == w)
        {
            return Err(ToolError::invalid(format!(
                "up_to is not a widget_id of pathway {pathway_id:?}"
            )));
        }
        let event = RoomEcho::Pacing {
            pathway_id: pathway_id.to_owned(),
            up_to: up_to.map(str::to_owned),
        };
        if self.room(class_id, &event) {
            self.echo_room(class_id, &event);
            self.wake_held(class_id);
        }
        Ok(())
    }

    fn room(&mut self, class_id: &str, event: &RoomEcho) -> bool {
        self.classes
            .get_mut(class_id)
            .is_some_and(|c| c.apply_room(event))
    }

    /// Echoes a room control on the class feed (and so in the log a restart reads).
    fn echo_room(&mut self, class_id: &str, echo: &RoomEcho) {
        let (name, value) = agui::room_echo_event(class_id, echo);
        let line = json!({
            "type": "CUSTOM", "name": name, "value": value, "timestamp": self.now_ms(),
        })
        .to_string();
        self.append(class_id, line, false, None);
        self.after_valid_frame(class_id);
    }
}
