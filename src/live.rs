//! The live side of the app, without Tauri: one feed per followed class against the configured
//! host, their connection states merged into the one the status bar shows, and their change
//! notifications coalesced so that a burst of events becomes one refresh.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{Mutex, mpsc, watch};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::clock::SharedClock;
use crate::error::Coded;
use crate::host::ConnectionState;
use crate::host::feed::{FeedConfig, FeedSinks, FeedStats, StoreChanged};
use crate::host::mcp::{HostClient, HostError, LIST_CLASSES, ListedClass};
use crate::host::offers::HostOffers;
use crate::privacy::outgoing::TextField;
use crate::privacy::outgoing::{OutgoingError, TextBlocked};
use crate::store::{Changes, ClassRow, RowsTouched, Store, StoreError};
use crate::sync::sync_class;

/// How long change notifications are gathered before the views are told: a burst of events must
/// not redraw per event, and a change must reach the screen fast. 50 ms since the window renders
/// only the views a change touches and loads each one at a time (docs/benchmarks-log.md,
/// "Latency to the screen": at 120 ms most events at classroom rates waited for the window's
/// end, p50 ~60 ms; at 50 ms, before views rendered alone, the extra notifications cost the page
/// more than it saved).
pub const COALESCE_WINDOW: Duration = Duration::from_millis(50);

/// The title of the class the demo creates on a first start.
pub const DEMO_CLASS_TITLE: &str = "Demo class";

/// How often the host is asked whether it answers while no class is followed (the feeds tell
/// it otherwise): one MCP `initialize`, a few small requests.
pub const PROBE_EVERY: Duration = Duration::from_secs(15);

/// How long a probe waits for the host before calling it offline.
const PROBE_TIMEOUT: Duration = Duration::from_secs(8);

/// What a teacher's action on the host (a new class, an assignment) can come to.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// The teacher's input, refused before anything was sent; the message says why.
    #[error("{0}")]
    Invalid(String),
    /// The text names someone from a roster: nothing was sent.
    #[error(transparent)]
    Blocked(#[from] TextBlocked),
    #[error(transparent)]
    Host(#[from] HostError),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The teacher's input refused, in words the window translates.
    #[error(transparent)]
    Said(#[from] crate::error::Said),
}

impl From<OutgoingError> for ActionError {
    fn from(e: OutgoingError) -> Self {
        match e {
            OutgoingError::Blocked(b) => ActionError::Blocked(b),
            OutgoingError::Store(s) => ActionError::Store(s),
        }
    }
}

impl Coded for ActionError {
    fn code(&self) -> crate::ErrorCode {
        match self {
            ActionError::Invalid(_) => crate::ErrorCode::InvalidInput,
            ActionError::Blocked(b) => b.code(),
            ActionError::Host(h) => h.code(),
            ActionError::Store(s) => s.code(),
            ActionError::Said(s) => s.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            ActionError::Invalid(_) => None,
            ActionError::Blocked(b) => b.localized(c),
            ActionError::Host(h) => h.localized(c),
            ActionError::Store(s) => s.localized(c),
            ActionError::Said(s) => Some(s.in_language(c)),
        }
    }
}

/// Where the host is, and which host it is. The token is a secret: `Debug` does not print it.
#[derive(Clone, PartialEq, Eq)]
pub struct HostTarget {
    pub url: String,
    pub token: String,
    /// What names the host across starts (its classes are its own): for the embedded demo
    /// host, whose address changes each start, [`Store::demo_host_id`]; else its URL.
    pub host_id: String,
}

impl HostTarget {
    /// A host at a URL the teacher (or the command line) named.
    pub fn at(url: &str, token: &str) -> Self {
        Self {
            url: url.to_string(),
            token: token.to_string(),
            host_id: url.to_string(),
        }
    }

    /// The embedded demo host, wherever it listens this time, by the name the store gave it
    /// ([`Store::demo_host_id`]).
    pub fn demo(url: &str, token: &str, host_id: &str) -> Self {
        Self {
            host_id: host_id.to_string(),
            ..Self::at(url, token)
        }
    }
}

impl std::fmt::Debug for HostTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostTarget")
            .field("url", &self.url)
            .field("host_id", &self.host_id)
            .field("token", &"<redacted>")
            .finish()
    }
}

