//! MCP Apps (2026-01-26): JSON-RPC 2.0 messages between a view and its host.
//!
//! - Events: the request `ui/update-model-context` (a request, so it has an `id`; the host
//!   replies `{}`), `params: {content: [{type: "text", text: prose}], structuredContent:
//!   {a2learn: {event: "a2learn.widget_completed", ...payload}}}`. The text block leads with
//!   the prose; `structuredContent.a2learn` is authoritative on parse. Each update
//!   overwrites the previous one, so a widget sends its cumulative state. The projection's
//!   `id` is `"<verb>:<widget_run_id>"`.
//! - Requests: `tools/call` on the app-only tools `a2learn_score` / `a2learn_assist`,
//!   `params: {name, arguments: <the request payload, call_id included>}`. A tool handler
//!   does not see the JSON-RPC id, so `call_id` travels in the arguments; the projection uses
//!   it as the JSON-RPC id too, but parsing does not require that (SDKs number their ids).
//! - Responses: the JSON-RPC result of that `tools/call`, a `CallToolResult`:
//!   `{content: [{type: "text", text}], structuredContent: {call_id, at, value}}`, or with
//!   `isError: true` and `structuredContent: {call_id, at, error}`. The result does not name
//!   its tool (see [`super::carried_by`]).
//!
//! Envelope shapes checked against `@modelcontextprotocol/ext-apps@2.0.4` `schema.json`
//! (`McpUiUpdateModelContextRequest`) and the JSON-RPC/`CallToolResult` schemas of
//! `@modelcontextprotocol/core`.

use serde::Serialize;
use serde_json::{Map, Value, json};

use super::{Parsed, ProjectError, object, payload, payload_object, required_str, to_line};
use crate::error::ContractError;
use crate::types::{FunctionResponse, Message, ResponseValue, Verb};

pub const UPDATE_MODEL_CONTEXT: &str = "ui/update-model-context";
pub const TOOLS_CALL: &str = "tools/call";
/// The app-only tool of the score call.
pub const SCORE_TOOL: &str = "a2learn_score";
/// The app-only tool of the assist call.
pub const ASSIST_TOOL: &str = "a2learn_assist";

/// Parses one JSON-RPC message.
pub fn parse_message(value: &Value) -> Result<Parsed, ContractError> {
    let obj = object(value, "JSON-RPC message")?;
    match obj.get("jsonrpc") {
        Some(Value::String(v)) if v == "2.0" => {}
        _ => {
            return Err(ContractError::bad_frame(
                "JSON-RPC message without jsonrpc: \"2.0\"",
            ));
        }
    }
    if let Some(id) = obj.get("id")
        && !(id.is_string() || id.is_i64() || id.is_u64())
    {
        return Err(ContractError::bad_frame(
            "JSON-RPC id is neither a string nor an integer",
        ));
    }
    if obj.contains_key("method") {
        let method = required_str(obj, "method", "JSON-RPC message")?;
        return match method {
            UPDATE_MODEL_CONTEXT => parse_update(obj),
            TOOLS_CALL => parse_tools_call(obj),
            other => Ok(Parsed::Ignored(format!("MCP method {other:?}"))),
        };
    }
    if let Some(result) = obj.get("result") {
        if !obj.contains_key("id") {
            return Err(ContractError::bad_frame("JSON-RPC result without id"));
        }
        return parse_result(result);
    }
    if obj.contains_key("error") {
        return Ok(Parsed::Ignored("JSON-RPC error response".into()));
    }
    Err(ContractError::bad_frame(
        "JSON-RPC message is neither a request, a notification nor a response",
    ))
}

fn require_request_id(obj: &Map<String, Value>, method: &str) -> Result<(), ContractError> {
    if !obj.contains_key("id") {
        return Err(ContractError::bad_frame(format!(
            "{method} is a JSON-RPC request and needs an id"
        )));
    }
    Ok(())
}

