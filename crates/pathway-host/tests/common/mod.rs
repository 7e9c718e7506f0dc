//! Shared test helpers: hosts on 127.0.0.1:0, a small SSE client over real HTTP, an MCP client
//! (rmcp) calling the host's tools, and the contract check of a log with the contract crate.
#![allow(dead_code)]

use std::sync::Arc;
use std::time::Duration;

use a2learn_contract::check::check_host_event;
use a2learn_contract::transport::agui;
use a2learn_contract::{InMemoryState, Parsed, RuleId, Sequencer};
use futures::StreamExt;
use pathway_host::{FixedClock, HostConfig, LoggedFrame, RunningHost, TimeMode};
use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ClientConfig};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::Value;

pub const TOKEN: &str = "test-token-alpha";
pub const OTHER_TOKEN: &str = "test-token-bravo";
/// 2026-03-02T10:15:00Z
pub const ORIGIN_MS: i64 = 1_772_446_500_000;

/// A host whose time moves only with `advance`, stamped from a fixed origin.
pub fn manual_config(seed: u64) -> HostConfig {
    HostConfig {
        tokens: vec![TOKEN.to_owned(), OTHER_TOKEN.to_owned()],
        learners: 12,
        speed: 1.0,
        seed,
        time: TimeMode::Manual,
        clock: Arc::new(FixedClock::at(ORIGIN_MS)),
        ping_interval: Duration::from_millis(150),
        ..HostConfig::default()
    }
}

pub async fn manual_host(seed: u64) -> RunningHost {
    pathway_host::start(manual_config(seed))
        .await
        .expect("host starts")
}

/// A class with one assignment.
pub fn class_with_assignment(host: &RunningHost) -> String {
    let (class_id, _) = host.create_class("Room 12").expect("create class");
    host.assign(&class_id, "fractions-compare-4", None, None)
        .expect("assign");
    class_id
}

/// One item read from an SSE stream.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    Frame { id: Option<u64>, data: String },
    Comment(String),
}

impl Item {
    pub fn json(&self) -> serde_json::Value {
        match self {
            Item::Frame { data, .. } => serde_json::from_str(data).expect("frame is JSON"),
            Item::Comment(c) => panic!("comment {c:?}, not a frame"),
        }
    }
}

/// How a stream ended.
#[derive(Debug, Clone, PartialEq)]
pub enum End {
    /// The body ended cleanly.
    Closed,
    /// The connection broke (body error).
    Broken,
    Timeout,
}

/// A minimal SSE reader (CRLF, comments, multi-line data, id).
pub struct Sse {
    stream: futures::stream::BoxStream<'static, reqwest::Result<bytes::Bytes>>,
    buf: String,
    pub status: u16,
}

pub async fn get(url: &str, token: Option<&str>, last_event_id: Option<u64>) -> reqwest::Response {
    let client = reqwest::Client::new();
    let mut req = client.get(url).header("accept", "text/event-stream");
    if let Some(t) = token {
        req = req.bearer_auth(t);
    }
    if let Some(id) = last_event_id {
        req = req.header("last-event-id", id.to_string());
    }
    req.send().await.expect("request")
}

impl Sse {
    pub async fn connect(url: &str, token: &str, last_event_id: Option<u64>) -> Sse {
        let resp = get(url, Some(token), last_event_id).await;
        let status = resp.status().as_u16();
        assert_eq!(status, 200, "feed status");
        assert_eq!(
            resp.headers()
                .get("content-type")
                .and_then(|v| v.to_str().ok()),
            Some("text/event-stream")
        );
        Sse {
            stream: resp.bytes_stream().boxed(),
            buf: String::new(),
            status,
        }
    }

