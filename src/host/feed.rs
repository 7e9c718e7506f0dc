//! The class feed reader: AG-UI over SSE from the host into the store, for as long as it runs.
//!
//! Per connection: send `Last-Event-ID` from the stored cursor, parse SSE, gather frames into
//! batches (up to [`FeedConfig::batch_max`] frames, or what arrived within
//! [`FeedConfig::batch_window`] of the last batch; after a quiet window a frame goes at once), and
//! hand each batch to the feed's writer task, which stores it with [`Store::ingest_with`] (the
//! batch and the cursor in one transaction) while the connection reads the next one. A dropped, finished or stalled connection is retried with exponential backoff
//! and jitter; a refused token is not retried (it would only be refused again).

use std::sync::Arc;
use std::time::Duration;

use a2learn_contract::Registry;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

use super::ConnectionState;
use super::sse::{SseItem, SseParser};
use crate::clock::SharedClock;
use crate::store::{BatchOutcome, Changes, ClassMemory, Incoming, RowsTouched, Store, StoreError};

/// Where and how to read one class's feed.
#[derive(Debug, Clone)]
pub struct FeedConfig {
    pub base_url: String,
    pub token: String,
    /// The class as its host names it: the feed's URL and the tool calls.
    pub class_id: String,
    /// The store's key for the class, when it is not `class_id` (another host's class of the
    /// same id was here first: see `Store::bind_class_to_host`).
    pub store_key: Option<String>,
    pub batch_max: usize,
    pub batch_window: Duration,
    /// No bytes at all (not even a `: ping`) for this long means the connection is dead.
    pub stall_timeout: Duration,
    pub backoff: Backoff,
}

impl FeedConfig {
    pub fn new(base_url: &str, token: &str, class_id: &str) -> Self {
        Self {
            base_url: base_url.trim_end_matches('/').to_string(),
            token: token.to_string(),
            class_id: class_id.to_string(),
            store_key: None,
            batch_max: 1000,
            batch_window: Duration::from_millis(50),
            // The host pings at least every 15 s; three missed pings is a dead connection.
            stall_timeout: Duration::from_secs(45),
            backoff: Backoff::default(),
        }
    }

    /// The same, storing under the store's `key` for the class.
    pub fn stored_as(mut self, key: &str) -> Self {
        self.store_key = (key != self.class_id).then(|| key.to_string());
        self
    }

    /// The store's key for the class: what the cursor, the ingest and the views use.
    pub fn key(&self) -> &str {
        self.store_key.as_deref().unwrap_or(&self.class_id)
    }

    pub fn url(&self) -> String {
        feed_url(&self.base_url, &self.class_id)
    }
}

/// `{host}/ag-ui/classes/{class_id}/events` for a host base URL (`pathway-host.md` §2).
pub fn feed_url(base: &str, class_id: &str) -> String {
    format!(
        "{}/ag-ui/classes/{class_id}/events",
        base.trim_end_matches('/')
    )
}

/// Exponential backoff with full jitter between `min` and `max`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Backoff {
    pub min: Duration,
    pub max: Duration,
}

impl Default for Backoff {
    fn default() -> Self {
        Self {
            min: Duration::from_millis(500),
            max: Duration::from_secs(30),
        }
    }
}

impl Backoff {
    /// The wait before retry number `attempt` (0-based), given a uniform random `unit` in
    /// [0, 1): the ceiling doubles each attempt from `min` up to `max`, and the wait is drawn
    /// between `min` and that ceiling so that many dashboards do not retry in lockstep.
    pub fn delay(&self, attempt: u32, unit: f64) -> Duration {
        let ceiling = self
            .min
            .saturating_mul(2u32.saturating_pow(attempt.min(16)))
            .min(self.max);
        let span = ceiling.saturating_sub(self.min);
        self.min + span.mul_f64(unit.clamp(0.0, 1.0))
    }
}

/// A small deterministic random source (SplitMix64) for jitter; seeded by the caller.
#[derive(Debug, Clone)]
pub struct Jitter(u64);

