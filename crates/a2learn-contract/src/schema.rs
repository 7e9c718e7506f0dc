//! The JSON Schema (draft 2020-12) of the canonical payloads, for hosts written in other
//! languages. Derived from the same types serde uses, so it cannot drift from the Rust
//! shapes; a test writes it to `schema/a2learn-contract.schema.json` and CI fails when the
//! committed file is stale.
//!
//! The root describes a [`Message`] (`{"verb", "payload"}`); every payload, the registry
//! entry and the registry file are under `$defs` (e.g. `#/$defs/WidgetCompleted`).
//! Rules that need more than one message or the registry (§3) are not in the schema.

use serde_json::Value;

use crate::types::{
    AssistRequest, FunctionResponse, Message, RegistryEntry, RegistryFile, ScoreRequest,
    WidgetCompleted, WidgetStruggle,
};

/// The `$id` of the schema.
pub const SCHEMA_ID: &str = "https://a2learn.invalid/schema/a2learn-contract.schema.json";

/// The schema as JSON.
pub fn json_schema() -> Value {
    let mut generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    // Registering each payload puts it under `$defs` even where the root only references
    // it through `Message`.
    for (name, schema) in [
        (
            "WidgetCompleted",
            generator.subschema_for::<WidgetCompleted>(),
        ),
        (
            "WidgetStruggle",
            generator.subschema_for::<WidgetStruggle>(),
        ),
        ("ScoreRequest", generator.subschema_for::<ScoreRequest>()),
        ("AssistRequest", generator.subschema_for::<AssistRequest>()),
        (
            "FunctionResponse",
            generator.subschema_for::<FunctionResponse>(),
        ),
        ("RegistryEntry", generator.subschema_for::<RegistryEntry>()),
        ("RegistryFile", generator.subschema_for::<RegistryFile>()),
    ] {
        debug_assert!(
            schema.get("$ref").is_some(),
            "{name} is referenced by $defs"
        );
    }
    let root = generator.root_schema_for::<Message>();
    let mut value = root.to_value();
    drop_null_from_optional_fields(&mut value);
    if let Value::Object(map) = &mut value {
        map.insert("$id".into(), Value::String(SCHEMA_ID.into()));
        map.insert(
            "title".into(),
            Value::String("a2learn interaction contract".into()),
        );
        map.insert(
            "description".into(),
            Value::String(
                "Canonical payloads of the a2learn verbs (contract.md). The root is a message \
                 {verb, payload}; each payload is under $defs."
                    .into(),
            ),
        );
    }
    value
}

/// Field names whose `null` is a value of the contract (`correct: true | false | null`).
const NULLABLE_FIELDS: [&str; 1] = ["correct"];

/// schemars describes an `Option` field as "T or null", because serde reads `null` as
/// absent. The contract never emits `null` for an optional field (AG-UI rejects it), so the
/// canonical schema says "T, or absent", except for the fields where `null` is a value.
fn drop_null_from_optional_fields(value: &mut Value) {
    match value {
        Value::Object(map) => {
            if let Some(Value::Object(properties)) = map.get_mut("properties") {
                for (name, property) in properties.iter_mut() {
                    if !NULLABLE_FIELDS.contains(&name.as_str()) {
                        strip_null(property);
                    }
                }
            }
            for child in map.values_mut() {
                drop_null_from_optional_fields(child);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(drop_null_from_optional_fields),
        _ => {}
    }
}

fn strip_null(property: &mut Value) {
    let Value::Object(map) = property else { return };
    if let Some(Value::Array(types)) = map.get("type") {
        let rest: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if rest.len() == 1 {
            map.insert("type".into(), rest[0].clone());
        }
    }
    if let Some(Value::Array(any_of)) = map.get("anyOf") {
        let rest: Vec<Value> = any_of
            .iter()
            .filter(|s| s.get("type").is_none_or(|t| t != "null"))
            .cloned()
            .collect();
        if rest.len() == 1 && rest.len() < any_of.len() {
            map.remove("anyOf");
            if let Value::Object(inner) = &rest[0] {
                for (k, v) in inner {
                    map.insert(k.clone(), v.clone());
                }
            }
        }
    }
}

/// The schema as pretty-printed text with a trailing newline (the committed file).
pub fn json_schema_string() -> String {
    let mut text = serde_json::to_string_pretty(&json_schema()).unwrap_or_default();
    text.push('\n');
    text
}