fn no_host() -> HostError {
    HostError::Unreachable("no host is configured".into())
}

/// Changes gathered over one window, per class.
pub type CoalescedChanges = BTreeMap<String, ClassChanges>;

/// What changed in one class over a coalescing window.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassChanges {
    pub changes: Changes,
    pub rows: RowsTouched,
}

struct Feed {
    cancel: CancellationToken,
    task: JoinHandle<()>,
    state: watch::Receiver<ConnectionState>,
    stats: watch::Receiver<FeedStats>,
}

struct Inner {
    target: Option<HostTarget>,
    feeds: HashMap<String, Feed>,
    /// What the target offers, asked once per target (`tools/list`).
    offers: Option<HostOffers>,
}

/// Runs the feeds of the followed classes.
pub struct Live {
    store: Store,
    clock: SharedClock,
    inner: Mutex<Inner>,
    state: watch::Sender<ConnectionState>,
    changes: mpsc::UnboundedSender<StoreChanged>,
    /// Wakes the state merger when a feed is added or removed, and the probe when the target
    /// changes.
    feeds_changed: watch::Sender<u64>,
    /// Whether the host answers, asked every `probe_every`: what the status bar tells while
    /// no class is followed (with no feed, there is nothing else to tell it).
    probe: watch::Sender<ConnectionState>,
}

impl Live {
    /// Returns the manager, the merged connection state, and the raw change notifications (pass
    /// them to [`coalesce`]).
    pub fn new(
        store: Store,
        clock: SharedClock,
    ) -> (
        Arc<Self>,
        watch::Receiver<ConnectionState>,
        mpsc::UnboundedReceiver<StoreChanged>,
    ) {
        Self::with_probe_every(store, clock, PROBE_EVERY)
    }

    /// [`Live::new`], asking the host whether it answers every `probe_every` while no class is
    /// followed (tests shorten it).
    pub fn with_probe_every(
        store: Store,
        clock: SharedClock,
        probe_every: Duration,
    ) -> (
        Arc<Self>,
        watch::Receiver<ConnectionState>,
        mpsc::UnboundedReceiver<StoreChanged>,
    ) {
        let (state, state_rx) = watch::channel(ConnectionState::NotConfigured);
        let (probe, _) = watch::channel(ConnectionState::NotConfigured);
        let (changes, changes_rx) = mpsc::unbounded_channel();
        let (feeds_changed, _) = watch::channel(0);
        let live = Arc::new(Self {
            store,
            clock,
            inner: Mutex::new(Inner {
                target: None,
                feeds: HashMap::new(),
                offers: None,
            }),
            state,
            changes,
            feeds_changed,
            probe,
        });
        tokio::spawn(merge_states(Arc::downgrade(&live)));
        tokio::spawn(probe_host(Arc::downgrade(&live), probe_every));
        (live, state_rx, changes_rx)
    }

    pub fn store(&self) -> &Store {
        &self.store
    }

    pub fn connection(&self) -> ConnectionState {
        self.state.borrow().clone()
    }

    /// Points the app at a host (or at none) and restarts the feeds: one for each class of that
    /// host (and each class followed by id alone); another host's classes are not followed.
    pub async fn set_target(&self, target: Option<HostTarget>) -> Result<(), crate::StoreError> {
        let classes = match &target {
            Some(t) => self.store.classes_of_host(&t.host_id).await?,
            None => Vec::new(),
        };
        let mut inner = self.inner.lock().await;
        for (_, feed) in inner.feeds.drain() {
            feed.cancel.cancel();
            let _ = feed.task.await;
        }
        inner.target = target;
        inner.offers = None;
        for class in classes {
            self.start_feed(&mut inner, &class.class_id, &class.host_class_id);
        }
        self.feeds_changed.send_modify(|n| *n += 1);
        Ok(())
    }

