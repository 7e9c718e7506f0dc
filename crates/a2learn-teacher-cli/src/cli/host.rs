//! `a2learn-teacher host`: run the reference host, or (`host check`) judge any host against the
//! host interface.

use std::process::ExitCode;

use clap::{Args, Subcommand};

use a2learn_teacher::host::check::{CheckOptions, check_host};

/// `host [FLAGS]` runs the reference host; `host check …` checks a host.
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct HostCommand {
    #[command(flatten)]
    pub run: pathway_host::cli::HostArgs,
    #[command(subcommand)]
    pub command: Option<HostSubcommand>,
}

#[derive(Debug, Subcommand)]
pub enum HostSubcommand {
    /// Check that a pathway host speaks the interface (`pathway-host.md`): one line per rule,
    /// `PASS|FAIL|SKIP <id> <what> (<section>) [— why]`. Exit 0 when no required check failed,
    /// 1 when one did, 2 when the host cannot be reached. Read-only unless --allow-writes.
    Check(CheckArgs),
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The host's base URL (e.g. http://127.0.0.1:7878).
    #[arg(long, value_name = "URL")]
    pub host: String,
    /// The bearer token (never printed).
    #[arg(
        long,
        env = "A2LEARN_HOST_TOKEN",
        hide_env_values = true,
        default_value = ""
    )]
    pub token: String,
    /// The class whose feed is read (default: the first that list_classes names, or with
    /// --allow-writes a throwaway class).
    #[arg(long = "class", value_name = "ID")]
    pub class_id: Option<String>,
    /// How long to watch the feed, and with --allow-writes to wait for a help request. 16 or
    /// more tells whether the host pings within the spec's 15 s.
    #[arg(long, default_value_t = 20)]
    pub seconds: u64,
    /// Create a throwaway class and exercise the tools that write (create_class, assign_pathway,
    /// claim, respond, and the room tools when offered).
    #[arg(long)]
    pub allow_writes: bool,
    /// Print `{host, checks: [{id, section, required, status, what, detail}], passed, failed,
    /// skipped}` instead of lines.
    #[arg(long)]
    pub json: bool,
}

pub fn run(command: HostCommand) -> anyhow::Result<ExitCode> {
    match command.command {
        None => {
            super::runtime()?.block_on(pathway_host::cli::run(command.run))?;
            Ok(ExitCode::SUCCESS)
        }
        Some(HostSubcommand::Check(args)) => check(args),
    }
}

fn check(args: CheckArgs) -> anyhow::Result<ExitCode> {
    let options = CheckOptions {
        host: args.host,
        token: args.token,
        class_id: args.class_id,
        seconds: args.seconds,
        allow_writes: args.allow_writes,
    };
    // The error (the host cannot be reached) goes out through `main`, with exit code 2.
    let report = super::runtime()?.block_on(check_host(&options))?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        for line in report.lines() {
            println!("{line}");
        }
    }
    Ok(if report.required_failed() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}
