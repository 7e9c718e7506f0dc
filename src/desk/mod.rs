//! The help desk: students' `a2learn.assist` requests, answered by the teacher.
//!
//! Requests reach the store through the class feed (`calls`, function `assist`). The desk reads
//! them as a queue, with the local name from the roster (read through [`crate::roster`], never
//! sent anywhere), and sends exactly one response per call through the host's `respond` tool:
//! a `value` `{answer, answered_by: "teacher"}`, or an `error` with code `declined`. Before
//! anything is sent, the request's state ([`state::request_state`], over the stored call and
//! the injected clock) must allow it: a late or a second answer is refused here, and the host's
//! own refusals (`expired`, `already_answered`, `already_claimed`) come back as the same errors.
//!
//! A response the host accepted is recorded in `desk_sent` at once (the feed's echo confirms it
//! later and closes the call in `calls`).
//!
//! On both engines. What the store holds for everyone — `calls`, `desk_sent`, follow-ups done —
//! is read and written in the store; what the teacher keeps to themselves — half-written answers
//! (drafts, which may name a learner until the outgoing scan refuses them), saved replies,
//! promised visits, whom the host knows them as — stays in their own file
//! ([`Store::home_pool`]), which beside a shared store is a second database: the queue reads the
//! calls from one and the drafts from the other and merges them here.

pub mod notify;
pub mod replies;
pub mod room;
pub mod state;

use std::future::Future;

use a2learn_contract::{AnsweredBy, AssistValue, CallError, ResponseValue};
use serde::Serialize;
use serde_json::Value;

use crate::dto::ms;
use crate::error::Coded;
use crate::host::mcp::{HostClient, HostError};
use crate::privacy::outgoing::{OutgoingError, OutgoingText, TextBlocked, TextField};
use crate::progress::help_after::AfterHelp;
use crate::progress::names::{Labeler, Privacy};
use crate::store::engine::{Conn, by_code_point, lock_class, on_conn, on_pool};
use crate::store::{Store, StoreError};
use crate::{ErrorCode, UiError};

pub use replies::SavedReply;
pub use state::{CallView, Refusal, RequestState, may_claim, may_respond, request_state};

/// The contract's bounds on an assist answer (characters, after trimming).
pub const MAX_ANSWER_CHARS: usize = 4000;

/// How long a closed request stays in the queue (so the teacher sees what became of it).
pub const RECENTLY_CLOSED_MS: i64 = 15 * 60 * 1000;

/// The answer "coming over" sends: the teacher is on the way. In the teacher's language, which
/// is the class's.
pub fn coming_over_text(lang: a2learn_i18n::Lang) -> String {
    a2learn_i18n::words(lang).t("view-to-student-coming-over")
}

/// The error a decline sends. Its message reaches the student's widget.
pub fn decline_message(lang: a2learn_i18n::Lang) -> String {
    a2learn_i18n::words(lang).t("view-to-student-declined")
}

#[derive(Debug, thiserror::Error)]
pub enum DeskError {
    /// The answer (or a saved reply, or a draft) is empty or too long: the sentence says which,
    /// and never quotes the text.
    #[error(transparent)]
    InvalidAnswer(crate::error::Said),
    #[error("no help request {0:?}")]
    NotFound(String),
    /// Two classes this desk serves hold a request of this id (classes followed by id alone,
    /// from two hosts): answering one by id could answer the wrong student.
    #[error("help request {0:?} is in more than one class; nothing was sent")]
    Ambiguous(String),
    #[error("this request already has its answer")]
    AlreadyAnswered,
    #[error("this request's deadline has passed; it can no longer be answered")]
    Expired,
    #[error("another teacher has claimed this request")]
    ClaimedByOther,
    /// The answer names someone from a roster (or holds an e-mail address); nothing was sent.
    #[error(transparent)]
    TextBlocked(TextBlocked),
    #[error(transparent)]
    Host(HostError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for DeskError {
    fn from(e: sqlx::Error) -> Self {
        DeskError::Store(StoreError::Sql(e))
    }
}

impl From<OutgoingError> for DeskError {
    fn from(e: OutgoingError) -> Self {
        match e {
            OutgoingError::Blocked(b) => DeskError::TextBlocked(b),
            OutgoingError::Store(s) => DeskError::Store(s),
        }
    }
}

impl From<Refusal> for DeskError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::AlreadyAnswered => DeskError::AlreadyAnswered,
            Refusal::Expired => DeskError::Expired,
            Refusal::ClaimedByOther => DeskError::ClaimedByOther,
        }
    }
}

