//! `a2learn-teacher host`: the reference host as a command. The teacher CLI
//! (`crates/a2learn-teacher-cli`) owns the binary and calls [`run`] with these arguments.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::config::{DEFAULT_PORT, DEMO_HELP_WAIT, DEMO_SPEED, Faults, HostConfig};

/// Arguments of the host command.
#[derive(Debug, Clone, clap::Args)]
pub struct HostArgs {
    /// Simulated learners per class (they join at the class's first assignment).
    #[arg(long, default_value_t = 24)]
    pub learners: usize,
    /// Speed-up of the simulated learners and their deadlines (default 1, or the demo's).
    #[arg(long)]
    pub speed: Option<f64>,
    /// Seed of the simulation: the same seed and the same calls give the same class.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Address to listen on.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], DEFAULT_PORT)))]
    pub bind: SocketAddr,
    /// Accepted bearer token (repeatable). Default: one random token, printed.
    #[arg(long = "token", env = "A2LEARN_HOST_TOKEN")]
    pub tokens: Vec<String>,
    /// Event log file (JSON lines); a restart with the same file keeps every seq.
    #[arg(long)]
    pub log: Option<PathBuf>,
    /// Demo pace (speed 8 unless --speed is given; help requests wait 4 minutes unless
    /// --help-wait-secs is given).
    #[arg(long)]
    pub demo: bool,
    /// Seconds a help request waits for the teacher, in real time (default: 4 simulated minutes
    /// scaled by --speed; 240 with --demo).
    #[arg(long)]
    pub help_wait_secs: Option<u64>,
    /// Run no simulated learners.
    #[arg(long)]
    pub no_simulation: bool,
    /// Offer only the required tools (no pause_class, resume_class, set_pacing).
    #[arg(long)]
    pub no_room_tools: bool,
    /// Offer no list_classes (a follower with --all-classes then refuses this host).
    #[arg(long)]
    pub no_class_list: bool,
    /// Make no class at start (by default a host with no class makes one, assigns it every
    /// pathway and prints `class: ID`, so `sync --class ID` has a class to follow at once).
    #[arg(long)]
    pub no_class: bool,
    /// Seconds between `: ping` comments on idle feeds.
    #[arg(long, default_value_t = 10)]
    pub ping_secs: u64,
    /// Fault: drop a feed connection after every N frames.
    #[arg(long, default_value_t = 0)]
    pub fault_drop_every: u32,
    /// Fault: send every Nth frame twice.
    #[arg(long, default_value_t = 0)]
    pub fault_duplicate_every: u32,
    /// Fault: after every N simulated frames, append one that is not valid AG-UI.
    #[arg(long, default_value_t = 0)]
    pub fault_malformed_every: u32,
    /// Fault: after every N simulated frames, append a contract-breaking payload.
    #[arg(long, default_value_t = 0)]
    pub fault_contract_every: u32,
    /// Fault: after every N frames a connection sent, stall it.
    #[arg(long, default_value_t = 0)]
    pub fault_stall_every: u32,
    /// Fault: how long a stall lasts, in milliseconds.
    #[arg(long, default_value_t = 20_000)]
    pub fault_stall_ms: u64,
    /// Fault: write every `at` and `deadline` in this offset from UTC, in minutes (330 is
    /// +05:30): the same instants, in a form readers accept and writers should not send.
    #[arg(long, default_value_t = 0, allow_negative_numbers = true)]
    pub fault_utc_offset_minutes: i16,
    /// Break one rule of the host interface (repeatable): what `a2learn-teacher host check`
    /// must catch. A required tool is broken by `--break missing-tool` (get_pathway_results).
    #[arg(long = "break", value_enum)]
    pub broken: Vec<BrokenRule>,
}

/// The rules a host can be told to break, one switch of [`Faults`] each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BrokenRule {
    /// Accept any token, or none.
    NoAuth,
    /// Offer no `get_pathway_results`.
    MissingTool,
    /// List a pathway whose step builds on a widget it does not have.
    BadCatalog,
    /// Open a feed for a class that does not exist.
    UnknownClassOpens,
    /// Send the feed as `text/plain`.
    ContentType,
    /// Open a feed without its `STATE_SNAPSHOT`.
    NoSnapshot,
    /// Send every 5th data frame without its `id:` line.
    MissingIds,
    /// Send every 5th data frame twice (a repeated seq).
    RepeatedSeq,
    /// Skip the first frame after `Last-Event-ID` on resume.
    ResumeGap,
    /// Leave the first completion out of `get_pathway_results`.
    ResultsMismatch,
    /// Create classes with an empty join code.
    NoJoinCode,
    /// Return a new assignment id for a repeated `assign_pathway`.
    AssignNotIdempotent,
    /// Refuse every `respond`.
    RespondRefuses,
}

impl BrokenRule {
    /// Turns this rule's switch on in `faults`.
    pub fn apply(self, faults: &mut Faults) {
        match self {
            Self::NoAuth => faults.accept_any_token = true,
            Self::MissingTool => faults.missing_tools.push("get_pathway_results".into()),
            Self::BadCatalog => faults.broken_catalog = true,
            Self::UnknownClassOpens => faults.unknown_class_open = true,
            Self::ContentType => faults.plain_content_type = true,
            Self::NoSnapshot => faults.no_snapshot = true,
            Self::MissingIds => faults.no_id_every = 5,
            Self::RepeatedSeq => faults.duplicate_every = 5,
            Self::ResumeGap => faults.resume_gap = true,
            Self::ResultsMismatch => faults.results_drop_first = true,
            Self::NoJoinCode => faults.no_join_code = true,
            Self::AssignNotIdempotent => faults.assign_not_idempotent = true,
            Self::RespondRefuses => faults.respond_refuses = true,
        }
    }
}

