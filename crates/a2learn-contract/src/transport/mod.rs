//! Projections of contract messages into the three transports, and parsing back
//! (`contract.md` §4).
//!
//! Parsing answers three ways ([`Parsed`]): a contract message, a host coordination event
//! (`a2learn.host.*`), or something that is fine for the transport but not ours (an unknown
//! `CUSTOM` name, another AG-UI event type, another MCP method), which readers ignore for
//! forward compatibility. `bad-frame` is only for input that is not a well-formed message of
//! its transport, or whose a2learn payload does not have the contract's shape.
//!
//! ## What each transport can carry
//!
//! AG-UI carries every message losslessly. Two envelopes are narrower, so a message that
//! crossed them comes back as [`carried_by`] says:
//! - **A2UI v1.0** `agentFunctionResponse` is a closed object (`functionCallId`, `value`,
//!   `error`; the error itself is closed `{code, message}`): a response loses its `at`, and
//!   the function it answers (responses are matched to calls by id).
//! - **MCP Apps** tool results are JSON-RPC responses, matched to their `tools/call` by id:
//!   a response loses the name of its function (its `at` rides in `structuredContent`).
//!
//! A response without a function name parses as [`Message::Response`]; the
//! [`crate::Sequencer`] resolves it against the open call. A response without `at` (it
//! crossed A2UI) cannot be projected into AG-UI or MCP Apps, which require one
//! ([`ProjectError::ResponseWithoutAt`]): the contract's time of a response is not invented.

pub mod a2ui;
pub mod agui;
pub mod mcp_apps;

use std::fmt;
use std::str::FromStr;

use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::error::ContractError;
use crate::types::{Message, Verb};

/// One of the three transports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Transport {
    /// AG-UI 1.0 events (`CUSTOM`).
    Agui,
    /// A2UI v1.0 messages (renderer-to-agent `action`, `callAgentFunction`; agent-to-renderer
    /// `agentFunctionResponse`).
    A2ui,
    /// MCP Apps JSON-RPC messages (`ui/update-model-context`, `tools/call` and its result).
    McpApps,
}

impl Transport {
    pub const ALL: [Transport; 3] = [Transport::Agui, Transport::A2ui, Transport::McpApps];

    /// `agui`, `a2ui`, `mcp-apps`: the CLI's names and the fixture directories.
    pub fn as_str(self) -> &'static str {
        match self {
            Transport::Agui => "agui",
            Transport::A2ui => "a2ui",
            Transport::McpApps => "mcp-apps",
        }
    }
}

impl fmt::Display for Transport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Transport {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Transport::ALL
            .into_iter()
            .find(|t| t.as_str() == s)
            .ok_or_else(|| format!("unknown transport {s:?} (agui, a2ui, mcp-apps)"))
    }
}

/// A host coordination event (`a2learn.host.*` on the AG-UI feed). Not part of the widget
/// vocabulary: it coordinates teachers.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, specta::Type)]
#[serde(tag = "name", content = "value")]
pub enum HostEvent {
    /// A teacher claimed a call; `claimed_by` is an opaque teacher id, never a name.
    #[serde(rename = "a2learn.host.call_claimed")]
    CallClaimed(CallClaimed),
    /// The host could not put something of its source into the contract (a bridge's row of a
    /// kind it cannot map): taking the seq that thing would have had, it tells the dashboard,
    /// which keeps it aside with the reason (Diagnostics) instead of never hearing of it.
    #[serde(rename = "a2learn.host.set_aside")]
    SetAside(SetAside),
}

/// What `a2learn.host.set_aside` says: which record of the host's source, and why it has no
/// contract form. Neither names a learner.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, specta::Type)]
pub struct SetAside {
    /// The record, in the host's own terms ("interactions row 123").
    pub source: String,
    pub reason: String,
}

/// A room control's echo on a class feed (`pathway-host.md` §3: `a2learn.host.class_paused`,
/// `class_resumed`, `pacing`). Host state rather than a coordination of calls: the parsers
/// report it as [`Parsed::Ignored`], and whoever mirrors the room (the host restoring itself,
/// a dashboard) reads it with [`agui::room_echo`] and writes it with [`agui::room_echo_event`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoomEcho {
    /// The class is paused; its widgets show `message` when there is one.
    Paused {
        message: Option<String>,
    },
    Resumed,
    /// Learners open no step of `pathway_id` after `up_to` (`None`: no limit).
    Pacing {
        pathway_id: String,
        up_to: Option<String>,
    },
}

#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize, specta::Type)]
pub struct CallClaimed {
    pub call_id: String,
    pub claimed_by: String,
}

