//! A page per student (the teacher's window only): their strip across every assigned pathway —
//! each step done / current / upcoming and its outcome — the evidence behind each step as
//! readable fields (the widget's sentence, the result in words, `detail` as key/value rows), their
//! help history (questions, answers, visits) and a timeline. Everything is derived from the
//! store with the same rules as the grid ([`steps::placement`]) and the step report
//! ([`steps::outcome`]), so the page and the class views cannot disagree. On both engines; a
//! shared store keeps no promised visits (they are the teacher's own), so it shows none.

use std::collections::{HashMap, HashSet};

use serde::Serialize;

use super::ViewError;
use crate::desk::{Desk, HelpRequest, RequestState};
use a2learn_i18n::Words;

use crate::dto::{count_i32 as n32, ms};
use crate::progress::evidence::{DetailField, detail_fields, prose_and_detail};
use crate::progress::help_after::AfterHelp;
use crate::progress::names::Privacy;
use crate::progress::steps::{self, Outcome, RunFacts, StepDeps, StepStatus};
use crate::store::engine::on_pool;
use crate::store::{Store, StoreError};

/// A completion's result in words: "correct on the first try", "incorrect after 3 attempts,
/// 1 hint", "completed (no check ran)".
pub fn result_text(w: &Words, correct: Option<bool>, attempts: i64, hints: i64) -> String {
    let verdict = match correct {
        Some(true) if attempts <= 1 => w.t("view-result-first-try"),
        Some(true) => w.t_args(
            "view-result-correct-after",
            &[("attempts", attempts.into())],
        ),
        Some(false) => w.t_args(
            "view-result-incorrect-after",
            &[("attempts", attempts.into())],
        ),
        None => w.t("view-result-no-check"),
    };
    if hints > 0 {
        w.t_args(
            "view-result-with-hints",
            &[("verdict", verdict.into()), ("hints", hints.into())],
        )
    } else {
        verdict
    }
}

