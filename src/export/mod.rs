//! Exports of a whole class (or one assignment) to one file: CSV per learner x step, CSV per
//! learner x standard, a per-standard class summary with small-cell suppression, JSON lines of
//! the stored contract payloads, xAPI statements, and a OneRoster 1.1 results bundle (a zip).
//!
//! Rows stream from SQLite to the writer (a million results never sit in memory). Every default
//! export carries anonymous ids only and is scanned, field by field, for roster names and e-mail
//! addresses ([`crate::privacy`]) while it is written to a temporary file beside the target; a
//! hit, an error or a cancel drops the temporary file, so nothing ever appears under the chosen
//! name unless the whole export passed. An identified export (names joined from the local roster
//! through [`crate::roster`]) is a separate, explicit request (`identified: true`) and is not
//! scanned for names, since it carries them by design.

mod common;
mod jsonl;
mod knowledge;
mod oneroster;
mod standards;
mod steps_csv;
mod xapi;

use std::io::{Seek, Write};
use std::path::{Path, PathBuf};

use tokio_util::sync::CancellationToken;

use crate::groups::Scope;
use crate::privacy::{PrivacyHit, Scanner};
use crate::roster::Roster;
use crate::store::engine::{by_code_point, on_pool};
use crate::store::{Store, StoreError};

/// The xAPI `homePage` (and the root of activity IRIs) unless the teacher sets one.
pub const DEFAULT_HOME_PAGE: &str = "https://a2learn.invalid";
/// The settings key holding the teacher's xAPI home page.
pub const HOME_PAGE_SETTING: &str = "export.home_page";
/// The settings key holding the folder of the last export (the save dialog opens there).
pub const LAST_FOLDER_SETTING: &str = "export.last_folder";
/// Progress is reported at most once per this many rows (and at the end).
const PROGRESS_EVERY: u64 = 2_000;

/// The export formats.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize, specta::Type,
)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// CSV, one row per learner x step (not-started steps included, with empty result fields).
    Csv,
    /// CSV, one row per learner x standard with evidence counts.
    StandardsCsv,
    /// CSV, one row per standard for the class, small groups suppressed.
    StandardsSummary,
    /// JSON lines: the stored contract payloads, exactly as stored.
    Jsonl,
    /// xAPI 1.0.3 statements, one JSON array.
    Xapi,
    /// OneRoster 1.1 results bundle: a zip of manifest.csv, lineItems.csv, results.csv.
    Oneroster,
    /// JSON: the class's knowledge map (standards and misconceptions with per-state counts,
    /// small groups suppressed; prerequisite and sequence edges).
    KnowledgeMap,
}

impl Format {
    pub const ALL: [Format; 7] = [
        Format::Csv,
        Format::StandardsCsv,
        Format::StandardsSummary,
        Format::Jsonl,
        Format::Xapi,
        Format::Oneroster,
        Format::KnowledgeMap,
    ];

    /// Does the format carry learners at all (so an identified export can name them)?
    pub fn per_learner(self) -> bool {
        !matches!(self, Format::StandardsSummary | Format::KnowledgeMap)
    }

    /// The name used on the command line and over IPC.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Csv => "csv",
            Format::StandardsCsv => "standards-csv",
            Format::StandardsSummary => "standards-summary",
            Format::Jsonl => "jsonl",
            Format::Xapi => "xapi",
            Format::Oneroster => "oneroster",
            Format::KnowledgeMap => "knowledge-map",
        }
    }

    pub fn parse(text: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.as_str() == text)
    }

    /// The file extension the save dialog proposes.
    pub fn extension(self) -> &'static str {
        match self {
            Format::Csv | Format::StandardsCsv | Format::StandardsSummary => "csv",
            Format::Jsonl => "jsonl",
            Format::Xapi | Format::KnowledgeMap => "json",
            Format::Oneroster => "zip",
        }
    }
}

/// What to export.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportRequest {
    pub class_id: String,
    /// Only this assignment's pathway; `None` for everything the class has.
    pub assignment_id: Option<String>,
    pub format: Format,
    /// Join names from the local roster. Never the default.
    pub identified: bool,
    /// xAPI actor account `homePage` and root of the activity IRIs.
    pub home_page: String,
    /// Small-cell threshold for the summary.
    pub k: u32,
    /// Only the learners of this group of the class (`crate::groups`); `None` for everyone.
    pub group: Option<String>,
}

impl ExportRequest {
    /// A default (anonymous) export of a whole class.
    pub fn new(class_id: impl Into<String>, format: Format) -> Self {
        Self {
            class_id: class_id.into(),
            assignment_id: None,
            format,
            identified: false,
            home_page: DEFAULT_HOME_PAGE.to_string(),
            k: crate::progress::suppression::DEFAULT_K,
            group: None,
        }
    }
}

