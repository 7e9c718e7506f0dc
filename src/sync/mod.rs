//! Following one class: the catalog and (on first subscription) the backfill over MCP, then the
//! live feed. What `a2learn-teacher sync` runs headless and the app runs per class;
//! [`all_classes`] follows every class a host lists.

pub mod all_classes;

use std::sync::Arc;
use std::time::Duration;

use a2learn_contract::Registry;
use tokio_util::sync::CancellationToken;

use crate::clock::SharedClock;
use crate::host::ConnectionState;
use crate::host::feed::{Backoff, FeedConfig, FeedError, FeedSinks, FeedStats, Jitter, run_feed};
use crate::host::mcp::{HostClient, HostError};
use crate::store::{Incoming, Store, StoreError};

#[derive(Debug, thiserror::Error)]
pub enum SyncError {
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(transparent)]
    Feed(#[from] FeedError),
    /// `--all-classes` against a host without the optional `list_classes` tool.
    #[error(
        "the host offers no list_classes tool, so its classes cannot be listed: follow each class with --class ID"
    )]
    NoClassList,
    /// A class's sync task ended without an outcome (it panicked).
    #[error("the sync of class {class_id} stopped unexpectedly: {why}")]
    Task { class_id: String, why: String },
}

/// The settings key that records a finished backfill for a class.
fn backfill_key(class_id: &str) -> String {
    format!("backfill_done:{class_id}")
}

const COMPLETED: &str = "a2learn.widget_completed";
const STRUGGLE: &str = "a2learn.widget_struggle";

/// When a payload says it happened (its `at`); one without a readable `at` goes last, where its
/// rejection does not hold up the others.
fn payload_at_ms(payload: &serde_json::Value) -> i64 {
    payload
        .get("at")
        .and_then(serde_json::Value::as_str)
        .and_then(a2learn_contract::transport::agui::timestamp_ms)
        .unwrap_or(i64::MAX)
}

/// Stores the host's catalog and returns its registry.
pub async fn refresh_catalog(store: &Store, client: &HostClient) -> Result<Registry, SyncError> {
    let catalog = client.list_catalog().await?;
    store.save_catalog(&catalog.pathways).await?;
    store.save_standards(&catalog.standards).await?;
    Ok(store.registry().await?)
}

/// On the first subscription to a class, fetches what happened before the dashboard listened
/// (`get_pathway_results` per pathway) and stores it; the feed's replay of the same events is
/// then recognised as a re-delivery. Returns how many results were stored. `class_id` is the
/// host's id for the class, `key` the store's (the same unless another host's class of that id
/// was here first).
pub async fn backfill(
    store: &Store,
    client: &HostClient,
    registry: &Registry,
    class_id: &str,
    key: &str,
) -> Result<u64, SyncError> {
    let done = backfill_key(key);
    if store.store_setting(&done).await?.is_some() || store.cursor(key).await?.is_some() {
        return Ok(0);
    }
    let mut stored = 0;
    for pathway in store.catalog().await? {
        let results = match client
            .get_pathway_results(class_id, &pathway.pathway_id)
            .await
        {
            Ok(r) => r,
            // Not assigned to this class: nothing to backfill from it.
            Err(HostError::Tool { code, .. }) if code == "unknown_pathway" => continue,
            Err(HostError::Tool { code, .. }) if code == "unknown_class" => {
                return Err(FeedError::UnknownClass(class_id.to_string()).into());
            }
            Err(e) => return Err(e.into()),
        };
        // In the order they happened: a run's struggle comes before its completion, and the
        // contract rejects it the other way round. Each payload goes in as the host gave it: a
        // broken one is kept aside (once, whichever of backfill and feed brings it first).
        let mut items: Vec<(i64, u8, Incoming)> = results
            .struggles
            .iter()
            .map(|v| (payload_at_ms(v), 0, Incoming::backfill(STRUGGLE, v)))
            .chain(
                results
                    .completed
                    .iter()
                    .map(|v| (payload_at_ms(v), 1, Incoming::backfill(COMPLETED, v))),
            )
            .collect();
        items.sort_by_key(|(at, order, _)| (*at, *order));
        let batch: Vec<Incoming> = items.into_iter().map(|(_, _, item)| item).collect();
        if !batch.is_empty() {
            stored += store.ingest(key, registry, batch).await?.stored;
        }
    }
    store.set_store_setting(&done, "1").await?;
    Ok(stored)
}