impl From<HostError> for DeskError {
    /// The host's refusals are the desk's own: the UI shows them the same way whichever side
    /// noticed first.
    fn from(e: HostError) -> Self {
        match e.tool_code() {
            Some("already_answered") => DeskError::AlreadyAnswered,
            Some("expired") => DeskError::Expired,
            Some("already_claimed") => DeskError::ClaimedByOther,
            _ => DeskError::Host(e),
        }
    }
}

impl Coded for DeskError {
    fn code(&self) -> ErrorCode {
        match self {
            DeskError::Host(h) => h.code(),
            DeskError::InvalidAnswer(_) => ErrorCode::InvalidInput,
            DeskError::NotFound(_) => ErrorCode::NotFound,
            DeskError::Ambiguous(_) => ErrorCode::InvalidInput,
            DeskError::AlreadyAnswered => ErrorCode::AlreadyAnswered,
            DeskError::Expired => ErrorCode::Expired,
            DeskError::ClaimedByOther => ErrorCode::AlreadyClaimed,
            DeskError::TextBlocked(_) => ErrorCode::TextBlocked,
            DeskError::Store(s) => s.code(),
        }
    }

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        match self {
            DeskError::InvalidAnswer(s) => Some(s.in_language(c)),
            DeskError::AlreadyAnswered => Some(c.t("error-desk-already-answered")),
            DeskError::Expired => Some(c.t("error-desk-expired")),
            DeskError::ClaimedByOther => Some(c.t("error-desk-claimed")),
            DeskError::TextBlocked(b) => b.localized(c),
            DeskError::Host(h) => h.localized(c),
            DeskError::Store(s) => s.localized(c),
            DeskError::NotFound(_) | DeskError::Ambiguous(_) => None,
        }
    }
}

/// The two host tools the desk uses; [`HostClient`] in the app, a fake in unit tests.
pub trait DeskHost {
    fn claim(&self, call_id: &str) -> impl Future<Output = Result<String, HostError>> + Send;
    fn respond(
        &self,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
    ) -> impl Future<Output = Result<(), HostError>> + Send;
}

impl DeskHost for HostClient {
    fn claim(&self, call_id: &str) -> impl Future<Output = Result<String, HostError>> + Send {
        HostClient::claim(self, call_id)
    }

    fn respond(
        &self,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
    ) -> impl Future<Output = Result<(), HostError>> + Send {
        HostClient::respond(self, call_id, response)
    }
}

/// What a response promises besides itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Promise {
    None,
    /// "Coming over": a visit the teacher owes until marked done.
    Visit,
}

/// One help request as the queue shows it.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct HelpRequest {
    pub call_id: String,
    pub class_id: String,
    /// The anonymous id the host knows.
    pub learner: String,
    /// The local name from the roster, if one was imported. Never leaves the machine.
    pub display_name: Option<String>,
    pub pathway_id: String,
    pub widget_id: String,
    /// The step's title from the catalog (the widget id when the catalog lacks it).
    pub step_title: String,
    pub kind: String,
    pub standard: Option<String>,
    /// The student's question: untrusted text, rendered as text only.
    pub question: String,
    pub attempts: i32,
    pub hints: i32,
    pub asked_at_ms: f64,
    pub deadline_ms: f64,
    /// The core's clock when the queue was read; the UI ticks from here.
    pub now_ms: f64,
    pub state: RequestState,
    /// Still waiting for an answer ([`RequestState::is_waiting`]): the UI reads this rather
    /// than re-deciding from `state`.
    pub waiting: bool,
    /// A half-written answer, if the teacher started one.
    pub draft: Option<String>,
    /// The answer the call got (this teacher's or a co-teacher's), once answered.
    pub answer: Option<String>,
    pub closed_at_ms: Option<f64>,
    /// Answered or declined: how the learner then did on the step
    /// ([`crate::progress::help_after`]).
    pub after_help: Option<AfterHelp>,
    /// The teacher's groups of the class the learner is in ([`crate::groups`]): a group's
    /// waiting requests can get one answer.
    pub groups: Vec<String>,
}