    /// The feed of a followed class (by the store's key): its state and figures; `None` when
    /// the class is not followed now.
    pub async fn feed(&self, class_id: &str) -> Option<(ConnectionState, FeedStats)> {
        let inner = self.inner.lock().await;
        let feed = inner.feeds.get(class_id)?;
        Some((feed.state.borrow().clone(), *feed.stats.borrow()))
    }

    pub async fn target(&self) -> Option<HostTarget> {
        self.inner.lock().await.target.clone()
    }

    /// Follows the class the store keys `class_id` and its host names `host_class_id`.
    fn start_feed(&self, inner: &mut Inner, class_id: &str, host_class_id: &str) {
        let Some(target) = inner.target.clone() else {
            return;
        };
        if inner.feeds.contains_key(class_id) {
            return;
        }
        let (mut sinks, state_rx, stats) = FeedSinks::new();
        sinks.changes = Some(self.changes.clone());
        let cancel = CancellationToken::new();
        let config = FeedConfig::new(&target.url, &target.token, host_class_id).stored_as(class_id);
        let store = self.store.clone();
        let clock = self.clock.clone();
        let task_cancel = cancel.clone();
        let class = class_id.to_string();
        let task = tokio::spawn(async move {
            if let Err(e) = sync_class(store, config, clock, sinks, task_cancel).await {
                tracing::warn!(class_id = %class, error = %e, "class feed stopped");
            }
        });
        inner.feeds.insert(
            class_id.to_string(),
            Feed {
                cancel,
                task,
                state: state_rx,
                stats,
            },
        );
    }

    /// Starts following a class already in the store (by the store's key for it).
    pub async fn follow(&self, class_id: &str) -> Result<(), StoreError> {
        let host_class_id = self.store.host_class_id(class_id).await?;
        let mut inner = self.inner.lock().await;
        self.start_feed(&mut inner, class_id, &host_class_id);
        drop(inner);
        self.feeds_changed.send_modify(|n| *n += 1);
        Ok(())
    }

    /// Tells the views that a local write changed a class's data (a help request answered from
    /// this dashboard), through the same coalesced path as the feed's batches.
    pub fn notify_changed(&self, class_id: &str, changes: Changes) {
        let _ = self.changes.send(StoreChanged {
            class_id: class_id.to_string(),
            changes,
            rows: RowsTouched::All,
            committed_at_ms: self.clock.now_ms(),
        });
    }

    /// The host the app is pointed at, or the error any host action gives without one.
    async fn configured_target(&self) -> Result<HostTarget, HostError> {
        self.target().await.ok_or_else(no_host)
    }

    /// An MCP session with the configured host, for one command.
    pub async fn client(&self) -> Result<HostClient, HostError> {
        let target = self.configured_target().await?;
        HostClient::connect(&target.url, &target.token).await
    }

    /// Which controls the configured host can honour; asked with `tools/list` once per host.
    pub async fn offers(&self) -> Result<HostOffers, HostError> {
        let target = {
            let inner = self.inner.lock().await;
            if let Some(tools) = inner.offers {
                return Ok(tools);
            }
            inner.target.clone()
        };
        let target = target.ok_or_else(no_host)?;
        let client = HostClient::connect(&target.url, &target.token).await?;
        let names = client.tool_names().await;
        client.close().await;
        let tools = HostOffers::from_names(&names?);
        let mut inner = self.inner.lock().await;
        // Kept only if the teacher did not switch hosts meanwhile.
        if inner.target.as_ref() == Some(&target) {
            inner.offers = Some(tools);
        }
        Ok(tools)
    }

