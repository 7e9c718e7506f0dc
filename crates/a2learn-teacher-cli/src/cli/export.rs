//! `a2learn-teacher export`: one class (or one assignment) to one file, atomically.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Args;
use tokio_util::sync::CancellationToken;

use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::export::{
    ExportError, ExportRequest, Format, HOME_PAGE_SETTING, LAST_FOLDER_SETTING, export_to_path,
};

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The class to export.
    #[arg(long = "class", value_name = "ID")]
    pub class_id: String,
    /// Only this assignment (its pathway).
    #[arg(long = "assignment", value_name = "ID")]
    pub assignment_id: Option<String>,
    /// csv | standards-csv | standards-summary | jsonl | xapi | oneroster | knowledge-map
    #[arg(long, value_parser = parse_format)]
    pub format: Format,
    /// The file to write (replaced atomically when the export succeeds).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// Join learners' names from the local roster. The file then identifies students: keep it
    /// on this machine.
    #[arg(long)]
    pub identified: bool,
    /// The xAPI account homePage and root of activity IRIs (default: the stored setting, else
    /// https://a2learn.invalid).
    #[arg(long, value_name = "URL")]
    pub home_page: Option<String>,
    /// The smallest group a summary shows (5-30).
    #[arg(long, default_value_t = a2learn_teacher::progress::suppression::DEFAULT_K)]
    pub k: u32,
    /// Only the learners of this group of the class (groups are made in the app and kept in the
    /// teacher's own file); the summaries suppress its small figures as the class's.
    #[arg(long, value_name = "NAME")]
    pub group: Option<String>,
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::parse(text).ok_or_else(|| {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.as_str()).collect();
        format!("unknown format {text:?}; one of {}", names.join(", "))
    })
}

pub fn run(
    db: Option<&str>,
    home: Option<&std::path::Path>,
    args: ExportArgs,
) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async move {
        let clock: SharedClock = Arc::new(SystemClock);
        let store = super::open_with_home(db, home, clock).await?;
        let home_page = match args.home_page {
            Some(h) => h,
            None => store
                .setting(HOME_PAGE_SETTING)
                .await?
                .unwrap_or_else(|| a2learn_teacher::export::DEFAULT_HOME_PAGE.to_string()),
        };
        let req = ExportRequest {
            class_id: args.class_id,
            assignment_id: args.assignment_id,
            format: args.format,
            identified: args.identified,
            home_page,
            k: args.k,
            group: args.group,
        };
        if req.identified {
            eprintln!(
                "warning: this export names students (from the local roster); keep it on this machine"
            );
        }
        let cancel = CancellationToken::new();
        let watcher = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                watcher.cancel();
            }
        });
        let mut progress = |_| {};
        let result = export_to_path(&store, &req, &args.out, &mut progress, &cancel).await;
        let code = match result {
            Ok(summary) => {
                // A teacher's own folder is remembered in the teacher's file, not in a school's
                // shared store.
                let own_file = store.path().is_some();
                if let Some(folder) = summary
                    .path
                    .parent()
                    .and_then(|p| p.canonicalize().ok())
                    .filter(|_| own_file)
                {
                    let _ = store
                        .set_setting(LAST_FOLDER_SETTING, &folder.to_string_lossy())
                        .await;
                }
                println!(
                    "wrote {} ({} rows, {} bytes)",
                    summary.path.display(),
                    summary.rows,
                    summary.bytes
                );
                ExitCode::SUCCESS
            }
            // The linter's verdict is an answer, not a crash: its own exit code.
            Err(err @ ExportError::Privacy(_)) => {
                eprintln!("error: {err}");
                ExitCode::from(3)
            }
            Err(err) => return Err(err.into()),
        };
        store.close().await;
        Ok(code)
    })
}
