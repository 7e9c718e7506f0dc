//! The committed JSON Schema must be what the types generate: this test compares, and fails on a
//! difference. `A2LEARN_REGENERATE=1 cargo test -p a2learn-contract --test schema` rewrites the
//! file (then commit it with the change that altered the types).

// Test helpers outside #[test] functions may panic too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

#[test]
fn committed_schema_is_current() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/a2learn-contract.schema.json");
    let text = a2learn_contract::schema::json_schema_string();
    // Deterministic: two generations are byte-identical.
    assert_eq!(text, a2learn_contract::schema::json_schema_string());
    if std::env::var_os("A2LEARN_REGENERATE").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == text,
        "{} is stale (or missing): the contract's types generate another schema. Regenerate it \
         with `A2LEARN_REGENERATE=1 cargo test -p a2learn-contract --test schema` and commit it.",
        path.display()
    );
}
