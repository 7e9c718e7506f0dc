//! The `a2learn-teacher` command line. Each subcommand group lives in its own module; `main`
//! only parses, sets up logging and dispatches.

mod bridge;
pub mod contract;
mod db;
mod export;
mod host;
mod import;
mod report;
mod sync;

use std::path::PathBuf;
use std::process::ExitCode;

use a2learn_teacher::store::Location;
use clap::{Parser, Subcommand};

/// a2learn Teacher: follow a class's a2learn pathways, answer help requests, export results.
#[derive(Debug, Parser)]
#[command(name = "a2learn-teacher", version, about, propagate_version = true)]
pub struct Cli {
    /// The database: a local file, or a school's shared store as a postgres:// URL (`sync`,
    /// `db info|rebuild`, `report` and `export`). Default: $A2LEARN_TEACHER_DB, else the file
    /// in the platform data folder.
    #[arg(long, global = true, value_name = "PATH|URL")]
    pub db: Option<String>,

    /// With a postgres:// --db: the teacher's own file, where names (rosters) live and stay;
    /// `export` and `report` read names from it (`--identified`, and the privacy scan of a
    /// default file), the shared store never holds one.
    #[arg(long, global = true, value_name = "PATH")]
    pub home: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Inspect, rebuild, back up or restore the local database.
    Db {
        #[command(subcommand)]
        command: db::DbCommand,
    },
    /// Follow a class's feed from a pathway host into the local database, until interrupted.
    Sync(sync::SyncArgs),
    /// Run the reference pathway host (the demo and test host) until interrupted; or, with
    /// `check`, check that any host speaks the host interface.
    Host(host::HostCommand),
    /// Measure the pipeline against the raw limit of this machine, in one run.
    Bench {
        #[command(subcommand)]
        command: BenchCommand,
    },
    /// Export a class's results to one file (anonymous unless --identified).
    Export(export::ExportArgs),
    /// The after-class report of a class: steps, mastery, follow-ups (JSON or printable HTML).
    Report(report::ReportArgs),
    /// Serve another project's classes as a pathway host (`bridge ile`: the upstream project's
    /// database, read-only).
    Bridge {
        #[command(subcommand)]
        command: bridge::BridgeCommand,
    },
    /// Check, project and describe a2learn contract messages.
    Contract {
        #[command(subcommand)]
        command: contract::ContractCommand,
    },
}

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Replay a simulated class's feed through the pipeline, beside batched raw inserts.
    Ingest(crate::bench::BenchArgs),
    /// Every class view (grid, mastery, who needs me, reports, maps) for one class among
    /// millions of results, the few-statement ones beside their raw read limits.
    Views(crate::bench::BenchArgs),
    /// CSV and xAPI export rates over one class of a million results.
    Export(crate::bench::BenchArgs),
    /// Latency from the host emitting an event to the app's change notification.
    Live(crate::bench::BenchArgs),
    /// Peak memory (RSS) of a sync child replaying a long feed.
    Memory(crate::bench::BenchArgs),
    /// Ingest through `bridge ile` (an upstream class made on --postgres) beside the reference
    /// host's.
    Bridge(crate::bench::BenchArgs),
    /// Everything above, in one run.
    All(crate::bench::BenchArgs),
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    a2learn_logging::init_logging();
    match run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", error_text(&err));
            ExitCode::from(2)
        }
    }
}

/// The error and its causes on one line, each cause once: most of the core's errors already
/// name their cause, and sqlx's repeat theirs, so `{:#}` would say the same thing three times.
fn error_text(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Db { command } => db::run(cli.db.as_deref(), command),
        Command::Sync(args) => sync::run(cli.db.as_deref(), args),
        Command::Host(command) => host::run(command),
        Command::Bench { command } => {
            use crate::bench::Which;
            let (which, args) = match command {
                BenchCommand::Ingest(a) => (Which::Ingest, a),
                BenchCommand::Views(a) => (Which::Views, a),
                BenchCommand::Export(a) => (Which::Export, a),
                BenchCommand::Live(a) => (Which::Live, a),
                BenchCommand::Memory(a) => (Which::Memory, a),
                BenchCommand::Bridge(a) => (Which::Bridge, a),
                BenchCommand::All(a) => (Which::All, a),
            };
            runtime()?.block_on(crate::bench::run(which, &args.options()))?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Contract { command } => contract::run(command),
        Command::Bridge { command } => bridge::run(command),
        Command::Export(args) => export::run(cli.db.as_deref(), cli.home.as_deref(), args),
        Command::Report(args) => report::run(cli.db.as_deref(), cli.home.as_deref(), args),
    }
}

/// The store a command works on: `--db`, else `A2LEARN_TEACHER_DB`, else the platform file.
pub(crate) fn location(db: Option<&str>) -> anyhow::Result<Location> {
    Ok(a2learn_teacher::paths::default_db_location(db)?)
}

/// The store a command that reads names works on: `--db` as [`location`] finds it, with the
/// teacher's file `home` beside a shared store (see [`Store::with_home`]).
pub(crate) async fn open_with_home(
    db: Option<&str>,
    home: Option<&std::path::Path>,
    clock: a2learn_teacher::clock::SharedClock,
) -> anyhow::Result<a2learn_teacher::Store> {
    let location = location(db)?;
    let Some(home) = home else {
        return Ok(a2learn_teacher::Store::open_at(&location, clock).await?);
    };
    if let Location::Sqlite(path) = &location {
        anyhow::bail!(
            "--home goes with a shared store (--db postgres://…); the file {} keeps its names itself",
            path.display()
        );
    }
    let shared = a2learn_teacher::Store::open_at(&location, clock.clone()).await?;
    let home = match a2learn_teacher::Store::open(home, clock).await {
        Ok(home) => home,
        Err(e) => {
            shared.close().await;
            return Err(e.into());
        }
    };
    Ok(shared.with_home(home)?)
}

/// The file of a command that works on a SQLite file only; a shared store's URL is refused with
/// `instead`, what to do there.
pub(crate) fn file_only(db: Option<&str>, command: &str, instead: &str) -> anyhow::Result<PathBuf> {
    match location(db)? {
        Location::Sqlite(path) => Ok(path),
        Location::Postgres(url) => {
            anyhow::bail!(
                "`{command}` works on a SQLite file, not on the shared store at {url}: {instead}"
            )
        }
    }
}

/// A tokio runtime for one CLI command.
pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    Ok(tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?)
}
