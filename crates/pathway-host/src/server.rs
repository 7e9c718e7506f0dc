//! The HTTP server: bearer-token auth, the feed route, the MCP service, and the handle
//! ([`RunningHost`]) that tests and the app drive.

use std::net::SocketAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard, RwLock};
use std::time::Duration;

use a2learn_contract::RuleId;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::Value;
use sha2::{Digest, Sha256};
use tokio::task::JoinHandle;
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use crate::catalog::{self, Pathway};
use crate::config::{Faults, HostConfig, TimeMode};
use crate::error::{HostError, ToolError};
use crate::inject::Injection;
use crate::persist::Persist;
use crate::state::{Call, ClassInfo, HostState, LoggedFrame, StateConfig};

/// The opaque id of the teacher whose token made a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TeacherId(pub String);

/// The opaque teacher id a token stands for: `t-` and 16 letters of its SHA-256. Letters
/// only, so that it never looks like a number (or a name).
pub fn teacher_id(token: &str) -> String {
    let digest = Sha256::digest(token.as_bytes());
    let letters: String = digest
        .iter()
        .take(8)
        .flat_map(|b| [b >> 4, b & 0x0f])
        .map(|n| char::from(b'a' + n))
        .collect();
    format!("t-{letters}")
}

/// One feed connection as the host saw it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedConnection {
    pub class_id: String,
    /// The `Last-Event-ID` the client sent, when it sent one that parses.
    pub last_event_id: Option<u64>,
    /// When it was opened, in milliseconds since the host started.
    pub opened_at_ms: u64,
    /// When a stall fault began on it, if one did (same clock).
    pub stalled_at_ms: Option<u64>,
}

pub(crate) struct Shared {
    state: Mutex<HostState>,
    faults: RwLock<Faults>,
    tokens: Vec<String>,
    pub ping_interval: Duration,
    time: TimeMode,
    started: Instant,
    pub shutdown: CancellationToken,
    pub kill: CancellationToken,
    pub connections: AtomicU64,
    /// Every feed connection, in the order they were opened (tests read it: what a reconnect
    /// asked for, and when a stall began).
    pub feed_connections: Mutex<Vec<FeedConnection>>,
    /// Offer the optional room tools (`pathway-host.md` §3).
    pub room_tools: bool,
    /// Offer the optional `list_classes`.
    pub class_list: bool,
}

impl Shared {
    /// Milliseconds since the host started (the connection log's clock).
    pub fn uptime_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Records a new feed connection; returns its index in the log.
    pub fn log_connection(&self, class_id: &str, last_event_id: Option<u64>) -> usize {
        let mut log = self
            .feed_connections
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        log.push(FeedConnection {
            class_id: class_id.to_owned(),
            last_event_id,
            opened_at_ms: self.uptime_ms(),
            stalled_at_ms: None,
        });
        log.len() - 1
    }

    /// Notes that a stall fault began on connection `index`.
    pub fn log_stall(&self, index: usize) {
        let at = self.uptime_ms();
        let mut log = self
            .feed_connections
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(c) = log.get_mut(index) {
            c.stalled_at_ms.get_or_insert(at);
        }
    }

    /// The state, as it is (no time passes).
    pub fn lock(&self) -> MutexGuard<'_, HostState> {
        // A panic while holding the lock leaves the state as consistent as any single
        // step can; keep serving rather than poisoning every later request.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The state, after catching up with the wall clock (in [`TimeMode::Real`]): tools and
    /// new connections see everything that is due.
    pub fn sync(&self) -> MutexGuard<'_, HostState> {
        let mut state = self.lock();
        if self.time == TimeMode::Real {
            let elapsed = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
            state.advance_to(elapsed);
        }
        state
    }

    pub fn faults(&self) -> Faults {
        self.faults.read().map(|f| f.clone()).unwrap_or_default()
    }

    fn token_ok(&self, presented: &str) -> Option<&str> {
        self.tokens
            .iter()
            .find(|t| constant_time_eq(t.as_bytes(), presented.as_bytes()))
            .map(String::as_str)
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Every request needs `Authorization: Bearer <token>`; otherwise 401 with an empty body.
async fn auth(State(shared): State<Arc<Shared>>, mut request: Request, next: Next) -> Response {
    let presented = request
        .headers()
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim);
    let id = match presented.and_then(|p| shared.token_ok(p)) {
        Some(token) => TeacherId(teacher_id(token)),
        // The broken host of `Faults::accept_any_token`: anyone is the same teacher.
        None if shared.faults().accept_any_token => TeacherId(teacher_id("")),
        None => return StatusCode::UNAUTHORIZED.into_response(),
    };
    request.extensions_mut().insert(id);
    next.run(request).await
}

