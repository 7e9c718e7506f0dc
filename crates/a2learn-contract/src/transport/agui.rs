//! AG-UI 1.0: the contract rides in `CUSTOM` events.
//!
//! `{"type":"CUSTOM","name":"a2learn.widget_completed","value":{payload},"timestamp":ms}`.
//! Checked against `@ag-ui/core@1.0.0`'s `EventSchema`: `timestamp` is an integer (epoch
//! milliseconds), the optional base fields (`timestamp`, `rawEvent`, `metadata`,
//! `subagentRunId`) are never `null`, and `CUSTOM.value` must be present. A feed reader
//! hands each SSE `data:` payload to [`parse_event`] (or [`parse_event_str`]).

use serde::Serialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::{
    CallClaimed, HostEvent, Parsed, ProjectError, RoomEcho, object, payload, redact, required_str,
    to_line,
};
use crate::error::ContractError;
use crate::rules::parse_timestamp;
use crate::types::{Message, Verb};

/// The prefix of host coordination events.
pub const HOST_PREFIX: &str = "a2learn.host.";

/// JavaScript's `Number.MAX_SAFE_INTEGER`, the bound of AG-UI's `timestamp`.
const MAX_SAFE_INTEGER: f64 = 9_007_199_254_740_991.0;

/// Parses the JSON text of one AG-UI event.
pub fn parse_event_str(text: &str) -> Result<Parsed, ContractError> {
    let value: Value = serde_json::from_str(text).map_err(|e| {
        ContractError::bad_frame(format!(
            "AG-UI event is not JSON: {}",
            redact(&e.to_string())
        ))
    })?;
    parse_event(&value)
}

/// Parses one AG-UI event. Other event types and unknown `CUSTOM` names are
/// [`Parsed::Ignored`]; a malformed event (or a malformed a2learn payload) is `bad-frame`.
pub fn parse_event(value: &Value) -> Result<Parsed, ContractError> {
    let obj = object(value, "AG-UI event")?;
    let event_type = required_str(obj, "type", "AG-UI event")?;
    check_base_fields(obj)?;
    if event_type != "CUSTOM" {
        return Ok(Parsed::Ignored(format!("AG-UI {event_type} event")));
    }
    let name = required_str(obj, "name", "CUSTOM")?;
    let Some(value) = obj.get("value") else {
        return Err(ContractError::bad_frame("CUSTOM.value is missing"));
    };
    let message = match name {
        "a2learn.widget_completed" => {
            Message::WidgetCompleted(payload(Verb::WidgetCompleted, value)?)
        }
        "a2learn.widget_struggle" => Message::WidgetStruggle(payload(Verb::WidgetStruggle, value)?),
        "a2learn.score" => Message::ScoreRequest(payload(Verb::Score, value)?),
        "a2learn.assist" => Message::AssistRequest(payload(Verb::Assist, value)?),
        "a2learn.score.response" => {
            let r: crate::FunctionResponse = payload(Verb::ScoreResponse, value)?;
            require_at(&r)?;
            Message::ScoreResponse(r)
        }
        "a2learn.assist.response" => {
            let r: crate::FunctionResponse = payload(Verb::AssistResponse, value)?;
            require_at(&r)?;
            Message::AssistResponse(r)
        }
        "a2learn.host.call_claimed" => {
            let claimed: CallClaimed = payload_host(name, value)?;
            return Ok(Parsed::Host(HostEvent::CallClaimed(claimed)));
        }
        "a2learn.host.set_aside" => {
            let set_aside: crate::SetAside = payload_host(name, value)?;
            return Ok(Parsed::Host(HostEvent::SetAside(set_aside)));
        }
        other => {
            return Ok(Parsed::Ignored(format!(
                "CUSTOM event {other:?} is not an a2learn verb"
            )));
        }
    };
    Ok(Parsed::Contract(message))
}

/// Checks one event against `@ag-ui/core@1.0.0`'s `EventSchema` for the event types a class
/// feed carries (`pathway-host.md` §2): the base fields of every event, and the required fields
/// of `RUN_STARTED`, `RUN_FINISHED`, `RUN_ERROR`, `STATE_SNAPSHOT` and `CUSTOM`. Other types are
/// the business of their own schemas; readers ignore them, so they pass here.
pub fn check_event_schema(value: &Value) -> Result<(), ContractError> {
    let obj = object(value, "AG-UI event")?;
    let event_type = required_str(obj, "type", "AG-UI event")?;
    check_base_fields(obj)?;
    let required: &[&str] = match event_type {
        "RUN_STARTED" | "RUN_FINISHED" => &["threadId", "runId"],
        "RUN_ERROR" => &["message"],
        "CUSTOM" => &["name"],
        _ => &[],
    };
    for key in required {
        required_str(obj, key, event_type)?;
    }
    let present: &[&str] = match event_type {
        "STATE_SNAPSHOT" => &["snapshot"],
        "CUSTOM" => &["value"],
        _ => &[],
    };
    for key in present {
        if obj.get(*key).is_none() {
            return Err(ContractError::bad_frame(format!(
                "{event_type}.{key} is missing"
            )));
        }
    }
    Ok(())
}

