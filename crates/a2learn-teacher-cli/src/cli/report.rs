//! `a2learn-teacher report`: the after-class report of a class (or one assignment), as JSON or
//! as a printable, self-contained HTML page per assignment, written atomically.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use a2learn_i18n::{Lang, words};
use clap::{Args, ValueEnum};

use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::export::ExportError;
use a2learn_teacher::views::ViewError;
use a2learn_teacher::views::report::{
    ReportNames, ReportRequest, report, to_html, write_atomically,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    Json,
    Html,
}

#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The class to report on.
    #[arg(long = "class", value_name = "ID")]
    pub class_id: String,
    /// Only this assignment.
    #[arg(long = "assignment", value_name = "ID")]
    pub assignment_id: Option<String>,
    /// json | html (one printable page per assignment, no script, no remote resource)
    #[arg(long, value_enum)]
    pub format: ReportFormat,
    /// The file to write (replaced atomically when the report is made).
    #[arg(long, value_name = "PATH")]
    pub out: PathBuf,
    /// Name learners from the local roster. The file then identifies students: keep it on this
    /// machine.
    #[arg(long)]
    pub identified: bool,
    /// Only the learners of this group of the class (groups are made in the app, and kept in
    /// the teacher's own file).
    #[arg(long, value_name = "NAME")]
    pub group: Option<String>,
    /// The language of an HTML report: en | es | ar (default: the system's, English when it
    /// is none of these).
    #[arg(long, value_name = "LANG", value_parser = parse_lang)]
    pub lang: Option<Lang>,
}

fn parse_lang(tag: &str) -> Result<Lang, String> {
    Lang::from_tag(tag).ok_or_else(|| format!("no language {tag:?}: choose en, es or ar"))
}

pub fn run(
    db: Option<&str>,
    home: Option<&std::path::Path>,
    args: ReportArgs,
) -> anyhow::Result<ExitCode> {
    super::runtime()?.block_on(async move {
        let clock: SharedClock = Arc::new(SystemClock);
        let store = super::open_with_home(db, home, clock).await?;
        let req = ReportRequest {
            class_id: args.class_id,
            assignment_id: args.assignment_id,
            names: if args.identified {
                ReportNames::Identified
            } else {
                ReportNames::Anonymous
            },
            group: args.group,
        };
        if args.identified {
            eprintln!(
                "warning: this report names students (from the local roster); keep it on this machine"
            );
        }
        let made = report(&store, &req).await;
        store.close().await;
        let view = match made {
            Ok(v) => v,
            // The privacy scan's verdict is an answer, not a crash: the export's exit code.
            Err(ViewError::Export(err @ ExportError::Privacy(_))) => {
                eprintln!("error: {err}");
                return Ok(ExitCode::from(3));
            }
            Err(err) => return Err(err.into()),
        };
        let bytes = match args.format {
            ReportFormat::Json => {
                let mut text = serde_json::to_string_pretty(&view)?;
                text.push('\n');
                text.into_bytes()
            }
            ReportFormat::Html => {
                to_html(&view, words(args.lang.unwrap_or_else(Lang::from_env))).into_bytes()
            }
        };
        let written = write_atomically(&args.out, &bytes)?;
        println!(
            "wrote {} ({} assignments, {} bytes)",
            args.out.display(),
            view.assignments.len(),
            written
        );
        Ok(ExitCode::SUCCESS)
    })
}