/// How far an export is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportProgress {
    pub rows_done: u64,
    /// The rows the export will write (counted before it starts).
    pub rows_total: u64,
}

/// What a finished export wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExportSummary {
    pub path: PathBuf,
    pub rows: u64,
    pub bytes: u64,
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("database error: {0}")]
    Sql(#[from] sqlx::Error),
    #[error("cannot write the export: {0}")]
    Io(#[from] std::io::Error),
    #[error("cannot write the zip: {0}")]
    Zip(#[from] zip::result::ZipError),
    #[error("cannot encode the export: {0}")]
    Csv(#[from] csv::Error),
    #[error("a stored payload is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// The linter found identifying text; nothing was written under the chosen name.
    #[error(transparent)]
    Privacy(#[from] PrivacyHit),
    #[error("the export was cancelled; nothing was written")]
    Cancelled,
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Invalid(String),
    /// The teacher's input refused, in words the window translates.
    #[error(transparent)]
    Said(#[from] crate::error::Said),
}

impl crate::error::Coded for ExportError {
    fn code(&self) -> crate::ErrorCode {
        use crate::ErrorCode;
        match self {
            ExportError::Store(StoreError::Invalid(_)) | ExportError::Invalid(_) => {
                ErrorCode::InvalidInput
            }
            ExportError::Privacy(_) => ErrorCode::PrivacyBlocked,
            ExportError::Cancelled => ErrorCode::Cancelled,
            ExportError::NotFound(_) => ErrorCode::NotFound,
            ExportError::Store(_) | ExportError::Sql(_) | ExportError::Io(_) => ErrorCode::Storage,
            ExportError::Zip(_) | ExportError::Csv(_) | ExportError::Json(_) => ErrorCode::Internal,
            ExportError::Said(s) => s.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            ExportError::Store(e) => e.localized(c),
            ExportError::Said(s) => Some(s.in_language(c)),
            ExportError::Cancelled => Some(c.t("error-export-cancelled")),
            _ => None,
        }
    }
}

impl From<csv::IntoInnerError<csv::Writer<&mut dyn Write>>> for ExportError {
    fn from(err: csv::IntoInnerError<csv::Writer<&mut dyn Write>>) -> Self {
        ExportError::Io(err.into_error())
    }
}

/// Checks and normalises an xAPI home page: an http(s) URL without a trailing slash.
pub fn check_home_page(text: &str) -> Result<String, ExportError> {
    let t = text.trim().trim_end_matches('/');
    let rest = t
        .strip_prefix("https://")
        .or_else(|| t.strip_prefix("http://"));
    match rest {
        Some(host) if !host.is_empty() && !host.chars().any(char::is_whitespace) => {
            Ok(t.to_string())
        }
        _ => Err(ExportError::Invalid(
            "the xAPI home page must be an http(s) URL such as https://school.example".into(),
        )),
    }
}

/// The running state of one export: the linter, the roster (identified only), progress and
/// cancel.
pub(crate) struct Run<'a> {
    /// The learners the export covers: the class, or one group of it.
    pub scope: Scope,
    pub scanner: Option<Scanner>,
    pub roster: Option<Roster>,
    pub home_page: String,
    pub k: u32,
    progress: &'a mut (dyn FnMut(ExportProgress) + Send),
    cancel: &'a CancellationToken,
    pub done: u64,
    pub total: u64,
}

impl Run<'_> {
    /// Whether `learner`'s rows belong in the export (a group's export skips the others).
    pub fn includes(&self, learner: &str) -> bool {
        self.scope.includes(learner)
    }

    /// Counts one written row; reports progress now and then; stops on cancel.
    pub fn tick(&mut self) -> Result<(), ExportError> {
        self.done += 1;
        if self.cancel.is_cancelled() {
            return Err(ExportError::Cancelled);
        }
        if self.done.is_multiple_of(PROGRESS_EVERY) {
            (self.progress)(ExportProgress {
                rows_done: self.done,
                rows_total: self.total.max(self.done),
            });
        }
        Ok(())
    }

    /// Scans one text field of a default export (identified exports are not scanned).
    pub fn check(
        &self,
        place: &'static str,
        row: u64,
        field: &str,
        text: &str,
    ) -> Result<(), PrivacyHit> {
        match &self.scanner {
            Some(s) => s.check(place, row, field, text),
            None => Ok(()),
        }
    }

    pub fn check_json(
        &self,
        place: &'static str,
        row: u64,
        prefix: &str,
        value: &serde_json::Value,
    ) -> Result<(), PrivacyHit> {
        match &self.scanner {
            Some(s) => s.check_json(place, row, prefix, value),
            None => Ok(()),
        }
    }

    /// The display name of a learner (identified exports only; empty when not in the roster).
    pub fn name<'r>(&'r self, learner: &str) -> Option<&'r str> {
        self.roster
            .as_ref()
            .map(|r| r.name(learner).unwrap_or_default())
    }
}

/// The pathways an export covers.
pub(crate) async fn scope(store: &Store, req: &ExportRequest) -> Result<Vec<String>, ExportError> {
    on_pool!(store.engine(), |pool| {
        let class: Option<String> =
            sqlx::query_scalar("SELECT class_id FROM classes WHERE class_id = $1")
                .bind(&req.class_id)
                .fetch_optional(pool)
                .await?;
        if class.is_none() {
            return Err(ExportError::NotFound(format!(
                "no class {} in the store",
                req.class_id
            )));
        }
        if let Some(assignment) = &req.assignment_id {
            let pathway: Option<String> = sqlx::query_scalar(
                "SELECT pathway_id FROM assignments WHERE assignment_id = $1 AND class_id = $2",
            )
            .bind(assignment)
            .bind(&req.class_id)
            .fetch_optional(pool)
            .await?;
            return match pathway {
                Some(p) => Ok(vec![p]),
                None => Err(ExportError::NotFound(format!(
                    "no assignment {assignment} in class {}",
                    req.class_id
                ))),
            };
        }
        // Everything assigned, and anything with results (an assignment made elsewhere), in
        // code point order on both engines.
        let order = by_code_point("pathway_id", PG);
        Ok(sqlx::query_scalar(&format!(
            "SELECT pathway_id FROM (SELECT pathway_id FROM assignments WHERE class_id = $1 \
             UNION SELECT DISTINCT pathway_id FROM results WHERE class_id = $1) AS scope \
             ORDER BY {order}"
        ))
        .bind(&req.class_id)
        .fetch_all(pool)
        .await?)
    })
}

/// Streams the request's format into `out`; one module per format.
async fn write_format(x: common::Export<'_, '_>, out: impl Write + Seek + Send) -> common::Rows {
    match x.req.format {
        Format::Csv => steps_csv::steps_csv(x, out).await,
        Format::StandardsCsv => standards::standards_csv(x, out).await,
        Format::StandardsSummary => standards::standards_summary(x, out).await,
        Format::Jsonl => jsonl::jsonl(x, out).await,
        Format::Xapi => xapi::xapi(x, out).await,
        Format::Oneroster => oneroster::oneroster(x, out).await,
        Format::KnowledgeMap => knowledge::knowledge_map(x, out).await,
    }
}

/// Writes the export to `out` (a file, or a `Cursor` in tests). Returns the rows written.
/// On an error `out` holds a partial export: [`export_to_path`] never shows it under the name.
pub async fn write_export<W: Write + Seek + Send>(
    store: &Store,
    req: &ExportRequest,
    out: W,
    on_progress: &mut (dyn FnMut(ExportProgress) + Send),
    cancel: &CancellationToken,
) -> Result<u64, ExportError> {
    let home_page = check_home_page(&req.home_page)?;
    let k = crate::progress::suppression::check_k(req.k)
        .map_err(|e| ExportError::Invalid(e.to_string()))?;
    if req.identified && !store.holds_names() {
        return Err(ExportError::Invalid(
            "an identified export names learners from a teacher's roster, which stays in the \
             teacher's own file and never in a shared store: export from that file, or give \
             the shared store that file as its home (--home)"
                .into(),
        ));
    }
    let pathways = scope(store, req).await?;
    let (scanner, roster) = if req.identified {
        (None, Some(store.roster(&req.class_id).await?))
    } else {
        // A shared store alone holds no roster: it lists no names of its own to look for.
        (Some(Scanner::new(store.all_roster_names().await?)), None)
    };
    let group_scope = Scope::of(store, &req.class_id, req.group.as_deref()).await?;
    let mut run = Run {
        scope: group_scope,
        scanner,
        roster,
        home_page,
        k,
        progress: on_progress,
        cancel,
        done: 0,
        total: 0,
    };
    tracing::debug!(
        format = req.format.as_str(),
        identified = req.identified,
        pathways = pathways.len(),
        "export started"
    );
    let export = common::Export {
        store,
        req,
        pathways: &pathways,
        run: &mut run,
    };
    let rows = write_format(export, out).await?;
    (run.progress)(ExportProgress {
        rows_done: rows,
        rows_total: rows,
    });
    tracing::info!(
        format = req.format.as_str(),
        identified = req.identified,
        rows,
        "export written"
    );
    Ok(rows)
}

/// Writes the export atomically to `path`: into a temporary file in the same folder, renamed
/// into place only when the whole export (and its privacy scan) succeeded.
pub async fn export_to_path(
    store: &Store,
    req: &ExportRequest,
    path: &Path,
    on_progress: &mut (dyn FnMut(ExportProgress) + Send),
    cancel: &CancellationToken,
) -> Result<ExportSummary, ExportError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.file_name().is_none() {
        return Err(ExportError::Invalid(format!(
            "{} is not a file name",
            path.display()
        )));
    }
    let tmp = tempfile::Builder::new()
        .prefix(".a2learn-export-")
        .suffix(".part")
        .tempfile_in(&dir)?;
    let (file, tmp_path) = tmp.into_parts();
    // Dropping the TempPath on any early return below deletes the partial file.
    let mut writer = std::io::BufWriter::with_capacity(256 * 1024, file);
    let rows = write_export(store, req, &mut writer, on_progress, cancel).await?;
    let file = writer.into_inner().map_err(|e| e.into_error())?;
    file.sync_all()?;
    let bytes = file.metadata()?.len();
    drop(file);
    tmp_path
        .persist(path)
        .map_err(|e| ExportError::Io(e.error))?;
    Ok(ExportSummary {
        path: path.to_path_buf(),
        rows,
        bytes,
    })
}