/// Appends events to a running host's class feeds from anywhere ([`RunningHost::feed_writer`]).
#[derive(Clone)]
pub struct FeedWriter {
    shared: Arc<Shared>,
}

impl FeedWriter {
    /// [`RunningHost::emit_custom`]: appends an AG-UI event to a class's feed; its `seq`.
    pub fn emit_custom(&self, class_id: &str, event: &Value) -> Result<u64, ToolError> {
        self.shared
            .sync()
            .append(class_id, event.to_string(), false, None)
            .ok_or_else(|| {
                ToolError::new(
                    crate::ErrorCode::UnknownClass,
                    format!("no class {class_id:?}"),
                )
            })
    }
}

/// A running host. Dropping it without [`RunningHost::shutdown`] leaves the server running
/// until the runtime ends; call one of `shutdown` / `abort`.
pub struct RunningHost {
    shared: Arc<Shared>,
    addr: SocketAddr,
    server: JoinHandle<()>,
    ticker: Option<JoinHandle<()>>,
    mcp_cancel: CancellationToken,
}

/// Starts a host: binds, restores the event log if there is one, and serves.
pub async fn start(config: HostConfig) -> Result<RunningHost, HostError> {
    if config.tokens.is_empty() || config.tokens.iter().any(|t| t.trim().is_empty()) {
        return Err(HostError::Config(
            "at least one non-empty token is needed".into(),
        ));
    }
    if !(config.speed.is_finite() && config.speed > 0.0) {
        return Err(HostError::Config("speed must be a positive number".into()));
    }
    if config.ping_interval.is_zero() {
        return Err(HostError::Config("ping interval must be positive".into()));
    }
    let state = HostState::new(
        StateConfig {
            origin_ms: config.clock.now_ms(),
            speed: config.speed,
            help_wait: config.help_wait,
            seed: config.seed,
            learners: config.learners,
            simulate: config.simulate,
            faults: config.faults.clone(),
        },
        config.log_path.clone().map(Persist::new),
    )?;
    let listener = tokio::net::TcpListener::bind(config.bind)
        .await
        .map_err(|source| HostError::Bind {
            addr: config.bind,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| HostError::Bind {
        addr: config.bind,
        source,
    })?;
    let shared = Arc::new(Shared {
        state: Mutex::new(state),
        faults: RwLock::new(config.faults.clone()),
        tokens: config.tokens.clone(),
        ping_interval: config.ping_interval,
        time: config.time,
        started: Instant::now(),
        shutdown: CancellationToken::new(),
        kill: CancellationToken::new(),
        connections: AtomicU64::new(0),
        feed_connections: Mutex::new(Vec::new()),
        room_tools: config.room_tools,
        class_list: config.class_list,
    });

    let mcp_cancel = CancellationToken::new();
    let mut mcp_config = StreamableHttpServerConfig::default()
        .with_sse_keep_alive(Some(config.ping_interval))
        .with_cancellation_token(mcp_cancel.child_token());
    if !addr.ip().is_loopback() {
        // Reachable from other machines by whatever name: the bearer token is the guard.
        mcp_config = mcp_config.disable_allowed_hosts();
    }
    let tools_shared = shared.clone();
    let mcp: StreamableHttpService<crate::mcp::HostTools, LocalSessionManager> =
        StreamableHttpService::new(
            move || Ok(crate::mcp::HostTools::new(tools_shared.clone())),
            Default::default(),
            mcp_config,
        );
    let router = Router::new()
        .route("/ag-ui/classes/{class_id}/events", get(crate::feed::events))
        .nest_service("/mcp", mcp)
        .layer(middleware::from_fn_with_state(shared.clone(), auth))
        .with_state(shared.clone());

    let stop = shared.shutdown.clone();
    let kill = shared.kill.clone();
    let server = tokio::spawn(async move {
        let graceful = async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = kill.cancelled() => {}
            }
        };
        if let Err(e) = axum::serve(listener, router)
            .with_graceful_shutdown(graceful)
            .await
        {
            tracing::warn!(error = %e, "host server ended with an error");
        }
    });

    let ticker = (config.time == TimeMode::Real).then(|| {
        let shared = shared.clone();
        let tick = config.tick.max(Duration::from_millis(1));
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = tokio::time::sleep(tick) => { drop(shared.sync()); }
                    _ = shared.shutdown.cancelled() => break,
                    _ = shared.kill.cancelled() => break,
                }
            }
        })
    });
    tracing::info!(%addr, learners = config.learners, speed = config.speed, "pathway host listening");
    Ok(RunningHost {
        shared,
        addr,
        server,
        ticker,
        mcp_cancel,
    })
}