impl HelpRequest {
    /// The request as a room may see it (projector-safe mode): an alias instead of the learner,
    /// and none of the free text — no question, no answer, no draft.
    pub fn for_room(self, alias: String) -> Self {
        Self {
            learner: alias,
            display_name: None,
            question: String::new(),
            answer: None,
            draft: None,
            // The room sees totals, not how one learner did, nor whom the teacher grouped.
            after_help: None,
            groups: Vec::new(),
            ..self
        }
    }
}

/// What one call of a group answer came to.
#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct GroupOutcome {
    pub call_id: String,
    /// `None` when the answer was accepted; else the error as the UI shows it.
    pub error: Option<UiError>,
}

/// Checks an answer against the contract's bounds and returns it trimmed.
pub fn validate_answer(text: &str) -> Result<String, DeskError> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err(DeskError::InvalidAnswer(crate::error::Said::refused(
            "error-desk-answer-empty",
        )));
    }
    if chars > MAX_ANSWER_CHARS {
        return Err(DeskError::InvalidAnswer(
            crate::error::Said::refused("error-desk-answer-too-long")
                .count("max", MAX_ANSWER_CHARS as f64)
                .count("chars", chars as f64),
        ));
    }
    Ok(text.to_string())
}

#[derive(Debug, sqlx::FromRow)]
struct Row {
    call_id: String,
    class_id: String,
    learner: String,
    pathway_id: String,
    widget_id: String,
    kind: String,
    standard: Option<String>,
    /// None only if the ledger lost the request's row: the request shows without a question.
    request: Option<String>,
    at_ms: i64,
    deadline_ms: i64,
    state: String,
    claimed_by: Option<String>,
    response: Option<String>,
    closed_at_ms: Option<i64>,
    sent_outcome: Option<String>,
    sent_response: Option<String>,
    sent_at_ms: Option<i64>,
    draft: Option<String>,
    step_title: String,
}

/// The help requests' columns ([`Row`]) on both engines, each request and response read where
/// it is kept (the ledger's row, through `calls_with_payload`). The draft is not among them: it is
/// the teacher's own text, in their file ([`Store::home_pool`]), which beside a shared store is
/// another database; [`Desk::fill_drafts`] fills it in.
const SELECT: &str = "SELECT c.call_id, c.class_id, c.learner, c.pathway_id, c.widget_id, c.kind, \
     c.standard, c.request, c.at_ms, c.deadline_ms, c.state, c.claimed_by, c.response, \
     c.closed_at_ms, s.outcome AS sent_outcome, s.response AS sent_response, s.sent_at_ms, \
     CAST(NULL AS TEXT) AS draft, \
     COALESCE((SELECT ps.title FROM pathway_steps ps WHERE ps.pathway_id = c.pathway_id \
     AND ps.widget_id = c.widget_id), c.widget_id) AS step_title \
     FROM calls_with_payload c \
     LEFT JOIN desk_sent s ON s.class_id = c.class_id AND s.call_id = c.call_id \
     WHERE c.function = 'assist'";

/// What the desk writes to the teacher's own file, named in the error on a shared store opened
/// without one.
const HOME: &str =
    "the help desk (drafts, saved replies and promised visits stay in a teacher's own file)";

/// The classes another host owns: `$host` is the parameter holding the host Settings name
/// ([`Store::named_host_id`]). The desk serves the host the app follows and answers through,
/// as the sidebar lists it; classes followed by id alone (no host) are nobody else's.
macro_rules! another_hosts_classes {
    ($host:literal) => {
        concat!(
            "SELECT class_id FROM classes WHERE host_id IS NOT NULL AND host_id IS DISTINCT FROM ",
            $host
        )
    };
}

/// A condition that leaves out [`another_hosts_classes!`]: `$column` is the class column.
macro_rules! not_another_hosts {
    ($column:literal, $host:literal) => {
        concat!($column, " NOT IN (", another_hosts_classes!($host), ")")
    };
}
pub(crate) use {another_hosts_classes, not_another_hosts};

