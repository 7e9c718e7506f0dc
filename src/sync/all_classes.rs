//! A district follower: every class a host lists (its optional `list_classes` tool), each
//! followed like one class, new classes picked up as they appear. Several followers may share a
//! store — one per host, or one per shard of a host's classes (`--shard K/N`) — since the store
//! is idempotent on `(class_id, seq)` and each class's feed resumes from its stored cursor.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use tokio::sync::{mpsc, watch};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use super::{SyncError, connect_with_retry, sync_class};
use crate::clock::SharedClock;
use crate::host::feed::{FeedConfig, FeedError, FeedSinks, FeedStats};
use crate::host::mcp::{HostError, LIST_CLASSES, ListedClass};
use crate::store::{Store, StoreError};

/// Which of a host's classes one follower of `count` takes: those whose id hashes to `index`.
/// The hash is FNV-1a of the id's bytes, the same in every process and every release, so
/// followers started with `1/N` … `N/N` split the classes between them without talking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// 0-based.
    index: u32,
    count: u32,
}

impl Shard {
    /// Every class.
    pub const ALL: Shard = Shard { index: 0, count: 1 };

    /// `K/N`, 1 <= K <= N, as `--shard` takes it.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let (k, n) = text
            .split_once('/')
            .ok_or_else(|| format!("{text:?} is not K/N (e.g. 1/4)"))?;
        let number = |s: &str| {
            s.trim()
                .parse::<u32>()
                .map_err(|_| format!("{text:?} is not K/N (e.g. 1/4)"))
        };
        let (k, n) = (number(k)?, number(n)?);
        if n == 0 || k == 0 || k > n {
            return Err(format!("{text:?}: K/N needs 1 <= K <= N"));
        }
        Ok(Shard {
            index: k - 1,
            count: n,
        })
    }

    pub fn takes(&self, class_id: &str) -> bool {
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for byte in class_id.bytes() {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
        hash % u64::from(self.count) == u64::from(self.index)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index + 1, self.count)
    }
}

/// How to follow a host's classes.
#[derive(Debug, Clone)]
pub struct AllClassesConfig {
    /// The host, the token and the feed's settings; its `class_id` is set per class.
    pub feed: FeedConfig,
    /// The id the store ties each class to (see [`Store::bind_class_to_host`]).
    pub host_id: String,
    pub shard: Shard,
    /// How often the host is asked for classes that appeared since.
    pub poll_every: Duration,
}

/// What a follower reports: the classes it follows and their feeds' totals.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FollowerStats {
    pub classes: usize,
    pub frames: u64,
    pub stored: u64,
    pub quarantined: u64,
    pub duplicates: u64,
}

impl FollowerStats {
    fn add(&mut self, feed: &FeedStats) {
        self.frames += feed.frames;
        self.stored += feed.stored;
        self.quarantined += feed.quarantined;
        self.duplicates += feed.duplicates;
    }
}

/// Follows every class the host lists (in `config.shard`) until `cancel` fires. Ends with an
/// error only when following cannot go on: the host has no `list_classes`, refuses the token,
/// or the store fails. A class another host's sync stored under the same id is left alone (a
/// warning), and a class the host forgets ends its own sync only.
pub async fn follow_all_classes(
    store: Store,
    config: AllClassesConfig,
    clock: SharedClock,
    progress: watch::Sender<FollowerStats>,
    cancel: CancellationToken,
) -> Result<FollowerStats, SyncError> {
    let children = cancel.child_token();
    let (lists_tx, mut lists) = mpsc::channel(1);
    let lister = tokio::spawn(list_classes_periodically(
        config.clone(),
        clock.clone(),
        lists_tx,
        children.clone(),
    ));
    let mut running: JoinSet<(String, Result<FeedStats, SyncError>)> = JoinSet::new();
    // Every class taken (running or ended: an ended one is not started again), those refused
    // (an id the store cannot take), the live counters of those running, and the
    // totals of those that ended.
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut refused: BTreeSet<String> = BTreeSet::new();
    let mut live: BTreeMap<String, watch::Receiver<FeedStats>> = BTreeMap::new();
    let mut ended = FollowerStats::default();
    // Whose task a panic ended: its join error names only the task.
    let mut task_classes: BTreeMap<tokio::task::Id, String> = BTreeMap::new();
    let mut report = tokio::time::interval(Duration::from_millis(500));
    let outcome = 'follow: loop {
        tokio::select! {
            _ = cancel.cancelled() => break Ok(()),
            listed = lists.recv() => match listed {
                Some(Ok(classes)) => {
                    for class in classes {
                        if !config.shard.takes(&class.class_id)
                            || taken.contains(&class.class_id)
                            || refused.contains(&class.class_id)
                        {
                            continue;
                        }
                        let key = match adopt(&store, &class, &config.host_id).await {
                            Ok(key) => key,
                            Err(StoreError::Invalid(why)) => {
                                tracing::warn!(class_id = %class.class_id, %why, "class not followed");
                                refused.insert(class.class_id);
                                continue;
                            }
                            Err(e) => break 'follow Err(e.into()),
                        };
                        let (sinks, _state, stats) = FeedSinks::new();
                        let mut feed = config.feed.clone();
                        feed.class_id = class.class_id.clone();
                        let feed = feed.stored_as(&key);
                        tracing::info!(class_id = %class.class_id, "following a new class");
                        let task = running.spawn(follow_one(store.clone(), feed, clock.clone(), sinks, children.clone()));
                        task_classes.insert(task.id(), class.class_id.clone());
                        live.insert(class.class_id.clone(), stats);
                        taken.insert(class.class_id);
                    }
                }
                Some(Err(e)) => break Err(e),
                // The lister ended: cancelled.
                None => break Ok(()),
            },
            Some(joined) = running.join_next(), if !running.is_empty() => match joined {
                Ok((class_id, result)) => {
                    live.remove(&class_id);
                    match result {
                        Ok(stats) => ended.add(&stats),
                        Err(SyncError::Feed(FeedError::UnknownClass(_))) => {
                            tracing::warn!(%class_id, "the host no longer knows the class; its sync ended");
                        }
                        Err(e) => break Err(e),
                    }
                }
                Err(e) => {
                    let class_id = task_classes.get(&e.id()).cloned().unwrap_or_default();
                    break Err(SyncError::Task { class_id, why: e.to_string() });
                }
            },
            _ = report.tick() => {
                progress.send_replace(totals(taken.len(), &ended, &live));
            }
        }
    };
    children.cancel();
    let _ = lister.await;
    while let Some(joined) = running.join_next().await {
        if let Ok((class_id, Ok(stats))) = joined {
            live.remove(&class_id);
            ended.add(&stats);
        }
    }
    let stats = totals(taken.len(), &ended, &live);
    progress.send_replace(stats);
    outcome.map(|()| stats)
}