fn parse_update(obj: &Map<String, Value>) -> Result<Parsed, ContractError> {
    require_request_id(obj, UPDATE_MODEL_CONTEXT)?;
    let Some(params) = obj.get("params") else {
        return Err(ContractError::bad_frame(
            "ui/update-model-context without params",
        ));
    };
    let params = object(params, "params")?;
    if let Some(content) = params.get("content") {
        let Some(blocks) = content.as_array() else {
            return Err(ContractError::bad_frame("params.content is not an array"));
        };
        for block in blocks {
            let block = object(block, "content block")?;
            required_str(block, "type", "content block")?;
        }
    }
    let Some(structured) = params.get("structuredContent") else {
        return Ok(Parsed::Ignored(
            "model-context update without structuredContent".into(),
        ));
    };
    let structured = object(structured, "params.structuredContent")?;
    let Some(block) = structured.get("a2learn") else {
        return Ok(Parsed::Ignored(
            "model-context update without an a2learn block".into(),
        ));
    };
    let block = object(block, "structuredContent.a2learn")?;
    let event = required_str(block, "event", "structuredContent.a2learn")?;
    let mut body = block.clone();
    body.remove("event");
    let body = Value::Object(body);
    let message = match event {
        "a2learn.widget_completed" => {
            Message::WidgetCompleted(payload(Verb::WidgetCompleted, &body)?)
        }
        "a2learn.widget_struggle" => Message::WidgetStruggle(payload(Verb::WidgetStruggle, &body)?),
        other => {
            return Ok(Parsed::Ignored(format!(
                "a2learn event {other:?} is not an a2learn verb"
            )));
        }
    };
    Ok(Parsed::Contract(message))
}

fn parse_tools_call(obj: &Map<String, Value>) -> Result<Parsed, ContractError> {
    require_request_id(obj, TOOLS_CALL)?;
    let Some(params) = obj.get("params") else {
        return Err(ContractError::bad_frame("tools/call without params"));
    };
    let params = object(params, "params")?;
    let name = required_str(params, "name", "params")?;
    let verb = match name {
        SCORE_TOOL => Verb::Score,
        ASSIST_TOOL => Verb::Assist,
        other => {
            return Ok(Parsed::Ignored(format!(
                "tool {other:?} is not an a2learn function"
            )));
        }
    };
    let Some(arguments) = params.get("arguments") else {
        return Err(ContractError::bad_frame(
            "tools/call params.arguments is missing",
        ));
    };
    let message = match verb {
        Verb::Score => Message::ScoreRequest(payload(verb, arguments)?),
        _ => Message::AssistRequest(payload(verb, arguments)?),
    };
    Ok(Parsed::Contract(message))
}

fn parse_result(result: &Value) -> Result<Parsed, ContractError> {
    let result = object(result, "JSON-RPC result")?;
    let Some(structured) = result.get("structuredContent") else {
        return Ok(Parsed::Ignored(
            "JSON-RPC result without structuredContent".into(),
        ));
    };
    let structured = object(structured, "result.structuredContent")?;
    if !structured.contains_key("call_id") {
        return Ok(Parsed::Ignored(
            "tool result that is not an a2learn response".into(),
        ));
    }
    if let Some(content) = result.get("content")
        && !content.is_array()
    {
        return Err(ContractError::bad_frame("result.content is not an array"));
    }
    let is_error = match result.get("isError") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(ContractError::bad_frame("result.isError is not a boolean")),
    };
    let response: FunctionResponse = payload(Verb::Response, &Value::Object(structured.clone()))?;
    if response.at.is_none() {
        return Err(ContractError::bad_frame(
            "response payload: missing field `at`",
        ));
    }
    // value XOR error is the contract's rule (checked by validation); isError must agree
    // with whichever one is there.
    if response.value.is_some() != response.error.is_some() {
        if response.error.is_some() && !is_error {
            return Err(ContractError::bad_frame(
                "an error result needs isError: true",
            ));
        }
        if response.value.is_some() && is_error {
            return Err(ContractError::bad_frame("a value result has isError: true"));
        }
    }
    Ok(Parsed::Contract(Message::Response(response)))
}

#[derive(Serialize)]
struct Request<'a, P: Serialize> {
    jsonrpc: &'static str,
    id: &'a str,
    method: &'static str,
    params: P,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct UpdateParams<'a> {
    content: [TextBlock<'a>; 1],
    structured_content: Value,
}

#[derive(Serialize)]
struct TextBlock<'a> {
    #[serde(rename = "type")]
    block_type: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