    /// The next frame or comment, or how the stream ended.
    pub async fn next(&mut self, wait: Duration) -> Result<Item, End> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(item) = self.parse_one() {
                return Ok(item);
            }
            match tokio::time::timeout_at(deadline, self.stream.next()).await {
                Err(_) => return Err(End::Timeout),
                Ok(None) => return Err(End::Closed),
                Ok(Some(Err(_))) => return Err(End::Broken),
                Ok(Some(Ok(bytes))) => self
                    .buf
                    .push_str(&String::from_utf8_lossy(&bytes).replace("\r\n", "\n")),
            }
        }
    }

    /// The next data frame, skipping comments.
    pub async fn next_frame(&mut self, wait: Duration) -> Result<(Option<u64>, String), End> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await? {
                Item::Frame { id, data } => return Ok((id, data)),
                Item::Comment(_) => continue,
            }
        }
    }

    fn parse_one(&mut self) -> Option<Item> {
        let end = self.buf.find("\n\n")?;
        let block: String = self.buf[..end].to_owned();
        self.buf.drain(..end + 2);
        let mut id = None;
        let mut data: Vec<String> = Vec::new();
        let mut comment = None;
        for line in block.split('\n') {
            if let Some(c) = line.strip_prefix(':') {
                comment = Some(c.trim().to_owned());
            } else if let Some(v) = line.strip_prefix("id:") {
                id = Some(v.trim().parse().expect("numeric id"));
            } else if let Some(v) = line.strip_prefix("data:") {
                data.push(v.strip_prefix(' ').unwrap_or(v).to_owned());
            }
        }
        if data.is_empty() {
            return Some(Item::Comment(comment.unwrap_or_default()));
        }
        Some(Item::Frame {
            id,
            data: data.join("\n"),
        })
    }
}

/// Runs a class log through the contract crate, as a dashboard's reader would: the AG-UI
/// parser, then the rules and the sequence state machine (check-then-commit). Returns the
/// rule that rejected each frame (`None` = accepted).
pub fn check_log(frames: &[LoggedFrame]) -> Vec<(u64, Option<RuleId>)> {
    let registry = pathway_host::catalog::registry();
    let mut sequencer = Sequencer::new(InMemoryState::new());
    frames
        .iter()
        .map(|f| {
            let verdict = match agui::parse_event_str(&f.data) {
                Err(e) => Some(e.rule_id()),
                Ok(Parsed::Contract(m)) => match sequencer.check(&registry, &m) {
                    Ok(t) => {
                        let Ok(()) = sequencer.commit(&t);
                        None
                    }
                    Err(r) => Some(r.rule().expect("a rule").rule_id()),
                },
                Ok(Parsed::Host(h)) => check_host_event(&h).err().map(|e| e.rule_id()),
                Ok(Parsed::Ignored(_)) => None,
            };
            (f.seq, verdict)
        })
        .collect()
}

/// The `CUSTOM` name of a frame, if it is one.
pub fn custom_name(frame: &LoggedFrame) -> Option<String> {
    let v = frame.json()?;
    (v.get("type")?.as_str()? == "CUSTOM").then(|| v.get("name")?.as_str().map(str::to_owned))?
}

pub type Client = RunningService<rmcp::RoleClient, ClientConfig>;

pub async fn client(host: &RunningHost, token: &str) -> Client {
    let transport = StreamableHttpClientTransport::from_config(
        StreamableHttpClientTransportConfig::with_uri(host.mcp_url()).auth_header(token),
    );
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("MCP session")
}

/// Calls a tool: `Ok(structuredContent)` or `Err((code, message))` for an `isError` result.
pub async fn call(client: &Client, tool: &str, args: Value) -> Result<Value, (String, String)> {
    let args = args.as_object().cloned().unwrap_or_default();
    let result = client
        .call_tool(CallToolRequestParams::new(tool.to_owned()).with_arguments(args))
        .await
        .expect("tool call");
    let content = result
        .structured_content
        .clone()
        .expect("structuredContent");
    if result.is_error == Some(true) {
        let e = &content["error"];
        Err((
            e["code"].as_str().expect("code").to_owned(),
            e["message"].as_str().expect("message").to_owned(),
        ))
    } else {
        Ok(content)
    }
}

pub fn code(r: Result<Value, (String, String)>) -> String {
    r.expect_err("a tool error").0
}
