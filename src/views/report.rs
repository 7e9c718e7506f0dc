//! The after-class report: per assignment, completion, the step report ([`crate::progress::steps`]),
//! mastery by standard with its counts, and who needs follow-up — as one JSON document and as a
//! self-contained printable HTML page per assignment ([`to_html`]).
//!
//! Learners are anonymous ids unless the teacher asks for names ([`ReportNames::Identified`],
//! joined through [`crate::progress::names::Labeler`]). A default report is scanned before it
//! is returned exactly as a default export is ([`crate::privacy::Scanner`] over every roster
//! name of every class, and e-mail addresses): every string of the report — step titles,
//! standards, the students' own common responses — and a hit refuses the whole report with the
//! place and field, never the text ([`ExportError::Privacy`]). An identified report is not
//! scanned for names: it carries them by design.

use std::collections::HashMap;
use std::fmt::Write as _;

use a2learn_i18n::{Arg, Words};

use serde::Serialize;

use super::ViewError;
use crate::dto::{count_i32 as n32, ms};
use crate::export::{ExportError, rfc3339};
use crate::groups::Scope;
use crate::privacy::Scanner;
use crate::progress::mastery::mastery_unsuppressed;
use crate::progress::names::{Labeler, Privacy};
use crate::progress::steps::{self, Outcome, StepReport};
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// How learners are named in a report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportNames {
    /// Anonymous ids only (the default), and the privacy scan.
    Anonymous,
    /// Roster display names where the teacher imported one; not scanned for names.
    Identified,
}

/// What to report on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRequest {
    pub class_id: String,
    /// Only this assignment; `None` for every assignment of the class.
    pub assignment_id: Option<String>,
    pub names: ReportNames,
    /// Only the learners of this group of the class (`crate::groups`); `None` for everyone.
    pub group: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ResponseCountView {
    /// The student's own words: untrusted text, render as text.
    pub response: String,
    pub count: i32,
}

/// The learners behind each count: anonymous ids (or names in an identified report).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct OutcomeLearnersView {
    pub first_try: Vec<String>,
    pub after_retries: Vec<String>,
    pub incorrect: Vec<String>,
    pub no_verdict: Vec<String>,
    pub not_reached: Vec<String>,
}

/// One step's row.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StepReportView {
    pub widget_id: String,
    pub title: String,
    pub standard: Option<String>,
    pub assesses: bool,
    pub first_try: i32,
    pub after_retries: i32,
    pub incorrect: i32,
    pub no_verdict: i32,
    pub not_reached: i32,
    pub mean_attempts: Option<f64>,
    pub mean_hints: Option<f64>,
    /// The median time learners took on the step, from finishing the step before to finishing
    /// this one (ms; none on the first step: the contract has no "step shown" event).
    pub median_time_ms: Option<f64>,
    /// Help requests on the step the teacher answered or declined ("helped 6 · then right 4").
    pub helped: i32,
    /// Of those, how many learners then got the step right (`progress::help_after`).
    pub then_right: i32,
    pub common_responses: Vec<ResponseCountView>,
    /// The learners behind each count (anonymous ids, or names in an identified report), so a
    /// view can list them on a click.
    pub who: OutcomeLearnersView,
}

/// How far the class got.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct CompletionView {
    pub learners: i32,
    /// With anything stored on the pathway (a completion, a struggle or a call).
    pub started: i32,
    /// With every step completed.
    pub finished: i32,
}

