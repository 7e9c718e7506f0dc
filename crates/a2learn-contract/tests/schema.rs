//! The committed JSON Schema is regenerated here; CI runs `git diff --exit-code` after the
//! tests, so a stale file fails the build.

// Test helpers outside #[test] functions may panic too: a panic is a failed test.
#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

#[test]
fn committed_schema_is_current() {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("schema/a2learn-contract.schema.json");
    let text = a2learn_contract::schema::json_schema_string();
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    if old != text {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &text).unwrap();
    }
    // Deterministic: two generations are byte-identical.
    assert_eq!(text, a2learn_contract::schema::json_schema_string());
}
