//! A small exported class, shared by the core's export tests and the CLI crate's `export` test
//! (which includes this file, and `support/mod.rs` as `support`, by path).
#![allow(dead_code)] // each test file uses a different part

use a2learn_teacher::Store;
use a2learn_teacher::roster::parse_roster_csv;

use crate::support::{catalog, completion, frame, open_store, reflection, struggle};

pub const CLASS: &str = "class-export-1";
pub const CANARY_A: &str = "Zephyrine Quabbelwick";
pub const CANARY_B: &str = "Bartholomew Snorkeldink";
pub const A: &str = "anon_aaaa1111";
pub const B: &str = "anon_bbbb2222";
pub const C: &str = "anon_cccc3333";

/// A class of three: A completed both steps (correct), B the assessed one (incorrect), C only
/// struggled. A and B have names in the roster.
pub async fn class_store(dir: &tempfile::TempDir) -> Store {
    let store = open_store(dir).await;
    fill_class(&store).await;
    let roster = parse_roster_csv(&format!(
        "anonymous_id,display_name\n{A},{CANARY_A}\n{B},{CANARY_B}\n"
    ))
    .unwrap();
    store.import_roster(CLASS, &roster).await.unwrap();
    store
}

/// The class's catalog, assignment and events, on a store of either engine (no roster: names
/// live in a teacher's file only).
pub async fn fill_class(store: &Store) {
    store.upsert_class(CLASS, "Period 3", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    store
        .upsert_assignment("as-1", CLASS, "p-fractions", Some(1_800_086_400_000), None)
        .await
        .unwrap();
    let registry = store.registry().await.unwrap();
    let batch = vec![
        frame(
            1,
            "a2learn.widget_completed",
            completion(A, "run-a1", Some(true)),
        ),
        frame(2, "a2learn.widget_completed", reflection(A, "run-a2")),
        frame(
            3,
            "a2learn.widget_completed",
            completion(B, "run-b1", Some(false)),
        ),
        frame(4, "a2learn.widget_struggle", struggle(C, "run-c1", 2)),
    ];
    let out = store.ingest(CLASS, &registry, batch).await.unwrap();
    assert_eq!(out.stored, 4, "{out:?}");
}

pub fn no_canary(text: &str) {
    for name in [CANARY_A, CANARY_B, "Zephyrine", "Snorkeldink"] {
        assert!(!text.contains(name), "{name} leaked into a default export");
    }
}