impl HostArgs {
    fn faults(&self) -> Faults {
        let mut faults = Faults {
            drop_every: self.fault_drop_every,
            duplicate_every: self.fault_duplicate_every,
            malformed_every: self.fault_malformed_every,
            contract_break_every: self.fault_contract_every,
            stall_every: self.fault_stall_every,
            stall_ms: self.fault_stall_ms,
            utc_offset_minutes: self.fault_utc_offset_minutes,
            ..Faults::default()
        };
        for rule in &self.broken {
            rule.apply(&mut faults);
        }
        faults
    }

    /// The host configuration these arguments describe (tokens as given; see [`run`]).
    pub fn config(&self) -> HostConfig {
        HostConfig {
            bind: self.bind,
            tokens: self.tokens.clone(),
            learners: self.learners,
            speed: self
                .speed
                .unwrap_or(if self.demo { DEMO_SPEED } else { 1.0 }),
            help_wait: match self.help_wait_secs {
                Some(secs) => Some(Duration::from_secs(secs)),
                None if self.demo => Some(DEMO_HELP_WAIT),
                None => None,
            },
            seed: self.seed,
            log_path: self.log.clone(),
            faults: self.faults(),
            ping_interval: Duration::from_secs(self.ping_secs.max(1)),
            simulate: !self.no_simulation,
            room_tools: !self.no_room_tools,
            class_list: !self.no_class_list,
            ..HostConfig::default()
        }
    }
}

/// A random token: 32 lowercase letters from the OS's generator.
pub fn random_token() -> anyhow::Result<String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| anyhow::anyhow!("no randomness for a token: {e}"))?;
    Ok(bytes.iter().map(|b| char::from(b'a' + b % 26)).collect())
}

/// The title of the class a headless host makes for itself.
pub const HEADLESS_CLASS_TITLE: &str = "Headless class";

/// Starts the host, prints `host: URL`, one `token: T` line per token and one `class: ID` line
/// per class on stdout (making a class with every pathway assigned when the host has none,
/// unless `--no-class`), and runs until Ctrl-C (then stops in order: open feeds get
/// `RUN_FINISHED`).
pub async fn run(args: HostArgs) -> anyhow::Result<()> {
    let mut config = args.config();
    if config.tokens.is_empty() {
        config.tokens.push(random_token()?);
    }
    let tokens = config.tokens.clone();
    let host = crate::start(config)
        .await
        .context("starting the pathway host")?;
    // Printed for the person or script that started the host; never logged.
    println!("host: {}", host.url());
    for t in &tokens {
        println!("token: {t}");
    }
    let mut classes = host.class_ids();
    if classes.is_empty() && !args.no_class {
        let (class_id, _join_code) = host
            .create_class(HEADLESS_CLASS_TITLE)
            .map_err(|e| anyhow::anyhow!("making the headless class: {e}"))?;
        // Assigning a pathway is what brings the simulated learners in.
        for pathway in host.pathways() {
            host.assign(&class_id, &pathway.pathway_id, None, None)
                .map_err(|e| anyhow::anyhow!("assigning {}: {e}", pathway.pathway_id))?;
        }
        classes.push(class_id);
    }
    for class_id in &classes {
        println!("class: {class_id}");
    }
    tokio::signal::ctrl_c()
        .await
        .context("waiting for Ctrl-C")?;
    host.shutdown().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        host: HostArgs,
    }

    #[test]
    fn flags_map_to_the_config() {
        let cli = Cli::try_parse_from([
            "host",
            "--learners",
            "5",
            "--demo",
            "--token",
            "a",
            "--token",
            "b",
            "--fault-drop-every",
            "9",
            "--log",
            "x.jsonl",
            "--break",
            "resume-gap",
            "--break",
            "missing-tool",
            "--fault-utc-offset-minutes",
            "-90",
        ])
        .unwrap();
        let config = cli.host.config();
        assert_eq!(config.learners, 5);
        assert_eq!(config.speed, DEMO_SPEED);
        assert_eq!(config.help_wait, Some(DEMO_HELP_WAIT));
        assert_eq!(config.tokens, ["a", "b"]);
        assert_eq!(config.faults.drop_every, 9);
        assert!(config.faults.resume_gap);
        assert_eq!(config.faults.missing_tools, ["get_pathway_results"]);
        assert_eq!(config.faults.utc_offset_minutes, -90);
        assert!(
            !config.faults.no_snapshot,
            "only the rules named are broken"
        );
        assert_eq!(config.bind.port(), DEFAULT_PORT);
        assert!(config.bind.ip().is_loopback());
        let plain = Cli::try_parse_from(["host", "--speed", "3"])
            .unwrap()
            .host
            .config();
        assert_eq!(plain.speed, 3.0);
        assert_eq!(plain.help_wait, None, "scaled by the speed unless asked");
        let waited = Cli::try_parse_from(["host", "--demo", "--help-wait-secs", "90"])
            .unwrap()
            .host
            .config();
        assert_eq!(waited.help_wait, Some(Duration::from_secs(90)));
        assert!(plain.log_path.is_none());
        assert_ne!(random_token().unwrap(), random_token().unwrap());
    }
}
