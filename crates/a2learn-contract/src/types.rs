//! The canonical payloads of the four verbs and the registry entry (`contract.md` §1, §2).
//!
//! These are the shapes every projection carries. Three serde conventions hold throughout,
//! because the transports and the UI depend on them:
//! - unknown fields are ignored on input and never emitted (§3.6): no `deny_unknown_fields`,
//!   and a round trip drops them;
//! - optional fields are omitted, never emitted as `null` (AG-UI's own schema rejects `null`
//!   for optional fields, and the other peers gain nothing from it). The one exception is
//!   `widget_result.correct`, which the contract defines as `true | false | null`;
//! - no 64-bit integers: the UI gets these types through generated TypeScript, where a `u64`
//!   would become a `bigint`. Counts are `u32`, scores `f64`.

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

/// A count (`attempts`, `hints`, `failed_checks`): a JSON integer, or a number with no fraction
/// (`2.0`, as some JSON writers put every number). JSON Schema calls both integers and they mean
/// the same count, so both are read; a fraction or a negative number is refused.
fn count<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    use serde::de::Error;
    let n = serde_json::Number::deserialize(d)?;
    let whole = n.as_u64().or_else(|| {
        n.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= f64::from(u32::MAX))
            .map(|f| f as u64)
    });
    whole
        .and_then(|w| u32::try_from(w).ok())
        .ok_or_else(|| D::Error::custom(format!("{n} is not a count (a whole number, 0 or more)")))
}

/// Any JSON value, as the UI sees it. The fields hold `serde_json::Value`; this type only
/// stands in for it in the TypeScript bindings (`#[specta(type = JsonValue)]`), because
/// specta's own description of `serde_json::Value` includes 64-bit integers, which the
/// TypeScript exporter refuses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type)]
#[serde(untagged)]
pub enum JsonValue {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<JsonValue>),
    Object(std::collections::BTreeMap<String, JsonValue>),
}

/// The identifying fields every event and request carries (§1), and no others that
/// identify a person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct Identity {
    /// Anonymous learner id: `^[A-Za-z0-9_-]{8,64}$` with at least one letter.
    #[schemars(
        length(min = 8, max = 64),
        regex(pattern = r"^[A-Za-z0-9_-]*[A-Za-z][A-Za-z0-9_-]*$")
    )]
    pub learner: String,
    /// One run of one widget by one learner.
    #[schemars(length(min = 1))]
    pub widget_run_id: String,
    /// The widget instance in a pathway.
    #[schemars(length(min = 1))]
    pub widget_id: String,
    #[schemars(length(min = 1))]
    pub pathway_id: String,
    /// RFC 3339 UTC time of the emission.
    #[schemars(extend("format" = "date-time"))]
    pub at: String,
}

/// `a2learn.widget_completed`: the evidence report.
///
/// `prose` is declared first so that serializers that keep field order (the projections
/// write typed envelopes) put it first: prose leads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct WidgetCompleted {
    /// One sentence about the learner's work; non-empty after trimming, at most 1000 characters.
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"\S"))]
    pub prose: String,
    #[serde(flatten)]
    pub identity: Identity,
    pub widget_result: WidgetResult,
}

/// The exact fields of a completion.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct WidgetResult {
    /// Registry kind, e.g. `fraction_compare`.
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,
    /// `null` unless a real check ran. Always emitted (the contract's tri-state); an absent
    /// field is read as `null`.
    #[serde(default)]
    pub correct: Option<bool>,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub attempts: u32,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub hints: u32,
    /// In [0, 1], or absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub score: Option<f64>,
    /// Free per kind; may be empty. An absent field is read as `{}`.
    #[serde(default)]
    #[specta(type = std::collections::BTreeMap<String, JsonValue>)]
    pub detail: Map<String, Value>,
}

/// `a2learn.widget_struggle`: the one struggle signal of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct WidgetStruggle {
    #[schemars(length(min = 1, max = 1000), regex(pattern = r"\S"))]
    pub prose: String,
    #[serde(flatten)]
    pub identity: Identity,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub failed_checks: u32,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub hints: u32,
}

/// `a2learn.score` request: run a check the widget cannot run itself.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct ScoreRequest {
    #[schemars(length(min = 1))]
    pub call_id: String,
    #[serde(flatten)]
    pub identity: Identity,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,
    /// RFC 3339; after it the call is closed.
    #[schemars(extend("format" = "date-time"))]
    pub deadline: String,
    pub args: ScoreArgs,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct ScoreArgs {
    /// Any JSON the widget captured.
    #[specta(type = JsonValue)]
    pub response: Value,
}