/// Milliseconds since the epoch as RFC 3339 UTC (`2026-11-29T08:00:00.250Z`; empty when out of
/// range), through the workspace's one formatter ([`a2learn_contract::rfc3339`]).
pub fn rfc3339(ms: i64) -> String {
    a2learn_contract::rfc3339::format_ms(ms).unwrap_or_default()
}

/// Milliseconds since the epoch as a UTC date (`2026-11-29`), for OneRoster's date fields.
pub(crate) fn date(ms: i64) -> String {
    rfc3339(ms).get(..10).unwrap_or_default().to_string()
}

/// The namespace of every UUID this app derives (UUIDv5 over the DNS namespace and a name of
/// ours, so it is itself reproducible).
pub fn uuid_namespace() -> uuid::Uuid {
    uuid::Uuid::new_v5(
        &uuid::Uuid::NAMESPACE_DNS,
        b"export.a2learn-teacher.invalid",
    )
}

/// A stable UUID for `kind` of `id` (e.g. the statement of a widget run): the same on every
/// export, different per kind.
pub fn derived_uuid(kind: &str, id: &str) -> uuid::Uuid {
    uuid::Uuid::new_v5(&uuid_namespace(), format!("{kind}:{id}").as_bytes())
}

/// Percent-encodes one IRI path segment (RFC 3986 unreserved characters kept).
pub(crate) fn segment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[test]
    fn blocks_and_cancels_reach_the_ui_with_codes_of_their_own() {
        // The export view branches on these codes, not on message text.
        let hit = crate::privacy::PrivacyHit {
            what: crate::privacy::HitKind::Email,
            place: "row",
            row: 4,
            field: "prose".into(),
        };
        let ui: crate::UiError = ExportError::Privacy(hit).into();
        assert_eq!(ui.code, crate::ErrorCode::PrivacyBlocked);
        assert!(ui.message.contains("row 4"), "{}", ui.message);
        let ui: crate::UiError = ExportError::Cancelled.into();
        assert_eq!(ui.code, crate::ErrorCode::Cancelled);
        let ui: crate::UiError = ExportError::Invalid("bad format".into()).into();
        assert_eq!(ui.code, crate::ErrorCode::InvalidInput, "negative control");
    }

    #[test]
    fn times_and_dates_are_utc() {
        assert_eq!(rfc3339(1_800_000_000_000), "2027-01-15T08:00:00Z");
        assert_eq!(rfc3339(1_800_000_000_250), "2027-01-15T08:00:00.25Z");
        assert_eq!(date(1_800_000_000_000), "2027-01-15");
    }

    #[test]
    fn derived_ids_are_stable_and_differ_by_kind() {
        let a = derived_uuid("statement", "run-1");
        assert_eq!(a, derived_uuid("statement", "run-1"));
        assert_ne!(a, derived_uuid("registration", "run-1"));
        assert_ne!(a, derived_uuid("statement", "run-2"));
        assert_eq!(a.get_version_num(), 5);
    }

    #[test]
    fn home_pages_are_checked() {
        assert_eq!(
            check_home_page(" https://school.example/ ").unwrap(),
            "https://school.example"
        );
        assert!(check_home_page("school.example").is_err());
        assert!(check_home_page("https://").is_err());
        assert!(check_home_page("https://a b").is_err());
    }

    #[test]
    fn segments_are_percent_encoded() {
        assert_eq!(segment("CCSS.MATH 4/NF"), "CCSS.MATH%204%2FNF");
        assert_eq!(segment("é"), "%C3%A9");
    }

    #[test]
    fn formats_round_trip_their_names() {
        for f in Format::ALL {
            assert_eq!(Format::parse(f.as_str()), Some(f));
        }
        assert_eq!(Format::parse("pdf"), None);
    }
}
