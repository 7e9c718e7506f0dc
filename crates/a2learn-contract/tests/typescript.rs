//! The UI gets these types through generated TypeScript bindings; the exporter refuses
//! 64-bit integers (they become `bigint`), so exporting them here catches one early.

// Test helpers outside #[test] functions may panic too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use a2learn_contract::{HostEvent, Message, RegistryFile};

#[test]
fn contract_types_export_to_typescript() {
    let types = specta::Types::default()
        .register::<Message>()
        .register::<RegistryFile>()
        .register::<HostEvent>();
    let ts = specta_typescript::Typescript::new()
        .export(&types, specta_serde::Format)
        .unwrap_or_else(|e| panic!("TypeScript export failed: {e}"));
    for name in [
        "WidgetCompleted",
        "WidgetStruggle",
        "ScoreRequest",
        "AssistRequest",
        "FunctionResponse",
        "RegistryEntry",
    ] {
        assert!(
            ts.contains(&format!("export type {name}")),
            "{name} missing:\n{ts}"
        );
    }
    // `correct` is the contract's tri-state; arbitrary JSON is `JsonValue`, not a bigint union.
    assert!(ts.contains("correct?: boolean | null"), "{ts}");
    assert!(ts.contains("response: JsonValue"), "{ts}");
    assert!(!ts.contains("bigint"), "{ts}");
}