impl Jitter {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// A uniform value in [0, 1).
    pub fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// What a running feed reports besides the connection state.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FeedStats {
    pub frames: u64,
    pub stored: u64,
    pub duplicates: u64,
    pub quarantined: u64,
    pub ignored: u64,
    /// Connection attempts, counted as each starts (one cut short by a stop is counted too).
    pub connections: u64,
    pub last_seq: Option<i64>,
    /// When the host last sent anything on the feed (a frame or a `: ping`), from the clock:
    /// all work the host had logged before then has been received.
    pub last_heard_ms: Option<i64>,
}

impl FeedStats {
    fn add(&mut self, outcome: &BatchOutcome, frames: usize) {
        self.frames += frames as u64;
        self.stored += outcome.stored;
        self.duplicates += outcome.duplicates;
        self.quarantined += outcome.quarantined;
        self.ignored += outcome.ignored;
        self.last_seq = outcome.last_seq;
    }
}

/// A committed batch that changed something: what the views should refresh.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreChanged {
    pub class_id: String,
    pub changes: Changes,
    /// Whose rows of the class's views changed.
    pub rows: RowsTouched,
    /// When the batch was committed, from the injected clock (for latency measurements).
    pub committed_at_ms: i64,
}

/// Why a feed stopped for good.
#[derive(Debug, thiserror::Error)]
pub enum FeedError {
    #[error("the host refused the token")]
    TokenRefused,
    #[error("the host does not know class {0}")]
    UnknownClass(String),
}

/// The channels a feed reports on.
#[derive(Debug, Clone)]
pub struct FeedSinks {
    pub state: watch::Sender<ConnectionState>,
    pub stats: watch::Sender<FeedStats>,
    pub changes: Option<mpsc::UnboundedSender<StoreChanged>>,
}

impl FeedSinks {
    pub fn new() -> (
        Self,
        watch::Receiver<ConnectionState>,
        watch::Receiver<FeedStats>,
    ) {
        let (state, state_rx) = watch::channel(ConnectionState::Connecting);
        let (stats, stats_rx) = watch::channel(FeedStats::default());
        (
            Self {
                state,
                stats,
                changes: None,
            },
            state_rx,
            stats_rx,
        )
    }
}

enum ConnectionEnd {
    /// The stream ended or failed; try again after a backoff.
    Retry {
        delivered: bool,
        why: String,
    },
    Fatal(FeedError),
    Cancelled,
}

/// Reads the feed until `cancel` fires (Ok) or the host refuses the token or the class (Err).
pub async fn run_feed(
    store: Store,
    registry: Arc<Registry>,
    config: FeedConfig,
    clock: SharedClock,
    sinks: FeedSinks,
    cancel: CancellationToken,
) -> Result<FeedStats, FeedError> {
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| {
            tracing::error!(error = %e, "cannot build the HTTP client");
            FeedError::UnknownClass(config.class_id.clone())
        })?;
    let mut jitter = Jitter::new(clock.now_ms() as u64 ^ 0x5DEE_CE66);
    // This run's figures, from zero (sinks may be reused by a restarted feed).
    sinks.stats.send_replace(FeedStats::default());
    let writer = Writer::start(
        store.clone(),
        registry,
        config.clone(),
        clock.clone(),
        sinks.clone(),
    );
    let mut attempt: u32 = 0;
    let end = loop {
        sinks.stats.send_modify(|s| s.connections += 1);
        let end = connect_once(&http, &store, &writer, &config, &clock, &sinks, &cancel).await;
        match end {
            ConnectionEnd::Cancelled => {
                sinks.state.send_replace(ConnectionState::Offline);
                break Ok(());
            }
            ConnectionEnd::Fatal(err) => {
                let state = match err {
                    FeedError::TokenRefused => ConnectionState::TokenRefused,
                    FeedError::UnknownClass(_) => ConnectionState::Offline,
                };
                sinks.state.send_replace(state);
                tracing::warn!(class_id = %config.class_id, error = %err, "feed stopped");
                break Err(err);
            }
            ConnectionEnd::Retry { delivered, why } => {
                if delivered {
                    attempt = 0;
                }
                let delay = config.backoff.delay(attempt, jitter.unit());
                attempt = attempt.saturating_add(1);
                tracing::info!(class_id = %config.class_id, reason = %why, delay_ms = delay.as_millis() as u64, "feed reconnecting");
                sinks.state.send_replace(ConnectionState::Reconnecting {
                    next_try_s: delay.as_secs_f64(),
                });
                tokio::select! {
                    _ = cancel.cancelled() => {
                        sinks.state.send_replace(ConnectionState::Offline);
                        break Ok(());
                    }
                    _ = tokio::time::sleep(delay) => {}
                }
            }
        }
    };
    writer.stop().await;
    let stats = *sinks.stats.borrow();
    end.map(|()| stats)
}

