//! A2UI v1.0: events are renderer-to-agent `action`s, requests are `callAgentFunction`,
//! responses are agent-to-renderer `agentFunctionResponse`.
//!
//! Shapes checked against `@a2ui/web_core@0.11.0` `src/v1_0/schemas/*.json`:
//! - every message is `{"version": "v1.0", <one message key>: {...}}` and nothing else;
//! - `action` needs `name`, `surfaceId`, `sourceComponentId`, `timestamp` (date-time) and
//!   `context` (object). We put the prose in `userMessage` (prose leads), the payload in
//!   `context` (authoritative on parse), the run in `surfaceId` and the widget in
//!   `sourceComponentId`;
//! - `callAgentFunction` is closed: `surfaceId`, `functionCallId` (= `call_id`),
//!   `callFunction: {"call": "a2learn_score", "args": <the request payload without call_id>}`.
//!   Function names are plain identifiers (`a2learn_score`, never `a2learn.score`), and the
//!   key is `call`, not `@call`;
//! - `agentFunctionResponse` is closed: `functionCallId` and `value` or `error`; there is no
//!   slot for `at` (see [`super::carried_by`]).

use serde::Serialize;
use serde_json::{Map, Value};

use super::{Parsed, ProjectError, object, payload, payload_object, required_str, to_line};
use crate::error::ContractError;
use crate::types::{CallError, FunctionResponse, Message, ResponseValue, Verb};

pub const VERSION: &str = "v1.0";

/// The message keys of A2UI v1.0, both directions.
pub const MESSAGE_KEYS: [&str; 10] = [
    "action",
    "callAgentFunction",
    "rendererFunctionResponse",
    "error",
    "createSurface",
    "updateComponents",
    "updateDataModel",
    "deleteSurface",
    "callRendererFunction",
    "agentFunctionResponse",
];

/// The A2UI function name of the score call.
pub const SCORE_FUNCTION: &str = "a2learn_score";
/// The A2UI function name of the assist call.
pub const ASSIST_FUNCTION: &str = "a2learn_assist";

/// Parses one A2UI v1.0 message.
pub fn parse_message(value: &Value) -> Result<Parsed, ContractError> {
    let obj = object(value, "A2UI message")?;
    match obj.get("version") {
        Some(Value::String(v)) if v == VERSION => {}
        Some(Value::String(v)) => {
            return Ok(Parsed::Ignored(format!(
                "A2UI version {v:?}, not {VERSION}"
            )));
        }
        Some(_) => return Err(ContractError::bad_frame("A2UI version is not a string")),
        None => return Err(ContractError::bad_frame("A2UI message has no version")),
    }
    let keys: Vec<&str> = obj
        .keys()
        .map(String::as_str)
        .filter(|k| *k != "version")
        .collect();
    let [key] = keys.as_slice() else {
        return Err(ContractError::bad_frame(format!(
            "an A2UI message has exactly one message key besides version, found {}",
            keys.len()
        )));
    };
    let body = &obj[*key];
    match *key {
        "action" => parse_action(body),
        "callAgentFunction" => parse_call(body),
        "agentFunctionResponse" => parse_response(body),
        other if MESSAGE_KEYS.contains(&other) => {
            Ok(Parsed::Ignored(format!("A2UI {other} message")))
        }
        _ => Err(ContractError::bad_frame("unknown A2UI v1.0 message key")),
    }
}

fn parse_action(body: &Value) -> Result<Parsed, ContractError> {
    let action = object(body, "action")?;
    let name = required_str(action, "name", "action")?;
    for key in ["surfaceId", "sourceComponentId", "timestamp"] {
        required_str(action, key, "action")?;
    }
    if let Some(m) = action.get("userMessage")
        && !m.is_string()
    {
        return Err(ContractError::bad_frame(
            "action.userMessage is not a string",
        ));
    }
    let Some(context) = action.get("context") else {
        return Err(ContractError::bad_frame("action.context is missing"));
    };
    object(context, "action.context")?;
    let message = match name {
        "a2learn.widget_completed" => {
            Message::WidgetCompleted(payload(Verb::WidgetCompleted, context)?)
        }
        "a2learn.widget_struggle" => {
            Message::WidgetStruggle(payload(Verb::WidgetStruggle, context)?)
        }
        other => {
            return Ok(Parsed::Ignored(format!(
                "A2UI action {other:?} is not an a2learn event"
            )));
        }
    };
    Ok(Parsed::Contract(message))
}

