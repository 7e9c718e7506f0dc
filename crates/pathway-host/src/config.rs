//! Configuration of a host, and its fault switches.

use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::clock::{Clock, SystemClock};

/// The speed-up of the demo: a fresh assignment's first events arrive within a few seconds.
pub const DEMO_SPEED: f64 = 8.0;
/// How long the demo's help requests wait for the teacher, in real time: as long as a real
/// student's would at speed 1 (`sim::ASSIST_DEADLINE_MS`).
pub const DEMO_HELP_WAIT: Duration = Duration::from_secs(4 * 60);

/// The default port of the CLI (`127.0.0.1:7878`); [`HostConfig::default`] binds port 0.
pub const DEFAULT_PORT: u16 = 7878;

/// How the host's time advances.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TimeMode {
    /// The scheduler follows the wall clock (monotonic), `speed` times faster for the
    /// simulated learners.
    #[default]
    Real,
    /// Time moves only when [`crate::RunningHost::advance`] is called: whole runs are
    /// reproducible to the millisecond (tests).
    Manual,
}

/// Everything a host needs to start.
#[derive(Clone)]
pub struct HostConfig {
    /// Where to listen; `127.0.0.1:0` picks a free port.
    pub bind: SocketAddr,
    /// Accepted bearer tokens (at least one).
    pub tokens: Vec<String>,
    /// Simulated learners per class (they join at the class's first assignment).
    pub learners: usize,
    /// Speed-up of the simulated learners and their deadlines (1.0 = realistic).
    pub speed: f64,
    /// How long a help request (`assist`) stays open, in real time. `None`: the simulated
    /// [`crate::sim::ASSIST_DEADLINE_MS`] scaled by `speed` like every other delay. The demo sets
    /// it: its learners work faster than real ones, but the teacher crossing the room does not.
    pub help_wait: Option<Duration>,
    pub seed: u64,
    /// The event log file (JSON lines). With it, a restart keeps classes, assignments, open
    /// calls and every frame with its `seq`.
    pub log_path: Option<PathBuf>,
    pub faults: Faults,
    /// Interval of `: ping` comments on idle feeds (the spec's bound is 15 s).
    pub ping_interval: Duration,
    /// Offer the optional room tools (`pause_class`, `resume_class`, `set_pacing`); off: a host
    /// with only the required tools, to show that a dashboard offers no control it lacks.
    pub room_tools: bool,
    /// Offer the optional `list_classes` (what `a2learn-teacher sync --all-classes` needs); off:
    /// a host without it, to show the follower's clear refusal.
    pub class_list: bool,
    /// Run the class simulation (off: a plain host whose feed carries only what tools and
    /// [`crate::RunningHost::emit_custom`] put there).
    pub simulate: bool,
    pub time: TimeMode,
    /// Anchors the time stamps (`at`, `deadline`, AG-UI `timestamp`); read once at start.
    pub clock: Arc<dyn Clock>,
    /// How often the scheduler catches up with the wall clock in [`TimeMode::Real`].
    pub tick: Duration,
}

impl std::fmt::Debug for HostConfig {
    // Tokens are never printed, not even in a debug dump.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostConfig")
            .field("bind", &self.bind)
            .field("tokens", &format_args!("[{} redacted]", self.tokens.len()))
            .field("learners", &self.learners)
            .field("speed", &self.speed)
            .field("help_wait", &self.help_wait)
            .field("seed", &self.seed)
            .field("log_path", &self.log_path)
            .field("faults", &self.faults)
            .field("ping_interval", &self.ping_interval)
            .field("simulate", &self.simulate)
            .field("room_tools", &self.room_tools)
            .field("class_list", &self.class_list)
            .field("time", &self.time)
            .finish_non_exhaustive()
    }
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig {
            bind: SocketAddr::from((Ipv4Addr::LOCALHOST, 0)),
            tokens: Vec::new(),
            learners: 24,
            speed: 1.0,
            help_wait: None,
            seed: 1,
            log_path: None,
            faults: Faults::default(),
            ping_interval: Duration::from_secs(10),
            simulate: true,
            room_tools: true,
            class_list: true,
            time: TimeMode::Real,
            clock: Arc::new(SystemClock),
            tick: Duration::from_millis(50),
        }
    }
}

impl HostConfig {
    /// A host on a free local port with one token.
    pub fn local(token: impl Into<String>) -> Self {
        HostConfig {
            tokens: vec![token.into()],
            ..HostConfig::default()
        }
    }

    /// The desktop app's demo: [`DEMO_SPEED`], and help requests that wait [`DEMO_HELP_WAIT`].
    pub fn demo(token: impl Into<String>) -> Self {
        HostConfig {
            speed: DEMO_SPEED,
            help_wait: Some(DEMO_HELP_WAIT),
            ..HostConfig::local(token)
        }
    }
}

/// Fault switches. Every `*_every` counts frames; `0` is off. Changeable at run time
/// ([`crate::RunningHost::set_faults`]); a connection reads them before each frame.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Faults {
    /// Drop a feed connection (no `RUN_FINISHED`, the body just breaks off) after every N
    /// data frames it sent.
    pub drop_every: u32,
    /// Send every Nth data frame twice (same `id`, same data).
    pub duplicate_every: u32,
    /// After every N simulated frames, append a frame that is not valid AG-UI (not JSON, no
    /// `type`, or a broken a2learn payload), in turn. Logged with rule `bad-frame`.
    pub malformed_every: u32,
    /// After every N simulated frames, append a contract-breaking payload, cycling through
    /// [`crate::Injection::CONTRACT`]; logged with the rule that must reject it.
    pub contract_break_every: u32,
    /// After every N data frames a connection sent, send nothing (not even a ping) for
    /// `stall_ms`.
    pub stall_every: u32,
    pub stall_ms: u64,
    /// Every `at` and `deadline` on the feed and in `get_pathway_results` written in this
    /// offset from UTC, in minutes (`330` is `+05:30`): the same instants, valid RFC 3339, the
    /// form a writer should not send but a reader accepts (`contract.md` §1). `0` is off.
    pub utc_offset_minutes: i16,

    // Broken hosts: each switch breaks exactly one rule of `pathway-host.md`, so that
    // `a2learn-teacher host check` can be shown to fail exactly the check of that rule.
    /// Accept any token, or none (breaks the 401 rule).
    pub accept_any_token: bool,
    /// Tools neither listed nor callable (e.g. a required one).
    pub missing_tools: Vec<String>,
    /// `list_pathways` also lists a pathway whose step builds on a widget it does not have.
    pub broken_catalog: bool,
    /// The feed of an unknown class answers 200 with an opening, not 404.
    pub unknown_class_open: bool,
    /// The feed answers with `Content-Type: text/plain`.
    pub plain_content_type: bool,
    /// A connection opens with `RUN_STARTED` but no `STATE_SNAPSHOT`.
    pub no_snapshot: bool,
    /// Every Nth data frame a connection sends goes without its `id:` line.
    pub no_id_every: u32,
    /// A connection that resumes with `Last-Event-ID` skips the first frame after it.
    pub resume_gap: bool,
    /// `get_pathway_results` leaves out the first completion the feed carried.
    pub results_drop_first: bool,
    /// `create_class` returns an empty join code.
    pub no_join_code: bool,
    /// `assign_pathway` returns a new id each time (not idempotent).
    pub assign_not_idempotent: bool,
    /// `respond` refuses every answer with `invalid`.
    pub respond_refuses: bool,
}