    /// Creates a class on the host, stores it and starts following it.
    pub async fn create_class(&self, title: &str) -> Result<ClassRow, ActionError> {
        let title = title.trim();
        if title.is_empty() {
            return Err(ActionError::Invalid("a class needs a title".into()));
        }
        let title = self
            .store
            .outgoing_text(TextField::ClassTitle, title)
            .await?;
        // The target itself, not just a client: the new class is tied to this host.
        let target = self.configured_target().await?;
        let client = HostClient::connect(&target.url, &target.token).await?;
        let created = client.create_class(&title).await;
        client.close().await;
        let created = created?;
        // Made tied to its host, before its title and join code are written (another host's
        // class of the same id, kept here, stays untouched: this one gets a key of its own).
        let key = self
            .store
            .bind_class_to_host(&created.class_id, &target.host_id)
            .await?;
        self.store
            .upsert_class(&key, title.as_str(), Some(&created.join_code))
            .await?;
        self.follow(&key).await?;
        let classes = self.store.classes().await?;
        classes
            .into_iter()
            .find(|c| c.class_id == key)
            .ok_or_else(|| StoreError::NotFound("the new class was not stored".into()).into())
    }

    /// The classes the host lists (its optional `list_classes`), each with whether this
    /// dashboard follows it; empty when the host does not list its classes. How a teacher picks
    /// up a class made elsewhere: a bridged upstream pathway, a colleague's class.
    pub async fn host_classes(&self) -> Result<Vec<(ListedClass, bool)>, ActionError> {
        let target = self.configured_target().await?;
        let client = HostClient::connect(&target.url, &target.token).await?;
        let listed = async {
            if !client.tool_names().await?.contains(LIST_CLASSES) {
                return Ok(Vec::new());
            }
            client.list_classes().await
        }
        .await;
        client.close().await;
        let followed: std::collections::HashSet<String> = self
            .store
            .classes_of_host(&target.host_id)
            .await?
            .into_iter()
            .map(|c| c.host_class_id)
            .collect();
        Ok(listed?
            .into_iter()
            .map(|c| {
                let is_followed = followed.contains(&c.class_id);
                (c, is_followed)
            })
            .collect())
    }

    /// Follows a class the host lists (by the host's id for it): recorded as this host's (with
    /// the host's title) and followed from now on. Another host's class of the same id, kept
    /// here, stays as it is: this one gets a key of its own.
    pub async fn follow_host_class(&self, class_id: &str) -> Result<(), ActionError> {
        let target = self.configured_target().await?;
        let listed = self
            .host_classes()
            .await?
            .into_iter()
            .find(|(c, _)| c.class_id == class_id)
            .ok_or_else(|| ActionError::Invalid(format!("the host lists no class {class_id:?}")))?;
        let key = crate::sync::all_classes::adopt(&self.store, &listed.0, &target.host_id).await?;
        self.follow(&key).await?;
        Ok(())
    }

    /// On a first start with the demo host: a class with every pathway of the catalog
    /// assigned, so the simulated learners start working (and keep at it for a while: they go
    /// quiet once they have finished every assigned pathway). Does nothing when the demo host
    /// has a class already (another host's classes do not count: they are not followed here).
    pub async fn ensure_demo_class(&self) -> Result<Option<ClassRow>, ActionError> {
        let demo = self.configured_target().await?.host_id;
        let demo_classes = self.store.classes_of_host(&demo).await?;
        if demo_classes
            .iter()
            .any(|c| c.host_id.as_deref() == Some(demo.as_str()))
        {
            return Ok(None);
        }
        let class = self.create_class(DEMO_CLASS_TITLE).await?;
        let client = self.client().await?;
        let assigned = async {
            let mut assigned = Vec::new();
            for pathway in client.list_pathways().await? {
                let id = client
                    .assign_pathway(&class.host_class_id, &pathway.pathway_id, None, None)
                    .await?;
                assigned.push((id, pathway.pathway_id));
            }
            Ok::<_, HostError>(assigned)
        }
        .await;
        client.close().await;
        for (assignment_id, pathway_id) in assigned? {
            self.store
                .upsert_assignment(&assignment_id, &class.class_id, &pathway_id, None, None)
                .await?;
        }
        Ok(Some(class))
    }

    /// Stops every feed, storing what each has in hand.
    pub async fn shutdown(&self) {
        let mut inner = self.inner.lock().await;
        for (_, feed) in inner.feeds.drain() {
            feed.cancel.cancel();
            let _ = feed.task.await;
        }
    }
}

