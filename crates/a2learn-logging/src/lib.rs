//! The one logging set-up of a2learn Teacher's binaries: the `a2learn-teacher` CLI and the
//! `a2learn-teacher-app` shell both call [`init_logging`]. Libraries (the core, the contract,
//! the reference host) only emit `tracing` events; they never install a subscriber.

/// Logs go to stderr, at `warn` unless `A2LEARN_LOG` says otherwise (e.g. `A2LEARN_LOG=debug`,
/// any `tracing` filter).
pub fn init_logging() {
    let filter = tracing_subscriber::EnvFilter::try_from_env("A2LEARN_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    // A second init (tests) fails harmlessly.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
