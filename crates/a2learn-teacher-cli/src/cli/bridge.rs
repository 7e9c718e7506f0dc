//! `a2learn-teacher bridge ile`: serve an upstream deployment's database as a pathway host, so
//! that `sync` and the app follow its shared pathways like any class.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args, Subcommand};

#[derive(Debug, Subcommand)]
pub enum BridgeCommand {
    /// The upstream project (interactive-learning-experiences): its Supabase PostgreSQL, read-only.
    /// Prints `host: URL` and `token: T`; runs until interrupted. See docs/bridge-ile.md.
    Ile(IleArgs),
}

#[derive(Debug, Args)]
pub struct IleArgs {
    /// The deployment's database, e.g. postgres://a2learn_reader@db.school.example/postgres
    /// (a role that can only read, see docs/bridge-ile.md).
    #[arg(
        long,
        value_name = "URL",
        env = "A2LEARN_ILE_SOURCE",
        hide_env_values = true
    )]
    pub source: String,
    /// Where to listen.
    #[arg(long, default_value_t = SocketAddr::from(([127, 0, 0, 1], 7879)))]
    pub listen: SocketAddr,
    /// The bearer token dashboards use (default: a random one, printed).
    #[arg(long, env = "A2LEARN_HOST_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
    /// The file that keeps the learners' pseudonym secret (created on first use, readable by
    /// this user only): the same file, the same pseudonyms after a restart.
    #[arg(long, value_name = "PATH", default_value = "ile-bridge.key")]
    pub key_file: PathBuf,
}

pub fn run(command: BridgeCommand) -> anyhow::Result<ExitCode> {
    let BridgeCommand::Ile(args) = command;
    let token = match args.token {
        Some(t) => t,
        None => pathway_host::cli::random_token()?,
    };
    let key = super::import::key_from(&args.key_file)?;
    super::runtime()?.block_on(async move {
        let bridge = ile_bridge::start(ile_bridge::BridgeConfig {
            source: args.source,
            bind: args.listen,
            tokens: vec![token.clone()],
            key,
            poll: Duration::from_millis(500),
            ping_interval: Duration::from_secs(10),
        })
        .await
        .context("starting the bridge")?;
        // Printed for the person or script that started it; never logged.
        println!("host: {}", bridge.url());
        println!("token: {token}");
        tokio::signal::ctrl_c()
            .await
            .context("waiting for Ctrl-C")?;
        bridge.shutdown().await;
        Ok(ExitCode::SUCCESS)
    })
}