/// Connects to the host's MCP endpoint, retrying with backoff while it is unreachable. A refused
/// token ends the attempt at once.
pub async fn connect_with_retry(
    base_url: &str,
    token: &str,
    clock: &SharedClock,
    sinks: &FeedSinks,
    cancel: &CancellationToken,
) -> Result<Option<HostClient>, SyncError> {
    let backoff = Backoff::default();
    let mut jitter = Jitter::new(clock.now_ms() as u64);
    let mut attempt = 0;
    loop {
        sinks.state.send_replace(ConnectionState::Connecting);
        let result = tokio::select! {
            _ = cancel.cancelled() => return Ok(None),
            r = HostClient::connect(base_url, token) => r,
        };
        match result {
            Ok(client) => return Ok(Some(client)),
            Err(HostError::TokenRefused) => {
                sinks.state.send_replace(ConnectionState::TokenRefused);
                return Err(HostError::TokenRefused.into());
            }
            Err(e) => {
                let delay: Duration = backoff.delay(attempt, jitter.unit());
                attempt += 1;
                tracing::info!(error = %e, delay_ms = delay.as_millis() as u64, "host unreachable");
                sinks.state.send_replace(ConnectionState::Reconnecting {
                    next_try_s: delay.as_secs_f64(),
                });
                tokio::select! {
                    _ = cancel.cancelled() => return Ok(None),
                    _ = tokio::time::sleep(delay) => {}
                }
            }
        }
    }
}

/// Follows a class until `cancel` fires: catalog, backfill, then the feed. A host that fails
/// while the catalog or the backfill is fetched is tried again with backoff, like the feed; only
/// a refused token or an unknown class end the sync, since retrying cannot mend them.
pub async fn sync_class(
    store: Store,
    config: FeedConfig,
    clock: SharedClock,
    sinks: FeedSinks,
    cancel: CancellationToken,
) -> Result<FeedStats, SyncError> {
    if config.store_key.is_none() {
        store.ensure_class(&config.class_id).await?;
    }
    let backoff = Backoff::default();
    let mut jitter = Jitter::new(clock.now_ms() as u64 ^ 0xA2);
    let mut attempt = 0;
    let registry = loop {
        let Some(client) =
            connect_with_retry(&config.base_url, &config.token, &clock, &sinks, &cancel).await?
        else {
            return Ok(FeedStats::default());
        };
        let prepare = async {
            let registry = refresh_catalog(&store, &client).await?;
            let backfilled =
                backfill(&store, &client, &registry, &config.class_id, config.key()).await?;
            Ok::<_, SyncError>((registry, backfilled))
        };
        let prepared = tokio::select! {
            _ = cancel.cancelled() => None,
            p = prepare => Some(p),
        };
        client.close().await;
        let Some(prepared) = prepared else {
            return Ok(FeedStats::default());
        };
        match prepared {
            Ok((registry, backfilled)) => {
                if backfilled > 0 {
                    tracing::info!(class_id = %config.class_id, results = backfilled, "backfilled");
                }
                break registry;
            }
            Err(e @ (SyncError::Host(HostError::TokenRefused) | SyncError::Feed(_))) => {
                // As the feed says it when it ends for good: a class its host does not know is
                // offline, not "connecting" for ever.
                sinks.state.send_replace(match e {
                    SyncError::Host(HostError::TokenRefused)
                    | SyncError::Feed(FeedError::TokenRefused) => ConnectionState::TokenRefused,
                    _ => ConnectionState::Offline,
                });
                return Err(e);
            }
            Err(e) => {
                let delay = backoff.delay(attempt, jitter.unit());
                attempt += 1;
                tracing::warn!(class_id = %config.class_id, error = %e, delay_ms = delay.as_millis() as u64, "preparing the class failed; retrying");
                sinks.state.send_replace(ConnectionState::Reconnecting {
                    next_try_s: delay.as_secs_f64(),
                });
                tokio::select! {
                    _ = cancel.cancelled() => return Ok(FeedStats::default()),
                    _ = tokio::time::sleep(delay) => {}
                }
            }
        }
    };
    Ok(run_feed(store, Arc::new(registry), config, clock, sinks, cancel).await?)
}
