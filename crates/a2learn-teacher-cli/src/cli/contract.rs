//! `a2learn-teacher contract …`: check, project and describe contract messages.
//!
//! A thin shell over `a2learn_contract::check` (the line logic and the report format live
//! there, unit-tested); this module only reads files and prints.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use a2learn_contract::Registry;
use a2learn_contract::Transport;
use a2learn_contract::check::{Checker, ProjectLineError, Projector};
use anyhow::Context;

/// The `contract` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum ContractCommand {
    /// Check a file of messages, one per line, in AG-UI, A2UI or MCP Apps (auto-detected).
    ///
    /// Prints `LINE ok`, `LINE ok (ignored: REASON)` or `LINE rejected RULE-ID: MESSAGE` for
    /// each non-blank line, then `checked N: A accepted, R rejected`; exits 1 if any line
    /// was rejected. Sequence rules apply across the lines of the file.
    Check {
        /// The registry file: `{"entries": [registry entries]}`.
        #[arg(long, value_name = "REG.json")]
        registry: PathBuf,
        /// The messages, one per line; `-` for standard input.
        file: PathBuf,
    },
    /// Print the projection of each line into another transport, one per line.
    ///
    /// Lines that are not contract messages are skipped with a note on stderr; a line that
    /// does not parse or cannot be projected is reported on stderr and makes the exit code 1.
    Project {
        /// The transport to project into.
        #[arg(long, value_parser = parse_transport)]
        to: Transport,
        /// The messages, one per line; `-` for standard input.
        file: PathBuf,
    },
    /// Print the JSON Schema of the canonical payloads.
    Schema,
    /// Translate another project's messages into contract messages (AG-UI, one per line) that
    /// `contract check` passes: `--dialect ile` reads the upstream project's chat reports
    /// (`ui/update-model-context` with a fenced result block) and telemetry batches (`POST
    /// /api/telemetry` bodies), one JSON document per line.
    ///
    /// A line that has no contract form is reported on stderr with why, and makes the exit
    /// code 1; the lines after it are still translated.
    Import(ImportArgs),
}

/// The dialects `contract import` reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Dialect {
    /// adamstankiewicz/interactive-learning-experiences
    Ile,
}

#[derive(Debug, clap::Args)]
pub struct ImportArgs {
    #[arg(long, value_enum)]
    pub dialect: Dialect,
    /// The file that keeps the secret of the learners' pseudonyms (a keyed hash of the
    /// upstream's student id; created on first use, readable by this user only). The same file
    /// gives the same pseudonyms; without it, each run makes new ones.
    #[arg(long, value_name = "PATH")]
    pub key_file: Option<PathBuf>,
    /// The time of events that carry none (a chat report; a telemetry batch's events are placed
    /// after it by their `elapsedMs`), RFC 3339. Default: now.
    #[arg(long, value_name = "TIME")]
    pub at: Option<String>,
    /// The messages, one JSON document per line; `-` for standard input.
    pub file: PathBuf,
}

fn parse_transport(s: &str) -> Result<Transport, String> {
    s.parse()
}

pub fn run(command: ContractCommand) -> anyhow::Result<ExitCode> {
    match command {
        ContractCommand::Check { registry, file } => check(&registry, &file),
        ContractCommand::Project { to, file } => project(to, &file),
        ContractCommand::Import(args) => super::import::run(&args),
        ContractCommand::Schema => {
            print!("{}", a2learn_contract::schema::json_schema_string());
            Ok(ExitCode::SUCCESS)
        }
    }
}

pub(crate) fn read_input(file: &Path) -> anyhow::Result<String> {
    if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading standard input")?;
        return Ok(text);
    }
    std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))
}

fn check(registry: &Path, file: &Path) -> anyhow::Result<ExitCode> {
    let registry_text = std::fs::read_to_string(registry)
        .with_context(|| format!("reading {}", registry.display()))?;
    let registry = Registry::from_json(&registry_text)
        .map_err(|e| anyhow::anyhow!("{}: {} ({})", registry.display(), e, e.rule_id()))?;
    let text = read_input(file)?;
    let mut checker = Checker::new(registry);
    let mut out = std::io::stdout().lock();
    for (i, line) in text.lines().enumerate() {
        if let Some(report) = checker.check_line(i + 1, line) {
            writeln!(out, "{report}")?;
        }
    }
    let summary = checker.summary();
    writeln!(out, "{summary}")?;
    Ok(if summary.rejected > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

fn project(to: Transport, file: &Path) -> anyhow::Result<ExitCode> {
    let text = read_input(file)?;
    let mut projector = Projector::new(to);
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for (i, line) in text.lines().enumerate() {
        match projector.project_line(line) {
            None => {}
            Some(Ok(projected)) => writeln!(out, "{projected}")?,
            // Not a contract message (another event type, an unknown name): nothing to
            // project, and not an error.
            Some(Err(ProjectLineError::NotContract(reason))) => {
                eprintln!("line {}: skipped: {reason}", i + 1);
            }
            Some(Err(e)) => {
                failed = true;
                eprintln!("line {}: {e}", i + 1);
            }
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The workspace's conformance fixtures (tests/fixtures/contract at the repository root).
    fn fixtures() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/contract")
    }

    fn check_file(rel: &str) -> ExitCode {
        run(ContractCommand::Check {
            registry: fixtures().join("registry.json"),
            file: fixtures().join(rel),
        })
        .unwrap()
    }

    #[test]
    fn check_exits_1_only_when_a_line_is_rejected() {
        assert_eq!(
            check_file("agui/sequences/valid/class-feed-with-host-events.jsonl"),
            ExitCode::SUCCESS
        );
        assert_eq!(
            check_file("mcp-apps/sequences/invalid/second-completion--same-run.jsonl"),
            ExitCode::FAILURE
        );
    }

    #[test]
    fn project_exits_1_when_a_line_cannot_be_projected() {
        let project = |to, rel: &str| {
            run(ContractCommand::Project {
                to,
                file: fixtures().join(rel),
            })
            .unwrap()
        };
        assert_eq!(
            project(
                Transport::A2ui,
                "agui/sequences/valid/class-feed-with-host-events.jsonl"
            ),
            ExitCode::SUCCESS
        );
        // An A2UI response has no `at`, which AG-UI requires.
        let fixture =
            std::fs::read_to_string(fixtures().join("a2ui/assist/valid/response-value.json"))
                .unwrap();
        let line =
            serde_json::to_string(&serde_json::from_str::<serde_json::Value>(&fixture).unwrap())
                .unwrap();
        let file = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(file.path(), format!("{line}\n")).unwrap();
        let to_agui = run(ContractCommand::Project {
            to: Transport::Agui,
            file: file.path().to_owned(),
        })
        .unwrap();
        assert_eq!(to_agui, ExitCode::FAILURE);
        let to_a2ui = run(ContractCommand::Project {
            to: Transport::A2ui,
            file: file.path().to_owned(),
        })
        .unwrap();
        assert_eq!(to_a2ui, ExitCode::SUCCESS);
    }

    #[test]
    fn a_missing_registry_is_an_error_not_a_verdict() {
        let result = run(ContractCommand::Check {
            registry: fixtures().join("no-such-registry.json"),
            file: fixtures().join("registry.json"),
        });
        assert!(result.is_err());
    }
}