/// The feed's writer: a task that stores the batches a connection hands it, one at a time, in
/// order, while the connection goes on reading and gathering the next one (the socket, the
/// SSE parse and the batching overlap the store's write). It owns the class's memory, so the
/// memory outlives reconnects. A batch that fails to store makes the writer skip the batches
/// after it until the connection drains it, learns the error and reconnects from the cursor:
/// the cursor only ever moves with a committed batch, so nothing after a failure is lost.
struct Writer {
    jobs: mpsc::Sender<Job>,
    failed: watch::Receiver<bool>,
    task: tokio::task::JoinHandle<()>,
}

enum Job {
    Batch(Vec<Incoming>),
    /// Answers once every batch handed over before it is written, with the first error since
    /// the last drain.
    Drain(oneshot::Sender<Result<(), String>>),
}

impl Writer {
    fn start(
        store: Store,
        registry: Arc<Registry>,
        config: FeedConfig,
        clock: SharedClock,
        sinks: FeedSinks,
    ) -> Self {
        // One batch being written and one waiting: the reader runs at most one batch ahead.
        let (jobs, mut rx) = mpsc::channel::<Job>(1);
        let (failed_tx, failed) = watch::channel(false);
        let task = tokio::spawn(async move {
            // The class's state, kept across batches and reconnects (fenced by its version).
            let mut memory = ClassMemory::new();
            let mut failure: Option<String> = None;
            while let Some(job) = rx.recv().await {
                match job {
                    Job::Batch(batch) if failure.is_none() => {
                        let stored = flush(
                            &store,
                            &registry,
                            &config,
                            &clock,
                            &sinks,
                            &mut memory,
                            batch,
                        );
                        if let Err(e) = stored.await {
                            failure = Some(format!("store: {e}"));
                            failed_tx.send_replace(true);
                        }
                    }
                    // After a failure the connection will reconnect from the cursor.
                    Job::Batch(_) => {}
                    Job::Drain(reply) => {
                        let _ = reply.send(failure.take().map_or(Ok(()), Err));
                        failed_tx.send_replace(false);
                    }
                }
            }
        });
        Self { jobs, failed, task }
    }

    /// Hands `pending` (when not empty) to the writer; waits while it is a batch behind.
    async fn hand_over(&self, pending: &mut Vec<Incoming>) -> Result<(), String> {
        if pending.is_empty() {
            return Ok(());
        }
        self.jobs
            .send(Job::Batch(std::mem::take(pending)))
            .await
            .map_err(|_| "the feed's writer stopped".to_string())
    }

    /// Hands `pending` over and waits until everything handed over is written: before a
    /// reconnect reads the cursor, and before the feed stops.
    async fn drain(&self, pending: &mut Vec<Incoming>) -> Result<(), String> {
        self.hand_over(pending).await?;
        let (reply, answer) = oneshot::channel();
        self.jobs
            .send(Job::Drain(reply))
            .await
            .map_err(|_| "the feed's writer stopped".to_string())?;
        answer
            .await
            .map_err(|_| "the feed's writer stopped".to_string())?
    }

