//! Captures a live feed to `test-output/feed-capture.jsonl` (one AG-UI event per line, from
//! RUN_STARTED to RUN_FINISHED) and, where node and the peers of `tests/peers` are
//! installed, checks it with `@ag-ui/core`'s EventSchema and `@ag-ui/client`'s verifyEvents
//! (`tests/peers/check-feed.mjs`).

mod common;

use std::path::PathBuf;
use std::time::Duration;

use a2learn_contract::Function;
use common::*;
use pathway_host::{CallState, HostConfig};
use serde_json::{Value, json};

const FRAMES: usize = 150;

fn workspace() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[tokio::test]
async fn a_live_feed_is_captured_and_passes_the_agui_peers() {
    let config = HostConfig {
        learners: 20,
        speed: 300.0,
        seed: 3,
        ping_interval: Duration::from_millis(200),
        ..HostConfig::local(TOKEN)
    };
    let host = pathway_host::start(config).await.unwrap();
    let (class_id, _) = host.create_class("Capture").unwrap();
    host.assign(&class_id, "fractions-compare-4", None, None)
        .unwrap();
    host.assign(&class_id, "main-idea-4", None, None).unwrap();

    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    let mut events: Vec<Value> = Vec::new();
    let mut ids = Vec::new();
    let mut answered = 0;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(40);
    while events.len() < FRAMES + 2 && tokio::time::Instant::now() < deadline {
        let (id, data) = sse
            .next_frame(Duration::from_secs(10))
            .await
            .expect("frame");
        events.push(serde_json::from_str(&data).expect("JSON"));
        ids.extend(id);
        // Run the room once, so that its echoes are judged by the peers too.
        if events.len() == FRAMES / 2 {
            let up_to = &host.pathways()[0].steps[2].widget_id;
            host.pause_class(&class_id, Some("Eyes up here.")).unwrap();
            host.set_pacing(&class_id, "fractions-compare-4", Some(up_to))
                .unwrap();
            host.set_pacing(&class_id, "fractions-compare-4", None)
                .unwrap();
            host.resume_class(&class_id).unwrap();
        }
        // Act as a teacher now and then, so claims and answers are in the capture too.
        if answered < 3
            && let Some(call) = host
                .calls(&class_id)
                .into_iter()
                .find(|c| c.state == CallState::Open)
            && host.claim(TOKEN, &call.call_id).is_ok()
        {
            let value = match call.function {
                Function::Score => json!({"correct": true, "score": 1.0}),
                Function::Assist => json!({"answer": "Draw it.", "answered_by": "teacher"}),
            };
            if host
                .respond(TOKEN, &call.call_id, Some(value), None)
                .is_ok()
            {
                answered += 1;
            }
        }
    }
    assert!(events.len() >= FRAMES + 2, "captured {}", events.len());
    host.shutdown().await;
    loop {
        match sse.next_frame(Duration::from_secs(5)).await {
            Ok((id, data)) => {
                ids.extend(id);
                events.push(serde_json::from_str(&data).unwrap());
            }
            Err(End::Closed) => break,
            Err(other) => panic!("feed ended with {other:?}"),
        }
    }
    assert_eq!(events[0]["type"], "RUN_STARTED");
    assert_eq!(events[1]["type"], "STATE_SNAPSHOT");
    assert_eq!(events.last().unwrap()["type"], "RUN_FINISHED");
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "ids strictly increase");
    assert!(answered > 0, "the capture has teacher answers");
    for name in [
        "a2learn.host.class_paused",
        "a2learn.host.pacing",
        "a2learn.host.class_resumed",
    ] {
        assert!(
            events.iter().any(|e| e["name"] == name),
            "the capture has {name}"
        );
    }

    let out = workspace().join("test-output");
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join("feed-capture.jsonl");
    let text: String = events.iter().map(|e| format!("{e}\n")).collect();
    std::fs::write(&path, text).unwrap();

    let peers = workspace().join("tests/peers/node_modules/@ag-ui/core");
    let node = std::process::Command::new("node").arg("--version").output();
    if !peers.exists() || node.is_err() {
        eprintln!("peer check skipped: node or tests/peers/node_modules is missing");
        return;
    }
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/peers/check-feed.mjs");
    let run = std::process::Command::new("node")
        .arg(&script)
        .arg(&path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        run.status.success(),
        "AG-UI peers refused the capture:\n{stdout}\n{stderr}"
    );
    eprintln!("{stdout}");
}
