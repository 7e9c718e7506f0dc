//! `a2learn-teacher contract …`: check, project and describe contract messages.

use std::process::ExitCode;

/// The `contract` subcommands.
#[derive(Debug, clap::Subcommand)]
pub enum ContractCommand {
    /// Print the JSON Schema of the canonical payloads.
    Schema,
}

pub fn run(command: ContractCommand) -> anyhow::Result<ExitCode> {
    match command {
        ContractCommand::Schema => {
            anyhow::bail!("not built yet")
        }
    }
}
