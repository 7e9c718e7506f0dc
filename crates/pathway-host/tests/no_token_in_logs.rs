//! The token never appears in a log line: every request kind runs with the most verbose
//! tracing (this crate's, rmcp's, axum's, hyper's) captured, and the capture is searched.
//! Its own test binary, because it installs the global subscriber.

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::*;
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("capture").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_log_line_contains_a_token() {
    let capture = Capture::default();
    let writer = capture.clone();
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_writer(move || writer.clone())
        .init();

    let host = manual_host(1).await;
    let class_id = class_with_assignment(&host);
    host.advance(Duration::from_secs(10 * 60));
    // Feed: right token, wrong token, none.
    let mut sse = Sse::connect(&host.feed_url(&class_id), TOKEN, Some(3)).await;
    sse.next_frame(Duration::from_secs(5)).await.unwrap();
    assert_eq!(
        get(&host.feed_url(&class_id), Some("wrong-secret-token"), None)
            .await
            .status()
            .as_u16(),
        401
    );
    // MCP: a session, a claim (which reads the caller's identity), a refused session.
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(host.mcp_url()).auth_header(TOKEN),
    );
    let client = ClientConfig::default().serve(transport).await.unwrap();
    let args = serde_json::json!({"call_id": "call-nope"});
    let r = client
        .call_tool(
            CallToolRequestParams::new("claim").with_arguments(args.as_object().cloned().unwrap()),
        )
        .await
        .unwrap();
    assert_eq!(r.is_error, Some(true));
    client.cancel().await.unwrap();
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(host.mcp_url())
            .auth_header("wrong-secret-token"),
    );
    assert!(ClientConfig::default().serve(transport).await.is_err());
    host.shutdown().await;

    let text = String::from_utf8_lossy(&capture.0.lock().unwrap()).into_owned();
    // Positive control: the capture works, and saw the server and the MCP traffic.
    assert!(text.contains("pathway host listening"), "capture is empty?");
    assert!(text.len() > 1000);
    for secret in [TOKEN, OTHER_TOKEN, "wrong-secret-token"] {
        assert!(!text.contains(secret), "a token reached the log");
    }
}
