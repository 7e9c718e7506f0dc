//! The bridge as a pathway host: bearer auth, the MCP tools at `/mcp`, and each class's feed at
//! `/ag-ui/classes/{class_id}/events` (AG-UI over SSE, seq = the row's `interactions.id`, rows up
//! to the commit horizon only). The horizon moves in one task for every class.

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::json;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::classes::{ClassError, Classes, pathway_id};
use crate::horizon::Horizon;
use crate::pseudonym::pseudonym;
use crate::source::Source;

/// What a bridge needs to start.
#[derive(Clone)]
pub struct BridgeConfig {
    /// The upstream's database (`postgres://…`), read-only.
    pub source: String,
    pub bind: SocketAddr,
    pub tokens: Vec<String>,
    /// The pseudonyms' secret.
    pub key: String,
    /// How often the horizon is moved (new rows looked for).
    pub poll: Duration,
    pub ping_interval: Duration,
}

impl std::fmt::Debug for BridgeConfig {
    // The source URL may hold a password, the tokens and the key are secrets.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BridgeConfig")
            .field("bind", &self.bind)
            .field("poll", &self.poll)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BridgeError {
    #[error("at least one non-empty token is needed")]
    NoToken,
    #[error("the pseudonym key is empty")]
    NoKey,
    #[error("the upstream database's URL: {0}")]
    Source(sqlx::Error),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

pub(crate) struct Shared {
    pub classes: Classes,
    pub settled: watch::Receiver<i64>,
    /// The last horizon move failed (the upstream database is down): feeds end, new ones get 503.
    pub source_down: watch::Receiver<bool>,
    tokens: Vec<String>,
    ping_interval: Duration,
    stop: CancellationToken,
}

/// A running bridge.
pub struct RunningBridge {
    addr: SocketAddr,
    stop: CancellationToken,
    server: JoinHandle<()>,
    horizon: JoinHandle<()>,
}

impl RunningBridge {
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Stops serving; open feeds end.
    pub async fn shutdown(self) {
        self.stop.cancel();
        let _ = self.server.await;
        let _ = self.horizon.await;
    }
}

/// Starts a bridge: connects (lazily: a database that is down now is retried), binds, serves.
pub async fn start(config: BridgeConfig) -> Result<RunningBridge, BridgeError> {
    if config.tokens.is_empty() || config.tokens.iter().any(|t| t.trim().is_empty()) {
        return Err(BridgeError::NoToken);
    }
    if config.key.trim().is_empty() {
        return Err(BridgeError::NoKey);
    }
    let source = Source::connect(&config.source)
        .await
        .map_err(BridgeError::Source)?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .map_err(|source| BridgeError::Bind {
            addr: config.bind,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| BridgeError::Bind {
        addr: config.bind,
        source,
    })?;
    let stop = CancellationToken::new();
    let (settled_tx, settled) = watch::channel(0_i64);
    let (down_tx, source_down) = watch::channel(false);
    let horizon = tokio::spawn(move_horizon(
        source.clone(),
        config.poll,
        settled_tx,
        down_tx,
        stop.clone(),
    ));
    let shared = Arc::new(Shared {
        classes: Classes::new(source, &config.key),
        settled,
        source_down,
        tokens: config.tokens.clone(),
        ping_interval: config.ping_interval,
        stop: stop.clone(),
    });
    let tools_shared = shared.clone();
    let mut mcp_config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(Some(config.ping_interval))
        .with_cancellation_token(stop.child_token());
    if !addr.ip().is_loopback() {
        mcp_config = mcp_config.disable_allowed_hosts();
    }
    let mcp: StreamableHttpService<crate::tools::BridgeTools, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(crate::tools::BridgeTools::new(tools_shared.clone())),
            Default::default(),
            mcp_config,
        );
    let router = Router::new()
        .route("/ag-ui/classes/{class_id}/events", get(events))
        .nest_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(shared.clone(), auth))
        .with_state(shared);
    let server_stop = stop.clone();
    let server = tokio::spawn(async move {
        let serve = axum::serve(listener, router)
            .with_graceful_shutdown(async move { server_stop.cancelled().await });
        if let Err(e) = serve.await {
            tracing::warn!(error = %e, "the bridge's server ended with an error");
        }
    });
    tracing::info!(%addr, "ile bridge listening");
    Ok(RunningBridge {
        addr,
        stop,
        server,
        horizon,
    })
}

/// Moves the commit horizon every `poll`; a failure (the database restarting) is reported on
/// `down` and retried at the next tick.
async fn move_horizon(
    source: Source,
    poll: Duration,
    settled: watch::Sender<i64>,
    down: watch::Sender<bool>,
    stop: CancellationToken,
) {
    let mut horizon = Horizon::new(0);
    loop {
        match horizon
            .advance(source.pool(), std::time::Instant::now())
            .await
        {
            Ok(at) => {
                down.send_if_modified(|d| std::mem::replace(d, false));
                settled.send_if_modified(|s| std::mem::replace(s, at) != at);
            }
            Err(e) => {
                if !down.send_replace(true) {
                    tracing::warn!(error = %e, "the upstream database does not answer; retrying");
                }
            }
        }
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(poll) => {}
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Every request needs `Authorization: Bearer <token>`; otherwise 401 with an empty body.
async fn auth(State(shared): State<Arc<Shared>>, request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let known = presented.is_some_and(|p| {
        shared
            .tokens
            .iter()
            .any(|t| constant_time_eq(t.as_bytes(), p.as_bytes()))
    });
    if !known {
        return StatusCode::UNAUTHORIZED.into_response();
    }
    next.run(request).await
}

fn sse_frame(id: Option<i64>, data: &str) -> Bytes {
    match id {
        Some(id) => Bytes::from(format!("id: {id}\ndata: {data}\n\n")),
        None => Bytes::from(format!("data: {data}\n\n")),
    }
}

type Chunk = Result<Bytes, std::io::Error>;

/// `GET /ag-ui/classes/{class_id}/events`.
async fn events(
    State(shared): State<Arc<Shared>>,
    Path(class_id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if *shared.source_down.borrow() {
        return StatusCode::SERVICE_UNAVAILABLE.into_response();
    }
    // Asked each time: a session deleted upstream is an unknown class from then on.
    match shared.classes.source().session(&class_id).await {
        Ok(Some(_)) => {}
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "a feed could not be opened: the upstream database");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    }
    let settled = *shared.settled.borrow();
    match shared.classes.caught_up(&class_id, settled).await {
        Ok(_) => {}
        Err(ClassError::Unknown(_)) => return StatusCode::NOT_FOUND.into_response(),
        Err(ClassError::Source(e)) => {
            tracing::warn!(error = %e, "a feed could not be opened: the upstream database");
            return StatusCode::SERVICE_UNAVAILABLE.into_response();
        }
    }
    let after = headers
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    let (tx, rx) = mpsc::channel::<Chunk>(64);
    tokio::spawn(connection(shared, class_id, after, tx));
    let mut response = Response::new(Body::from_stream(
        tokio_stream::wrappers::ReceiverStream::new(rx),
    ));
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/event-stream"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

async fn connection(shared: Arc<Shared>, class_id: String, mut last: i64, tx: mpsc::Sender<Chunk>) {
    let mut settled_rx = shared.settled.clone();
    let mut down_rx = shared.source_down.clone();
    let run_id = format!("bridge-{last}");
    // The class's log was folded by `events` before this task started.
    let opening = async {
        let students = shared.classes.source().students(&class_id).await.ok()?;
        let learners: Vec<String> = students
            .iter()
            .map(|s| pseudonym(shared.classes.key(), s))
            .collect();
        let started = json!({"type": "RUN_STARTED", "threadId": format!("class:{class_id}"), "runId": run_id});
        let snapshot = json!({"type": "STATE_SNAPSHOT", "snapshot": {
            "class_id": class_id,
            "learners": learners,
            "assignments": [{"assignment_id": class_id, "pathway_id": pathway_id(&class_id)}],
        }});
        Some((started.to_string(), snapshot.to_string()))
    };
    let Some((started, snapshot)) = opening.await else {
        let _ = tx
            .send(Err(std::io::Error::other("the upstream database")))
            .await;
        return;
    };
    if tx.send(Ok(sse_frame(None, &started))).await.is_err()
        || tx.send(Ok(sse_frame(None, &snapshot))).await.is_err()
    {
        return;
    }
    loop {
        let settled = *settled_rx.borrow_and_update();
        let frames: Vec<(i64, String)> = match shared.classes.caught_up(&class_id, settled).await {
            Ok(log) => {
                let log = log.lock().await;
                let start = log.frames.partition_point(|(seq, _)| *seq <= last);
                log.frames[start..].to_vec()
            }
            Err(_) => {
                // The database went away: end the connection, so the dashboard reconnects and
                // resumes from its cursor once the bridge answers again.
                let _ = tx
                    .send(Err(std::io::Error::other("the upstream database")))
                    .await;
                return;
            }
        };
        for (seq, data) in frames {
            if tx.send(Ok(sse_frame(Some(seq), &data))).await.is_err() {
                return;
            }
            last = seq;
        }
        tokio::select! {
            _ = shared.stop.cancelled() => {
                let finished = json!({"type": "RUN_FINISHED", "threadId": format!("class:{class_id}"), "runId": format!("bridge-{last}")});
                let _ = tx.send(Ok(sse_frame(None, &finished.to_string()))).await;
                return;
            }
            changed = settled_rx.changed() => if changed.is_err() { return },
            changed = down_rx.changed() => {
                if changed.is_err() || *down_rx.borrow() {
                    let _ = tx.send(Err(std::io::Error::other("the upstream database"))).await;
                    return;
                }
            }
            _ = tokio::time::sleep(shared.ping_interval) => {
                if tx.send(Ok(Bytes::from_static(b": ping\n\n"))).await.is_err() {
                    return;
                }
            }
            _ = tx.closed() => return,
        }
    }
}
