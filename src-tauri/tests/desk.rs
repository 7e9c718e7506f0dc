//! The help desk's commands through Tauri's IPC, on the mock runtime, with a real SQLite file:
//! what the UI sends is checked before anything reaches a host.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod common;

use a2learn_teacher::Store;

use common::{app_with, invoke_with, open_store};

/// Feed seqs for [`insert_call`]: each frame needs a new one or the store drops it as a replay.
static SEQ: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

/// Stores one assist request the way the feed would: a real `CUSTOM a2learn.assist` frame,
/// ingested against the demo host's catalog.
fn insert_call(store: &Store, call_id: &str, question: &str) {
    let pathways = pathway_host::catalog::pathways();
    let now = 1_764_000_000_000_i64;
    let event = a2learn_teacher_app::demo::assist_request_event(
        &pathways,
        call_id,
        "anon_aaaa1111",
        question,
        now - 1_000,
        now + 299_000,
    )
    .expect("a widget declares assist");
    let mut entries: Vec<a2learn_contract::RegistryEntry> = Vec::new();
    for step in pathways.iter().flat_map(|p| p.steps.iter()) {
        if !entries.iter().any(|e| e.kind == step.entry.kind) {
            entries.push(step.entry.clone());
        }
    }
    let registry = a2learn_contract::Registry::new(entries).unwrap();
    tauri::async_runtime::block_on(async {
        store.upsert_class("class-1", "P3", None).await.unwrap();
        let outcome = store
            .ingest(
                "class-1",
                &registry,
                vec![a2learn_teacher::store::Incoming::Frame {
                    id: Some(
                        SEQ.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
                            .to_string(),
                    ),
                    data: event.to_string(),
                }],
            )
            .await
            .unwrap();
        assert!(outcome.changes.calls, "the request is stored: {outcome:?}");
    });
}

#[test]
fn an_empty_or_too_long_answer_is_refused_before_any_host_is_asked() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    insert_call(&store, "call-1", "help");
    let (_app, webview) = app_with(store, 0);
    for text in [String::new(), "  \n".into(), "x".repeat(4001)] {
        let err = invoke_with(
            &webview,
            "desk_answer",
            serde_json::json!({"callId": "call-1", "text": text}),
        )
        .expect_err("refused");
        assert_eq!(err["code"], "invalid_input", "{err}");
        assert!(!err["message"].as_str().unwrap().is_empty());
    }
    let err = invoke_with(
        &webview,
        "desk_answer_group",
        serde_json::json!({"callIds": ["call-1"], "text": ""}),
    )
    .expect_err("refused");
    assert_eq!(err["code"], "invalid_input");
    // Control: a valid answer gets past validation and fails only for want of a host.
    let err = invoke_with(
        &webview,
        "desk_answer",
        serde_json::json!({"callId": "call-1", "text": "x".repeat(4000)}),
    )
    .expect_err("no host is configured");
    assert_eq!(err["code"], "host", "{err}");
}

#[test]
fn the_queue_shows_the_question_as_sent_and_keeps_drafts() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    insert_call(&store, "call-1", "<img src=x onerror=alert(1)>");
    let (_app, webview) = app_with(store, 0);
    invoke_with(
        &webview,
        "desk_set_draft",
        serde_json::json!({"callId": "call-1", "body": "half"}),
    )
    .unwrap();
    let queue = invoke_with(&webview, "desk_queue", serde_json::json!({"classId": null})).unwrap();
    let rows = queue.as_array().unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0]["question"], "<img src=x onerror=alert(1)>");
    assert_eq!(rows[0]["state"], "open");
    assert_eq!(rows[0]["draft"], "half");
    assert_eq!(rows[0]["attempts"], 1);
    let none = invoke_with(
        &webview,
        "desk_queue",
        serde_json::json!({"classId": "another"}),
    )
    .unwrap();
    assert_eq!(none, serde_json::json!([]));
}

