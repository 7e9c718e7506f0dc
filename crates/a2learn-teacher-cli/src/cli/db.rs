//! `a2learn-teacher db …`: look inside the local database.

use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;

use a2learn_teacher::{Store, SystemClock};

#[derive(Debug, clap::Subcommand)]
pub enum DbCommand {
    /// Print the database path, schema version and the row count of every table.
    Info {
        /// Print JSON instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Rebuild the derived tables (results, struggles, calls) from the ledger.
    Rebuild,
}

pub fn run(db: Option<&Path>, command: DbCommand) -> anyhow::Result<ExitCode> {
    let path = a2learn_teacher::paths::default_db_path(db)
        .context("no database path: pass --db PATH or set A2LEARN_TEACHER_DB")?;
    let runtime = super::runtime()?;
    runtime.block_on(async {
        let store = Store::open(&path, Arc::new(SystemClock)).await?;
        match command {
            DbCommand::Info { json } => {
                let info = store.info().await?;
                if json {
                    println!("{}", serde_json::to_string_pretty(&info)?);
                } else {
                    println!("path: {}", info.path.display());
                    println!("schema version: {}", info.schema_version);
                    println!("rows:");
                    for (table, count) in &info.row_counts {
                        println!("  {table}: {count}");
                    }
                }
            }
            DbCommand::Rebuild => {
                let out = store.rebuild().await?;
                println!(
                    "rebuilt from {} ledger events and {} backfilled results",
                    out.ledger, out.backfill
                );
            }
        }
        store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}