    /// Whether a batch failed to store since the last drain (the connection should end).
    fn failed(&self) -> watch::Receiver<bool> {
        self.failed.clone()
    }

    async fn stop(self) {
        drop(self.jobs);
        if let Err(e) = self.task.await {
            tracing::error!(error = %e, "the feed's writer ended abnormally");
        }
    }
}

async fn connect_once(
    http: &reqwest::Client,
    store: &Store,
    writer: &Writer,
    config: &FeedConfig,
    clock: &SharedClock,
    sinks: &FeedSinks,
    cancel: &CancellationToken,
) -> ConnectionEnd {
    let cursor = match store.cursor(config.key()).await {
        Ok(c) => c,
        Err(e) => {
            return ConnectionEnd::Retry {
                delivered: false,
                why: format!("store: {e}"),
            };
        }
    };
    let mut request = http
        .get(config.url())
        .bearer_auth(&config.token)
        .header(reqwest::header::ACCEPT, "text/event-stream");
    if let Some(seq) = cursor {
        request = request.header("Last-Event-ID", seq.to_string());
    }
    let response = tokio::select! {
        _ = cancel.cancelled() => return ConnectionEnd::Cancelled,
        r = request.send() => r,
    };
    let mut response = match response {
        Ok(r) => r,
        Err(e) => {
            return ConnectionEnd::Retry {
                delivered: false,
                // reqwest's message names the URL but never the token.
                why: format!("connect: {e}"),
            };
        }
    };
    match response.status().as_u16() {
        200..=299 => {}
        401 | 403 => return ConnectionEnd::Fatal(FeedError::TokenRefused),
        404 => return ConnectionEnd::Fatal(FeedError::UnknownClass(config.class_id.clone())),
        other => {
            return ConnectionEnd::Retry {
                delivered: false,
                why: format!("HTTP {other}"),
            };
        }
    }
    sinks.state.send_replace(ConnectionState::Connected);
    let heard = || {
        let now = clock.now_ms();
        sinks.stats.send_if_modified(|s| {
            s.last_heard_ms = Some(now);
            // Nobody waits on this figure; it is read when a view asks.
            false
        });
    };
    heard();

    let mut parser = SseParser::new();
    let mut items = Vec::new();
    let mut pending: Vec<Incoming> = Vec::new();
    let mut flush_at: Option<Instant> = None;
    // When the last batch went to the store: the batch window runs from there.
    let mut last_flush: Option<Instant> = None;
    let mut delivered = false;
    let mut last_bytes = Instant::now();
    let mut failed = writer.failed();
    loop {
        let stall_at = last_bytes + config.stall_timeout;
        let deadline = flush_at.map_or(stall_at, |f| f.min(stall_at));
        tokio::select! {
            _ = cancel.cancelled() => {
                if let Err(e) = writer.drain(&mut pending).await {
                    tracing::warn!(error = %e, "final batch not stored; the feed will replay it");
                }
                return ConnectionEnd::Cancelled;
            }
            // (The guard `wait_for` gives is dropped at once: it must not live across an await.)
            _ = async { failed.wait_for(|failed| *failed).await.map(|_| ()) } => {
                let why = writer.drain(&mut pending).await.err().unwrap_or_default();
                return ConnectionEnd::Retry { delivered, why };
            }
            _ = tokio::time::sleep_until(deadline) => {
                if flush_at.is_some_and(|f| f <= Instant::now()) {
                    flush_at = None;
                    last_flush = Some(Instant::now());
                    if let Err(why) = writer.hand_over(&mut pending).await {
                        return ConnectionEnd::Retry { delivered, why };
                    }
                    delivered = true;
                } else if Instant::now() >= stall_at {
                    let _ = writer.drain(&mut pending).await;
                    return ConnectionEnd::Retry { delivered, why: "stalled".into() };
                }
            }
            chunk = response.chunk() => {
                let chunk = match chunk {
                    Ok(Some(chunk)) => chunk,
                    Ok(None) | Err(_) => {
                        let why = match chunk {
                            Err(e) => format!("read: {e}"),
                            _ => "stream ended".into(),
                        };
                        if let Err(why) = writer.drain(&mut pending).await {
                            return ConnectionEnd::Retry { delivered, why };
                        }
                        let delivered = delivered || sinks.stats.borrow().frames > 0;
                        return ConnectionEnd::Retry { delivered, why };
                    }
                };
                last_bytes = Instant::now();
                heard();
                if let Err(e) = parser.feed(&chunk, &mut items) {
                    let _ = writer.drain(&mut pending).await;
                    return ConnectionEnd::Retry { delivered, why: e.to_string() };
                }
                for item in items.drain(..) {
                    if let SseItem::Event(event) = item {
                        pending.push(Incoming::Frame { id: event.id, data: event.data });
                    }
                }
                if pending.len() >= config.batch_max {
                    flush_at = None;
                    last_flush = Some(Instant::now());
                    if let Err(why) = writer.hand_over(&mut pending).await {
                        return ConnectionEnd::Retry { delivered, why };
                    }
                    delivered = true;
                } else if !pending.is_empty() && flush_at.is_none() {
                    // Leading edge: after a quiet window the frames go to the store at once (a
                    // lone event is not held back); while the last batch is fresh, the window
                    // gathers what follows into one transaction.
                    let now = Instant::now();
                    let due = last_flush.map_or(now, |t| t + config.batch_window);
                    if due <= now {
                        last_flush = Some(now);
                        if let Err(why) = writer.hand_over(&mut pending).await {
                            return ConnectionEnd::Retry { delivered, why };
                        }
                        delivered = true;
                    } else {
                        flush_at = Some(due);
                    }
                }
            }
        }
    }
}