/// `a2learn.assist` request: the student asks for help.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct AssistRequest {
    #[schemars(length(min = 1))]
    pub call_id: String,
    #[serde(flatten)]
    pub identity: Identity,
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,
    #[schemars(extend("format" = "date-time"))]
    pub deadline: String,
    pub args: AssistArgs,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct AssistArgs {
    /// 1..2000 characters.
    #[schemars(length(min = 1, max = 2000))]
    pub question: String,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub attempts: u32,
    #[serde(deserialize_with = "count")]
    #[specta(type = u32)]
    pub hints: u32,
}

/// The response to a `score` or `assist` call: `call_id` plus exactly one of `value` and
/// `error`. Both are `Option` on purpose: a response with both or neither must parse, so
/// that the rules `value-and-error` / `no-value-no-error` can name it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
#[schemars(extend("oneOf" = [{"required": ["value"]}, {"required": ["error"]}]))]
pub struct FunctionResponse {
    #[schemars(length(min = 1))]
    pub call_id: String,
    /// RFC 3339 UTC. Required on AG-UI and MCP Apps; absent only when the response crossed
    /// A2UI v1.0, whose `FunctionResponse` is a closed object with no slot for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(extend("format" = "date-time"))]
    pub at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<ResponseValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<CallError>,
}

/// A response value; its shape tells which function produced it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
// `expecting`: a value of neither shape is refused with what the shapes are, not serde's
// "did not match any variant".
#[serde(
    untagged,
    expecting = "a response value is neither a score value {correct, score, feedback?} nor an assist value {answer, answered_by}"
)]
pub enum ResponseValue {
    Score(ScoreValue),
    Assist(AssistValue),
}

impl ResponseValue {
    pub fn function(&self) -> Function {
        match self {
            ResponseValue::Score(_) => Function::Score,
            ResponseValue::Assist(_) => Function::Assist,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct ScoreValue {
    pub correct: bool,
    #[schemars(range(min = 0.0, max = 1.0))]
    pub score: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub feedback: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct AssistValue {
    /// Plain text, 1..4000 characters.
    #[schemars(length(min = 1, max = 4000))]
    pub answer: String,
    pub answered_by: AnsweredBy,
}

/// Who answered an assist call. Only the teacher answers in this product.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum AnsweredBy {
    Teacher,
}

/// A function error. Codes used by this contract: `unavailable`, `timeout`, `declined`,
/// `unknown_function`, `invalid_call`; other codes are carried, not rejected (forward
/// compatibility).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct CallError {
    pub code: String,
    pub message: String,
}

impl CallError {
    /// The code a host uses when it closes an unanswered call at its deadline.
    pub const TIMEOUT: &'static str = "timeout";
}

/// The two events a registry entry may declare.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    specta::Type,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Event {
    WidgetCompleted,
    WidgetStruggle,
}

/// The two functions a registry entry may declare.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    specta::Type,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Function {
    Score,
    Assist,
}

impl Function {
    /// `score` / `assist`, as in registry entries.
    pub fn as_str(self) -> &'static str {
        match self {
            Function::Score => "score",
            Function::Assist => "assist",
        }
    }
}

/// A registry entry: the capability declaration of one widget kind (§2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
pub struct RegistryEntry {
    pub kind: String,
    pub title: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub standard: Option<String>,
    pub assesses: bool,
    #[serde(default)]
    pub events: Vec<Event>,
    #[serde(default)]
    pub functions: Vec<Function>,
}

impl RegistryEntry {
    pub fn declares_event(&self, event: Event) -> bool {
        self.events.contains(&event)
    }

    pub fn declares_function(&self, function: Function) -> bool {
        self.functions.contains(&function)
    }
}

/// The registry file: `{"entries": [registry entries]}`.
#[derive(
    Debug, Clone, PartialEq, Default, Serialize, Deserialize, specta::Type, schemars::JsonSchema,
)]
pub struct RegistryFile {
    pub entries: Vec<RegistryEntry>,
}

/// One contract message: a verb and its payload.
///
/// Serialized (for storage or a host API) as `{"verb": "...", "payload": {...}}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, specta::Type, schemars::JsonSchema)]
#[serde(tag = "verb", content = "payload")]
pub enum Message {
    #[serde(rename = "a2learn.widget_completed")]
    WidgetCompleted(WidgetCompleted),
    #[serde(rename = "a2learn.widget_struggle")]
    WidgetStruggle(WidgetStruggle),
    #[serde(rename = "a2learn.score")]
    ScoreRequest(ScoreRequest),
    #[serde(rename = "a2learn.assist")]
    AssistRequest(AssistRequest),
    #[serde(rename = "a2learn.score.response")]
    ScoreResponse(FunctionResponse),
    #[serde(rename = "a2learn.assist.response")]
    AssistResponse(FunctionResponse),
    /// A response whose transport does not name the function it answers: A2UI's
    /// `agentFunctionResponse` and an MCP tool result are matched to their call by id only.
    /// [`crate::Sequencer`] resolves it against the open call; see
    /// [`Message::resolve_response`].
    #[serde(rename = "a2learn.response")]
    Response(FunctionResponse),
}

