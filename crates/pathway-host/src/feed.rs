//! The AG-UI class feed over Server-Sent Events (`pathway-host.md` §2).
//!
//! Each connection is a task that writes SSE bytes into a channel whose receiver is the
//! response body. The task reads the class log (never a broadcast buffer, which could lag
//! and lose frames): it sends everything after the last `seq` it sent, then waits for the
//! log to grow, a ping to fall due, or the host to stop. A fault that drops the connection,
//! and [`crate::RunningHost::abort`], end the body with an error, so the client sees the
//! connection break rather than end cleanly.

use std::io;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::body::{Body, Bytes};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};
use tokio::sync::mpsc;
use tokio::time::{Instant, sleep, sleep_until};
use tokio_stream::wrappers::ReceiverStream;

use crate::server::Shared;

type Chunk = Result<Bytes, io::Error>;

/// `GET /ag-ui/classes/{class_id}/events`.
pub(crate) async fn events(
    State(shared): State<Arc<Shared>>,
    Path(class_id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let faults = shared.faults();
    if !shared.lock().classes.contains_key(&class_id) {
        if faults.unknown_class_open {
            // The broken host of `Faults::unknown_class_open`: an opening for a class that does
            // not exist, as if it were an empty one.
            let opening = format!(
                "{}{}",
                String::from_utf8_lossy(&sse_frame(
                    None,
                    &event(json!({
                        "type": "RUN_STARTED", "threadId": format!("class:{class_id}"), "runId": "conn-0",
                    }))
                )),
                String::from_utf8_lossy(&sse_frame(
                    None,
                    &event(json!({
                        "type": "STATE_SNAPSHOT",
                        "snapshot": {"class_id": class_id, "learners": [], "assignments": []},
                    }))
                )),
            );
            return ([(header::CONTENT_TYPE, "text/event-stream")], opening).into_response();
        }
        return StatusCode::NOT_FOUND.into_response();
    }
    // An unparsable Last-Event-ID is treated as absent: the client gets everything, and
    // the store's idempotence absorbs what it had.
    let asked = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let index = shared.log_connection(&class_id, asked);
    let (tx, rx) = mpsc::channel::<Chunk>(64);
    tokio::spawn(connection(shared, class_id, asked.unwrap_or(0), index, tx));
    let mut response = Response::new(Body::from_stream(ReceiverStream::new(rx)));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static(if faults.plain_content_type {
            "text/plain"
        } else {
            "text/event-stream"
        }),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}

/// One SSE frame: `id:` (when given) and one `data:` line per line of the payload.
pub(crate) fn sse_frame(id: Option<u64>, data: &str) -> Bytes {
    let mut out = String::with_capacity(data.len() + 24);
    if let Some(id) = id {
        out.push_str(&format!("id: {id}\n"));
    }
    for line in data.split('\n') {
        out.push_str("data: ");
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push('\n');
    }
    out.push('\n');
    Bytes::from(out)
}

fn event(value: Value) -> String {
    value.to_string()
}

/// A logged frame with its times in an offset ([`crate::Faults::utc_offset_minutes`]); a frame
/// that is not JSON goes as it is.
fn in_offset(data: &str, minutes: i16) -> String {
    match serde_json::from_str::<Value>(data) {
        Ok(mut value) => {
            crate::clock::write_times_in_offset(&mut value, minutes);
            value.to_string()
        }
        Err(_) => data.to_owned(),
    }
}

async fn connection(
    shared: Arc<Shared>,
    class_id: String,
    mut last: u64,
    index: usize,
    tx: mpsc::Sender<Chunk>,
) {
    let run_id = format!(
        "conn-{}",
        shared.connections.fetch_add(1, Ordering::Relaxed) + 1
    );
    let thread_id = format!("class:{class_id}");
    let (snapshot, notify, now) = {
        let state = shared.sync();
        (
            state.snapshot(&class_id),
            state.subscribe(&class_id),
            state.now_ms(),
        )
    };
    let (Some(snapshot), Some(mut notify)) = (snapshot, notify) else {
        return;
    };
    let started = event(json!({
        "type": "RUN_STARTED", "threadId": thread_id, "runId": run_id, "timestamp": now,
    }));
    let state = event(json!({"type": "STATE_SNAPSHOT", "snapshot": snapshot, "timestamp": now}));
    let opening_faults = shared.faults();
    if tx.send(Ok(sse_frame(None, &started))).await.is_err()
        || (!opening_faults.no_snapshot && tx.send(Ok(sse_frame(None, &state))).await.is_err())
    {
        return;
    }
    if opening_faults.resume_gap && last > 0 {
        // The broken host of `Faults::resume_gap`: the first frame after Last-Event-ID is lost.
        if let Some(first) = shared.lock().frames_after(&class_id, last, 1).first() {
            last = first.seq;
        }
    }
    let ping = shared.ping_interval;
    let mut next_ping = Instant::now() + ping;
    let mut sent: u64 = 0;
    loop {
        if shared.kill.is_cancelled() {
            sleep(std::time::Duration::from_millis(30)).await;
            let _ = tx.send(Err(io::Error::other("host aborted"))).await;
            return;
        }
        if shared.shutdown.is_cancelled() {
            let now = shared.lock().now_ms();
            let finished = event(json!({
                "type": "RUN_FINISHED", "threadId": thread_id, "runId": run_id, "timestamp": now,
            }));
            let _ = tx.send(Ok(sse_frame(None, &finished))).await;
            return;
        }
        let frames = shared.lock().frames_after(&class_id, last, 64);
        if frames.is_empty() {
            tokio::select! {
                biased;
                _ = shared.kill.cancelled() => {}
                _ = shared.shutdown.cancelled() => {}
                changed = notify.changed() => {
                    if changed.is_err() {
                        return;
                    }
                }
                _ = sleep_until(next_ping) => {
                    if tx.send(Ok(Bytes::from_static(b": ping\n\n"))).await.is_err() {
                        return;
                    }
                    next_ping = Instant::now() + ping;
                }
                _ = tx.closed() => return,
            }
            continue;
        }
        for frame in frames {
            let faults = shared.faults();
            let sent_id = (faults.no_id_every == 0
                || !(sent + 1).is_multiple_of(u64::from(faults.no_id_every)))
            .then_some(frame.seq);
            let bytes = if faults.utc_offset_minutes == 0 {
                sse_frame(sent_id, &frame.data)
            } else {
                sse_frame(sent_id, &in_offset(&frame.data, faults.utc_offset_minutes))
            };
            if tx.send(Ok(bytes.clone())).await.is_err() {
                return;
            }
            sent += 1;
            last = frame.seq;
            next_ping = Instant::now() + ping;
            if faults.duplicate_every > 0
                && sent.is_multiple_of(u64::from(faults.duplicate_every))
                && tx.send(Ok(bytes)).await.is_err()
            {
                return;
            }
            if faults.drop_every > 0 && sent.is_multiple_of(u64::from(faults.drop_every)) {
                tracing::debug!(class_id, seq = last, "fault: dropping a feed connection");
                // Let the server flush what was sent: the fault is "the connection broke
                // after N frames", not "N frames were lost".
                sleep(std::time::Duration::from_millis(30)).await;
                let _ = tx
                    .send(Err(io::Error::other("fault: connection dropped")))
                    .await;
                return;
            }
            if faults.stall_every > 0 && sent.is_multiple_of(u64::from(faults.stall_every)) {
                shared.log_stall(index);
                tokio::select! {
                    _ = sleep(std::time::Duration::from_millis(faults.stall_ms)) => {}
                    _ = shared.kill.cancelled() => {}
                    _ = tx.closed() => return,
                }
                next_ping = Instant::now() + ping;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_have_an_id_line_and_one_data_line_per_line() {
        assert_eq!(sse_frame(Some(7), "{}"), Bytes::from("id: 7\ndata: {}\n\n"));
        assert_eq!(sse_frame(None, "a\nb"), Bytes::from("data: a\ndata: b\n\n"));
    }
}