fn parse_call(body: &Value) -> Result<Parsed, ContractError> {
    let call = object(body, "callAgentFunction")?;
    for key in call.keys() {
        if !["surfaceId", "functionCallId", "callFunction"].contains(&key.as_str()) {
            return Err(ContractError::bad_frame(
                "callAgentFunction has a member A2UI does not define",
            ));
        }
    }
    required_str(call, "surfaceId", "callAgentFunction")?;
    let call_id = required_str(call, "functionCallId", "callAgentFunction")?;
    let Some(function) = call.get("callFunction") else {
        return Err(ContractError::bad_frame(
            "callAgentFunction.callFunction is missing",
        ));
    };
    let function = object(function, "callFunction")?;
    let name = required_str(function, "call", "callFunction")?;
    let verb = match name {
        SCORE_FUNCTION => Verb::Score,
        ASSIST_FUNCTION => Verb::Assist,
        dotted if dotted.starts_with("a2learn.") => {
            return Err(ContractError::bad_frame(format!(
                "A2UI function names are plain identifiers: {dotted:?} must be spelled with _"
            )));
        }
        other => {
            return Ok(Parsed::Ignored(format!(
                "A2UI function {other:?} is not an a2learn function"
            )));
        }
    };
    let Some(args) = function.get("args") else {
        return Err(ContractError::bad_frame("callFunction.args is missing"));
    };
    let mut request = object(args, "callFunction.args")?.clone();
    // `functionCallId` is the call id; the args never carry their own.
    request.insert("call_id".into(), Value::String(call_id.to_owned()));
    let request = Value::Object(request);
    let message = match verb {
        Verb::Score => Message::ScoreRequest(payload(verb, &request)?),
        _ => Message::AssistRequest(payload(verb, &request)?),
    };
    Ok(Parsed::Contract(message))
}

fn parse_response(body: &Value) -> Result<Parsed, ContractError> {
    let response = object(body, "agentFunctionResponse")?;
    for key in response.keys() {
        if !["functionCallId", "value", "error"].contains(&key.as_str()) {
            return Err(ContractError::bad_frame(
                "agentFunctionResponse has a member A2UI does not define",
            ));
        }
    }
    let call_id = required_str(response, "functionCallId", "agentFunctionResponse")?;
    let value =
        match response.get("value") {
            Some(v) => Some(ResponseValue::deserialize_value(v).map_err(|e| {
                ContractError::bad_frame(format!("agentFunctionResponse.value: {e}"))
            })?),
            None => None,
        };
    let error = match response.get("error") {
        Some(e) => {
            let err = object(e, "agentFunctionResponse.error")?;
            if err.keys().any(|k| k != "code" && k != "message") {
                return Err(ContractError::bad_frame(
                    "agentFunctionResponse.error has a member A2UI does not define",
                ));
            }
            Some(CallError {
                code: required_str(err, "code", "error")?.to_owned(),
                message: required_str(err, "message", "error")?.to_owned(),
            })
        }
        None => None,
    };
    Ok(Parsed::Contract(Message::Response(FunctionResponse {
        call_id: call_id.to_owned(),
        at: None,
        value,
        error,
    })))
}

impl ResponseValue {
    /// Reads a response value (score or assist shape); the error names no values.
    pub fn deserialize_value(value: &Value) -> Result<ResponseValue, String> {
        use serde::Deserialize;
        ResponseValue::deserialize(value)
            .map_err(|_| "is neither a score value {correct, score, feedback?} nor an assist value {answer, answered_by}".to_owned())
    }
}

