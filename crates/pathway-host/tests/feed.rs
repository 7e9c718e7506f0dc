//! The class feed over real HTTP: framing, replay, auth, 404, pings, orderly and abrupt ends,
//! and the wire-level faults.

mod common;

use std::time::Duration;

use common::*;
use pathway_host::Faults;

const WAIT: Duration = Duration::from_secs(5);

#[tokio::test]
async fn a_connection_opens_with_run_started_and_snapshot_then_every_logged_frame() {
    let host = manual_host(7).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(20 * 60));
    let log = host.log(&class_id);
    assert!(
        log.len() > 20,
        "twenty minutes of a class give events: {}",
        log.len()
    );

    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    let (id, data) = sse.next_frame(WAIT).await.expect("RUN_STARTED");
    assert_eq!(id, None, "RUN_STARTED carries no id");
    let started: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(started["type"], "RUN_STARTED");
    assert_eq!(started["threadId"], format!("class:{class_id}"));
    assert!(started["runId"].as_str().is_some_and(|r| !r.is_empty()));
    assert!(started["timestamp"].is_i64());

    let (id, data) = sse.next_frame(WAIT).await.expect("STATE_SNAPSHOT");
    assert_eq!(id, None);
    let snap: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(snap["type"], "STATE_SNAPSHOT");
    assert_eq!(snap["snapshot"]["class_id"], class_id.as_str());
    assert_eq!(snap["snapshot"]["learners"].as_array().unwrap().len(), 12);
    assert_eq!(
        snap["snapshot"]["assignments"][0]["pathway_id"],
        "fractions-compare-4"
    );

    for expected in &log {
        let (id, data) = sse.next_frame(WAIT).await.expect("logged frame");
        assert_eq!(id, Some(expected.seq));
        assert_eq!(data, expected.data);
    }
    // Live: new events arrive on the open connection, with larger seqs.
    host.advance(Duration::from_secs(10 * 60));
    let (id, _) = sse.next_frame(WAIT).await.expect("live frame");
    assert_eq!(id, Some(log.last().unwrap().seq + 1));
}

#[tokio::test]
async fn seqs_are_strictly_increasing_and_every_frame_is_an_agui_event() {
    let host = manual_host(8).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(30 * 60));
    let log = host.log(&class_id);
    assert!(log.windows(2).all(|w| w[0].seq < w[1].seq));
    assert_eq!(log.first().map(|f| f.seq), Some(1));
    for f in &log {
        let v = f.json().expect("JSON");
        assert_eq!(v["type"], "CUSTOM");
        assert!(v["timestamp"].is_i64(), "integer timestamp: {}", f.data);
        assert!(v.get("value").is_some());
        assert!(!f.data.contains("null") || f.data.contains("\"correct\":null"));
    }
}

#[tokio::test]
async fn last_event_id_replays_only_the_frames_after_it() {
    let host = manual_host(9).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(20 * 60));
    let log = host.log(&class_id);
    let cut = log[log.len() / 2].seq;

    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(cut)).await;
    assert_eq!(sse.next_frame(WAIT).await.unwrap().0, None); // RUN_STARTED
    assert_eq!(sse.next_frame(WAIT).await.unwrap().0, None); // STATE_SNAPSHOT
    let (id, _) = sse.next_frame(WAIT).await.unwrap();
    assert_eq!(id, Some(cut + 1));

    // Resuming at the last seq gives nothing but live frames (and pings).
    let last = log.last().unwrap().seq;
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(last)).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    assert_eq!(
        sse.next_frame(Duration::from_millis(400)).await,
        Err(End::Timeout),
        "nothing after the last seq until something happens"
    );
    host.advance(Duration::from_secs(10 * 60));
    assert_eq!(sse.next_frame(WAIT).await.unwrap().0, Some(last + 1));
}