fn payload_host<T: serde::de::DeserializeOwned>(
    name: &str,
    value: &Value,
) -> Result<T, ContractError> {
    T::deserialize(value).map_err(|e| {
        ContractError::bad_frame(format!("{name} payload: {}", redact(&e.to_string())))
    })
}

/// AG-UI responses always carry `at`: only A2UI lacks a slot for it.
fn require_at(r: &crate::FunctionResponse) -> Result<(), ContractError> {
    if r.at.is_none() {
        return Err(ContractError::bad_frame(
            "response payload: missing field `at`",
        ));
    }
    Ok(())
}

/// The base fields every AG-UI event may carry, as `@ag-ui/core@1.0.0` types them.
fn check_base_fields(obj: &serde_json::Map<String, Value>) -> Result<(), ContractError> {
    if let Some(ts) = obj.get("timestamp") {
        let ok = match ts {
            Value::Number(n) => n
                .as_f64()
                .is_some_and(|f| f.fract() == 0.0 && f.abs() <= MAX_SAFE_INTEGER),
            _ => false,
        };
        if !ok {
            return Err(ContractError::bad_frame(
                "AG-UI timestamp must be an integer (epoch milliseconds)",
            ));
        }
    }
    for key in ["rawEvent", "metadata", "subagentRunId"] {
        if obj.get(key).is_some_and(Value::is_null) {
            return Err(ContractError::bad_frame(format!(
                "AG-UI {key} is null; optional fields are omitted, not null"
            )));
        }
    }
    if let Some(metadata) = obj.get("metadata")
        && !metadata.is_object()
    {
        return Err(ContractError::bad_frame("AG-UI metadata is not an object"));
    }
    if let Some(id) = obj.get("subagentRunId")
        && !id.is_string()
    {
        return Err(ContractError::bad_frame(
            "AG-UI subagentRunId is not a string",
        ));
    }
    Ok(())
}

#[derive(Serialize)]
struct Custom<'a, T: Serialize> {
    #[serde(rename = "type")]
    event_type: &'static str,
    name: &'static str,
    value: &'a T,
    #[serde(skip_serializing_if = "Option::is_none")]
    timestamp: Option<i64>,
}

/// Epoch milliseconds of an RFC 3339 time (AG-UI `timestamp`); `None` when it does not parse
/// (the field is optional, and `null` is never emitted).
pub fn timestamp_ms(at: &str) -> Option<i64> {
    let t: OffsetDateTime = parse_timestamp("at", at).ok()?;
    i64::try_from(t.unix_timestamp_nanos() / 1_000_000).ok()
}

fn custom<T: Serialize>(
    name: &'static str,
    value: &T,
    at: Option<&str>,
) -> Result<String, ProjectError> {
    to_line(&Custom {
        event_type: "CUSTOM",
        name,
        value,
        timestamp: at.and_then(timestamp_ms),
    })
}

/// The `CUSTOM` event of a message.
pub fn project(message: &Message) -> Result<String, ProjectError> {
    let name = message.verb().name();
    match message {
        Message::WidgetCompleted(m) => custom(name_static(name), m, Some(&m.identity.at)),
        Message::WidgetStruggle(m) => custom(name_static(name), m, Some(&m.identity.at)),
        Message::ScoreRequest(m) => custom(name_static(name), m, Some(&m.identity.at)),
        Message::AssistRequest(m) => custom(name_static(name), m, Some(&m.identity.at)),
        Message::ScoreResponse(r) | Message::AssistResponse(r) => {
            super::require_response_at(r)?;
            custom(name_static(name), r, r.at.as_deref())
        }
        Message::Response(r) => Err(ProjectError::UnnamedResponse {
            call_id: r.call_id.clone(),
        }),
    }
}

/// The host event as a `CUSTOM` event.
pub fn project_host(event: &HostEvent) -> Result<String, ProjectError> {
    match event {
        HostEvent::CallClaimed(c) => custom("a2learn.host.call_claimed", c, None),
        HostEvent::SetAside(s) => custom("a2learn.host.set_aside", s, None),
    }
}