/// Keeps the merged state current: the worst state of any class's feed, or `not_configured`.
async fn merge_states(live: std::sync::Weak<Live>) {
    let mut generation = match live.upgrade() {
        Some(l) => l.feeds_changed.subscribe(),
        None => return,
    };
    loop {
        let Some(l) = live.upgrade() else { return };
        let (merged, mut receivers) = {
            let mut inner = l.inner.lock().await;
            let (states, all) = observe(inner.feeds.values_mut().map(|f| &mut f.state));
            // A feed that has stopped for good keeps its last state in the merge, but is not
            // waited on: a closed channel's `changed()` is ready at once, and waiting on it
            // would spin this loop.
            let mut receivers = still_open(all);
            let merged = if inner.target.is_none() {
                ConnectionState::NotConfigured
            } else if states.is_empty() {
                // No class followed: whether the host answers at all.
                let mut probe = l.probe.subscribe();
                let state = probe.borrow_and_update().clone();
                receivers.push(probe);
                state
            } else {
                merge(&states)
            };
            (merged, receivers)
        };
        l.state.send_if_modified(|s| {
            let changed = *s != merged;
            *s = merged;
            changed
        });
        drop(l);
        // Wait for any feed's state, or the set of feeds, to change.
        let any_state = async {
            if receivers.is_empty() {
                std::future::pending::<()>().await;
            }
            let futures = receivers.iter_mut().map(|r| Box::pin(r.changed()));
            let _ = futures_select_all(futures).await;
        };
        tokio::select! {
            r = generation.changed() => if r.is_err() { return },
            _ = any_state => {}
        }
    }
}

/// Asks the target host whether it answers (an MCP session opened and closed) when the target
/// changes and every `every` after, for as long as the manager lives.
async fn probe_host(live: std::sync::Weak<Live>, every: Duration) {
    let mut target_changed = match live.upgrade() {
        Some(l) => l.feeds_changed.subscribe(),
        None => return,
    };
    let mut probed: Option<String> = None;
    loop {
        let Some(l) = live.upgrade() else { return };
        let (target, following) = {
            let inner = l.inner.lock().await;
            (inner.target.clone(), !inner.feeds.is_empty())
        };
        let probe = l.probe.clone();
        drop(l);
        if target.as_ref().map(|t| &t.url) != probed.as_ref() {
            // Another host: what was known of the last one says nothing of it.
            probed = target.as_ref().map(|t| t.url.clone());
            probe.send_replace(ConnectionState::Connecting);
        }
        let state = match target {
            None => ConnectionState::NotConfigured,
            // The feeds tell the status bar whether the host answers.
            Some(_) if following => probe.borrow().clone(),
            Some(target) => {
                match HostClient::connect_within(&target.url, &target.token, PROBE_TIMEOUT).await {
                    Ok(client) => {
                        client.close().await;
                        ConnectionState::Connected
                    }
                    Err(HostError::TokenRefused) => ConnectionState::TokenRefused,
                    Err(e) => {
                        tracing::info!(error = %e, "the host does not answer");
                        ConnectionState::Offline
                    }
                }
            }
        };
        probe.send_if_modified(|s| {
            let changed = *s != state;
            *s = state;
            changed
        });
        tokio::select! {
            r = target_changed.changed() => if r.is_err() { return },
            _ = tokio::time::sleep(every) => {}
        }
    }
}

/// Reads every feed's state and marks it seen on the receiver the feed table keeps, then hands
/// out clones to wait on. A clone starts from its original's last-seen version: cloning without
/// marking would make every clone's `changed()` ready at once for any feed whose state ever
/// changed, and the merge loop would spin (it did: a core at 100% in the app).
fn observe<'a>(
    receivers: impl Iterator<Item = &'a mut watch::Receiver<ConnectionState>>,
) -> (Vec<ConnectionState>, Vec<watch::Receiver<ConnectionState>>) {
    receivers
        .map(|r| {
            let state = r.borrow_and_update().clone();
            (state, r.clone())
        })
        .unzip()
}