#[tokio::test]
async fn missing_or_wrong_tokens_get_401_and_nothing_else() {
    let host = manual_host(10).await;
    let class_id = class_with_assignment(&host);
    let feed = host.feed_url(&class_id);
    for token in [None, Some("wrong-token"), Some("")] {
        let resp = get(&feed, token, None).await;
        assert_eq!(resp.status().as_u16(), 401, "token {token:?}");
        let body = resp.text().await.unwrap();
        assert!(body.is_empty(), "401 body is empty: {body:?}");
    }
    // A scheme other than Bearer, or the right token in the wrong header, is refused too.
    let client = reqwest::Client::new();
    let resp = client
        .get(&feed)
        .header("authorization", format!("Basic {TOKEN}"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let resp = client
        .post(host.mcp_url())
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .body(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401, "MCP needs the token too");
    assert!(!resp.text().await.unwrap().contains(TOKEN));
    // Positive control: the right token gets through.
    assert_eq!(get(&feed, Some(TOKEN), None).await.status().as_u16(), 200);
    assert_eq!(
        get(&feed, Some(OTHER_TOKEN), None).await.status().as_u16(),
        200
    );
}

#[tokio::test]
async fn an_unknown_class_is_404() {
    let host = manual_host(11).await;
    let resp = get(&host.feed_url("cls-nosuchclass"), Some(TOKEN), None).await;
    assert_eq!(resp.status().as_u16(), 404);
    let class_id = class_with_assignment(&host);
    assert_eq!(
        get(&host.feed_url(&class_id), Some(TOKEN), None)
            .await
            .status()
            .as_u16(),
        200
    );
}

#[tokio::test]
async fn an_idle_feed_gets_ping_comments() {
    let host = manual_host(12).await;
    let (class_id, _) = host.create_class("Quiet room").unwrap();
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    // Configured at 150 ms. The bound is for liveness only, yet it still tells the setting
    // apart from the default interval (10 s): each ping must come before the default's first.
    for _ in 0..2 {
        assert_eq!(
            sse.next(Duration::from_secs(8)).await,
            Ok(Item::Comment("ping".into()))
        );
    }
}

#[tokio::test]
async fn shutdown_sends_run_finished_and_abort_does_not() {
    let host = manual_host(13).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(5 * 60));
    let n = host.log(&class_id).len();
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    for _ in 0..n + 2 {
        sse.next_frame(WAIT).await.unwrap();
    }
    host.shutdown().await;
    let (id, data) = sse.next_frame(WAIT).await.expect("RUN_FINISHED");
    assert_eq!(id, None);
    let v: serde_json::Value = serde_json::from_str(&data).unwrap();
    assert_eq!(v["type"], "RUN_FINISHED");
    assert_eq!(v["threadId"], format!("class:{class_id}"));
    assert_eq!(sse.next_frame(WAIT).await, Err(End::Closed));

    let host = manual_host(13).await;
    let class_id = class_with_assignment(&host);
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    host.abort();
    assert_eq!(
        sse.next_frame(WAIT).await,
        Err(End::Broken),
        "a crash breaks the connection, no RUN_FINISHED"
    );
}

#[tokio::test]
async fn faults_drop_duplicate_and_stall_connections() {
    let host = manual_host(14).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(30 * 60));
    let log = host.log(&class_id);
    assert!(log.len() > 12);

    // Drop after every 5 frames: the body breaks after the fifth.
    host.set_faults(Faults {
        drop_every: 5,
        ..Faults::default()
    });
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    for f in &log[..5] {
        assert_eq!(sse.next_frame(WAIT).await.unwrap().0, Some(f.seq));
    }
    assert_eq!(sse.next_frame(WAIT).await, Err(End::Broken));
    // Resuming from the last seq continues where it broke.
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(log[4].seq)).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    assert_eq!(sse.next_frame(WAIT).await.unwrap().0, Some(log[5].seq));

    // Duplicate every 3rd frame: the same id and data twice.
    host.set_faults(Faults {
        duplicate_every: 3,
        ..Faults::default()
    });
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    let mut ids = Vec::new();
    for _ in 0..8 {
        ids.push(sse.next_frame(WAIT).await.unwrap().0.unwrap());
    }
    let expected: Vec<u64> = vec![
        log[0].seq, log[1].seq, log[2].seq, log[2].seq, log[3].seq, log[4].seq, log[5].seq,
        log[5].seq,
    ];
    assert_eq!(ids, expected);

    // Stall after every 2 frames for 600 ms: no frame and no ping in between.
    host.set_faults(Faults {
        stall_every: 2,
        stall_ms: 600,
        ..Faults::default()
    });
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    sse.next(WAIT).await.unwrap();
    sse.next(WAIT).await.unwrap();
    assert_eq!(
        sse.next(Duration::from_millis(400)).await,
        Err(End::Timeout),
        "stalled: not even a ping"
    );
    assert_eq!(
        sse.next(Duration::from_secs(2)).await.unwrap(),
        Item::Frame {
            id: Some(log[2].seq),
            data: log[2].data.clone()
        }
    );
}

#[tokio::test]
async fn a_feed_writer_appends_from_another_task_and_the_feed_delivers_it() {
    let host = manual_host(7).await;
    let class_id = class_with_assignment(&host);
    let before = host.log(&class_id).len();
    let writer = host.feed_writer();
    let event =
        serde_json::json!({"type": "CUSTOM", "name": "test.writer", "value": {}, "timestamp": 1});
    let (class, sent) = (class_id.clone(), event.clone());
    let seq = tokio::spawn(async move { writer.emit_custom(&class, &sent) })
        .await
        .unwrap()
        .expect("the class exists");
    let log = host.log(&class_id);
    assert_eq!(log.len(), before + 1, "one frame appended");
    assert_eq!(log.last().map(|f| f.seq), Some(seq));
    assert!(
        host.feed_writer()
            .emit_custom("no-such-class", &event)
            .is_err(),
        "an unknown class is refused"
    );

    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(seq - 1)).await;
    let mut found = false;
    while let Ok((id, data)) = sse.next_frame(WAIT).await {
        if id == Some(seq) {
            assert!(data.contains("test.writer"), "the written frame: {data}");
            found = true;
            break;
        }
    }
    assert!(found, "the feed delivered the written frame");
}