/// The result of parsing one transport message.
#[derive(Debug, Clone, PartialEq)]
pub enum Parsed {
    Contract(Message),
    Host(HostEvent),
    /// Well-formed for the transport, but not a contract message; the reason says what it was.
    Ignored(String),
}

/// Guesses the transport of one JSON message: A2UI by its `version` or message key,
/// MCP by `jsonrpc`/`method`/`result`, AG-UI by `type`.
pub fn detect(value: &Value) -> Option<Transport> {
    let obj = value.as_object()?;
    if obj.contains_key("version") || a2ui::MESSAGE_KEYS.iter().any(|k| obj.contains_key(*k)) {
        return Some(Transport::A2ui);
    }
    if ["jsonrpc", "method", "result"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        return Some(Transport::McpApps);
    }
    if obj.contains_key("type") {
        return Some(Transport::Agui);
    }
    None
}

/// Parses one message of a known transport.
pub fn parse(transport: Transport, value: &Value) -> Result<Parsed, ContractError> {
    match transport {
        Transport::Agui => agui::parse_event(value),
        Transport::A2ui => a2ui::parse_message(value),
        Transport::McpApps => mcp_apps::parse_message(value),
    }
}

/// Parses one line of JSON in any of the three transports (auto-detected).
pub fn parse_line(line: &str) -> Result<(Transport, Parsed), ContractError> {
    let value: Value = serde_json::from_str(line)
        .map_err(|e| ContractError::bad_frame(format!("not JSON: {}", redact(&e.to_string()))))?;
    let transport = detect(&value).ok_or_else(|| {
        ContractError::bad_frame(
            "not a message of AG-UI, A2UI or MCP Apps (no type, version or jsonrpc)",
        )
    })?;
    Ok((transport, parse(transport, &value)?))
}

/// Why a message cannot be projected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProjectError {
    /// AG-UI names the function of a response (`a2learn.score.response`); a response that
    /// came without one must be resolved against its call first.
    #[error(
        "response to call {call_id:?} does not say which function it answers; resolve it against its call first"
    )]
    UnnamedResponse { call_id: String },
    /// AG-UI and MCP Apps responses carry `at`; a response that crossed A2UI has lost it.
    #[error("response to call {call_id:?} has no `at`, which this transport requires")]
    ResponseWithoutAt { call_id: String },
    #[error("cannot serialize: {0}")]
    Serialize(String),
}

/// AG-UI and MCP Apps require `at` on a response (see [`carried_by`]).
pub(crate) fn require_response_at(r: &crate::FunctionResponse) -> Result<(), ProjectError> {
    if r.at.is_none() {
        return Err(ProjectError::ResponseWithoutAt {
            call_id: r.call_id.clone(),
        });
    }
    Ok(())
}

/// The projection of `message` into `transport`, as JSON.
pub fn project(message: &Message, transport: Transport) -> Result<Value, ProjectError> {
    let text = project_to_string(message, transport)?;
    serde_json::from_str(&text).map_err(|e| ProjectError::Serialize(e.to_string()))
}

/// The projection as one line of JSON. Field order follows the envelope and payload types,
/// so prose comes first where the payload leads with it.
pub fn project_to_string(message: &Message, transport: Transport) -> Result<String, ProjectError> {
    match transport {
        Transport::Agui => agui::project(message),
        Transport::A2ui => a2ui::project(message),
        Transport::McpApps => mcp_apps::project(message),
    }
}

/// What `message` looks like after a trip through `transport` (see the module comment):
/// `parse(project(m)) == carried_by(m)`.
pub fn carried_by(message: &Message, transport: Transport) -> Message {
    let Some((_, response)) = message.response() else {
        return message.clone();
    };
    match transport {
        Transport::Agui => message.clone(),
        Transport::A2ui => {
            let mut response = response.clone();
            response.at = None;
            Message::Response(response)
        }
        Transport::McpApps => Message::Response(response.clone()),
    }
}

/// Deserializes an a2learn payload; a failure is `bad-frame` naming the verb.
pub(crate) fn payload<T: DeserializeOwned>(verb: Verb, value: &Value) -> Result<T, ContractError> {
    if !value.is_object() {
        return Err(ContractError::bad_frame(format!(
            "{} payload is not a JSON object",
            verb.name()
        )));
    }
    T::deserialize(value).map_err(|e| {
        ContractError::bad_frame(format!(
            "{} payload: {}",
            verb.name(),
            redact(&e.to_string())
        ))
    })
}