impl RunningHost {
    /// `http://127.0.0.1:PORT` (no trailing slash).
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `{url}/mcp`.
    pub fn mcp_url(&self) -> String {
        format!("{}/mcp", self.url())
    }

    /// `{url}/ag-ui/classes/{class_id}/events`.
    pub fn feed_url(&self, class_id: &str) -> String {
        format!("{}/ag-ui/classes/{class_id}/events", self.url())
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    pub fn faults(&self) -> Faults {
        self.shared.faults()
    }

    /// Changes the fault switches; feeds read them before each frame.
    pub fn set_faults(&self, faults: Faults) {
        self.shared.lock().faults = faults.clone();
        if let Ok(mut f) = self.shared.faults.write() {
            *f = faults;
        }
    }

    /// Every feed connection so far, in the order they were opened.
    pub fn feed_connections(&self) -> Vec<FeedConnection> {
        self.shared
            .feed_connections
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The class's event log, in `seq` order.
    pub fn log(&self, class_id: &str) -> Vec<LoggedFrame> {
        self.shared.sync().log(class_id)
    }

    pub fn class(&self, class_id: &str) -> Option<ClassInfo> {
        self.shared.lock().class_info(class_id)
    }

    pub fn class_ids(&self) -> Vec<String> {
        self.shared.lock().class_ids()
    }

    /// The anonymous ids of a class's simulated learners (empty before its first assignment).
    pub fn learners(&self, class_id: &str) -> Vec<String> {
        self.shared.lock().learner_ids(class_id)
    }

    /// Every call of a class (open, answered, expired).
    pub fn calls(&self, class_id: &str) -> Vec<Call> {
        self.shared.sync().calls(class_id)
    }

    /// `create_class` without MCP: `(class_id, join_code)`.
    pub fn create_class(&self, title: &str) -> Result<(String, String), ToolError> {
        self.shared.sync().create_class(title)
    }

    /// `assign_pathway` without MCP: the assignment id.
    pub fn assign(
        &self,
        class_id: &str,
        pathway_id: &str,
        due_at: Option<&str>,
        teacher_note: Option<&str>,
    ) -> Result<String, ToolError> {
        self.shared
            .sync()
            .assign(class_id, pathway_id, due_at, teacher_note)
    }

    /// `get_pathway_results` without MCP.
    pub fn results(&self, class_id: &str, pathway_id: &str) -> Result<Value, ToolError> {
        self.shared.sync().results(class_id, pathway_id)
    }

    /// `claim` without MCP, as the teacher holding `token`.
    pub fn claim(&self, token: &str, call_id: &str) -> Result<String, ToolError> {
        self.shared.sync().claim(&teacher_id(token), call_id)
    }

    /// `respond` without MCP, as the teacher holding `token`.
    pub fn respond(
        &self,
        token: &str,
        call_id: &str,
        value: Option<Value>,
        error: Option<Value>,
    ) -> Result<(), ToolError> {
        self.shared
            .sync()
            .respond(&teacher_id(token), call_id, value, error)
    }

    /// `pause_class` without MCP.
    pub fn pause_class(&self, class_id: &str, message: Option<&str>) -> Result<(), ToolError> {
        self.shared.sync().pause_class(class_id, message)
    }

    /// `resume_class` without MCP.
    pub fn resume_class(&self, class_id: &str) -> Result<(), ToolError> {
        self.shared.sync().resume_class(class_id)
    }

    /// `set_pacing` without MCP (`None`: no limit).
    pub fn set_pacing(
        &self,
        class_id: &str,
        pathway_id: &str,
        up_to: Option<&str>,
    ) -> Result<(), ToolError> {
        self.shared.sync().set_pacing(class_id, pathway_id, up_to)
    }

    /// The catalog (`list_pathways`).
    pub fn pathways(&self) -> Vec<Pathway> {
        catalog::pathways()
    }

    /// Appends an arbitrary AG-UI event to a class's feed; its `seq`. Not marked as a fault.
    pub fn emit_custom(&self, class_id: &str, event: &Value) -> Result<u64, ToolError> {
        self.emit_raw(class_id, &event.to_string(), None)
    }

    /// A cheap handle that appends events from another task (e.g. a test's emitter on a fixed
    /// schedule) while this host runs; after [`RunningHost::shutdown`] it appends to a log no
    /// feed serves.
    pub fn feed_writer(&self) -> FeedWriter {
        FeedWriter {
            shared: self.shared.clone(),
        }
    }

    /// Appends any `data:` text to a class's feed, marked as injected with the rule that
    /// must reject it (if any); its `seq`.
    pub fn emit_raw(
        &self,
        class_id: &str,
        data: &str,
        expect_rule: Option<RuleId>,
    ) -> Result<u64, ToolError> {
        self.shared
            .sync()
            .append(
                class_id,
                data.to_owned(),
                expect_rule.is_some(),
                expect_rule,
            )
            .ok_or_else(|| {
                ToolError::new(
                    crate::ErrorCode::UnknownClass,
                    format!("no class {class_id:?}"),
                )
            })
    }

    /// Injects one fault into a class's log (see [`Injection`]); the `seq`s it appended, the
    /// breaking frame last.
    pub fn inject(&self, class_id: &str, injection: Injection) -> Result<Vec<u64>, ToolError> {
        self.shared.sync().inject(class_id, injection)
    }

    /// Host time since start, in milliseconds (wall-equivalent).
    pub fn elapsed_ms(&self) -> u64 {
        self.shared.lock().elapsed_ms()
    }

    /// The host's current time stamp (epoch ms).
    pub fn now_ms(&self) -> i64 {
        self.shared.lock().now_ms()
    }

    /// Moves host time forward by `by` and runs everything due ([`TimeMode::Manual`]; in
    /// [`TimeMode::Real`] it also works, jumping ahead of the wall clock).
    pub fn advance(&self, by: Duration) {
        let mut state = self.shared.lock();
        let to = state.elapsed_ms() + u64::try_from(by.as_millis()).unwrap_or(u64::MAX / 2);
        state.advance_to(to);
    }

    /// Orderly stop: every open feed gets `RUN_FINISHED`, then the server closes.
    pub async fn shutdown(self) {
        self.shared.shutdown.cancel();
        self.mcp_cancel.cancel();
        if let Some(t) = self.ticker {
            let _ = t.await;
        }
        let mut server = self.server;
        if tokio::time::timeout(Duration::from_secs(3), &mut server)
            .await
            .is_err()
        {
            server.abort();
        }
    }

    /// Crash: feeds break off without `RUN_FINISHED`, the listener closes at once.
    pub fn abort(self) {
        self.shared.kill.cancel();
        self.mcp_cancel.cancel();
        if let Some(t) = self.ticker {
            t.abort();
        }
        self.server.abort();
    }
}