const CLASS_PAUSED: &str = "a2learn.host.class_paused";
const CLASS_RESUMED: &str = "a2learn.host.class_resumed";
const PACING: &str = "a2learn.host.pacing";

/// The class and the room control an AG-UI event's JSON text echoes, if it echoes one. A
/// malformed echo (no `class_id`, an `up_to` that is neither a string nor null) is `None`: it is
/// host state to mirror, not a contract event to reject.
pub fn room_echo(text: &str) -> Option<(String, RoomEcho)> {
    let event: Value = serde_json::from_str(text).ok()?;
    if event.get("type")?.as_str()? != "CUSTOM" {
        return None;
    }
    let value = event.get("value")?;
    let class_id = value.get("class_id")?.as_str()?.to_owned();
    let echo = match event.get("name")?.as_str()? {
        CLASS_PAUSED => RoomEcho::Paused {
            message: value
                .get("message")
                .and_then(Value::as_str)
                .map(str::to_owned),
        },
        CLASS_RESUMED => RoomEcho::Resumed,
        PACING => RoomEcho::Pacing {
            pathway_id: value.get("pathway_id")?.as_str()?.to_owned(),
            up_to: match value.get("up_to") {
                None | Some(Value::Null) => None,
                Some(Value::String(w)) => Some(w.clone()),
                Some(_) => return None,
            },
        },
        _ => return None,
    };
    Some((class_id, echo))
}

/// The `CUSTOM` event's name and value that echo `echo` for `class_id` (the host adds the
/// envelope and its time stamp).
pub fn room_echo_event(class_id: &str, echo: &RoomEcho) -> (&'static str, Value) {
    match echo {
        RoomEcho::Paused { message } => {
            let mut value = serde_json::json!({ "class_id": class_id });
            if let Some(m) = message {
                value["message"] = Value::from(m.as_str());
            }
            (CLASS_PAUSED, value)
        }
        RoomEcho::Resumed => (CLASS_RESUMED, serde_json::json!({ "class_id": class_id })),
        RoomEcho::Pacing { pathway_id, up_to } => (
            PACING,
            serde_json::json!({ "class_id": class_id, "pathway_id": pathway_id, "up_to": up_to }),
        ),
    }
}

