//! `a2learn-teacher db …`: look inside the local database, back it up, restore it.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

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
    /// Write a consistent copy of the database to a new file (safe while the app runs).
    Backup {
        /// The file to write; it must not exist yet.
        #[arg(long, value_name = "FILE")]
        out: PathBuf,
    },
    /// Give the space that migrations, rebuilds and deleted rows left free back to the disk
    /// (SQLite's VACUUM; the app's sync waits while it runs).
    Compact,
    /// Replace the database with a backup (close the app first). The current file is kept as
    /// `<name>.before-restore`.
    Restore {
        /// The backup to restore: a file made by `db backup` or one in `backups/`.
        #[arg(long, value_name = "FILE")]
        from: PathBuf,
    },
}

pub fn run(db: Option<&str>, command: DbCommand) -> anyhow::Result<ExitCode> {
    let location = super::location(db)?;
    let runtime = super::runtime()?;
    runtime.block_on(async {
        if let DbCommand::Restore { from } = &command {
            let path = super::file_only(
                db,
                "db restore",
                "restore a shared store with PostgreSQL's own tools (pg_restore)",
            )?;
            // The current file may be the damaged one: it is not opened before the swap.
            let restored = a2learn_teacher::store::restore(&path, from).await?;
            // Opening migrates an older backup (after backing it up) and proves it opens.
            let store = Store::open(&path, Arc::new(SystemClock)).await?;
            println!(
                "restored {} from {} (schema {})",
                path.display(),
                from.display(),
                restored.schema_version
            );
            if let Some(kept) = restored.kept {
                println!("the replaced file is kept as {}", kept.display());
            }
            store.close().await;
            return Ok(ExitCode::SUCCESS);
        }
        match command {
            DbCommand::Backup { .. } => {
                super::file_only(
                    db,
                    "db backup",
                    "back up a shared store with PostgreSQL's own tools (pg_dump)",
                )?;
            }
            DbCommand::Compact => {
                super::file_only(
                    db,
                    "db compact",
                    "PostgreSQL's autovacuum reuses the space; VACUUM FULL returns it to the disk",
                )?;
            }
            _ => {}
        }
        let store = Store::open_at(&location, Arc::new(SystemClock)).await?;
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
            DbCommand::Backup { out } => {
                store.backup_to(&out).await?;
                println!("backed up {location} to {}", out.display());
            }
            DbCommand::Compact => {
                let done = store.compact().await?;
                let mb = |bytes: u64| bytes as f64 / 1_000_000.0;
                println!(
                    "compacted {location}: {:.1} MB before, {:.1} MB after",
                    mb(done.before_bytes),
                    mb(done.after_bytes)
                );
            }
            DbCommand::Restore { .. } => {}
        }
        store.close().await;
        Ok(ExitCode::SUCCESS)
    })
}