fn totals(
    classes: usize,
    ended: &FollowerStats,
    live: &BTreeMap<String, watch::Receiver<FeedStats>>,
) -> FollowerStats {
    let mut sum = *ended;
    sum.classes = classes;
    for stats in live.values() {
        sum.add(&stats.borrow());
    }
    sum
}

async fn follow_one(
    store: Store,
    feed: FeedConfig,
    clock: SharedClock,
    sinks: FeedSinks,
    cancel: CancellationToken,
) -> (String, Result<FeedStats, SyncError>) {
    let class_id = feed.class_id.clone();
    (
        class_id,
        sync_class(store, feed, clock, sinks, cancel).await,
    )
}

/// Records a listed class as this host's, with the host's title when it has a usable one;
/// returns the store's key for it.
pub(crate) async fn adopt(
    store: &Store,
    class: &ListedClass,
    host_id: &str,
) -> Result<String, StoreError> {
    let key = store.bind_class_to_host(&class.class_id, host_id).await?;
    if let Some(title) = class.title.as_deref() {
        // A title the store cannot take (empty, too long) leaves the class listed under its id.
        if let Err(e) = store.upsert_class(&key, title, None).await {
            tracing::warn!(class_id = %class.class_id, error = %e, "the host's class title was not kept");
        }
    }
    Ok(key)
}

/// Asks the host for its classes now and every `poll_every`, sending each list; a host that
/// cannot be reached is retried with backoff. Ends (sending the error) when the host has no
/// `list_classes` or refuses the token; ends quietly when cancelled.
async fn list_classes_periodically(
    config: AllClassesConfig,
    clock: SharedClock,
    lists: mpsc::Sender<Result<Vec<ListedClass>, SyncError>>,
    cancel: CancellationToken,
) {
    let (sinks, _state, _stats) = FeedSinks::new();
    loop {
        let listed = match connect_with_retry(
            &config.feed.base_url,
            &config.feed.token,
            &clock,
            &sinks,
            &cancel,
        )
        .await
        {
            Ok(None) => return,
            Ok(Some(client)) => {
                let listed = async {
                    if !client.tool_names().await?.contains(LIST_CLASSES) {
                        return Err(SyncError::NoClassList);
                    }
                    Ok(client.list_classes().await?)
                }
                .await;
                client.close().await;
                listed
            }
            Err(e) => Err(e),
        };
        let fatal = matches!(
            listed,
            Err(SyncError::NoClassList | SyncError::Host(HostError::TokenRefused))
        );
        match listed {
            Err(e) if !fatal => {
                tracing::warn!(error = %e, "listing the host's classes failed; trying again later");
            }
            listed => {
                if lists.send(listed).await.is_err() || fatal {
                    return;
                }
            }
        }
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = tokio::time::sleep(config.poll_every) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shard;

    #[test]
    fn shards_split_classes_between_followers_exactly_once() {
        let shards: Vec<Shard> = (1..=4)
            .map(|k| Shard::parse(&format!("{k}/4")).unwrap())
            .collect();
        let mut per_shard = [0; 4];
        for i in 0..1000 {
            let id = format!("cls-{i:05}");
            let takers: Vec<usize> = (0..4).filter(|&s| shards[s].takes(&id)).collect();
            assert_eq!(takers.len(), 1, "{id} is taken by exactly one shard");
            per_shard[takers[0]] += 1;
            assert!(Shard::ALL.takes(&id));
        }
        // Roughly even: no shard left idle or taking them all.
        assert!(
            per_shard.iter().all(|&n| (150..=350).contains(&n)),
            "{per_shard:?}"
        );
        // Stable across processes and releases: these ids land where FNV-1a put them when
        // sharding was written; a change of hash would move classes between running followers.
        for (id, expected) in [
            ("cls-abcdefghij", 1),
            ("cls-0000000001", 1),
            ("demo-class", 3),
        ] {
            let takers: Vec<usize> = (0..4).filter(|&s| shards[s].takes(id)).collect();
            assert_eq!(takers, vec![expected], "{id}");
        }
    }

    #[test]
    fn a_shard_is_k_of_n() {
        assert_eq!(Shard::parse("2/3").unwrap().to_string(), "2/3");
        assert_eq!(Shard::parse("1/1").unwrap(), Shard::ALL);
        for bad in ["0/3", "4/3", "1/0", "3", "a/b", "", "1/-2"] {
            assert!(Shard::parse(bad).is_err(), "{bad:?} refused");
        }
    }
}