fn teacher_key(class_id: &str) -> String {
    format!("desk.teacher_id:{class_id}")
}

fn count(v: Option<&Value>) -> i32 {
    v.and_then(Value::as_i64)
        .and_then(|n| i32::try_from(n).ok())
        .unwrap_or(0)
}

/// The answer text inside a stored response (the feed's echo, or what this desk sent).
fn answer_of(response: Option<&str>) -> Option<String> {
    let v: Value = serde_json::from_str(response?).ok()?;
    v.get("value")?.get("answer")?.as_str().map(str::to_string)
}

/// The help desk over one store.
#[derive(Debug, Clone, Copy)]
pub struct Desk<'a> {
    store: &'a Store,
}

impl<'a> Desk<'a> {
    pub fn new(store: &'a Store) -> Self {
        Self { store }
    }

    /// Whom the host knows this teacher as in a class (their claims), kept in their own file;
    /// `None` before their first claim, and on a shared store read without its home.
    async fn me(&self, class_id: &str) -> Result<Option<String>, DeskError> {
        if self.store.home_pool().is_none() {
            return Ok(None);
        }
        Ok(self.store.setting(&teacher_key(class_id)).await?)
    }

    /// Fills in `rows`' drafts (of one class, or of every class) from the teacher's own file;
    /// none on a shared store read without its home.
    async fn fill_drafts(&self, rows: &mut [Row], class_id: Option<&str>) -> Result<(), DeskError> {
        let Some(pool) = self.store.home_pool() else {
            return Ok(());
        };
        let drafts: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT class_id, call_id, body FROM desk_drafts WHERE ?1 IS NULL OR class_id = ?1",
        )
        .bind(class_id)
        .fetch_all(pool)
        .await?;
        if drafts.is_empty() {
            return Ok(());
        }
        let mut drafts: std::collections::HashMap<(String, String), String> = drafts
            .into_iter()
            .map(|(class, call, body)| ((class, call), body))
            .collect();
        for row in rows {
            row.draft = drafts.remove(&(row.class_id.clone(), row.call_id.clone()));
        }
        Ok(())
    }

    /// Waiting requests (the teacher's own claims first, then oldest first), then those closed
    /// in the last [`RECENTLY_CLOSED_MS`] (most recent first). `class_id: None` is every class
    /// the desk serves (not another host's).
    pub async fn queue(&self, class_id: Option<&str>) -> Result<Vec<HelpRequest>, DeskError> {
        let now = self.store.now_ms();
        let since = now - RECENTLY_CLOSED_MS;
        let host_id = self.store.named_host_id().await?;
        let mut rows: Vec<Row> = on_pool!(self.store.engine(), |pool| {
            let sql = format!(
                "{SELECT} AND (CAST($1 AS TEXT) IS NULL OR c.class_id = $1) \
                 AND (c.state = 'open' OR c.closed_at_ms >= $2 OR s.sent_at_ms >= $2) \
                 AND {} ORDER BY c.at_ms, {}",
                not_another_hosts!("c.class_id", "$3"),
                by_code_point("c.call_id", PG)
            );
            sqlx::query_as(&sql)
                .bind(class_id)
                .bind(since)
                .bind(host_id)
                .fetch_all(pool)
                .await?
        });
        self.fill_drafts(&mut rows, class_id).await?;
        let mut out = Vec::with_capacity(rows.len());
        let mut rosters = std::collections::HashMap::new();
        let mut teachers = std::collections::HashMap::new();
        for row in rows {
            // An open call whose deadline is long past (the host never said `timeout`, e.g. it
            // was replaced) is history, not work.
            if row.state == "open" && row.sent_outcome.is_none() && row.deadline_ms < since {
                continue;
            }
            if !rosters.contains_key(&row.class_id) {
                let roster = self.store.roster(&row.class_id).await?;
                rosters.insert(row.class_id.clone(), roster);
                let me = self.me(&row.class_id).await?;
                teachers.insert(row.class_id.clone(), me);
            }
            let name = rosters
                .get(&row.class_id)
                .and_then(|r| r.name(&row.learner))
                .map(str::to_string);
            let me = teachers.get(&row.class_id).cloned().flatten();
            out.push(to_request(row, name, me.as_deref(), now));
        }
        out.sort_by(|a, b| {
            let (wa, wb) = (a.state.is_waiting(), b.state.is_waiting());
            wb.cmp(&wa).then_with(|| {
                if wa {
                    // The teacher's own claims first: the ones they said they would take.
                    let mine = |r: &HelpRequest| r.state == RequestState::ClaimedByMe;
                    mine(b)
                        .cmp(&mine(a))
                        .then(a.asked_at_ms.total_cmp(&b.asked_at_ms))
                } else {
                    let closed = |r: &HelpRequest| r.closed_at_ms.unwrap_or(r.deadline_ms);
                    closed(b).total_cmp(&closed(a))
                }
            })
        });
        fill_after_help(self.store, &mut out).await?;
        fill_groups(self.store, &mut out).await?;
        Ok(out)
    }

    /// [`Desk::queue`] as `privacy` allows: in projector-safe mode every request goes through
    /// [`HelpRequest::for_room`], with the class's aliases for the seed (no roster is read).
    pub async fn queue_as(
        &self,
        class_id: Option<&str>,
        privacy: Privacy,
    ) -> Result<Vec<HelpRequest>, DeskError> {
        let queue = self.queue(class_id).await?;
        if privacy == Privacy::Names {
            return Ok(queue);
        }
        let mut labelers: std::collections::HashMap<String, Labeler> = Default::default();
        let mut out = Vec::with_capacity(queue.len());
        for request in queue {
            if !labelers.contains_key(&request.class_id) {
                let labeler = self.store.labeler(&request.class_id, privacy).await?;
                labelers.insert(request.class_id.clone(), labeler);
            }
            let alias = labelers
                .get(&request.class_id)
                .map_or_else(|| "Learner".to_string(), |l| l.label(&request.learner));
            out.push(request.for_room(alias));
        }
        Ok(out)
    }

    /// Every help request one learner of a class made, whatever became of it, oldest first (the
    /// student page's help history; on both engines).
    pub async fn history(
        &self,
        class_id: &str,
        learner: &str,
    ) -> Result<Vec<HelpRequest>, DeskError> {
        let mut rows: Vec<Row> = on_pool!(self.store.engine(), |pool| {
            sqlx::query_as(&format!(
                "{SELECT} AND c.class_id = $1 AND c.learner = $2 ORDER BY c.at_ms, {}",
                by_code_point("c.call_id", PG)
            ))
            .bind(class_id)
            .bind(learner)
            .fetch_all(pool)
            .await?
        });
        self.fill_drafts(&mut rows, Some(class_id)).await?;
        let name = self
            .store
            .roster(class_id)
            .await?
            .name(learner)
            .map(str::to_string);
        let me = self.me(class_id).await?;
        let now = self.store.now_ms();
        let mut out: Vec<HelpRequest> = rows
            .into_iter()
            .map(|row| to_request(row, name.clone(), me.as_deref(), now))
            .collect();
        fill_after_help(self.store, &mut out).await?;
        Ok(out)
    }

    /// The class of a request the desk serves. A host names its calls uniquely (it answers
    /// `respond` by call id alone), so among one host's classes the id is enough; another host's
    /// classes are left out (`not_another_hosts!`).
    pub async fn class_of(&self, call_id: &str) -> Result<String, DeskError> {
        let sql = format!(
            "SELECT c.class_id FROM calls c WHERE c.function = 'assist' AND c.call_id = $1 \
             AND {} LIMIT 2",
            not_another_hosts!("c.class_id", "$2")
        );
        let host_id = self.store.named_host_id().await?;
        let classes: Vec<String> = on_pool!(self.store.engine(), |pool| {
            sqlx::query_scalar(&sql)
                .bind(call_id)
                .bind(host_id)
                .fetch_all(pool)
                .await?
        });
        match classes.as_slice() {
            [class_id] => Ok(class_id.clone()),
            [] => Err(DeskError::NotFound(call_id.to_string())),
            _ => Err(DeskError::Ambiguous(call_id.to_string())),
        }
    }

    /// One request, whatever its state.
    pub async fn request(&self, call_id: &str) -> Result<HelpRequest, DeskError> {
        let class_id = self.class_of(call_id).await?;
        let sql = format!("{SELECT} AND c.class_id = $1 AND c.call_id = $2");
        let row: Option<Row> = on_pool!(self.store.engine(), |pool| {
            sqlx::query_as(&sql)
                .bind(&class_id)
                .bind(call_id)
                .fetch_optional(pool)
                .await?
        });
        let mut row = row.ok_or_else(|| DeskError::NotFound(call_id.to_string()))?;
        self.fill_drafts(std::slice::from_mut(&mut row), Some(&class_id))
            .await?;
        let name = self
            .store
            .roster(&row.class_id)
            .await?
            .name(&row.learner)
            .map(str::to_string);
        let me = self.me(&row.class_id).await?;
        Ok(to_request(row, name, me.as_deref(), self.store.now_ms()))
    }

    /// The classes of these calls, each once (calls not stored are skipped): whose views to
    /// refresh after a group answer.
    pub async fn classes_of(&self, call_ids: &[String]) -> Result<Vec<String>, DeskError> {
        let mut classes: Vec<String> = Vec::new();
        for call_id in call_ids {
            let class_id = match self.class_of(call_id).await {
                Ok(class_id) => class_id,
                Err(DeskError::NotFound(_) | DeskError::Ambiguous(_)) => continue,
                Err(e) => return Err(e),
            };
            if !classes.contains(&class_id) {
                classes.push(class_id);
            }
        }
        Ok(classes)
    }

    /// Open requests across every class (the sidebar's and the title's count).
    pub async fn waiting_count(&self) -> Result<i32, DeskError> {
        Ok(self
            .queue(None)
            .await?
            .iter()
            .filter(|r| r.state.is_waiting())
            .count()
            .try_into()
            .unwrap_or(i32::MAX))
    }

    /// Claims a request for this teacher. The host echoes the claim on the feed, so a
    /// co-teacher's dashboard shows it; this one records it at once.
    pub async fn claim(
        &self,
        host: &impl DeskHost,
        call_id: &str,
    ) -> Result<HelpRequest, DeskError> {
        let request = self.request(call_id).await?;
        may_claim(request.state)?;
        // Where whom the host knows this teacher as will be kept, before the host hears of it.
        self.store.own_pool(HOME)?;
        let claimed_by = host.claim(call_id).await?;
        self.store
            .set_setting(&teacher_key(&request.class_id), &claimed_by)
            .await?;
        on_pool!(self.store.engine(), |pool| {
            sqlx::query("UPDATE calls SET claimed_by = $1 WHERE class_id = $2 AND call_id = $3")
                .bind(&claimed_by)
                .bind(&request.class_id)
                .bind(call_id)
                .execute(pool)
                .await?;
        });
        tracing::info!(call_id, "help request claimed");
        self.request(call_id).await
    }

    /// Makes an answer ready to send: the contract's bounds, then the privacy gate over every
    /// roster's names. Nothing touches the network before this passes, so the shell calls it
    /// before it opens a host session.
    pub async fn prepare_answer(&self, text: &str) -> Result<OutgoingText, DeskError> {
        let answer = validate_answer(text)?;
        Ok(self.store.outgoing_text(TextField::Answer, &answer).await?)
    }

    /// Answers a request with text (typed, or a saved reply's body).
    pub async fn answer(
        &self,
        host: &impl DeskHost,
        call_id: &str,
        text: &str,
    ) -> Result<HelpRequest, DeskError> {
        let answer = self.prepare_answer(text).await?;
        self.send_answer(host, call_id, answer).await
    }

    /// Sends an answer that [`Desk::prepare_answer`] passed.
    pub async fn send_answer(
        &self,
        host: &impl DeskHost,
        call_id: &str,
        answer: OutgoingText,
    ) -> Result<HelpRequest, DeskError> {
        let value = ResponseValue::Assist(AssistValue {
            answer: answer.into_string(),
            answered_by: AnsweredBy::Teacher,
        });
        self.send(host, call_id, Ok(value)).await
    }

    /// Answers that the teacher is on the way.
    pub async fn coming_over(
        &self,
        host: &impl DeskHost,
        call_id: &str,
    ) -> Result<HelpRequest, DeskError> {
        let value = ResponseValue::Assist(AssistValue {
            answer: OutgoingText::from_catalog(coming_over_text(crate::error::window_language()))
                .into_string(),
            answered_by: AnsweredBy::Teacher,
        });
        self.send_with(host, call_id, Ok(value), Promise::Visit)
            .await
    }

    /// Declines a request: an `error` with code `declined`.
    pub async fn decline(
        &self,
        host: &impl DeskHost,
        call_id: &str,
    ) -> Result<HelpRequest, DeskError> {
        let error = CallError {
            code: "declined".into(),
            message: decline_message(crate::error::window_language()),
        };
        self.send(host, call_id, Err(error)).await
    }

    /// Sends one answer to every request of a group. The text was checked once, before anything
    /// is sent ([`Desk::prepare_answer`]); then each call gets its own outcome (one may have expired or been answered by a
    /// co-teacher meanwhile without stopping the others).
    pub async fn answer_group(
        &self,
        host: &impl DeskHost,
        call_ids: &[String],
        answer: OutgoingText,
    ) -> Result<Vec<GroupOutcome>, DeskError> {
        let mut out = Vec::with_capacity(call_ids.len());
        for call_id in call_ids {
            let error = match self.send_answer(host, call_id, answer.clone()).await {
                Ok(_) => None,
                Err(DeskError::Store(e)) => return Err(DeskError::Store(e)),
                Err(e) => Some(UiError::from(e)),
            };
            out.push(GroupOutcome {
                call_id: call_id.clone(),
                error,
            });
        }
        Ok(out)
    }

    async fn send(
        &self,
        host: &impl DeskHost,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
    ) -> Result<HelpRequest, DeskError> {
        self.send_with(host, call_id, response, Promise::None).await
    }

    /// Sends one response and records it, with the visit it promises (if any) in the same
    /// transaction: a "coming over" the host accepted is always on the Visits list.
    async fn send_with(
        &self,
        host: &impl DeskHost,
        call_id: &str,
        response: Result<ResponseValue, CallError>,
        promise: Promise,
    ) -> Result<HelpRequest, DeskError> {
        let request = self.request(call_id).await?;
        // Exactly one response per call, and none after the deadline: checked here with the
        // clock before anything is sent (the host checks again).
        may_respond(request.state)?;
        let home = self.store.own_pool(HOME)?;
        let (outcome, stored) = match &response {
            Ok(value) => ("answered", serde_json::json!({ "value": value })),
            Err(error) => ("declined", serde_json::json!({ "error": error })),
        };
        host.respond(call_id, response).await?;
        let now = self.store.now_ms();
        // The teacher's file first: once the host has accepted "coming over", the visit is a
        // promise, kept before anything else can fail (beside a shared store these are two
        // databases, so two transactions).
        let mut mine = home.begin().await?;
        sqlx::query("DELETE FROM desk_drafts WHERE class_id = ? AND call_id = ?")
            .bind(&request.class_id)
            .bind(call_id)
            .execute(&mut *mine)
            .await?;
        if promise == Promise::Visit {
            sqlx::query(
                "INSERT INTO desk_visits (call_id, class_id, learner, pathway_id, widget_id, \
                 promised_at_ms) VALUES (?, ?, ?, ?, ?, ?) \
                 ON CONFLICT (class_id, call_id) DO NOTHING",
            )
            .bind(call_id)
            .bind(&request.class_id)
            .bind(&request.learner)
            .bind(&request.pathway_id)
            .bind(&request.widget_id)
            .bind(now)
            .execute(&mut *mine)
            .await?;
        }
        mine.commit().await?;
        // What this desk sent, where a co-teacher's desk sees it; an answer sent is never a
        // follow-up owed, so the grid's cell follows in the same transaction.
        let mut tx = self.store.engine().begin_write().await?;
        let conn = &mut tx.conn();
        on_conn!(conn, |c| {
            sqlx::query(
                "INSERT INTO desk_sent (call_id, class_id, outcome, response, sent_at_ms) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (class_id, call_id) DO NOTHING",
            )
            .bind(call_id)
            .bind(&request.class_id)
            .bind(outcome)
            .bind(stored.to_string())
            .bind(now)
            .execute(&mut *c)
            .await?;
        });
        refresh_call_row(conn, &request.class_id, call_id).await?;
        tx.commit().await?;
        tracing::info!(call_id, outcome, "help request answered");
        self.request(call_id).await
    }
}

