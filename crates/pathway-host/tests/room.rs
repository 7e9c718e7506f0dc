//! Running the room (`pathway-host.md` §3) on the real host over loopback: `pause_class`,
//! `resume_class` and `set_pacing` through an MCP client, their echoes and the
//! `STATE_SNAPSHOT` on the SSE feed, the simulation honouring them, and a restart keeping them.

mod common;

use std::time::Duration;

use common::*;
use pathway_host::{LoggedFrame, RunningHost};
use serde_json::{Value, json};

const WAIT: Duration = Duration::from_secs(5);
const PATHWAY: &str = "fractions-compare-4";

/// What a simulated learner emits (responses are the host's or a teacher's, not a learner's).
const LEARNER_EVENTS: [&str; 4] = [
    "a2learn.widget_completed",
    "a2learn.widget_struggle",
    "a2learn.assist",
    "a2learn.score",
];

fn learner_events(frames: &[LoggedFrame]) -> Vec<&LoggedFrame> {
    frames
        .iter()
        .filter(|f| custom_name(f).is_some_and(|n| LEARNER_EVENTS.contains(&n.as_str())))
        .collect()
}

fn count(frames: &[LoggedFrame], name: &str) -> usize {
    frames
        .iter()
        .filter(|f| custom_name(f).as_deref() == Some(name))
        .count()
}

/// The frames of a class after `seq`.
fn after(host: &RunningHost, class_id: &str, seq: u64) -> Vec<LoggedFrame> {
    host.log(class_id)
        .into_iter()
        .filter(|f| f.seq > seq)
        .collect()
}

fn last_seq(host: &RunningHost, class_id: &str) -> u64 {
    host.log(class_id).last().map_or(0, |f| f.seq)
}

/// The last frame of a class must be this echo; its seq.
fn echo(host: &RunningHost, class_id: &str, name: &str, value: Value) -> u64 {
    let log = host.log(class_id);
    let frame = log.last().expect("an echo");
    let event = frame.json().expect("JSON");
    assert_eq!(event["type"], "CUSTOM");
    assert_eq!(event["name"], name);
    assert_eq!(event["value"], value);
    assert!(event["timestamp"].is_i64());
    frame.seq
}

fn steps() -> Vec<String> {
    let pathway = pathway_host::catalog::find_pathway(PATHWAY).expect("the pathway");
    pathway.steps.into_iter().map(|s| s.widget_id).collect()
}

/// The step index of every completion in the frames.
fn completed_steps(frames: &[LoggedFrame], steps: &[String]) -> Vec<usize> {
    frames
        .iter()
        .filter(|f| custom_name(f).as_deref() == Some("a2learn.widget_completed"))
        .map(|f| f.json().expect("JSON")["value"].clone())
        .filter(|v| v["pathway_id"] == PATHWAY)
        .map(|v| {
            steps
                .iter()
                .position(|w| v["widget_id"] == w.as_str())
                .expect("a step of the pathway")
        })
        .collect()
}

/// The `STATE_SNAPSHOT` a new connection gets.
async fn snapshot(host: &RunningHost, class_id: &str) -> Value {
    let mut sse = Sse::connect(&host.feed_url(class_id), TOKEN, None).await;
    sse.next_frame(WAIT).await.expect("RUN_STARTED");
    let (id, data) = sse.next_frame(WAIT).await.expect("STATE_SNAPSHOT");
    assert_eq!(id, None);
    let event: Value = serde_json::from_str(&data).expect("JSON");
    assert_eq!(event["type"], "STATE_SNAPSHOT");
    event["snapshot"].clone()
}