struct ToolCallParams<'a, T: Serialize> {
    name: &'static str,
    arguments: &'a T,
}

#[derive(Serialize)]
struct ResultEnvelope<'a> {
    jsonrpc: &'static str,
    id: &'a str,
    result: ToolResult<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolResult<'a> {
    content: [TextBlock<'a>; 1],
    structured_content: &'a FunctionResponse,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    is_error: bool,
}

/// The JSON-RPC message of a contract message.
pub fn project(message: &Message) -> Result<String, ProjectError> {
    let verb = message.verb().name();
    match message {
        Message::WidgetCompleted(m) => update(verb, &m.prose, &m.identity.widget_run_id, message),
        Message::WidgetStruggle(m) => update(verb, &m.prose, &m.identity.widget_run_id, message),
        Message::ScoreRequest(r) => to_line(&Request {
            jsonrpc: "2.0",
            id: &r.call_id,
            method: TOOLS_CALL,
            params: ToolCallParams {
                name: SCORE_TOOL,
                arguments: r,
            },
        }),
        Message::AssistRequest(r) => to_line(&Request {
            jsonrpc: "2.0",
            id: &r.call_id,
            method: TOOLS_CALL,
            params: ToolCallParams {
                name: ASSIST_TOOL,
                arguments: r,
            },
        }),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            super::require_response_at(r)?;
            let summary = result_text(r);
            to_line(&ResultEnvelope {
                jsonrpc: "2.0",
                id: &r.call_id,
                result: ToolResult {
                    content: [TextBlock {
                        block_type: "text",
                        text: &summary,
                    }],
                    structured_content: r,
                    is_error: r.error.is_some() && r.value.is_none(),
                },
            })
        }
    }
}

fn update(
    verb: &'static str,
    prose: &str,
    run: &str,
    message: &Message,
) -> Result<String, ProjectError> {
    let mut block = payload_object(message)?;
    block.insert("event".into(), Value::String(verb.to_owned()));
    let id = format!("{verb}:{run}");
    to_line(&Request {
        jsonrpc: "2.0",
        id: &id,
        method: UPDATE_MODEL_CONTEXT,
        params: UpdateParams {
            content: [TextBlock {
                block_type: "text",
                text: prose,
            }],
            structured_content: json!({ "a2learn": Value::Object(block) }),
        },
    })
}

/// The text block of a tool result, for a model or person reading it: the answer, the
/// feedback, or the error message.
fn result_text(r: &FunctionResponse) -> String {
    match (&r.value, &r.error) {
        (Some(ResponseValue::Assist(v)), _) => v.answer.clone(),
        (Some(ResponseValue::Score(v)), _) => match &v.feedback {
            Some(f) => f.clone(),
            None => format!(
                "{} (score {})",
                if v.correct { "correct" } else { "not correct" },
                v.score
            ),
        },
        (None, Some(e)) => format!("{}: {}", e.code, e.message),
        (None, None) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_methods_and_results_are_ignored() {
        for ignored in [
            json!({"jsonrpc": "2.0", "id": 1, "method": "ui/initialize", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "get_weather", "arguments": {}}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "result": {"content": [], "structuredContent": {"temp": 3}}}),
            json!({"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "no"}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "ui/update-model-context", "params": {"content": []}}),
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
            json!({"id": 1, "method": "ui/update-model-context", "params": {}}),
            json!({"jsonrpc": "1.0", "id": 1, "method": "tools/call", "params": {}}),
            json!({"jsonrpc": "2.0", "method": "ui/update-model-context", "params": {"structuredContent": {"a2learn": {}}}}),
            json!({"jsonrpc": "2.0", "id": 1.5, "method": "tools/call", "params": {}}),
            json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "a2learn_score"}}),
            json!({"jsonrpc": "2.0", "id": 1}),
            json!({"jsonrpc": "2.0", "id": "c1", "result": {"content": [], "structuredContent": {"call_id": "c1", "at": "2026-03-02T10:00:00Z", "error": {"code": "declined", "message": "m"}}}}),
        ] {
            assert_eq!(
                parse_message(&bad).unwrap_err().rule_id(),
                crate::RuleId::BadFrame,
                "{bad}"
            );
        }
    }
}