/// Stores one batch and reports what it did.
async fn flush(
    store: &Store,
    registry: &Registry,
    config: &FeedConfig,
    clock: &SharedClock,
    sinks: &FeedSinks,
    memory: &mut ClassMemory,
    batch: Vec<Incoming>,
) -> Result<(), StoreError> {
    let frames = batch.len();
    let outcome = store
        .ingest_with(config.key(), registry, batch, memory)
        .await?;
    sinks.stats.send_modify(|stats| stats.add(&outcome, frames));
    if outcome.changes.any()
        && let Some(tx) = &sinks.changes
    {
        let _ = tx.send(StoreChanged {
            class_id: config.key().to_string(),
            changes: outcome.changes,
            rows: outcome.rows,
            committed_at_ms: clock.now_ms(),
        });
    }
    if outcome.quarantined > 0 {
        tracing::warn!(class_id = %config.class_id, count = outcome.quarantined, "frames quarantined");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_half_a_second_to_thirty() {
        let b = Backoff::default();
        assert_eq!(
            b.delay(0, 0.99),
            Duration::from_millis(500),
            "first retry: 0.5 s"
        );
        assert_eq!(b.delay(1, 1.0), Duration::from_millis(1000));
        assert_eq!(b.delay(3, 1.0), Duration::from_millis(4000));
        assert_eq!(b.delay(10, 1.0), Duration::from_secs(30), "capped at 30 s");
        assert_eq!(b.delay(1000, 1.0), Duration::from_secs(30), "no overflow");
        assert_eq!(
            b.delay(10, 0.0),
            Duration::from_millis(500),
            "never below the minimum"
        );
    }

    #[test]
    fn jitter_is_uniform_enough_and_deterministic() {
        let mut a = Jitter::new(7);
        let mut b = Jitter::new(7);
        let xs: Vec<f64> = (0..10_000).map(|_| a.unit()).collect();
        assert!(xs.iter().all(|x| (0.0..1.0).contains(x)));
        let mean = xs.iter().sum::<f64>() / xs.len() as f64;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
        assert_eq!(b.unit(), xs[0], "same seed, same sequence");
        let mut c = Jitter::new(8);
        assert_ne!(c.unit(), xs[0]);
    }
}