/// One run of a step: what the widget said, and how it went.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentRunView {
    pub at_ms: f64,
    /// The widget's sentence about the work (untrusted text).
    pub prose: String,
    /// The result in words ([`result_text`]).
    pub result: String,
    pub correct: Option<bool>,
    pub score: Option<f64>,
    pub detail: Vec<DetailField>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentStepView {
    pub widget_id: String,
    pub title: String,
    pub standard: Option<String>,
    pub status: StepStatus,
    /// The newest run's outcome (the step report's five).
    pub outcome: Outcome,
    /// Newest first.
    pub runs: Vec<StudentRunView>,
    /// Struggle signals on the step (how many).
    pub struggles: i32,
    /// How long the learner took on the step: from finishing the step before to finishing this
    /// one, the first time each (ms; none on the first step, or not done in that order).
    pub time_on_step_ms: Option<f64>,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentPathwayView {
    pub assignment_id: String,
    pub pathway_id: String,
    pub pathway_title: String,
    pub steps: Vec<StudentStepView>,
    pub done: i32,
    /// Since the learner's last event on the pathway; `None` before the first.
    pub quiet_ms: Option<f64>,
    pub idle: bool,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentHelpView {
    pub call_id: String,
    pub asked_at_ms: f64,
    pub step_title: String,
    /// The student's question (untrusted text).
    pub question: String,
    pub state: RequestState,
    /// What became of it, in words: "answered", "missed — follow up", "waiting"…
    pub outcome: String,
    pub answer: Option<String>,
    /// When the teacher promised to come over, if they did.
    pub visit_promised_at_ms: Option<f64>,
    pub visit_done: bool,
    /// Answered or declined: how the learner then did ([`crate::progress::help_after`]).
    pub after_help: Option<AfterHelp>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum StudentEventKind {
    Completed,
    Struggled,
    AskedForHelp,
    HelpClosed,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentEventView {
    pub at_ms: f64,
    pub kind: StudentEventKind,
    /// The step's title (the host's words).
    pub step_title: String,
    /// What happened, in the window's language: "correct after 2 attempts", "asked for help".
    pub what: String,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct StudentPageView {
    /// The anonymous id (the host's).
    pub learner: String,
    /// The teacher's name for the student where a roster gave one, else the id.
    pub label: String,
    pub pathways: Vec<StudentPathwayView>,
    pub help: Vec<StudentHelpView>,
    /// Oldest first.
    pub timeline: Vec<StudentEventView>,
}

type ResultRow = (
    String,
    String,
    i64,
    Option<String>,
    Option<bool>,
    i64,
    i64,
    Option<f64>,
    String,
);

/// One learner's page. Refused in projector-safe mode: it is all about one student.
pub async fn student_page(
    store: &Store,
    privacy: Privacy,
    class_id: &str,
    learner: &str,
) -> Result<StudentPageView, ViewError> {
    if privacy != Privacy::Names {
        return Err(crate::error::Said::hidden_from_room("error-hidden-student").into());
    }
    // The page's sentences are the window's: in its language.
    let w = crate::error::window_words();
    let learners = store.learners(class_id).await?;
    if !learners.iter().any(|l| l == learner) {
        return Err(
            StoreError::NotFound(format!("no learner {learner} in class {class_id}")).into(),
        );
    }
    let now = store.now_ms();
    let idle_after = i64::from(store.idle_after_minutes().await?) * 60_000;
    let labels = store.labeler(class_id, privacy).await?;
    let catalog = store.catalog().await?;
    let mut pathways = Vec::new();
    let mut timeline = Vec::new();
    let mut step_titles: HashMap<(String, String), String> = HashMap::new();
    for a in store.assignments(class_id).await? {
        let grid_steps = store.pathway_steps(&a.pathway_id).await?;
        for s in &grid_steps {
            step_titles.insert((a.pathway_id.clone(), s.widget_id.clone()), s.title.clone());
        }
        let title_of = |w: &str| {
            grid_steps
                .iter()
                .find(|s| s.widget_id == w)
                .map_or_else(|| w.to_string(), |s| s.title.clone())
        };
        let (rows, struggles, calls_last): (Vec<ResultRow>, Vec<(String, i64)>, Option<i64>) =
            on_pool!(store.engine(), |pool| {
                let rows = sqlx::query_as(
                    "SELECT widget_id, widget_run_id, at_ms, standard, correct, attempts, hints, \
                     score, payload FROM results_with_payload \
                     WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 \
                     ORDER BY at_ms DESC, widget_run_id DESC",
                )
                .bind(class_id)
                .bind(&a.pathway_id)
                .bind(learner)
                .fetch_all(pool)
                .await
                .map_err(StoreError::from)?;
                let struggles = sqlx::query_as(
                    "SELECT widget_id, at_ms FROM struggles \
                     WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 ORDER BY at_ms",
                )
                .bind(class_id)
                .bind(&a.pathway_id)
                .bind(learner)
                .fetch_all(pool)
                .await
                .map_err(StoreError::from)?;
                let calls_last = sqlx::query_scalar(
                    "SELECT MAX(at_ms) FROM calls \
                     WHERE class_id = $1 AND pathway_id = $2 AND learner = $3",
                )
                .bind(class_id)
                .bind(&a.pathway_id)
                .bind(learner)
                .fetch_one(pool)
                .await
                .map_err(StoreError::from)?;
                (rows, struggles, calls_last)
            });

        let facts: Vec<RunFacts> = rows
            .iter()
            .map(
                |(widget_id, run, at_ms, standard, correct, attempts, hints, _, _)| RunFacts {
                    learner: learner.to_string(),
                    widget_id: widget_id.clone(),
                    widget_run_id: run.clone(),
                    at_ms: *at_ms,
                    standard: standard.clone(),
                    correct: *correct,
                    attempts: *attempts,
                    hints: *hints,
                    response: None,
                },
            )
            .collect();
        let newest = steps::newest_runs(&facts);
        let took = steps::step_times(&grid_steps, &facts);
        let done: HashSet<&str> = facts.iter().map(|f| f.widget_id.as_str()).collect();
        let deps: Vec<StepDeps> = grid_steps
            .iter()
            .map(|s| StepDeps {
                widget_id: s.widget_id.clone(),
                requires: None,
            })
            .collect();
        let statuses = steps::placement(&deps, &done);
        let last = rows
            .iter()
            .map(|r| r.2)
            .chain(struggles.iter().map(|s| s.1))
            .chain(calls_last)
            .max();
        let has_current = statuses.contains(&StepStatus::Current);

        for (widget_id, _, at_ms, _, correct, attempts, hints, _, _) in &rows {
            timeline.push(StudentEventView {
                at_ms: ms(*at_ms),
                kind: StudentEventKind::Completed,
                step_title: title_of(widget_id),
                what: result_text(w, *correct, *attempts, *hints),
            });
        }
        for (widget_id, at_ms) in &struggles {
            timeline.push(StudentEventView {
                at_ms: ms(*at_ms),
                kind: StudentEventKind::Struggled,
                step_title: title_of(widget_id),
                what: w.t("view-event-struggling"),
            });
        }

        let step_views: Vec<StudentStepView> = grid_steps
            .iter()
            .zip(statuses.iter())
            .map(|(s, status)| StudentStepView {
                outcome: steps::outcome(newest.get(&(learner, s.widget_id.as_str())).copied()),
                runs: rows
                    .iter()
                    .filter(|r| r.0 == s.widget_id)
                    .map(
                        |(_, _, at_ms, _, correct, attempts, hints, score, payload)| {
                            let (prose, detail) = prose_and_detail(payload);
                            StudentRunView {
                                at_ms: ms(*at_ms),
                                prose,
                                result: result_text(w, *correct, *attempts, *hints),
                                correct: *correct,
                                score: *score,
                                detail: detail_fields(&detail),
                            }
                        },
                    )
                    .collect(),
                struggles: n32(struggles.iter().filter(|x| x.0 == s.widget_id).count()),
                time_on_step_ms: took.get(&(learner, s.widget_id.as_str())).map(|t| ms(*t)),
                widget_id: s.widget_id.clone(),
                title: s.title.clone(),
                standard: s.standard.clone(),
                status: *status,
            })
            .collect();
        pathways.push(StudentPathwayView {
            pathway_title: catalog
                .iter()
                .find(|p| p.pathway_id == a.pathway_id)
                .map_or_else(|| a.pathway_id.clone(), |p| p.title.clone()),
            done: n32(statuses.iter().filter(|s| **s == StepStatus::Done).count()),
            quiet_ms: last.map(|l| ms(now.saturating_sub(l).max(0))),
            idle: steps::is_idle(has_current, last, now, idle_after),
            steps: step_views,
            assignment_id: a.assignment_id,
            pathway_id: a.pathway_id,
        });
    }

    let requests = Desk::new(store).history(class_id, learner).await?;
    // The visits a teacher promised are their own, kept in their file (beside a shared store,
    // its home; none without one).
    let visits: Vec<(String, i64, Option<i64>)> = match store.home_pool() {
        Some(pool) => sqlx::query_as(
            "SELECT call_id, promised_at_ms, done_at_ms FROM desk_visits \
             WHERE class_id = ? AND learner = ?",
        )
        .bind(class_id)
        .bind(learner)
        .fetch_all(pool)
        .await
        .map_err(StoreError::from)?,
        None => Vec::new(),
    };
    let followed_up: Vec<String> = on_pool!(store.engine(), |pool| {
        sqlx::query_scalar(
            "SELECT f.call_id FROM desk_followups_done f \
             JOIN calls c ON c.class_id = f.class_id AND c.call_id = f.call_id \
             WHERE c.class_id = $1 AND c.learner = $2",
        )
        .bind(class_id)
        .bind(learner)
        .fetch_all(pool)
        .await
        .map_err(StoreError::from)?
    });
    let followed_up: HashSet<String> = followed_up.into_iter().collect();
    let mut help = Vec::with_capacity(requests.len());
    for r in requests {
        let visit = visits.iter().find(|v| v.0 == r.call_id);
        let step_title = step_titles
            .get(&(r.pathway_id.clone(), r.widget_id.clone()))
            .cloned()
            .unwrap_or_else(|| r.widget_id.clone());
        let outcome = help_outcome(w, &r, visit.is_some(), followed_up.contains(&r.call_id));
        timeline.push(StudentEventView {
            at_ms: r.asked_at_ms,
            kind: StudentEventKind::AskedForHelp,
            step_title: step_title.clone(),
            what: w.t("view-event-asked"),
        });
        if let Some(closed) = r.closed_at_ms {
            timeline.push(StudentEventView {
                at_ms: closed,
                kind: StudentEventKind::HelpClosed,
                step_title: step_title.clone(),
                what: w.t_args("view-event-help-closed", &[("outcome", (&outcome).into())]),
            });
        }
        help.push(StudentHelpView {
            call_id: r.call_id,
            asked_at_ms: r.asked_at_ms,
            step_title,
            question: r.question,
            state: r.state,
            outcome,
            answer: r.answer,
            visit_promised_at_ms: visit.map(|v| ms(v.1)),
            visit_done: visit.is_some_and(|v| v.2.is_some()),
            after_help: r.after_help,
        });
    }
    timeline.sort_by(|a, b| a.at_ms.total_cmp(&b.at_ms));
    Ok(StudentPageView {
        label: labels.label(learner),
        learner: learner.to_string(),
        pathways,
        help,
        timeline,
    })
}

/// What became of a help request, in the words the page shows.
fn help_outcome(w: &Words, r: &HelpRequest, visit: bool, followed_up: bool) -> String {
    w.t(match r.state {
        RequestState::Open | RequestState::ClaimedByOther => "view-help-waiting",
        RequestState::ClaimedByMe => "view-help-claimed",
        RequestState::Answered if visit => "view-help-coming-over",
        RequestState::Answered => "view-help-answered",
        RequestState::Declined => "view-help-declined",
        RequestState::Expired | RequestState::Failed if followed_up => {
            "view-help-missed-followed-up"
        }
        RequestState::Expired | RequestState::Failed => "view-help-missed",
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use a2learn_i18n::{Lang, words};

    #[test]
    fn counts_say_their_nouns_right() {
        let en = words(Lang::En);
        assert_eq!(
            result_text(en, Some(true), 1, 0),
            "correct on the first try"
        );
        assert_eq!(
            result_text(en, Some(true), 2, 1),
            "correct after 2 attempts, 1 hint"
        );
        assert_eq!(
            result_text(en, Some(false), 1, 3),
            "incorrect after 1 attempt, 3 hints"
        );
        assert_eq!(result_text(en, None, 1, 0), "completed (no check ran)");
        // Spanish, and Arabic's dual ("two attempts" is its own form).
        assert_eq!(
            result_text(words(Lang::Es), Some(false), 2, 1),
            "incorrecto tras 2 intentos, 1 pista"
        );
        assert!(result_text(words(Lang::Ar), Some(true), 2, 0).contains("محاولتين"));
    }
}