#[tokio::test]
async fn the_room_tools_answer_as_the_spec_says_and_are_echoed_on_the_feed() {
    let host = manual_host(11).await;
    let class_id = class_with_assignment(&host);
    let c = client(&host, TOKEN).await;
    let steps = steps();

    let snap = snapshot(&host, &class_id).await;
    assert_eq!(snap["paused"], false);
    assert_eq!(snap["pacing"], json!({}));
    assert_eq!(snap["learners"].as_array().map(Vec::len), Some(12));

    // Pause, with and without a message; the limit is 200 characters.
    let before = last_seq(&host, &class_id);
    let long = "x".repeat(201);
    let (err, message) = call(
        &c,
        "pause_class",
        json!({"class_id": class_id, "message": long}),
    )
    .await
    .expect_err("too long");
    assert_eq!(err, "invalid");
    assert!(!message.contains(&long), "the message is not echoed back");
    assert_eq!(
        code(call(&c, "pause_class", json!({"class_id": "cls-nope"})).await),
        "unknown_class"
    );
    assert_eq!(
        before,
        last_seq(&host, &class_id),
        "refused calls echo nothing"
    );
    let eyes = "Eyes up here, please.";
    assert_eq!(
        call(
            &c,
            "pause_class",
            json!({"class_id": class_id, "message": eyes})
        )
        .await
        .unwrap(),
        json!({"paused": true})
    );
    let paused_seq = echo(
        &host,
        &class_id,
        "a2learn.host.class_paused",
        json!({"class_id": class_id, "message": eyes}),
    );
    assert!(paused_seq > before);
    let snap = snapshot(&host, &class_id).await;
    assert_eq!(snap["paused"], true);

    assert_eq!(
        code(call(&c, "resume_class", json!({"class_id": "cls-nope"})).await),
        "unknown_class"
    );
    assert_eq!(
        call(&c, "resume_class", json!({"class_id": class_id}))
            .await
            .unwrap(),
        json!({"paused": false})
    );
    let resumed_seq = echo(
        &host,
        &class_id,
        "a2learn.host.class_resumed",
        json!({"class_id": class_id}),
    );
    assert_eq!(resumed_seq, paused_seq + 1, "echoes take the next seq");
    // Resuming a running class changes nothing and echoes nothing.
    assert_eq!(
        call(&c, "resume_class", json!({"class_id": class_id}))
            .await
            .unwrap(),
        json!({"paused": false})
    );
    assert_eq!(last_seq(&host, &class_id), resumed_seq);
    // A pause without a message: the echo has none.
    call(&c, "pause_class", json!({"class_id": class_id}))
        .await
        .unwrap();
    echo(
        &host,
        &class_id,
        "a2learn.host.class_paused",
        json!({"class_id": class_id}),
    );
    call(&c, "resume_class", json!({"class_id": class_id}))
        .await
        .unwrap();

    // Pacing: unknown class, unknown pathway, a widget of another pathway.
    let up_to = steps[2].as_str();
    for (args, expected) in [
        (
            json!({"class_id": "cls-nope", "pathway_id": PATHWAY, "up_to": up_to}),
            "unknown_class",
        ),
        (
            json!({"class_id": class_id, "pathway_id": "nope", "up_to": up_to}),
            "unknown_pathway",
        ),
        (
            json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": "not-a-step"}),
            "invalid",
        ),
    ] {
        assert_eq!(
            code(call(&c, "set_pacing", args.clone()).await),
            expected,
            "{args}"
        );
    }
    let (_, message) = call(
        &c,
        "set_pacing",
        json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": "Jo Smith's step"}),
    )
    .await
    .expect_err("not a step");
    assert!(
        !message.contains("Jo Smith"),
        "the message does not echo it"
    );
    let other = pathway_host::catalog::find_pathway("main-idea-4").unwrap();
    assert_eq!(
        code(
            call(
                &c,
                "set_pacing",
                json!({"class_id": class_id, "pathway_id": PATHWAY,
                       "up_to": other.steps[0].widget_id}),
            )
            .await
        ),
        "invalid",
        "a widget of another pathway"
    );
    assert_eq!(
        call(
            &c,
            "set_pacing",
            json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": up_to}),
        )
        .await
        .unwrap(),
        json!({"up_to": up_to})
    );
    echo(
        &host,
        &class_id,
        "a2learn.host.pacing",
        json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": up_to}),
    );
    let snap = snapshot(&host, &class_id).await;
    assert_eq!(snap["paused"], false);
    assert_eq!(snap["pacing"], json!({PATHWAY: up_to}));
    assert_eq!(host.class(&class_id).unwrap().pacing[PATHWAY], up_to);

    // No limit again: `up_to: null`.
    assert_eq!(
        call(
            &c,
            "set_pacing",
            json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": null}),
        )
        .await
        .unwrap(),
        json!({"up_to": null})
    );
    echo(
        &host,
        &class_id,
        "a2learn.host.pacing",
        json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": null}),
    );
    assert_eq!(snapshot(&host, &class_id).await["pacing"], json!({}));

    // The echoes are events a contract reader takes in its stride.
    assert!(
        check_log(&host.log(&class_id))
            .iter()
            .all(|(_, r)| r.is_none())
    );
    // The feed carries them with their seqs, like every other event.
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(paused_seq - 1)).await;
    sse.next_frame(WAIT).await.unwrap();
    sse.next_frame(WAIT).await.unwrap();
    let (id, data) = sse.next_frame(WAIT).await.unwrap();
    assert_eq!(id, Some(paused_seq));
    assert!(data.contains("a2learn.host.class_paused") && data.contains(eyes));
    c.cancel().await.unwrap();
    host.shutdown().await;
}