/// The receivers whose feed is still running. A stopped feed's channel is closed: its
/// `changed()` is ready at once, so waiting on it would spin the merge loop.
fn still_open(
    receivers: Vec<watch::Receiver<ConnectionState>>,
) -> Vec<watch::Receiver<ConnectionState>> {
    receivers
        .into_iter()
        .filter(|r| r.has_changed().is_ok())
        .collect()
}

/// Resolves when the first of `futures` does.
async fn futures_select_all<F: std::future::Future + Unpin>(futures: impl Iterator<Item = F>) {
    let mut list: Vec<F> = futures.collect();
    std::future::poll_fn(|cx| {
        for f in list.iter_mut() {
            if std::pin::Pin::new(f).poll(cx).is_ready() {
                return std::task::Poll::Ready(());
            }
        }
        std::task::Poll::Pending
    })
    .await
}

/// The state the status bar shows for several feeds: a refused token above everything, then
/// offline, reconnecting (the soonest retry), connecting, and connected only when all are.
pub fn merge(states: &[ConnectionState]) -> ConnectionState {
    if states.is_empty() {
        return ConnectionState::Connected;
    }
    if states.contains(&ConnectionState::TokenRefused) {
        return ConnectionState::TokenRefused;
    }
    if states.contains(&ConnectionState::Offline) {
        return ConnectionState::Offline;
    }
    let soonest = states
        .iter()
        .filter_map(|s| match s {
            ConnectionState::Reconnecting { next_try_s } => Some(*next_try_s),
            _ => None,
        })
        .fold(None, |acc: Option<f64>, t| {
            Some(acc.map_or(t, |a| a.min(t)))
        });
    if let Some(next_try_s) = soonest {
        return ConnectionState::Reconnecting { next_try_s };
    }
    if states.contains(&ConnectionState::Connecting) {
        return ConnectionState::Connecting;
    }
    ConnectionState::Connected
}