/// Mastery of one standard over the assignment's runs, every count shown (the teacher's own
/// report; the aggregate exports suppress small groups).
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StandardView {
    /// `None` for the row of all standards.
    pub standard: Option<String>,
    pub learners: i32,
    pub results: i32,
    pub checked: i32,
    pub correct: i32,
    pub attempts: i32,
    pub hints: i32,
    /// "3 of 4 correct", "not enough evidence (2 checked)".
    pub summary: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum FollowUpReason {
    /// Asked for help; the request closed unanswered ([`crate::desk::room`]).
    MissedHelpRequest,
    /// The newest run of an assessed step is incorrect.
    Incorrect,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct FollowUpView {
    pub learner: String,
    pub widget_id: String,
    pub step_title: String,
    pub reason: FollowUpReason,
}

/// One learner's strip: their outcome on each step, in pathway order.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct StudentStripView {
    pub learner: String,
    pub outcomes: Vec<Outcome>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct AssignmentReportView {
    pub assignment_id: String,
    pub pathway_id: String,
    /// The class's learners: each step's five counts add up to this.
    pub learners: i32,
    pub steps: Vec<StepReportView>,
    pub pathway_title: String,
    pub completion: CompletionView,
    pub mastery: Vec<StandardView>,
    /// Missed help requests first (oldest first), then incorrect steps in pathway order.
    pub follow_ups: Vec<FollowUpView>,
    /// Every learner of the class (in id order), with their strip.
    pub students: Vec<StudentStripView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct ReportView {
    pub class_id: String,
    pub assignments: Vec<AssignmentReportView>,
    pub class_title: String,
    pub identified: bool,
    /// When the report was made, RFC 3339 UTC.
    pub generated_at: String,
    /// The same instant, epoch ms (what the printed page writes in its language).
    pub generated_ms: f64,
    /// How fresh the data is: the newest work and when the host was last heard (the printed
    /// page says it with [`super::freshness::report_line`]).
    pub freshness: super::freshness::FreshnessView,
    /// The group the report is narrowed to, if any.
    pub group: Option<String>,
}

fn step_view(r: StepReport, label: &(dyn Fn(&str) -> String + Sync)) -> StepReportView {
    let count = |o| n32(r.learners.count(o));
    let names = |o| r.learners.get(o).iter().map(|l| label(l)).collect();
    StepReportView {
        first_try: count(Outcome::FirstTry),
        after_retries: count(Outcome::AfterRetries),
        incorrect: count(Outcome::Incorrect),
        no_verdict: count(Outcome::NoVerdict),
        not_reached: count(Outcome::NotReached),
        who: OutcomeLearnersView {
            first_try: names(Outcome::FirstTry),
            after_retries: names(Outcome::AfterRetries),
            incorrect: names(Outcome::Incorrect),
            no_verdict: names(Outcome::NoVerdict),
            not_reached: names(Outcome::NotReached),
        },
        mean_attempts: r.mean_attempts,
        median_time_ms: r.median_time_ms.map(ms),
        helped: n32(r.help.helped),
        then_right: n32(r.help.then_right),
        mean_hints: r.mean_hints,
        common_responses: r
            .common_responses
            .into_iter()
            .map(|c| ResponseCountView {
                response: c.response,
                count: n32(c.count),
            })
            .collect(),
        widget_id: r.step.widget_id,
        title: r.step.title,
        standard: r.step.standard,
        assesses: r.step.assesses,
    }
}

fn standard_view(c: &crate::progress::mastery::MasteryCell) -> StandardView {
    let n = |v: Option<u32>| n32(v.unwrap_or(0));
    StandardView {
        standard: c.standard.clone(),
        learners: n(c.learners),
        results: n(c.results),
        checked: n(c.checked),
        correct: n(c.correct),
        attempts: n(c.attempts),
        hints: n(c.hints),
        summary: c.summary.clone(),
    }
}

/// The missed help requests of one class's pathway: the rule of
/// [`crate::desk::room::FOLLOWUPS_SQL`] (assist calls closed unanswered, or past their deadline
/// with no answer from this desk, not marked done), scoped by class and pathway so it reads
/// through `calls_grid` rather than every call of every class. `$1` is the clock.
pub const MISSED_HELP_SQL: &str = "SELECT c.learner, c.widget_id FROM calls c \
     WHERE c.class_id = $2 AND c.pathway_id = $3 AND c.function = 'assist' \
     AND (c.state IN ('expired', 'failed') OR (c.state = 'open' AND c.deadline_ms <= $1)) \
     AND NOT EXISTS (SELECT 1 FROM desk_sent s WHERE s.class_id = $2 AND s.call_id = c.call_id) \
     AND NOT EXISTS (SELECT 1 FROM desk_followups_done d \
         WHERE d.class_id = $2 AND d.call_id = c.call_id) \
     ORDER BY c.at_ms, c.call_id";

async fn assignment_report(
    store: &Store,
    class_id: &str,
    assignment_id: &str,
    learners: &[String],
    scope: &Scope,
    label: &(dyn Fn(&str) -> String + Sync),
) -> Result<AssignmentReportView, ViewError> {
    let pathway_id = store.assignment_pathway(class_id, assignment_id).await?;
    let pathway_title = store.pathway_title(&pathway_id).await?;
    let steps = store.pathway_steps(&pathway_id).await?;
    let runs = store.step_runs(class_id, &pathway_id).await?;
    let mut reports = steps::step_reports(&steps, learners, &runs);
    let mut helps = store.helps_given(class_id, &pathway_id).await?;
    helps.retain(|h| scope.includes(&h.learner));
    steps::with_help(&mut reports, &helps, &steps, &runs);

    let now = store.now_ms();
    let placement = store
        .placement(class_id, assignment_id, now, i64::MAX)
        .await?;
    let finished = placement
        .learners
        .iter()
        .filter(|p| scope.includes(&p.learner) && p.current.is_none() && !steps.is_empty())
        .count();
    let started = match scope {
        Scope::Class => store.started_learners(class_id, &pathway_id).await?,
        Scope::Group { .. } => store
            .last_events(class_id, &pathway_id)
            .await?
            .keys()
            .filter(|l| scope.includes(l))
            .count() as i64,
    };

    let (standards, total) = steps::standard_counts(&runs, learners);
    let m = mastery_unsuppressed(&standards, &total);
    let mut mastery: Vec<StandardView> = m.standards.iter().map(standard_view).collect();
    mastery.push(standard_view(&m.total));

    let title_of: HashMap<&str, &str> = steps
        .iter()
        .map(|s| (s.widget_id.as_str(), s.title.as_str()))
        .collect();
    let title = |w: &str| {
        title_of
            .get(w)
            .map_or_else(|| w.to_string(), |t| t.to_string())
    };
    let missed: Vec<(String, String)> = on_pool!(store.engine(), |pool| {
        sqlx::query_as(MISSED_HELP_SQL)
            .bind(now)
            .bind(class_id)
            .bind(&pathway_id)
            .fetch_all(pool)
            .await
            .map_err(StoreError::from)?
    });
    let mut follow_ups: Vec<FollowUpView> = missed
        .into_iter()
        .filter(|(learner, _)| scope.includes(learner))
        .map(|(learner, widget_id)| FollowUpView {
            learner: label(&learner),
            step_title: title(&widget_id),
            widget_id,
            reason: FollowUpReason::MissedHelpRequest,
        })
        .collect();
    for r in &reports {
        if !r.step.assesses {
            continue;
        }
        for learner in &r.learners.incorrect {
            follow_ups.push(FollowUpView {
                learner: label(learner),
                widget_id: r.step.widget_id.clone(),
                step_title: r.step.title.clone(),
                reason: FollowUpReason::Incorrect,
            });
        }
    }

    let mut strips: HashMap<&str, Vec<Outcome>> = learners
        .iter()
        .map(|l| (l.as_str(), Vec::with_capacity(reports.len())))
        .collect();
    for r in &reports {
        for o in Outcome::ALL {
            for l in r.learners.get(o) {
                if let Some(strip) = strips.get_mut(l.as_str()) {
                    strip.push(o);
                }
            }
        }
    }
    let students = learners
        .iter()
        .map(|l| StudentStripView {
            learner: label(l),
            outcomes: strips.remove(l.as_str()).unwrap_or_default(),
        })
        .collect();

    Ok(AssignmentReportView {
        assignment_id: assignment_id.to_string(),
        pathway_title: pathway_title.unwrap_or_else(|| pathway_id.clone()),
        pathway_id,
        learners: n32(learners.len()),
        steps: reports.into_iter().map(|r| step_view(r, label)).collect(),
        completion: CompletionView {
            learners: n32(learners.len()),
            started: n32(started),
            finished: n32(finished),
        },
        mastery,
        follow_ups,
        students,
    })
}

/// The report of a class (or one assignment), names as `req.names` says; a default report is
/// refused with [`ExportError::Privacy`] when any of its text holds a roster name or an e-mail.
/// On a shared store without its home (no rosters there) an identified report is refused, as
/// an identified export is: it has no names to give.
pub async fn report(store: &Store, req: &ReportRequest) -> Result<ReportView, ViewError> {
    if req.names == ReportNames::Identified && !store.holds_names() {
        return Err(ExportError::Invalid(
            "an identified report names learners from a teacher's roster, which stays in the \
             teacher's own file and never in a shared store: report from that file, or give \
             the shared store that file as its home (--home)"
                .into(),
        )
        .into());
    }
    let class_title: Option<String> = on_pool!(store.engine(), |pool| {
        sqlx::query_scalar("SELECT title FROM classes WHERE class_id = $1")
            .bind(&req.class_id)
            .fetch_optional(pool)
            .await
            .map_err(StoreError::from)?
    });
    let Some(class_title) = class_title else {
        return Err(
            ExportError::NotFound(format!("no class {} in the store", req.class_id)).into(),
        );
    };
    let assignments: Vec<String> = match &req.assignment_id {
        Some(a) => {
            store.assignment_pathway(&req.class_id, a).await?;
            vec![a.clone()]
        }
        None => store
            .assignments(&req.class_id)
            .await?
            .into_iter()
            .map(|a| a.assignment_id)
            .collect(),
    };
    let scope = Scope::of(store, &req.class_id, req.group.as_deref()).await?;
    let learners = scope.narrow(store.learners(&req.class_id).await?);
    let labeler: Option<Labeler> = match req.names {
        ReportNames::Identified => Some(store.labeler(&req.class_id, Privacy::Names).await?),
        ReportNames::Anonymous => None,
    };
    let label = |l: &str| match &labeler {
        Some(names) => names.label(l),
        None => l.to_string(),
    };
    let mut out = ReportView {
        class_id: req.class_id.clone(),
        assignments: Vec::with_capacity(assignments.len()),
        class_title,
        identified: req.names == ReportNames::Identified,
        generated_at: rfc3339(store.now_ms()),
        generated_ms: ms(store.now_ms()),
        freshness: super::freshness::freshness(store, None, &req.class_id).await?,
        group: scope.group_name().map(str::to_owned),
    };
    for a in &assignments {
        out.assignments
            .push(assignment_report(store, &req.class_id, a, &learners, &scope, &label).await?);
    }
    if req.names == ReportNames::Anonymous {
        scan(&out, &Scanner::new(store.all_roster_names().await?))?;
    }
    tracing::info!(
        assignments = out.assignments.len(),
        identified = out.identified,
        "report made"
    );
    Ok(out)
}

/// The default report's privacy scan: every string of the report, the export's scanner. A hit
/// names the assignment (1-based) and the field.
pub fn scan(report: &ReportView, scanner: &Scanner) -> Result<(), ExportError> {
    scanner.check("report", 1, "class_title", &report.class_title)?;
    if let Some(group) = &report.group {
        scanner.check("report", 1, "group", group)?;
    }
    for (i, a) in report.assignments.iter().enumerate() {
        let value = serde_json::to_value(a)?;
        scanner.check_json("assignment", i as u64 + 1, "assignment", &value)?;
    }
    Ok(())
}

/// Writes `bytes` to `path` atomically, as the exports do: into a temporary file in the same
/// folder, renamed into place only once it is whole. Returns the bytes written.
pub fn write_atomically(path: &std::path::Path, bytes: &[u8]) -> Result<u64, ExportError> {
    use std::io::Write;
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    if path.file_name().is_none() {
        return Err(ExportError::Invalid(format!(
            "{} is not a file name",
            path.display()
        )));
    }
    let mut tmp = tempfile::Builder::new()
        .prefix(".a2learn-report-")
        .suffix(".part")
        .tempfile_in(&dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| ExportError::Io(e.error))?;
    Ok(bytes.len() as u64)
}

/// Text as HTML: every character that could start markup escaped.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A span of time the way a teacher says it ("45 s", "3 min", "1 h 5 min"), as the window does.
fn span(c: &Words, ms: i64) -> String {
    let s = (ms.max(0) + 500) / 1000;
    if s < 60 {
        return c.t_args("span-seconds", &[("s", s.into())]);
    }
    let m = s / 60;
    if m < 60 {
        return c.t_args("span-minutes", &[("m", m.into())]);
    }
    match m % 60 {
        0 => c.t_args("span-hours", &[("h", (m / 60).into())]),
        rest => c.t_args(
            "span-hours-minutes",
            &[("h", (m / 60).into()), ("m", rest.into())],
        ),
    }
}

fn mean(c: &Words, v: Option<f64>) -> String {
    v.map_or_else(|| "—".to_string(), |m| c.number((m * 10.0).round() / 10.0))
}

const STYLE: &str = "body{font-family:system-ui,-apple-system,'Segoe UI','Noto Sans Arabic','DejaVu Sans',\
sans-serif;color:#111;margin:0;font-size:11pt}section.page{padding:1.5cm;break-after:page;\
page-break-after:always}section.page:last-of-type{break-after:auto;page-break-after:auto}\
h1{font-size:16pt;margin:0 0 .2em}h2{font-size:12.5pt;margin:1.2em 0 .4em}\
p.meta{color:#444;margin:0 0 1em}table{border-collapse:collapse;width:100%;margin:.3em 0}\
th,td{border:1px solid #999;padding:.25em .4em;text-align:start;vertical-align:top}\
td.n,th.n{text-align:end}th{background:#eee}ul{margin:.2em 0;padding-inline-start:1.2em}\
.muted{color:#555}@media print{section.page{padding:0}}";

/// Text that is not ours (titles, ids, codes, students' words): escaped, kept out of translation,
/// and isolated so it keeps its own direction inside a sentence of either direction.
fn data(text: &str) -> String {
    format!("<bdi translate=\"no\">{}</bdi>", escape(text))
}

/// The report as one self-contained HTML document in the catalog's language: one printable page
/// per assignment, inline CSS, no script, no remote resource, every text escaped.
pub fn to_html(report: &ReportView, c: &Words) -> String {
    let mut h = String::with_capacity(16 * 1024);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"{}\" dir=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width\">\
         <title>{}</title><style>{STYLE}</style></head><body>\n",
        c.lang().tag(),
        c.lang().dir(),
        escape(&c.t_args("print-title", &[("class", (&report.class_title).into())]))
    );
    if report.assignments.is_empty() {
        let _ = writeln!(
            h,
            "<section class=\"page\"><h1>{}</h1><p>{}</p></section>",
            data(&report.class_title),
            escape(&c.t("print-no-assignments"))
        );
    }
    for a in &report.assignments {
        assignment_html(&mut h, report, a, c);
    }
    h.push_str("</body></html>\n");
    h
}

fn assignment_html(h: &mut String, report: &ReportView, a: &AssignmentReportView, c: &Words) {
    let e = escape;
    // A sentence with data in it: the arguments go in escaped and isolated, the words escaped.
    let say = |id: &str, args: &[(&str, &str)]| -> String {
        const MARK: char = '\u{E000}';
        let marked: Vec<(&str, Arg<'_>)> = args
            .iter()
            .map(|(k, _)| (*k, Arg::Owned(format!("{MARK}{k}{MARK}"))))
            .collect();
        let mut out = e(&c.t_args(id, &marked));
        for (k, v) in args {
            out = out.replace(&format!("{MARK}{k}{MARK}"), &data(v));
        }
        out
    };
    let mut meta = say(
        "print-meta",
        &[
            ("class", &report.class_id),
            ("assignment", &a.assignment_id),
            ("made", &c.date_time_utc(report.generated_ms as i64)),
        ],
    );
    if let Some(g) = &report.group {
        let _ = write!(meta, " · {}", say("print-meta-group", &[("group", g)]));
    }
    if report.identified {
        let _ = write!(meta, " · <strong>{}</strong>", e(&c.t("print-identified")));
    } else {
        let _ = write!(meta, " · {}", e(&c.t("print-anonymous")));
    }
    let _ = write!(
        h,
        "<section class=\"page\"><h1>{}</h1><p class=\"meta\">{meta}</p>\
         <p class=\"meta\" data-freshness>{}</p>",
        say(
            "print-heading",
            &[
                ("class", &report.class_title),
                ("pathway", &a.pathway_title)
            ]
        ),
        e(&super::freshness::report_line(&report.freshness, c)),
    );
    let done = &a.completion;
    let _ = write!(
        h,
        "<h2>{}</h2><p>{}</p>",
        e(&c.t("print-completion-title")),
        e(&c.t_args(
            "print-completion",
            &[
                ("finished", done.finished.into()),
                ("learners", done.learners.into()),
                ("started", done.started.into()),
            ]
        ))
    );
    let th = |id: &str, numeric: bool| {
        format!(
            "<th{}>{}</th>",
            if numeric { " class=\"n\"" } else { "" },
            e(&c.t(id))
        )
    };
    let _ = write!(
        h,
        "<h2>{}</h2><table><thead><tr>{}{}{}{}{}{}{}{}{}{}{}{}</tr></thead><tbody>",
        e(&c.t("print-steps-title")),
        th("report-step", false),
        th("report-standard", false),
        th("report-right-first-try", true),
        th("report-right-after-retries", true),
        th("print-col-incorrect", true),
        th("report-no-verdict", true),
        th("report-not-reached", true),
        th("report-mean-attempts", true),
        th("report-mean-hints", true),
        th("print-col-median-time", true),
        th("print-col-helped", true),
        th("report-common-responses", false),
    );
    let n = |v: i32| c.number(f64::from(v));
    for s in &a.steps {
        let responses = if s.common_responses.is_empty() {
            "<span class=\"muted\">—</span>".to_string()
        } else {
            let items: Vec<String> = s
                .common_responses
                .iter()
                .map(|r| format!("<li>{} ({})</li>", data(&r.response), n(r.count)))
                .collect();
            format!("<ul>{}</ul>", items.concat())
        };
        let _ = write!(
            h,
            "<tr><td>{}{}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td>{}</td></tr>",
            data(&s.title),
            if s.assesses {
                String::new()
            } else {
                format!(
                    " <span class=\"muted\">{}</span>",
                    e(&c.t("print-not-assessed"))
                )
            },
            s.standard.as_deref().map_or_else(|| "—".to_string(), data),
            n(s.first_try),
            n(s.after_retries),
            n(s.incorrect),
            n(s.no_verdict),
            n(s.not_reached),
            mean(c, s.mean_attempts),
            mean(c, s.mean_hints),
            s.median_time_ms
                .map_or_else(|| "—".to_string(), |t| span(c, t as i64)),
            if s.helped == 0 {
                "—".to_string()
            } else {
                format!("{} · {}", n(s.helped), n(s.then_right))
            },
            responses
        );
    }
    let _ = write!(
        h,
        "</tbody></table><p class=\"meta\">{}</p><h2>{}</h2><table><thead><tr>{}{}{}{}{}{}{}{}\
         </tr></thead><tbody>",
        e(&c.t("print-steps-note")),
        e(&c.t("report-mastery-caption")),
        th("report-standard", false),
        th("report-learners", true),
        th("print-col-results", true),
        th("report-checked", true),
        th("report-correct", true),
        th("print-col-attempts", true),
        th("print-col-hints", true),
        th("report-summary", false),
    );
    for m in &a.mastery {
        // The report shows every count (the teacher's own class), so a row is a verdict or
        // "not enough evidence", as `progress::mastery` decides.
        let summary = if m.checked < crate::progress::mastery::MIN_EVIDENCE as i32 {
            c.t_args(
                "report-not-enough-evidence",
                &[("checked", m.checked.into())],
            )
        } else {
            c.t_args(
                "report-correct-of-checked",
                &[("correct", m.correct.into()), ("checked", m.checked.into())],
            )
        };
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>\
             <td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            m.standard
                .as_deref()
                .map_or_else(|| e(&c.t("report-all-standards")), data),
            n(m.learners),
            n(m.results),
            n(m.checked),
            n(m.correct),
            n(m.attempts),
            n(m.hints),
            e(&summary)
        );
    }
    let _ = write!(
        h,
        "</tbody></table><h2>{}</h2>",
        e(&c.t("print-follow-up-title"))
    );
    if a.follow_ups.is_empty() {
        let _ = write!(h, "<p class=\"muted\">{}</p>", e(&c.t("report-nobody")));
    } else {
        let _ = write!(
            h,
            "<table><thead><tr>{}{}{}</tr></thead><tbody>",
            th("print-col-learner", false),
            th("report-step", false),
            th("print-col-why", false)
        );
        for f in &a.follow_ups {
            let why = match f.reason {
                FollowUpReason::MissedHelpRequest => c.t("print-why-missed-help"),
                FollowUpReason::Incorrect => c.t("print-why-incorrect"),
            };
            let _ = write!(
                h,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                data(&f.learner),
                data(&f.step_title),
                e(&why)
            );
        }
        h.push_str("</tbody></table>");
    }
    if !a.students.is_empty() {
        let outcomes = [
            (Outcome::FirstTry, "✓", c.t("print-outcome-first-try")),
            (
                Outcome::AfterRetries,
                "↻",
                c.t("print-outcome-after-retries"),
            ),
            (Outcome::Incorrect, "✗", c.t("print-outcome-incorrect")),
            (Outcome::NoVerdict, "●", c.t("print-outcome-no-verdict")),
            (Outcome::NotReached, "·", c.t("print-outcome-not-reached")),
        ];
        let legend: Vec<String> = outcomes
            .iter()
            .map(|(_, glyph, name)| format!("{glyph} {}", e(name)))
            .collect();
        let _ = write!(
            h,
            "<h2>{}</h2><p class=\"muted\">{}</p><table class=\"strip\"><thead><tr>{}",
            e(&c.t("print-students-title")),
            legend.join(" · "),
            th("print-col-learner", false)
        );
        for i in 1..=a.steps.len() {
            let _ = write!(h, "<th class=\"n\">{}</th>", c.number(i as f64));
        }
        h.push_str("</tr></thead><tbody>");
        for st in &a.students {
            let _ = write!(h, "<tr><td>{}</td>", data(&st.learner));
            for o in &st.outcomes {
                if let Some((_, glyph, name)) = outcomes.iter().find(|(k, _, _)| k == o) {
                    let _ = write!(h, "<td class=\"n\" title=\"{}\">{glyph}</td>", e(name));
                }
            }
            h.push_str("</tr>");
        }
        h.push_str("</tbody></table>");
    }
    h.push_str("</section>\n");
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;
    use a2learn_i18n::{Lang, words};

    fn sample(response: &str) -> ReportView {
        ReportView {
            class_id: "c1".into(),
            class_title: "Period <3>".into(),
            identified: false,
            generated_at: "2027-01-15T08:00:00Z".into(),
            generated_ms: 1_800_000_000_000.0,
            freshness: super::super::freshness::FreshnessView {
                state: super::super::freshness::FreshnessState::NotFollowed,
                newest_work_ms: Some(1_799_999_998_000.0),
                last_heard_ms: None,
            },
            group: None,
            assignments: vec![AssignmentReportView {
                assignment_id: "as-1".into(),
                pathway_id: "p".into(),
                pathway_title: "Fractions".into(),
                learners: 2,
                completion: CompletionView {
                    learners: 2,
                    started: 1,
                    finished: 0,
                },
                steps: vec![StepReportView {
                    widget_id: "w1".into(),
                    title: "Compare".into(),
                    standard: None,
                    assesses: true,
                    first_try: 1,
                    after_retries: 0,
                    incorrect: 0,
                    no_verdict: 0,
                    not_reached: 1,
                    mean_attempts: Some(1.0),
                    median_time_ms: Some(95_000.0),
                    helped: 3,
                    then_right: 2,
                    mean_hints: None,
                    common_responses: vec![ResponseCountView {
                        response: response.into(),
                        count: 1,
                    }],
                    who: OutcomeLearnersView {
                        first_try: vec!["anon_a".into()],
                        after_retries: vec![],
                        incorrect: vec![],
                        no_verdict: vec![],
                        not_reached: vec!["anon_b".into()],
                    },
                }],
                mastery: vec![],
                follow_ups: vec![],
                students: vec![StudentStripView {
                    learner: "anon_a".into(),
                    outcomes: vec![Outcome::FirstTry],
                }],
            }],
        }
    }

    #[test]
    fn html_escapes_every_text_and_holds_no_script_or_remote_resource() {
        let html = to_html(
            &sample("<script>alert('x')</script> & <img src=https://e.vil/x>"),
            words(Lang::En),
        );
        assert!(!html.contains("<script"), "{html}");
        assert!(!html.contains("<img"));
        assert!(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp;"));
        assert!(html.contains("Period &lt;3&gt;"));
        // The response's URL is text, not a resource: no tag or CSS can load it.
        for loader in [
            "<img", "<link", "<iframe", "<object", "url(", "@import", "src=\"",
        ] {
            assert!(!html.contains(loader), "{loader} in {html}");
        }
        assert!(html.contains("2 learners"));
        assert!(html.contains(
            "<td><bdi translate=\"no\">anon_a</bdi></td><td class=\"n\" title=\"right first try\">✓</td>"
        ));
    }

    /// The page's words with every tag, style and `translate="no"` text taken out.
    fn words_outside_data(html: &str) -> String {
        let body = &html[html.find("<body>").unwrap()..];
        let mut out = String::new();
        let mut rest = body;
        while let Some(at) = rest.find("<bdi translate=\"no\">") {
            out.push_str(&rest[..at]);
            rest = &rest[at..][rest[at..].find("</bdi>").unwrap() + 6..];
        }
        out.push_str(rest);
        let mut text = String::new();
        let mut in_tag = false;
        for ch in out.chars() {
            match ch {
                '<' => in_tag = true,
                '>' => {
                    in_tag = false;
                    text.push(' ');
                }
                c if !in_tag => text.push(c),
                _ => {}
            }
        }
        text
    }

    #[test]
    fn the_page_is_written_in_the_language_asked_for() {
        let es = to_html(&sample("3/4"), words(Lang::Es));
        assert!(es.contains("<html lang=\"es\" dir=\"ltr\">"));
        assert!(
            es.contains("de 2 estudiantes terminaron todos los pasos"),
            "{es}"
        );
        assert!(
            es.contains("dic 2026") || es.contains("ene 2027"),
            "a date in Spanish: {es}"
        );
        assert!(!es.contains("Right first try"));
        let ar = to_html(&sample("3/4"), words(Lang::Ar));
        assert!(ar.contains("<html lang=\"ar\" dir=\"rtl\">"));
        // Arabic's dual: two learners are "متعلّمَين اثنين", not the plural of three or more.
        assert!(ar.contains("متعلّمَين اثنين"), "{ar}");
        assert!(!ar.contains("Steps"));
        // In the pseudo-locale every word outside the data (ids, titles, responses) is accented:
        // a plain English word left on the page did not come from a catalog.
        let xa = words_outside_data(&to_html(&sample("three quarters"), words(Lang::EnXa)));
        let english: Vec<&str> = xa
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_alphabetic()))
            .collect();
        assert!(english.is_empty(), "words not from a catalog: {english:?}");
        // The positive control: the data is on the page, and would be caught outside a <bdi>.
        let raw = to_html(&sample("three quarters"), words(Lang::EnXa));
        assert!(raw.contains("three quarters") && !xa.contains("three quarters"));
    }

    #[test]
    fn the_scan_refuses_a_name_in_a_response_and_names_only_the_field() {
        let scanner = Scanner::new(["Zephyrine Quabbelwick"]);
        let err = scan(&sample("Zephyrine said 3/4"), &scanner).unwrap_err();
        let text = err.to_string();
        assert!(
            text.contains("assignment 1, field assignment.steps[0].common_responses[0].response"),
            "{text}"
        );
        assert!(!text.contains("Zephyrine"));
        // Negative control: an ordinary response passes.
        scan(&sample("3/4"), &scanner).unwrap();
    }
}