#[derive(Serialize)]
struct Envelope<T: Serialize> {
    version: &'static str,
    #[serde(flatten)]
    body: T,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
enum Body<'a, T: Serialize> {
    Action(Action<'a, T>),
    CallAgentFunction(CallAgentFunction<'a>),
    AgentFunctionResponse(AgentFunctionResponse<'a>),
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Action<'a, T: Serialize> {
    name: &'static str,
    user_message: &'a str,
    surface_id: &'a str,
    source_component_id: &'a str,
    timestamp: &'a str,
    context: &'a T,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct CallAgentFunction<'a> {
    surface_id: &'a str,
    function_call_id: &'a str,
    call_function: CallFunction,
}

#[derive(Serialize)]
struct CallFunction {
    call: &'static str,
    args: Map<String, Value>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentFunctionResponse<'a> {
    function_call_id: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a ResponseValue>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a CallError>,
}

/// The A2UI message of a contract message.
pub fn project(message: &Message) -> Result<String, ProjectError> {
    let name = message.verb().name();
    match message {
        Message::WidgetCompleted(m) => action(name, &m.prose, &m.identity, m),
        Message::WidgetStruggle(m) => action(name, &m.prose, &m.identity, m),
        Message::ScoreRequest(r) => call(
            SCORE_FUNCTION,
            &r.call_id,
            &r.identity.widget_run_id,
            message,
        ),
        Message::AssistRequest(r) => call(
            ASSIST_FUNCTION,
            &r.call_id,
            &r.identity.widget_run_id,
            message,
        ),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            to_line(&Envelope {
                version: VERSION,
                body: Body::<()>::AgentFunctionResponse(AgentFunctionResponse {
                    function_call_id: &r.call_id,
                    value: r.value.as_ref(),
                    error: r.error.as_ref(),
                }),
            })
        }
    }
}

fn action<T: Serialize>(
    name: &'static str,
    prose: &str,
    identity: &crate::Identity,
    payload: &T,
) -> Result<String, ProjectError> {
    to_line(&Envelope {
        version: VERSION,
        body: Body::Action(Action {
            name,
            user_message: prose,
            surface_id: &identity.widget_run_id,
            source_component_id: &identity.widget_id,
            timestamp: &identity.at,
            context: payload,
        }),
    })
}

fn call(
    function: &'static str,
    call_id: &str,
    surface: &str,
    message: &Message,
) -> Result<String, ProjectError> {
    let mut args = payload_object(message)?;
    args.remove("call_id");
    to_line(&Envelope {
        version: VERSION,
        body: Body::<()>::CallAgentFunction(CallAgentFunction {
            surface_id: surface,
            function_call_id: call_id,
            call_function: CallFunction {
                call: function,
                args,
            },
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn other_messages_are_ignored() {
        for ignored in [
            json!({"version": "v1.0", "deleteSurface": {"surfaceId": "s"}}),
            json!({"version": "v1.0", "action": {"name": "submit", "surfaceId": "s", "sourceComponentId": "b", "timestamp": "2026-03-02T10:00:00Z", "context": {}}}),
            json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "f", "callFunction": {"call": "lookup", "args": {}}}}),
            json!({"version": "v0.9", "anything": {}}),
        ] {
            assert!(
                matches!(parse_message(&ignored), Ok(Parsed::Ignored(_))),
                "{ignored}"
            );
        }
    }

    #[test]
    fn envelope_errors_are_bad_frames() {
        for bad in [
            json!({"action": {"name": "a2learn.widget_completed"}}),
            json!({"version": "v1.0"}),
            json!({"version": "v1.0", "action": {}, "callAgentFunction": {}}),
            json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "f", "callFunction": {"call": "a2learn.score", "args": {}}}}),
            json!({"version": "v1.0", "callAgentFunction": {"surfaceId": "s", "functionCallId": "f", "callFunction": {"@call": "a2learn_score", "args": {}}}}),
            json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "f", "value": {"x": 1}}}),
            json!({"version": "v1.0", "agentFunctionResponse": {"functionCallId": "f", "at": "2026-03-02T10:00:00Z", "error": {"code": "timeout", "message": "m"}}}),
        ] {
            assert_eq!(
                parse_message(&bad).unwrap_err().rule_id(),
                crate::RuleId::BadFrame,
                "{bad}"
            );
        }
    }
}