fn to_request(row: Row, display_name: Option<String>, me: Option<&str>, now: i64) -> HelpRequest {
    let request: Value = row
        .request
        .as_deref()
        .and_then(|r| serde_json::from_str(r).ok())
        .unwrap_or(Value::Null);
    let args = request.get("args");
    let state = request_state(
        &CallView {
            stored_state: &row.state,
            claimed_by: row.claimed_by.as_deref(),
            my_teacher_id: me,
            sent: row.sent_outcome.as_deref(),
            deadline_ms: row.deadline_ms,
        },
        now,
    );
    let answer =
        answer_of(row.response.as_deref()).or_else(|| answer_of(row.sent_response.as_deref()));
    let closed_at = row
        .closed_at_ms
        .or(row.sent_at_ms)
        .or_else(|| (state == RequestState::Expired).then_some(row.deadline_ms));
    HelpRequest {
        call_id: row.call_id,
        class_id: row.class_id,
        learner: row.learner,
        display_name,
        pathway_id: row.pathway_id,
        widget_id: row.widget_id,
        step_title: row.step_title,
        kind: row.kind,
        standard: row.standard,
        question: args
            .and_then(|a| a.get("question"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        attempts: count(args.and_then(|a| a.get("attempts"))),
        hints: count(args.and_then(|a| a.get("hints"))),
        asked_at_ms: ms(row.at_ms),
        deadline_ms: ms(row.deadline_ms),
        now_ms: ms(now),
        waiting: state.is_waiting(),
        state,
        draft: row.draft,
        answer,
        closed_at_ms: closed_at.map(ms),
        after_help: None,
        groups: Vec::new(),
    }
}

/// Fills [`HelpRequest::groups`]: the groups of its class each request's learner is in.
async fn fill_groups(store: &Store, requests: &mut [HelpRequest]) -> Result<(), StoreError> {
    let mut classes: Vec<String> = requests.iter().map(|r| r.class_id.clone()).collect();
    classes.sort();
    classes.dedup();
    for class_id in classes {
        let groups = store.groups(&class_id).await?;
        for r in requests.iter_mut().filter(|r| r.class_id == class_id) {
            r.groups = groups
                .iter()
                .filter(|g| g.learners.contains(&r.learner))
                .map(|g| g.name.clone())
                .collect();
        }
    }
    Ok(())
}

/// Fills [`HelpRequest::after_help`] of the answered and declined requests among `requests`:
/// one read of each pathway's runs they name.
async fn fill_after_help(store: &Store, requests: &mut [HelpRequest]) -> Result<(), StoreError> {
    let mut pathways: Vec<(String, String)> = requests
        .iter()
        .filter(|r| matches!(r.state, RequestState::Answered | RequestState::Declined))
        .map(|r| (r.class_id.clone(), r.pathway_id.clone()))
        .collect();
    pathways.sort();
    pathways.dedup();
    for (class_id, pathway_id) in pathways {
        let after = store.after_help_on(&class_id, &pathway_id).await?;
        for r in requests
            .iter_mut()
            .filter(|r| r.class_id == class_id && r.pathway_id == pathway_id)
        {
            r.after_help = after.get(&r.call_id).copied();
        }
    }
    Ok(())
}

/// Brings the grid's rollup of a call's row up to date, after a desk write (in `conn`'s write
/// transaction) that decides whether the call is a follow-up owed. The rollup moves the class
/// totals by difference, so it takes the class's write lock as ingest does: on a shared store
/// a sync may be writing the same class.
pub(crate) async fn refresh_call_row(
    conn: &mut Conn<'_>,
    class_id: &str,
    call_id: &str,
) -> Result<(), StoreError> {
    lock_class(conn, class_id).await?;
    let mut touched = crate::store::rollup::Touched::default();
    touched.call(call_id);
    crate::store::rollup::refresh_touched(conn, class_id, touched, None).await?;
    // The class's cells changed outside its follower: the follower's copy is stale.
    crate::store::Store::bump_class_versions(conn, Some(class_id)).await
}