#[tokio::test]
async fn a_paused_class_emits_nothing_until_resumed_while_another_class_goes_on() {
    let host = manual_host(12).await;
    let paused = class_with_assignment(&host);
    let control = class_with_assignment(&host);
    let c = client(&host, TOKEN).await;
    host.advance(Duration::from_secs(10 * 60));
    assert!(
        !learner_events(&host.log(&paused)).is_empty(),
        "the class is working"
    );

    call(
        &c,
        "pause_class",
        json!({"class_id": paused, "message": "Eyes up here."}),
    )
    .await
    .unwrap();
    let pause_seq = last_seq(&host, &paused);
    let control_seq = last_seq(&host, &control);
    // A live connection to the paused class's feed, opened during the pause.
    let mut sse = Sse::connect(&host.feed_url(&paused), TOKEN, Some(pause_seq)).await;
    sse.next_frame(WAIT).await.unwrap();
    let (_, data) = sse.next_frame(WAIT).await.unwrap();
    let snap: Value = serde_json::from_str(&data).unwrap();
    assert_eq!(snap["snapshot"]["paused"], true);

    // Twenty simulated minutes of pause.
    for _ in 0..20 {
        host.advance(Duration::from_secs(60));
    }
    let window = after(&host, &paused, pause_seq);
    let stray = learner_events(&window);
    assert!(
        stray.is_empty(),
        "a paused class's learners emit nothing: {:?}",
        stray.iter().map(|f| &f.data).collect::<Vec<_>>()
    );
    // Only calls opened before the pause may close (their deadline passes).
    assert!(
        window
            .iter()
            .all(|f| custom_name(f).is_some_and(|n| n.ends_with(".response"))),
        "only timeouts: {window:?}"
    );
    // The control class went on meanwhile.
    let control_window = after(&host, &control, control_seq);
    assert!(
        count(&control_window, "a2learn.widget_completed") >= 10,
        "the unpaused class keeps going: {} completions",
        count(&control_window, "a2learn.widget_completed")
    );
    // The feed showed the same: nothing from a learner while paused.
    let mut live = Vec::new();
    while let Ok((id, data)) = sse.next_frame(Duration::from_millis(400)).await {
        live.push((id, data));
    }
    assert_eq!(live.len(), window.len());
    assert!(
        live.iter()
            .all(|(_, d)| !d.contains("a2learn.widget_completed"))
    );

    call(&c, "resume_class", json!({"class_id": paused}))
        .await
        .unwrap();
    let resume_seq = last_seq(&host, &paused);
    host.advance(Duration::from_secs(10 * 60));
    let resumed = after(&host, &paused, resume_seq);
    assert!(
        count(&resumed, "a2learn.widget_completed") >= 5,
        "learners go on after the resume: {}",
        count(&resumed, "a2learn.widget_completed")
    );
    let (id, data) = sse.next_frame(WAIT).await.expect("the resume echo, live");
    assert_eq!(id, Some(resume_seq));
    assert!(data.contains("a2learn.host.class_resumed"));
    let (_, data) = sse.next_frame(WAIT).await.expect("learners again, live");
    assert!(LEARNER_EVENTS.iter().any(|n| data.contains(n)), "{data}");
    // The whole log still passes the contract's rules and state machine.
    assert!(
        check_log(&host.log(&paused))
            .iter()
            .all(|(_, r)| r.is_none())
    );
    c.cancel().await.unwrap();
    host.shutdown().await;
}