/// The verb of a message, as its AG-UI `CUSTOM` name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verb {
    WidgetCompleted,
    WidgetStruggle,
    Score,
    Assist,
    ScoreResponse,
    AssistResponse,
    Response,
}

impl Verb {
    pub fn name(self) -> &'static str {
        match self {
            Verb::WidgetCompleted => "a2learn.widget_completed",
            Verb::WidgetStruggle => "a2learn.widget_struggle",
            Verb::Score => "a2learn.score",
            Verb::Assist => "a2learn.assist",
            Verb::ScoreResponse => "a2learn.score.response",
            Verb::AssistResponse => "a2learn.assist.response",
            Verb::Response => "a2learn.response",
        }
    }
}

impl Message {
    pub fn verb(&self) -> Verb {
        match self {
            Message::WidgetCompleted(_) => Verb::WidgetCompleted,
            Message::WidgetStruggle(_) => Verb::WidgetStruggle,
            Message::ScoreRequest(_) => Verb::Score,
            Message::AssistRequest(_) => Verb::Assist,
            Message::ScoreResponse(_) => Verb::ScoreResponse,
            Message::AssistResponse(_) => Verb::AssistResponse,
            Message::Response(_) => Verb::Response,
        }
    }

    /// The identifying fields, for events and requests (responses carry none).
    pub fn identity(&self) -> Option<&Identity> {
        match self {
            Message::WidgetCompleted(m) => Some(&m.identity),
            Message::WidgetStruggle(m) => Some(&m.identity),
            Message::ScoreRequest(m) => Some(&m.identity),
            Message::AssistRequest(m) => Some(&m.identity),
            _ => None,
        }
    }

    /// The registry kind the message speaks for (events and requests).
    pub fn kind(&self) -> Option<&str> {
        match self {
            Message::WidgetCompleted(m) => Some(&m.widget_result.kind),
            Message::WidgetStruggle(m) => Some(&m.kind),
            Message::ScoreRequest(m) => Some(&m.kind),
            Message::AssistRequest(m) => Some(&m.kind),
            _ => None,
        }
    }

    /// The response payload and the function it answers, when the transport named it.
    pub fn response(&self) -> Option<(Option<Function>, &FunctionResponse)> {
        match self {
            Message::ScoreResponse(r) => Some((Some(Function::Score), r)),
            Message::AssistResponse(r) => Some((Some(Function::Assist), r)),
            Message::Response(r) => Some((None, r)),
            _ => None,
        }
    }

    /// The message's RFC 3339 times (`at`, `deadline`), each with its field name.
    pub fn times(&self) -> Vec<(&'static str, &str)> {
        let mut times = Vec::with_capacity(2);
        if let Some(identity) = self.identity() {
            times.push(("at", identity.at.as_str()));
        }
        match self {
            Message::ScoreRequest(r) => times.push(("deadline", r.deadline.as_str())),
            Message::AssistRequest(r) => times.push(("deadline", r.deadline.as_str())),
            _ => {}
        }
        if let Some((_, r)) = self.response()
            && let Some(at) = &r.at
        {
            times.push(("at", at.as_str()));
        }
        times
    }

    /// Rewrites every time written in an offset other than UTC as the same instant in UTC
    /// (`Z`): a reader accepts `+05:30` and keeps UTC (`contract.md` §1). Returns how many it
    /// rewrote; a time that is not RFC 3339 is left for the rules to reject.
    pub fn times_to_utc(&mut self) -> usize {
        fn fix(text: &mut String) -> usize {
            if !crate::rfc3339::has_offset(text) {
                return 0;
            }
            match crate::rfc3339::to_utc(text) {
                Some(utc) => {
                    *text = utc;
                    1
                }
                None => 0,
            }
        }
        let mut fixed = 0;
        match self {
            Message::WidgetCompleted(m) => fixed += fix(&mut m.identity.at),
            Message::WidgetStruggle(m) => fixed += fix(&mut m.identity.at),
            Message::ScoreRequest(m) => {
                fixed += fix(&mut m.identity.at) + fix(&mut m.deadline);
            }
            Message::AssistRequest(m) => {
                fixed += fix(&mut m.identity.at) + fix(&mut m.deadline);
            }
            Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
                if let Some(at) = &mut r.at {
                    fixed += fix(at);
                }
            }
        }
        fixed
    }

    /// Names the function of an unnamed [`Message::Response`] (e.g. from the call
    /// bookkeeping); other messages are returned unchanged.
    pub fn resolve_response(self, function: Function) -> Message {
        match self {
            Message::Response(r) => match function {
                Function::Score => Message::ScoreResponse(r),
                Function::Assist => Message::AssistResponse(r),
            },
            other => other,
        }
    }
}