// Verb names are 'static already; this keeps the envelope type simple.
fn name_static(name: &'static str) -> &'static str {
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn event_schema_requires_each_type_its_fields() {
        for ok in [
            json!({"type": "RUN_STARTED", "threadId": "class:c", "runId": "r", "timestamp": 1}),
            json!({"type": "STATE_SNAPSHOT", "snapshot": {}}),
            json!({"type": "RUN_ERROR", "message": "down"}),
            json!({"type": "CUSTOM", "name": "x", "value": null}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "delta": "judged by its own schema"}),
        ] {
            assert_eq!(check_event_schema(&ok), Ok(()), "{ok}");
        }
        for (bad, why) in [
            (
                json!({"type": "RUN_STARTED", "threadId": "class:c"}),
                "RUN_STARTED.runId",
            ),
            (
                json!({"type": "STATE_SNAPSHOT"}),
                "STATE_SNAPSHOT.snapshot is missing",
            ),
            (json!({"type": "CUSTOM", "value": 1}), "CUSTOM.name"),
            (
                json!({"type": "CUSTOM", "name": "x"}),
                "CUSTOM.value is missing",
            ),
            (
                json!({"type": "CUSTOM", "name": "x", "value": 1, "timestamp": "now"}),
                "timestamp",
            ),
            (json!({"name": "x"}), "type"),
            (json!([1]), "not a JSON object"),
        ] {
            let err = check_event_schema(&bad).expect_err(why).to_string();
            assert!(err.contains(why), "{bad}: {err}");
        }
    }

    #[test]
    fn other_event_types_and_unknown_names_are_ignored() {
        assert!(matches!(
            parse_event(&json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"})),
            Ok(Parsed::Ignored(_))
        ));
        assert!(matches!(
            parse_event(&json!({"type": "CUSTOM", "name": "other.thing", "value": 1})),
            Ok(Parsed::Ignored(_))
        ));
        assert!(matches!(
            parse_event(
                &json!({"type": "CUSTOM", "name": "a2learn.host.something_new", "value": {}})
            ),
            Ok(Parsed::Ignored(_))
        ));
    }

    #[test]
    fn envelope_errors_are_bad_frames() {
        for bad in [
            json!({"type": "CUSTOM", "name": "x"}),
            json!({"type": "CUSTOM", "name": "x", "value": 1, "timestamp": "2026"}),
            json!({"type": "CUSTOM", "name": "x", "value": 1, "timestamp": 1.5}),
            json!({"type": "CUSTOM", "name": "x", "value": 1, "timestamp": null}),
            json!({"type": "CUSTOM", "name": "x", "value": 1, "rawEvent": null}),
            json!({"type": "CUSTOM", "value": 1}),
            json!({"name": "x", "value": 1}),
            json!("CUSTOM"),
            json!({"type": "CUSTOM", "name": "a2learn.widget_completed", "value": null}),
            json!({"type": "CUSTOM", "name": "a2learn.widget_completed", "value": {}}),
        ] {
            let err = parse_event(&bad).unwrap_err();
            assert_eq!(err.rule_id(), crate::RuleId::BadFrame, "{bad}");
        }
    }

    #[test]
    fn a_host_set_aside_round_trips_and_its_words_are_checked() {
        let event = HostEvent::SetAside(crate::SetAside {
            source: "interactions row 42".into(),
            reason: "unknown widget kind \"hologram\"".into(),
        });
        let frame = project_host(&event).unwrap();
        let parsed = parse_event(&serde_json::from_str(&frame).unwrap()).unwrap();
        assert_eq!(parsed, Parsed::Host(event.clone()));
        assert!(crate::check::check_host_event(&event).is_ok());
        for (source, reason) in [
            ("interactions row 42", ""),
            ("", "a reason"),
            ("interactions row 42", "sent by ada@example.org"),
        ] {
            let bad = HostEvent::SetAside(crate::SetAside {
                source: source.into(),
                reason: reason.into(),
            });
            assert!(
                crate::check::check_host_event(&bad).is_err(),
                "{source:?} {reason:?}"
            );
        }
        let no_reason = json!({"type": "CUSTOM", "name": "a2learn.host.set_aside",
                               "value": {"source": "row 1"}});
        assert_eq!(
            parse_event(&no_reason).unwrap_err().rule_id(),
            crate::RuleId::BadFrame
        );
    }

    #[test]
    fn host_claims_parse() {
        let parsed = parse_event(&json!({
            "type": "CUSTOM", "name": "a2learn.host.call_claimed",
            "value": {"call_id": "c1", "claimed_by": "t-7f3a"}
        }))
        .unwrap();
        assert_eq!(
            parsed,
            Parsed::Host(HostEvent::CallClaimed(CallClaimed {
                call_id: "c1".into(),
                claimed_by: "t-7f3a".into()
            }))
        );
        let line = project_host(&HostEvent::CallClaimed(CallClaimed {
            call_id: "c1".into(),
            claimed_by: "t-7f3a".into(),
        }))
        .unwrap();
        assert_eq!(parse_event_str(&line).unwrap(), parsed);
    }

    #[test]
    fn timestamps_are_epoch_milliseconds() {
        assert_eq!(timestamp_ms("1970-01-01T00:00:01.5Z"), Some(1500));
        assert_eq!(
            timestamp_ms("2026-03-02T10:15:00Z"),
            Some(1_772_446_500_000)
        );
        assert_eq!(timestamp_ms("not a time"), None);
    }

    #[test]
    fn room_echoes_read_back_what_was_written() {
        let echoes = [
            RoomEcho::Paused {
                message: Some("Eyes up here".into()),
            },
            RoomEcho::Paused { message: None },
            RoomEcho::Resumed,
            RoomEcho::Pacing {
                pathway_id: "p".into(),
                up_to: Some("w2".into()),
            },
            RoomEcho::Pacing {
                pathway_id: "p".into(),
                up_to: None,
            },
        ];
        for echo in echoes {
            let (name, value) = room_echo_event("c1", &echo);
            let text =
                json!({"type": "CUSTOM", "name": name, "value": value, "timestamp": 1}).to_string();
            assert_eq!(room_echo(&text), Some(("c1".to_owned(), echo.clone())));
            // Not a contract event: the parser lets it through as ignored.
            assert!(
                matches!(parse_event_str(&text), Ok(Parsed::Ignored(_))),
                "{text}"
            );
        }
        let bad = r#"{"type":"CUSTOM","name":"a2learn.host.pacing","value":{"class_id":"c1","pathway_id":"p","up_to":7}}"#;
        assert_eq!(room_echo(bad), None);
        let no_class = r#"{"type":"CUSTOM","name":"a2learn.host.class_resumed","value":{}}"#;
        assert_eq!(room_echo(no_class), None);
    }
}
