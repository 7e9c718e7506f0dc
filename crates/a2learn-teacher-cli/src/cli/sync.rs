//! `a2learn-teacher sync`: follow one class (`--class`) or every class a host lists
//! (`--all-classes`, optionally one shard of them) headless until interrupted.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use a2learn_teacher::Store;
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::host::feed::{FeedConfig, FeedSinks, FeedStats};
use a2learn_teacher::host::settings::validate_host_url;
use a2learn_teacher::sync::all_classes::{
    AllClassesConfig, FollowerStats, Shard, follow_all_classes,
};
use a2learn_teacher::sync::{SyncError, sync_class};

#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("which").required(true).args(["class_id", "all_classes"])))]
pub struct SyncArgs {
    /// The pathway host's base URL (e.g. http://127.0.0.1:7878).
    #[arg(long = "host", value_name = "URL")]
    pub host: String,
    /// The bearer token (or set A2LEARN_TOKEN, which keeps it out of the process list).
    #[arg(long, env = "A2LEARN_TOKEN", hide_env_values = true)]
    pub token: String,
    /// The class to follow.
    #[arg(long = "class", value_name = "ID")]
    pub class_id: Option<String>,
    /// Follow every class the host lists for this token (its optional list_classes tool),
    /// picking up new classes as they appear.
    #[arg(long)]
    pub all_classes: bool,
    /// With --all-classes: follow only shard K of N (e.g. 2/4), so N followers split a host's
    /// classes; each class falls in exactly one shard.
    #[arg(long, value_name = "K/N", conflicts_with = "class_id", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// With --all-classes: seconds between asking the host for new classes.
    #[arg(long, value_name = "SECS", default_value_t = 30, conflicts_with = "class_id",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub poll_classes: u64,
    /// Print no progress lines.
    #[arg(long)]
    pub quiet: bool,
}

pub fn run(db: Option<&str>, args: SyncArgs) -> anyhow::Result<ExitCode> {
    let location = super::location(db)?;
    let host_id = match validate_host_url(&args.host) {
        Ok(url) => url,
        Err(e) => {
            eprintln!("error: --host {}: {e}", args.host);
            return Ok(ExitCode::from(2));
        }
    };
    let Some(class_id) = args.class_id.clone() else {
        return follow_all(&location, host_id, args);
    };
    super::runtime()?.block_on(async move {
        let clock: SharedClock = Arc::new(SystemClock);
        let store = Store::open_at(&location, clock.clone()).await?;
        // The class is this host's (the app lists and follows it with this host only); another
        // host's class of the same id, kept here, is another class with a key of its own.
        let key = match store.bind_class_to_host(&class_id, &host_id).await {
            Ok(key) => key,
            Err(e) => {
                store.close().await;
                eprintln!("error: {e}");
                return Ok(ExitCode::FAILURE);
            }
        };
        let (sinks, state_rx, stats_rx) = FeedSinks::new();
        let cancel = CancellationToken::new();
        spawn_signal_handler(cancel.clone());
        let config = FeedConfig::new(&args.host, &args.token, &class_id).stored_as(&key);
        let printer = (!args.quiet)
            .then(|| print_progress(state_rx, stats_rx, clock.clone(), cancel.clone()));
        let work = sync_class(store.clone(), config, clock, sinks, cancel.clone());
        let result = with_progress(store, &cancel, printer, work).await;
        finish(result.map(|stats| {
            format!(
                "stopped: {} frames, {} stored, {} quarantined, cursor {}",
                stats.frames,
                stats.stored,
                stats.quarantined,
                stats.last_seq.map_or("none".into(), |s| s.to_string())
            )
        }))
    })
}

/// `--all-classes`: every class the host lists (in the shard), until interrupted.
fn follow_all(
    location: &a2learn_teacher::store::Location,
    host_id: String,
    args: SyncArgs,
) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async move {
        let clock: SharedClock = Arc::new(SystemClock);
        let store = Store::open_at(location, clock.clone()).await?;
        let cancel = CancellationToken::new();
        spawn_signal_handler(cancel.clone());
        let config = AllClassesConfig {
            feed: FeedConfig::new(&args.host, &args.token, ""),
            host_id,
            shard: args.shard.unwrap_or(Shard::ALL),
            poll_every: Duration::from_secs(args.poll_classes),
        };
        let (progress_tx, progress_rx) = tokio::sync::watch::channel(FollowerStats::default());
        let printer = (!args.quiet)
            .then(|| print_follower_progress(progress_rx, clock.clone(), cancel.clone()));
        let work = follow_all_classes(store.clone(), config, clock, progress_tx, cancel.clone());
        let result = with_progress(store, &cancel, printer, work).await;
        finish(result.map(|stats| {
            format!(
                "stopped: {} frames, {} stored, {} quarantined, {} classes",
                stats.frames, stats.stored, stats.quarantined, stats.classes
            )
        }))
    })
}