/// Hands store changes to `emit`, at most one notification per `window`: a change after a quiet
/// `window` goes out at once (leading edge: a lone completion reaches the screen without
/// waiting), and whatever arrives while a notification is fresh is merged into one more at the
/// window's end (a burst of any size costs the page at most two refetches per window). Ends when
/// the sender side closes, handing out what it holds.
pub async fn coalesce(
    mut rx: mpsc::UnboundedReceiver<StoreChanged>,
    window: Duration,
    mut emit: impl FnMut(CoalescedChanges),
) {
    let mut quiet_from: Option<tokio::time::Instant> = None;
    while let Some(first) = rx.recv().await {
        let mut gathered = CoalescedChanges::new();
        fn take(changed: StoreChanged, gathered: &mut CoalescedChanges) {
            let class = gathered.entry(changed.class_id).or_default();
            class.changes.merge(changed.changes);
            class.rows.merge(changed.rows);
        }
        take(first, &mut gathered);
        // What is queued already belongs to the same instant.
        while let Ok(next) = rx.try_recv() {
            take(next, &mut gathered);
        }
        if let Some(deadline) = quiet_from.filter(|t| *t > tokio::time::Instant::now()) {
            loop {
                match tokio::time::timeout_at(deadline, rx.recv()).await {
                    Ok(Some(next)) => take(next, &mut gathered),
                    Ok(None) => {
                        emit(gathered);
                        return;
                    }
                    Err(_) => break,
                }
            }
        }
        emit(gathered);
        quiet_from = Some(tokio::time::Instant::now() + window);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merged_state_shows_the_worst_feed() {
        use ConnectionState::*;
        assert_eq!(merge(&[Connected, Connected]), Connected);
        assert_eq!(merge(&[Connected, Connecting]), Connecting);
        assert_eq!(
            merge(&[
                Reconnecting { next_try_s: 4.0 },
                Reconnecting { next_try_s: 2.0 },
                Connected
            ]),
            Reconnecting { next_try_s: 2.0 }
        );
        assert_eq!(merge(&[Reconnecting { next_try_s: 1.0 }, Offline]), Offline);
        assert_eq!(merge(&[Offline, TokenRefused, Connected]), TokenRefused);
    }

    #[test]
    fn observed_states_are_marked_seen_so_waiting_blocks() {
        let (tx, mut rx) = watch::channel(ConnectionState::Connecting);
        tx.send_replace(ConnectionState::Connected);
        // Negative control: a plain clone of a receiver that has not seen the change is
        // "changed" at once — waiting on it would return immediately, again and again.
        assert_eq!(rx.clone().has_changed().ok(), Some(true));
        let (states, clones) = observe(std::iter::once(&mut rx));
        assert_eq!(states, vec![ConnectionState::Connected]);
        assert_eq!(
            clones[0].has_changed().ok(),
            Some(false),
            "nothing new to wait for"
        );
        assert_eq!(
            rx.clone().has_changed().ok(),
            Some(false),
            "the original is marked too"
        );
        tx.send_replace(ConnectionState::Offline);
        assert_eq!(
            clones[0].has_changed().ok(),
            Some(true),
            "a real change still wakes it"
        );
    }

    #[test]
    fn stopped_feeds_are_not_waited_on() {
        let (running_tx, running) = watch::channel(ConnectionState::Connected);
        let (stopped_tx, stopped) = watch::channel(ConnectionState::TokenRefused);
        drop(stopped_tx);
        let open = still_open(vec![running, stopped.clone()]);
        assert_eq!(open.len(), 1, "the closed channel is left out");
        assert_eq!(*open[0].borrow(), ConnectionState::Connected);
        // Its last state still counts in the merge.
        assert_eq!(*stopped.borrow(), ConnectionState::TokenRefused);
        drop(running_tx);
        assert!(still_open(open).is_empty());
    }

    #[test]
    fn the_token_is_never_in_debug_output() {
        let target = HostTarget::at("http://127.0.0.1:1", "s3cret-t0ken");
        let text = format!("{target:?}");
        assert!(!text.contains("s3cret"), "{text}");
        assert!(text.contains("127.0.0.1"));
    }

    #[tokio::test(start_paused = true)]
    async fn a_lone_change_goes_out_at_once_and_a_burst_in_at_most_two() {
        use tokio::time::Instant;
        let (tx, rx) = mpsc::unbounded_channel();
        let (out_tx, mut out_rx) = mpsc::unbounded_channel();
        let window = Duration::from_millis(120);
        let task = tokio::spawn(coalesce(rx, window, move |c| {
            let _ = out_tx.send((Instant::now(), c));
        }));
        let change = |class: &str, results: bool, calls: bool| StoreChanged {
            class_id: class.into(),
            changes: Changes {
                results,
                calls,
                ..Changes::default()
            },
            rows: RowsTouched::learners([format!("{class}-learner")]),
            committed_at_ms: 0,
        };
        // A lone change after a quiet spell: handed out without waiting for the window.
        let start = Instant::now();
        tx.send(change("a", true, false)).unwrap();
        let (at, first) = out_rx.recv().await.unwrap();
        assert_eq!(at, start, "the leading edge does not wait");
        assert!(first["a"].changes.results);
        // A burst right after it: all merged into one notification at the window's end.
        for _ in 0..50 {
            tx.send(change("a", true, false)).unwrap();
        }
        tx.send(change("a", false, true)).unwrap();
        tx.send(change("b", true, false)).unwrap();
        let (at, second) = out_rx.recv().await.unwrap();
        assert_eq!(at, start + window, "the trailing edge closes the window");
        assert_eq!(second.len(), 2, "one entry per class");
        assert!(
            second["a"].changes.results && second["a"].changes.calls,
            "merged: {second:?}"
        );
        assert_eq!(
            second["a"].rows,
            RowsTouched::learners(["a-learner"]),
            "the rows of a class's changes, merged"
        );
        tokio::time::sleep(window * 3).await;
        assert!(
            out_rx.try_recv().is_err(),
            "52 changes, one notification after the first"
        );
        // After a quiet window, the next change is a leading edge again.
        let later = Instant::now();
        tx.send(change("b", false, true)).unwrap();
        let (at, third) = out_rx.recv().await.unwrap();
        assert_eq!(at, later);
        assert!(third["b"].changes.calls && !third["b"].changes.results);
        drop(tx);
        task.await.unwrap();
    }
}