#[test]
fn saved_replies_are_checked_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let (_app, webview) = app_with(open_store(&dir, 1_764_000_000_000), 0);
    let err = invoke_with(
        &webview,
        "desk_create_reply",
        serde_json::json!({"title": " ", "body": "b"}),
    )
    .expect_err("a title is needed");
    assert_eq!(err["code"], "invalid_input");
    let made = invoke_with(
        &webview,
        "desk_create_reply",
        serde_json::json!({"title": "Tops", "body": "Compare the numerators."}),
    )
    .unwrap();
    let id = made["reply_id"].clone();
    invoke_with(
        &webview,
        "desk_update_reply",
        serde_json::json!({"replyId": id, "title": "Tops", "body": "Look at the tops."}),
    )
    .unwrap();
    let list = invoke_with(&webview, "desk_replies", serde_json::json!({})).unwrap();
    assert_eq!(list[0]["body"], "Look at the tops.");
    invoke_with(
        &webview,
        "desk_delete_reply",
        serde_json::json!({"replyId": id}),
    )
    .unwrap();
    let err = invoke_with(
        &webview,
        "desk_delete_reply",
        serde_json::json!({"replyId": id}),
    )
    .expect_err("gone");
    assert_eq!(err["code"], "not_found");
    let muted = invoke_with(
        &webview,
        "desk_set_muted",
        serde_json::json!({"muted": true}),
    )
    .unwrap();
    assert_eq!(muted["muted"], true);
    assert_eq!(
        invoke_with(&webview, "desk_settings", serde_json::json!({})).unwrap()["muted"],
        true
    );
}

#[test]
fn a_new_request_is_notified_once_with_a_count_and_no_words_of_its_own() {
    use a2learn_teacher::desk::notify::DeskNotifier;
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    let now = store.now_ms();
    let check = |n: &DeskNotifier| tauri::async_runtime::block_on(n.check(&store)).unwrap();
    // Asked 1 s before the app started: old news.
    insert_call(&store, "call-old", "secret question <b>");
    assert_eq!(check(&DeskNotifier::new(now)), None);

    let notifier = DeskNotifier::new(now - 5_000);
    let first = check(&notifier).expect("a new request is notified");
    assert_eq!(first, "New help request");
    assert!(!first.contains("secret"), "never the question");
    assert_eq!(check(&notifier), None, "once per request");
    insert_call(&store, "call-2", "another");
    assert_eq!(
        check(&notifier).as_deref(),
        Some("New help request (2 waiting)")
    );
    tauri::async_runtime::block_on(a2learn_teacher::desk::Desk::new(&store).set_muted(true))
        .unwrap();
    insert_call(&store, "call-3", "third");
    assert_eq!(check(&notifier), None, "muted");
}

#[test]
fn projector_safe_mode_sends_the_desk_no_name_and_no_free_text() {
    let dir = tempfile::tempdir().unwrap();
    let store = open_store(&dir, 1_764_000_000_000);
    insert_call(&store, "call-1", "Canary question words");
    let roster = a2learn_teacher::roster::parse_roster_csv(
        "anonymous_id,display_name\nanon_aaaa1111,Ada Canaryname\n",
    )
    .unwrap();
    tauri::async_runtime::block_on(async {
        store.import_roster("class-1", &roster).await.unwrap();
        let desk = a2learn_teacher::desk::Desk::new(&store);
        desk.create_reply("Halves", "Canary reply body")
            .await
            .unwrap();
        desk.set_draft("call-1", "Canary draft words")
            .await
            .unwrap();
    });
    let (_app, webview) = app_with(store, 0);
    let get = |cmd: &str| invoke_with(&webview, cmd, serde_json::json!({"classId": null})).unwrap();
    // Control: the teacher's own window gets all of it.
    let own = format!("{}{}", get("desk_queue"), get("desk_replies"));
    for text in [
        "Ada Canaryname",
        "Canary question words",
        "Canary draft words",
        "Canary reply body",
    ] {
        assert!(
            own.contains(text),
            "{text} missing from the teacher's view: {own}"
        );
    }
    invoke_with(
        &webview,
        "set_projector_safe",
        serde_json::json!({"on": true}),
    )
    .unwrap();
    let room = format!("{}{}", get("desk_queue"), get("desk_replies"));
    assert!(!room.contains("Canary"), "{room}");
    assert!(!room.contains("anon_aaaa1111"), "no id either: {room}");
    assert!(
        room.contains("Learner") && room.contains("Halves"),
        "aliases and titles stay: {room}"
    );
}