/// Runs `work` with its progress `printer` beside it (none when quiet), then stops the printer
/// and closes the store.
async fn with_progress<T>(
    store: Store,
    cancel: &CancellationToken,
    printer: Option<impl Future<Output = ()> + Send + 'static>,
    work: impl Future<Output = T>,
) -> T {
    let printer = printer.map(tokio::spawn);
    let result = work.await;
    cancel.cancel();
    if let Some(p) = printer {
        let _ = p.await;
    }
    store.close().await;
    result
}

/// The closing line on success; a host's or a feed's refusal is an error line and exit 1.
fn finish(result: Result<String, SyncError>) -> anyhow::Result<ExitCode> {
    match result {
        Ok(line) => {
            println!("{line}");
            Ok(ExitCode::SUCCESS)
        }
        Err(
            e @ (SyncError::Feed(_)
            | SyncError::Host(_)
            | SyncError::NoClassList
            | SyncError::Task { .. }),
        ) => {
            eprintln!("error: {e}");
            Ok(ExitCode::FAILURE)
        }
        Err(e) => Err(e.into()),
    }
}

/// Ctrl-C or SIGTERM stops the sync after the batch in hand is stored.
fn spawn_signal_handler(cancel: CancellationToken) {
    tokio::spawn(async move {
        #[cfg(unix)]
        {
            let mut term =
                match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                    Ok(s) => s,
                    Err(_) => {
                        let _ = tokio::signal::ctrl_c().await;
                        cancel.cancel();
                        return;
                    }
                };
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
        cancel.cancel();
    });
}

/// One line a second at most: rate, totals and the connection state.
async fn print_progress(
    state: tokio::sync::watch::Receiver<a2learn_teacher::host::ConnectionState>,
    stats: tokio::sync::watch::Receiver<FeedStats>,
    clock: SharedClock,
    cancel: CancellationToken,
) {
    print_each_second(
        stats,
        |s| s.frames,
        clock,
        cancel,
        |rate, s| {
            format!(
                "{rate:.0} events/s, {} stored, {} quarantined, {} duplicates, cursor {}, {}",
                s.stored,
                s.quarantined,
                s.duplicates,
                s.last_seq.map_or("none".into(), |v| v.to_string()),
                state.borrow().label()
            )
        },
    )
    .await;
}

/// One line a second at most for a follower of many classes: rate and totals.
async fn print_follower_progress(
    stats: tokio::sync::watch::Receiver<FollowerStats>,
    clock: SharedClock,
    cancel: CancellationToken,
) {
    print_each_second(
        stats,
        |s| s.frames,
        clock,
        cancel,
        |rate, s| {
            format!(
                "{rate:.0} events/s, {} stored, {} quarantined, {} duplicates, {} classes",
                s.stored, s.quarantined, s.duplicates, s.classes
            )
        },
    )
    .await;
}

/// Prints `line` (given the frames per second since the last line) once a second until
/// cancelled.
async fn print_each_second<T: Copy>(
    stats: tokio::sync::watch::Receiver<T>,
    frames: impl Fn(&T) -> u64,
    clock: SharedClock,
    cancel: CancellationToken,
    line: impl Fn(f64, &T) -> String,
) {
    let mut last = (clock.now_ms(), 0u64);
    let mut interval = tokio::time::interval(Duration::from_secs(1));
    interval.tick().await;
    loop {
        tokio::select! {
            _ = cancel.cancelled() => return,
            _ = interval.tick() => {}
        }
        let s = *stats.borrow();
        let now = clock.now_ms();
        let elapsed_s = ((now - last.0).max(1)) as f64 / 1000.0;
        let rate = frames(&s).saturating_sub(last.1) as f64 / elapsed_s;
        last = (now, frames(&s));
        println!("{}", line(rate, &s));
    }
}