#[tokio::test]
async fn with_pacing_no_learner_completes_a_step_after_up_to() {
    let host = manual_host(13).await;
    let steps = steps();
    let c = client(&host, TOKEN).await;
    let (paced, _) = host.create_class("Paced").unwrap();
    host.assign(&paced, PATHWAY, None, None).unwrap();
    let limit = 2;
    call(
        &c,
        "set_pacing",
        json!({"class_id": paced, "pathway_id": PATHWAY, "up_to": steps[limit]}),
    )
    .await
    .unwrap();
    let control = class_with_assignment(&host);
    let late = class_with_assignment(&host);

    // Pacing set mid-run holds learners already past it: none completes a later step.
    host.advance(Duration::from_secs(15 * 60));
    let held_at = 1;
    let last = steps.len() - 1;
    let progress = completed_steps(&host.log(&late), &steps);
    let learners = host.learners(&late);
    let mid_way = learners
        .iter()
        .filter(|l| {
            let mine: Vec<usize> = host
                .log(&late)
                .iter()
                .filter(|f| custom_name(f).as_deref() == Some("a2learn.widget_completed"))
                .map(|f| f.json().unwrap()["value"].clone())
                .filter(|v| v["learner"] == l.as_str())
                .filter_map(|v| steps.iter().position(|w| v["widget_id"] == w.as_str()))
                .collect();
            mine.contains(&held_at) && !mine.contains(&last)
        })
        .count();
    assert!(
        mid_way >= 3,
        "learners are past the coming limit, mid-pathway: {mid_way} ({progress:?})"
    );
    call(
        &c,
        "set_pacing",
        json!({"class_id": late, "pathway_id": PATHWAY, "up_to": steps[held_at]}),
    )
    .await
    .unwrap();
    let set_seq = last_seq(&host, &late);

    // A long run: the control's learners get well past the limit, the paced ones wait at it.
    host.advance(Duration::from_secs(75 * 60));
    let done = completed_steps(&host.log(&paced), &steps);
    assert!(
        done.iter().all(|&i| i <= limit),
        "no completion after up_to: {done:?}"
    );
    assert!(
        done.iter().filter(|&&i| i == limit).count() >= 6,
        "learners reach up_to: {done:?}"
    );
    let control_done = completed_steps(&host.log(&control), &steps);
    assert!(
        control_done.iter().filter(|&&i| i > limit).count() >= 6,
        "without pacing, learners go past the step: {control_done:?}"
    );
    let later = completed_steps(&after(&host, &late, set_seq), &steps);
    assert!(
        later.iter().all(|&i| i <= held_at),
        "nothing past the new limit: {later:?}"
    );

    // The limit lifted: the waiting learners go on.
    call(
        &c,
        "set_pacing",
        json!({"class_id": paced, "pathway_id": PATHWAY, "up_to": null}),
    )
    .await
    .unwrap();
    let lift_seq = last_seq(&host, &paced);
    host.advance(Duration::from_secs(20 * 60));
    let lifted = completed_steps(&after(&host, &paced, lift_seq), &steps);
    assert!(
        lifted.iter().filter(|&&i| i > limit).count() >= 6,
        "learners go past the old limit: {lifted:?}"
    );
    assert!(
        check_log(&host.log(&paced))
            .iter()
            .all(|(_, r)| r.is_none())
    );
    assert!(
        check_log(&host.log(&control))
            .iter()
            .all(|(_, r)| r.is_none())
    );
    c.cancel().await.unwrap();
    host.shutdown().await;
}

#[tokio::test]
async fn a_restart_keeps_pause_and_pacing() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = manual_config(14);
    config.log_path = Some(dir.path().join("events.jsonl"));
    let steps = steps();
    let host = pathway_host::start(config.clone()).await.unwrap();
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(5 * 60));
    let c = client(&host, TOKEN).await;
    call(
        &c,
        "pause_class",
        json!({"class_id": class_id, "message": "Back in five."}),
    )
    .await
    .unwrap();
    call(
        &c,
        "set_pacing",
        json!({"class_id": class_id, "pathway_id": PATHWAY, "up_to": steps[3]}),
    )
    .await
    .unwrap();
    c.cancel().await.unwrap();
    let before = host.log(&class_id);
    host.abort(); // a crash, not an orderly stop

    let host = pathway_host::start(config).await.unwrap();
    assert_eq!(host.log(&class_id), before, "the echoes are in the log");
    let info = host.class(&class_id).unwrap();
    assert!(info.paused, "still paused");
    assert_eq!(info.pacing[PATHWAY], steps[3]);
    let snap = snapshot(&host, &class_id).await;
    assert_eq!(snap["paused"], true);
    assert_eq!(snap["pacing"], json!({PATHWAY: steps[3]}));

    // The restored pause holds the learners.
    host.advance(Duration::from_secs(20 * 60));
    let window = after(&host, &class_id, before.last().unwrap().seq);
    assert!(learner_events(&window).is_empty(), "{window:?}");
    let before_seq = before.last().unwrap().seq;

    let c = client(&host, TOKEN).await;
    call(&c, "resume_class", json!({"class_id": class_id}))
        .await
        .unwrap();
    let resume_seq = last_seq(&host, &class_id);
    host.advance(Duration::from_secs(60 * 60));
    let resumed = after(&host, &class_id, resume_seq);
    assert!(count(&resumed, "a2learn.widget_completed") >= 5);
    // ... and the restored pacing still holds them at step 3 (a quick learner may have gone
    // past it in the five minutes before the pacing was set).
    let done = completed_steps(&after(&host, &class_id, before_seq), &steps);
    assert!(done.iter().all(|&i| i <= 3), "{done:?}");
    assert!(done.contains(&3), "{done:?}");
    c.cancel().await.unwrap();
    host.shutdown().await;
}