/// Serializes an envelope to one line.
pub(crate) fn to_line<T: serde::Serialize>(envelope: &T) -> Result<String, ProjectError> {
    serde_json::to_string(envelope).map_err(|e| ProjectError::Serialize(e.to_string()))
}

/// The payload of a message as a JSON object (for envelopes that embed it in a map).
pub(crate) fn payload_object(
    message: &Message,
) -> Result<serde_json::Map<String, Value>, ProjectError> {
    let value = match message {
        Message::WidgetCompleted(m) => serde_json::to_value(m),
        Message::WidgetStruggle(m) => serde_json::to_value(m),
        Message::ScoreRequest(m) => serde_json::to_value(m),
        Message::AssistRequest(m) => serde_json::to_value(m),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            serde_json::to_value(r)
        }
    }
    .map_err(|e| ProjectError::Serialize(e.to_string()))?;
    match value {
        Value::Object(map) => Ok(map),
        _ => Err(ProjectError::Serialize("payload is not an object".into())),
    }
}

/// serde's messages quote the offending value (`invalid type: string "jane@…"`); a rejection
/// reason is kept and printed, so quoted values are cut out.
pub(crate) fn redact(message: &str) -> String {
    let mut out = String::with_capacity(message.len());
    let mut in_quotes = false;
    for c in message.chars() {
        if c == '"' {
            if !in_quotes {
                out.push_str("\"…\"");
            }
            in_quotes = !in_quotes;
        } else if !in_quotes {
            out.push(c);
        }
    }
    out
}

/// A JSON object or a `bad-frame` naming what it should have been.
pub(crate) fn object<'a>(
    value: &'a Value,
    what: &str,
) -> Result<&'a serde_json::Map<String, Value>, ContractError> {
    value
        .as_object()
        .ok_or_else(|| ContractError::bad_frame(format!("{what} is not a JSON object")))
}

/// A required string member.
pub(crate) fn required_str<'a>(
    obj: &'a serde_json::Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<&'a str, ContractError> {
    match obj.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(ContractError::bad_frame(format!(
            "{what}.{key} is not a string"
        ))),
        None => Err(ContractError::bad_frame(format!("{what}.{key} is missing"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn detects_each_transport() {
        assert_eq!(detect(&json!({"type": "CUSTOM"})), Some(Transport::Agui));
        assert_eq!(
            detect(&json!({"version": "v1.0", "action": {}})),
            Some(Transport::A2ui)
        );
        assert_eq!(detect(&json!({"action": {}})), Some(Transport::A2ui));
        assert_eq!(
            detect(&json!({"jsonrpc": "2.0", "id": 1, "method": "x"})),
            Some(Transport::McpApps)
        );
        assert_eq!(detect(&json!({"method": "x"})), Some(Transport::McpApps));
        assert_eq!(detect(&json!({"hello": 1})), None);
        assert_eq!(detect(&json!([1])), None);
    }

    #[test]
    fn redaction_cuts_quoted_values() {
        assert_eq!(
            redact(r#"invalid type: string "jane@school.org", expected u32"#),
            r#"invalid type: string "…", expected u32"#
        );
    }

    #[test]
    fn floats_survive_the_round_trip_exactly() {
        // Shortest representations that serde_json's default (non-`float_roundtrip`) parser
        // reads back one ulp off.
        let line = r#"{"type":"CUSTOM","name":"a2learn.widget_completed","value":{"prose":"Done.","learner":"anon_k3x9q2","widget_run_id":"r1","widget_id":"w1","pathway_id":"p1","at":"2026-03-02T10:00:00Z","widget_result":{"kind":"k","correct":null,"attempts":1,"hints":0,"score":0.7291382648012837,"detail":{"a":1.0715660391465826e-75,"b":-1.81996730402717e-179}}}}"#;
        let (_, parsed) = parse_line(line).unwrap();
        let Parsed::Contract(message) = parsed else {
            panic!("{parsed:?}")
        };
        let Message::WidgetCompleted(m) = &message else {
            panic!("{message:?}")
        };
        assert_eq!(
            m.widget_result.detail["a"].as_f64(),
            Some(1.0715660391465826e-75)
        );
        for to in Transport::ALL {
            let again = parse(to, &project(&message, to).unwrap()).unwrap();
            assert_eq!(again, Parsed::Contract(message.clone()), "{to}");
        }
    }

    #[test]
    fn transport_names_round_trip() {
        for t in Transport::ALL {
            assert_eq!(t.as_str().parse::<Transport>(), Ok(t));
        }
        assert!("sse".parse::<Transport>().is_err());
    }
}
