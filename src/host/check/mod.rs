//! `host check`: a conformance suite for a pathway host. It runs the interface of
//! `pathway-host.md` against a live host and gives one verdict per rule, so that whoever builds a
//! host learns what the dashboard needs from it without guessing from what the app shows.
//!
//! Read-only unless [`CheckOptions::allow_writes`]: a check against a school's host changes
//! nothing. The token is sent only as the bearer header and never appears in a verdict.
//!
//! The same suite serves the command line (`a2learn-teacher host check`), the settings page (a
//! short verdict before a host is saved) and Diagnostics (the full list).

mod read;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use a2learn_contract::check::{Checker, Outcome, offset_warning};
use a2learn_contract::transport::agui;
use a2learn_contract::{AssistValue, CallError, Message, Parsed, Registry, ResponseValue};
use serde::Serialize;
use serde_json::{Value, json};

use super::mcp::{HostClient, HostError};
use crate::privacy::outgoing::OutgoingText;
use crate::store::Pathway;
use read::{FeedRead, Item, Until, read_feed};

/// What to check, and how.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The host's base URL (`{host}/mcp`, `{host}/ag-ui/…`).
    pub host: String,
    pub token: String,
    /// The class whose feed is read; without it, the first class `list_classes` names, or the
    /// throwaway class of `allow_writes`.
    pub class_id: Option<String>,
    /// How long the feed is watched (and, with writes, how long to wait for a help request).
    pub seconds: u64,
    /// Create a throwaway class and exercise the tools that write.
    pub allow_writes: bool,
}

/// A check's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "UPPERCASE")]
pub enum CheckStatus {
    Pass,
    Fail,
    Skip,
}

impl CheckStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            CheckStatus::Pass => "PASS",
            CheckStatus::Fail => "FAIL",
            CheckStatus::Skip => "SKIP",
        }
    }
}

/// One check and its verdict.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct CheckResult {
    /// A stable id, e.g. `feed.resume`.
    pub id: String,
    /// The spec section the rule comes from, e.g. `pathway-host.md §2`.
    pub section: String,
    /// A failed required check means the dashboard cannot follow this host as it should; an
    /// optional one is advice.
    pub required: bool,
    pub status: CheckStatus,
    /// The rule, in a few words.
    pub what: String,
    /// Why it failed or was skipped, or what was seen.
    pub detail: Option<String>,
}

/// Every verdict on one host.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct CheckReport {
    pub host: String,
    pub checks: Vec<CheckResult>,
    pub passed: u32,
    pub failed: u32,
    pub skipped: u32,
}

impl CheckReport {
    /// Did a required check fail?
    pub fn required_failed(&self) -> bool {
        self.checks
            .iter()
            .any(|c| c.required && c.status == CheckStatus::Fail)
    }

    /// The first failed required check: what the settings page names.
    pub fn first_failure(&self) -> Option<&CheckResult> {
        self.checks
            .iter()
            .find(|c| c.required && c.status == CheckStatus::Fail)
    }

    /// `PASS|FAIL|SKIP <id> <what> (<section>) [— detail]`, one line per check, then the totals.
    pub fn lines(&self) -> Vec<String> {
        let mut lines: Vec<String> = self
            .checks
            .iter()
            .map(|c| {
                let optional = if c.required { "" } else { ", optional" };
                let mut line = format!(
                    "{} {} {} ({}{optional})",
                    c.status.as_str(),
                    c.id,
                    c.what,
                    c.section
                );
                if let Some(detail) = &c.detail {
                    line.push_str(" — ");
                    line.push_str(detail);
                }
                line
            })
            .collect();
        lines.push(format!(
            "{} passed, {} failed, {} skipped",
            self.passed, self.failed, self.skipped
        ));
        lines
    }
}

/// The host could not be reached at all: no verdict on any rule.
#[derive(Debug, thiserror::Error)]
pub enum CheckError {
    #[error("the host at {host} cannot be reached: {why}")]
    Unreachable { host: String, why: String },
}

impl crate::error::Coded for CheckError {
    fn code(&self) -> crate::ErrorCode {
        crate::ErrorCode::Host
    }
}

/// The spec's bound on a silent feed (`pathway-host.md` §2).
const PING_BOUND: Duration = Duration::from_secs(15);
/// The tools every host has (`pathway-host.md` §1), with the arguments each must take.
const REQUIRED_TOOLS: [(&str, &[&str]); 6] = [
    ("create_class", &["title"]),
    ("list_pathways", &[]),
    ("assign_pathway", &["class_id", "pathway_id"]),
    ("get_pathway_results", &["class_id", "pathway_id"]),
    ("claim", &["call_id"]),
    ("respond", &["call_id"]),
];
/// The optional tools (`pathway-host.md` §3, and `list_classes`).
const OPTIONAL_TOOLS: [(&str, &[&str]); 4] = [
    ("pause_class", &["class_id"]),
    ("resume_class", &["class_id"]),
    ("set_pacing", &["class_id", "pathway_id", "up_to"]),
    ("list_classes", &[]),
];
const HOST: &str = "pathway-host.md";
/// How long an echo of a tool call may take to reach the feed.
const ECHO_WAIT: Duration = Duration::from_secs(10);
const NO_SUCH_CLASS: &str = "a2learn-host-check-no-such-class";

struct Suite {
    checks: Vec<CheckResult>,
}

impl Suite {
    fn record(
        &mut self,
        id: &str,
        section: &str,
        required: bool,
        what: &str,
        verdict: Result<Option<String>, Verdict>,
    ) {
        let (status, detail) = match verdict {
            Ok(detail) => (CheckStatus::Pass, detail),
            Err(Verdict::Fail(why)) => (CheckStatus::Fail, Some(why)),
            Err(Verdict::Skip(why)) => (CheckStatus::Skip, Some(why)),
        };
        self.checks.push(CheckResult {
            id: id.into(),
            section: section.into(),
            required,
            status,
            what: what.into(),
            detail,
        });
    }

    fn report(self, host: &str) -> CheckReport {
        let count = |s: CheckStatus| {
            u32::try_from(self.checks.iter().filter(|c| c.status == s).count()).unwrap_or(u32::MAX)
        };
        CheckReport {
            host: host.to_owned(),
            passed: count(CheckStatus::Pass),
            failed: count(CheckStatus::Fail),
            skipped: count(CheckStatus::Skip),
            checks: self.checks,
        }
    }
}

/// Why a check did not pass.
enum Verdict {
    Fail(String),
    Skip(String),
}

/// The host under check: its MCP session, and how its feeds are read.
struct Conn<'a> {
    client: &'a HostClient,
    http: &'a reqwest::Client,
    base: &'a str,
    token: &'a str,
}

impl Conn<'_> {
    /// Reads a class's feed (see [`read_feed`]).
    async fn read(
        &self,
        class_id: &str,
        resume: Option<i64>,
        window: Duration,
        until: Until<'_>,
    ) -> Result<FeedRead, reqwest::Error> {
        let url = format!("{}/ag-ui/classes/{class_id}/events", self.base);
        read_feed(self.http, &url, Some(self.token), resume, window, until).await
    }
}

fn fail<T>(why: impl Into<String>) -> Result<T, Verdict> {
    Err(Verdict::Fail(why.into()))
}

fn skip<T>(why: impl Into<String>) -> Result<T, Verdict> {
    Err(Verdict::Skip(why.into()))
}

/// Runs every check against the host. `Err` only when the host cannot be reached at all.
pub async fn check_host(options: &CheckOptions) -> Result<CheckReport, CheckError> {
    let host = options.host.trim_end_matches('/').to_owned();
    let http = reqwest::Client::builder()
        .connect_timeout(Duration::from_secs(10))
        .build()
        .map_err(|e| CheckError::Unreachable {
            host: host.clone(),
            why: e.to_string(),
        })?;
    let mut suite = Suite { checks: Vec::new() };
    // Authentication first: it also tells whether anything answers at this address.
    let probe_class = options.class_id.as_deref().unwrap_or(NO_SUCH_CLASS);
    let probe_url = format!("{host}/ag-ui/classes/{probe_class}/events");
    let auth = check_auth(&http, &host, &probe_url, &options.token).await?;
    suite.record(
        "auth.refused",
        &format!("{HOST}, opening"),
        true,
        "no token and a wrong token get 401 and nothing else",
        auth,
    );

    let client = match HostClient::connect(&host, &options.token).await {
        Ok(client) => client,
        Err(HostError::Unreachable(why)) => {
            return Err(CheckError::Unreachable { host, why });
        }
        Err(e) => {
            suite.record(
                "auth.accepted",
                &format!("{HOST}, opening"),
                true,
                "the token opens an MCP session at /mcp",
                fail(e.to_string()),
            );
            return Ok(suite.report(&host));
        }
    };
    suite.record(
        "auth.accepted",
        &format!("{HOST}, opening"),
        true,
        "the token opens an MCP session at /mcp",
        Ok(None),
    );
    let conn = Conn {
        client: &client,
        http: &http,
        base: &host,
        token: &options.token,
    };

    let tools = client.tool_schemas().await;
    suite.record(
        "tools.required",
        &format!("{HOST} §1"),
        true,
        "tools/list has every required tool, each with an input schema naming its arguments",
        match &tools {
            Ok(tools) => tools_verdict(tools, &REQUIRED_TOOLS, true),
            Err(e) => fail(e.to_string()),
        },
    );
    let tools = tools.unwrap_or_default();
    suite.record(
        "tools.optional",
        &format!("{HOST} §3"),
        false,
        "the optional tools (pause_class, resume_class, set_pacing, list_classes) are described",
        tools_verdict(&tools, &OPTIONAL_TOOLS, false),
    );

    let catalog = client.call("list_pathways", json!({})).await;
    let (catalog_verdict, pathways) = match &catalog {
        Ok(value) => catalog_verdict(value),
        Err(e) => (fail(e.to_string()), Vec::new()),
    };
    suite.record(
        "catalog.valid",
        &format!("{HOST} §1, contract.md §2"),
        true,
        "list_pathways entries are valid registry entries, steps unique, requires known",
        catalog_verdict,
    );
    let registry = registry_of(&pathways);

    // The class to read: the one asked for, else one the host lists, else a throwaway one.
    let mut class_id = options.class_id.clone();
    if class_id.is_none() && tools.contains_key(super::mcp::LIST_CLASSES) {
        class_id = client
            .list_classes()
            .await
            .ok()
            .and_then(|classes| classes.into_iter().next().map(|c| c.class_id));
    }
    let writes = if options.allow_writes {
        Some(run_writes(&conn, &mut suite, &pathways, &tools).await)
    } else {
        for (id, what) in WRITE_CHECKS {
            suite.record(
                id,
                &format!("{HOST} §1"),
                true,
                what,
                skip("read-only: `host check --allow-writes` runs it on a throwaway class"),
            );
        }
        None
    };
    let throwaway = writes.as_ref().and_then(|w| w.class_id.clone());
    if class_id.is_none() {
        class_id = throwaway.clone();
    }

    let unknown = conn
        .read(
            NO_SUCH_CLASS,
            None,
            Duration::from_secs(10),
            Until::Idle(Duration::from_millis(300)),
        )
        .await;
    suite.record(
        "feed.unknown-class",
        &format!("{HOST} §2"),
        true,
        "the feed of a class that does not exist answers 404",
        match unknown {
            Ok(read) if read.status == 404 => Ok(None),
            Ok(read) => fail(format!("answered HTTP {}", read.status)),
            Err(e) => fail(e.to_string()),
        },
    );

    match class_id {
        Some(class_id) => {
            feed_checks(
                &mut suite,
                &conn,
                &class_id,
                options.seconds,
                &registry,
                &tools,
            )
            .await;
        }
        None => {
            for (id, section, what, required) in FEED_CHECKS {
                suite.record(
                    id,
                    section,
                    required,
                    what,
                    skip("no class to read: name one with --class (or --allow-writes)"),
                );
            }
        }
    }
    let window = Duration::from_secs(options.seconds.max(1));
    if let Some(writes) = writes
        && let Some(throwaway) = writes.class_id
    {
        let round_trip = claim_respond_verdict(&conn, &throwaway, window).await;
        suite.record(
            "writes.claim-respond",
            &format!("{HOST} §1, §2"),
            true,
            "a help request is claimed and answered, and the feed echoes both",
            round_trip,
        );
        if writes.room {
            let room = room_verdict(&conn, &throwaway).await;
            suite.record(
                "writes.room",
                &format!("{HOST} §3"),
                false,
                "pause_class and resume_class take effect and are echoed on the feed",
                room,
            );
        }
    } else if options.allow_writes {
        suite.record(
            "writes.claim-respond",
            &format!("{HOST} §1, §2"),
            true,
            "a help request is claimed and answered, and the feed echoes both",
            skip("no throwaway class was created"),
        );
    }
    client.close().await;
    Ok(suite.report(&host))
}

/// The checks on one class's feed, and `get_pathway_results` against it.
async fn feed_checks(
    suite: &mut Suite,
    conn: &Conn<'_>,
    class_id: &str,
    seconds: u64,
    registry: &Registry,
    tools: &ToolSchemas,
) {
    let window = Duration::from_secs(seconds.max(1));
    let full = conn.read(class_id, None, window, Until::Window).await;
    let full = match full {
        Ok(read) if (200..300).contains(&read.status) => read,
        other => {
            let why = match other {
                Ok(read) => format!(
                    "the feed of class {class_id:?} answered HTTP {}",
                    read.status
                ),
                Err(e) => format!("the feed of class {class_id:?} cannot be read: {e}"),
            };
            for (id, section, what, required) in FEED_CHECKS {
                suite.record(id, section, required, what, fail(why.clone()));
            }
            return;
        }
    };
    let feed = FeedFacts::of(&full, registry);
    feed.record(suite, &full, class_id);

    let resumed = resume_verdict(conn, class_id, &full).await;
    suite.record(
        "feed.resume",
        &format!("{HOST} §2, §4"),
        true,
        "reconnecting with Last-Event-ID yields exactly the frames after it",
        resumed,
    );

    let results = if tools.contains_key("get_pathway_results") {
        results_verdict(conn, class_id, &full, &feed, registry).await
    } else {
        skip("the host has no get_pathway_results (tools.required)")
    };
    suite.record(
        "results.match-feed",
        &format!("{HOST} §1"),
        true,
        "get_pathway_results holds exactly the completions and struggles the feed carried",
        results,
    );
}

const WRITE_CHECKS: [(&str, &str); 3] = [
    (
        "writes.create-class",
        "create_class returns a class id and a join code, and the class's feed opens",
    ),
    (
        "writes.assign-idempotent",
        "assigning the same pathway to the same class twice returns the same assignment id",
    ),
    (
        "writes.claim-respond",
        "a help request is claimed and answered, and the feed echoes both",
    ),
];

/// The checks of a class's feed: id, section, what, required.
const FEED_CHECKS: [(&str, &str, &str, bool); 10] = [
    (
        "feed.content-type",
        "pathway-host.md §2",
        "the feed answers text/event-stream",
        true,
    ),
    (
        "feed.opening",
        "pathway-host.md §2",
        "a connection opens with RUN_STARTED then STATE_SNAPSHOT {class_id, learners, assignments}",
        true,
    ),
    (
        "feed.ids",
        "pathway-host.md §2",
        "every data frame after the opening has an id: <seq>",
        true,
    ),
    (
        "feed.seq-order",
        "pathway-host.md §2",
        "seqs are strictly increasing",
        true,
    ),
    (
        "feed.agui",
        "pathway-host.md §2",
        "every frame passes the rules of AG-UI's EventSchema",
        true,
    ),
    (
        "feed.contract",
        "pathway-host.md §2, contract.md",
        "every a2learn frame passes the contract",
        true,
    ),
    (
        "feed.utc",
        "contract.md §1",
        "every time is written in UTC (Z)",
        false,
    ),
    (
        "feed.ping",
        "pathway-host.md §2",
        "the feed is never silent for 15 s: a frame or a ping at least every 15 s",
        true,
    ),
    (
        "feed.resume",
        "pathway-host.md §2, §4",
        "reconnecting with Last-Event-ID yields exactly the frames after it",
        true,
    ),
    (
        "results.match-feed",
        "pathway-host.md §1",
        "get_pathway_results holds exactly the completions and struggles the feed carried",
        true,
    ),
];

/// `auth.refused`: the MCP endpoint and the feed, without a token and with a wrong one.
async fn check_auth(
    http: &reqwest::Client,
    host: &str,
    feed_url: &str,
    token: &str,
) -> Result<Result<Option<String>, Verdict>, CheckError> {
    let wrong = format!("{token}-not-this-one");
    let initialize = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "a2learn-host-check", "version": "1"}},
    });
    let mut problems = Vec::new();
    for (label, presented) in [("no token", None), ("a wrong token", Some(wrong.as_str()))] {
        let mut mcp = http
            .post(super::mcp::mcp_url(host))
            .header(
                reqwest::header::ACCEPT,
                "application/json, text/event-stream",
            )
            .json(&initialize);
        let mut feed = http
            .get(feed_url)
            .header(reqwest::header::ACCEPT, "text/event-stream");
        if let Some(t) = presented {
            mcp = mcp.bearer_auth(t);
            feed = feed.bearer_auth(t);
        }
        for (endpoint, request) in [("/mcp", mcp), ("the feed", feed)] {
            let response = tokio::time::timeout(Duration::from_secs(10), request.send()).await;
            let response = match response {
                Err(_) => {
                    problems.push(format!("{endpoint} with {label}: no answer within 10 s"));
                    continue;
                }
                Ok(Err(e)) if e.is_connect() => {
                    return Err(CheckError::Unreachable {
                        host: host.to_owned(),
                        why: e.to_string(),
                    });
                }
                Ok(Err(e)) => {
                    problems.push(format!("{endpoint} with {label}: {e}"));
                    continue;
                }
                Ok(Ok(r)) => r,
            };
            let status = response.status().as_u16();
            let headers = format!("{:?}", response.headers());
            let body = tokio::time::timeout(Duration::from_secs(2), response.text())
                .await
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default();
            if status != 401 {
                problems.push(format!("{endpoint} with {label} answered HTTP {status}"));
            } else if body.contains("jsonrpc") || body.contains("data:") {
                problems.push(format!("{endpoint} with {label}: 401 with content"));
            }
            if (body.contains(token) || headers.contains(token))
                || presented.is_some_and(|t| body.contains(t) || headers.contains(t))
            {
                problems.push(format!(
                    "{endpoint} with {label}: the answer echoes the token"
                ));
            }
        }
    }
    Ok(if problems.is_empty() {
        Ok(None)
    } else {
        fail(problems.join("; "))
    })
}

/// A tool's description as `tools/list` gives it: the properties its input schema names.
pub type ToolSchemas = HashMap<String, BTreeSet<String>>;

fn tools_verdict(
    tools: &ToolSchemas,
    wanted: &[(&str, &[&str])],
    required: bool,
) -> Result<Option<String>, Verdict> {
    let mut missing = Vec::new();
    let mut found = Vec::new();
    let mut undescribed = Vec::new();
    for (tool, args) in wanted {
        let Some(properties) = tools.get(*tool) else {
            missing.push(*tool);
            continue;
        };
        found.push(*tool);
        let absent: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !properties.contains(*a))
            .collect();
        if !absent.is_empty() {
            undescribed.push(format!("{tool} (no {})", absent.join(", ")));
        }
    }
    if !undescribed.is_empty() {
        return fail(format!(
            "input schemas do not name their arguments: {}",
            undescribed.join("; ")
        ));
    }
    if required && !missing.is_empty() {
        return fail(format!("missing: {}", missing.join(", ")));
    }
    if found.is_empty() {
        return skip("none offered (the dashboard shows none of their controls)");
    }
    Ok(Some(if missing.is_empty() {
        format!("found {}", found.join(", "))
    } else {
        format!(
            "found {}; not offered: {}",
            found.join(", "),
            missing.join(", ")
        )
    }))
}

/// `catalog.valid`: the pathways parse, their registry entries pass the contract's rule 1 and
/// agree with each other, widget ids are unique in a pathway, `requires` names widgets of the
/// pathway and standards name known standards.
fn catalog_verdict(value: &Value) -> (Result<Option<String>, Verdict>, Vec<Pathway>) {
    let pathways: Vec<Pathway> = match value
        .get("pathways")
        .cloned()
        .map(serde_json::from_value::<Vec<Pathway>>)
    {
        Some(Ok(p)) => p,
        Some(Err(e)) => return (fail(format!("pathways do not parse: {e}")), Vec::new()),
        None => return (fail("no pathways in the answer"), Vec::new()),
    };
    let mut problems = Vec::new();
    if let Err(e) = crate::store::registry_of(&pathways) {
        problems.push(e.to_string());
    }
    let raw = value["pathways"].as_array().cloned().unwrap_or_default();
    for (pathway, raw) in pathways.iter().zip(&raw) {
        if pathway.pathway_id.trim().is_empty() {
            problems.push("a pathway has an empty pathway_id".into());
        }
        if pathway.steps.is_empty() {
            problems.push(format!("{} has no steps", pathway.pathway_id));
        }
        let mut seen = HashSet::new();
        for step in &pathway.steps {
            if !seen.insert(step.widget_id.as_str()) {
                problems.push(format!(
                    "{} has widget_id {:?} twice",
                    pathway.pathway_id, step.widget_id
                ));
            }
        }
        for step in raw["steps"].as_array().into_iter().flatten() {
            let Some(requires) = step.get("requires") else {
                continue;
            };
            let Some(list) = requires.as_array() else {
                problems.push(format!("{}: requires is not a list", pathway.pathway_id));
                continue;
            };
            for needed in list {
                if !needed.as_str().is_some_and(|w| seen.contains(w)) {
                    problems.push(format!(
                        "{}: step {} requires {needed}, which is not a step of the pathway",
                        pathway.pathway_id, step["widget_id"]
                    ));
                }
            }
        }
    }
    if let Some(standards) = value.get("standards").and_then(Value::as_array) {
        let codes: HashSet<&str> = standards
            .iter()
            .filter_map(|s| s.get("code").and_then(Value::as_str))
            .collect();
        for standard in standards {
            for needed in standard["requires"].as_array().into_iter().flatten() {
                if !needed.as_str().is_some_and(|c| codes.contains(c)) {
                    problems.push(format!(
                        "standard {} requires {needed}, which the catalog does not list",
                        standard["code"]
                    ));
                }
            }
        }
    }
    let verdict = if problems.is_empty() {
        Ok(Some(format!("{} pathways", pathways.len())))
    } else {
        fail(problems.join("; "))
    };
    (verdict, pathways)
}

/// The registry the feed is judged by: the catalog's entries, each kind once (a kind declared
/// twice in different ways is `catalog.valid`'s failure; the first declaration is used here).
fn registry_of(pathways: &[Pathway]) -> Registry {
    let mut entries: Vec<a2learn_contract::RegistryEntry> = Vec::new();
    for step in pathways.iter().flat_map(|p| &p.steps) {
        if !entries.iter().any(|e| e.kind == step.entry.kind)
            && a2learn_contract::rules::validate_registry_entry(&step.entry).is_ok()
        {
            entries.push(step.entry.clone());
        }
    }
    Registry::new(entries).unwrap_or_default()
}

/// What one full read of the feed showed, rule by rule.
struct FeedFacts {
    /// Contract payloads the feed carried and the contract accepted, by pathway: completions
    /// and struggles, as their stored JSON (times in UTC).
    payloads: HashMap<String, HashSet<String>>,
    agui_failures: Vec<String>,
    contract_failures: Vec<String>,
    offsets: Vec<String>,
    frames: usize,
}

impl FeedFacts {
    fn of(read: &FeedRead, registry: &Registry) -> Self {
        let mut facts = FeedFacts {
            payloads: HashMap::new(),
            agui_failures: Vec::new(),
            contract_failures: Vec::new(),
            offsets: Vec::new(),
            frames: 0,
        };
        let mut checker = Checker::new(registry.clone());
        let mut seqs = HashSet::new();
        for (id, data) in read.frames() {
            // A repeated seq is `feed.seq-order`'s failure; its frame is judged once.
            if let Some(seq) = id
                .as_deref()
                .and_then(|id| a2learn_proto::ingest::parse_seq(id).ok())
                && !seqs.insert(seq)
            {
                continue;
            }
            facts.frames += 1;
            let at = id
                .as_deref()
                .map_or_else(|| "a frame without id".to_owned(), |id| format!("seq {id}"));
            let value: Value = match serde_json::from_str(data) {
                Ok(v) => v,
                Err(e) => {
                    facts.agui_failures.push(format!("{at}: not JSON ({e})"));
                    continue;
                }
            };
            if let Err(e) = agui::check_event_schema(&value) {
                facts.agui_failures.push(format!("{at}: {e}"));
                continue;
            }
            let is_ours = value.get("type").and_then(Value::as_str) == Some("CUSTOM")
                && value
                    .get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| n.starts_with("a2learn."));
            if !is_ours {
                continue;
            }
            let Some(report) = checker.check_line(facts.frames, data) else {
                continue;
            };
            match report.outcome {
                Outcome::Rejected(e) => facts
                    .contract_failures
                    .push(format!("{at}: {}: {e}", e.rule_id())),
                Outcome::Accepted { message, .. } => {
                    if let Some(warning) = offset_warning(&message) {
                        facts.offsets.push(format!("{at}: {warning}"));
                    }
                    if let Some((pathway, payload)) = stored_payload(*message) {
                        facts.payloads.entry(pathway).or_default().insert(payload);
                    }
                }
                Outcome::Upstream(what) => facts.contract_failures.push(format!("{at}: {what}")),
                Outcome::Host { .. } | Outcome::Ignored { .. } => {}
            }
        }
        facts
    }

    fn record(&self, suite: &mut Suite, read: &FeedRead, class_id: &str) {
        let section = format!("{HOST} §2");
        suite.record(
            "feed.content-type",
            &section,
            true,
            FEED_CHECKS[0].2,
            match read.content_type.as_deref() {
                Some(t) if t.split(';').next().map(str::trim) == Some("text/event-stream") => {
                    Ok(None)
                }
                Some(t) => fail(format!("Content-Type: {t}")),
                None => fail("no Content-Type"),
            },
        );
        suite.record(
            "feed.opening",
            &section,
            true,
            FEED_CHECKS[1].2,
            opening_verdict(read, class_id),
        );
        let unnumbered: Vec<String> = read
            .frames()
            .skip(2)
            .filter(|(id, data)| id.is_none() && !is_closing(data))
            .map(|(_, data)| event_type(data))
            .collect();
        let bad_ids: Vec<&str> = read
            .frames()
            .filter_map(|(id, _)| id.as_deref())
            .filter(|id| a2learn_proto::ingest::parse_seq(id).is_err())
            .collect();
        suite.record(
            "feed.ids",
            &section,
            true,
            FEED_CHECKS[2].2,
            if !unnumbered.is_empty() {
                fail(format!(
                    "{} data frames without an id: line (the first: {})",
                    unnumbered.len(),
                    unnumbered[0]
                ))
            } else if !bad_ids.is_empty() {
                fail(format!(
                    "ids that are not a decimal seq: {:?}",
                    &bad_ids[..bad_ids.len().min(3)]
                ))
            } else {
                Ok(Some(format!("{} frames read", self.frames)))
            },
        );
        let mut previous: Option<i64> = None;
        let mut disorder = Vec::new();
        for seq in read.items.iter().filter_map(|(_, i)| i.seq()) {
            if previous.is_some_and(|p| seq <= p) {
                disorder.push(format!("{seq} after {}", previous.unwrap_or_default()));
            }
            previous = Some(previous.map_or(seq, |p| p.max(seq)));
        }
        suite.record(
            "feed.seq-order",
            &section,
            true,
            FEED_CHECKS[3].2,
            if disorder.is_empty() {
                Ok(None)
            } else {
                fail(format!(
                    "{} seqs repeated or out of order (the first: {})",
                    disorder.len(),
                    disorder[0]
                ))
            },
        );
        suite.record(
            "feed.agui",
            &section,
            true,
            FEED_CHECKS[4].2,
            failures_verdict(&self.agui_failures, "frames break EventSchema"),
        );
        suite.record(
            "feed.contract",
            &format!("{HOST} §2, contract.md"),
            true,
            FEED_CHECKS[5].2,
            failures_verdict(&self.contract_failures, "a2learn frames break the contract"),
        );
        suite.record(
            "feed.utc",
            "contract.md §1",
            false,
            FEED_CHECKS[6].2,
            if self.offsets.is_empty() {
                Ok(None)
            } else {
                fail(format!(
                    "warning: {} events carry a time in an offset; the dashboard reads them (the \
                     same instants, kept as UTC), but a writer sends Z. The first: {}",
                    self.offsets.len(),
                    self.offsets[0]
                ))
            },
        );
        suite.record(
            "feed.ping",
            &section,
            true,
            FEED_CHECKS[7].2,
            ping_verdict(read),
        );
    }
}

fn failures_verdict(failures: &[String], what: &str) -> Result<Option<String>, Verdict> {
    match failures.first() {
        None => Ok(None),
        Some(first) => fail(format!("{} {what}; the first: {first}", failures.len())),
    }
}

/// A completion's or struggle's pathway and its payload as the store keeps it (times in UTC).
fn stored_payload(mut message: Message) -> Option<(String, String)> {
    if !matches!(
        message,
        Message::WidgetCompleted(_) | Message::WidgetStruggle(_)
    ) {
        return None;
    }
    message.times_to_utc();
    let pathway = message.identity()?.pathway_id.clone();
    let payload = a2learn_proto::ingest::payload_json(&message).ok()?;
    Some((pathway, payload))
}

fn event_type(data: &str) -> String {
    serde_json::from_str::<Value>(data)
        .ok()
        .and_then(|v| v.get("type").and_then(Value::as_str).map(str::to_owned))
        .unwrap_or_else(|| "not JSON".into())
}

fn is_closing(data: &str) -> bool {
    matches!(event_type(data).as_str(), "RUN_FINISHED" | "RUN_ERROR")
}

fn opening_verdict(read: &FeedRead, class_id: &str) -> Result<Option<String>, Verdict> {
    let mut frames = read.frames();
    let Some((id, first)) = frames.next() else {
        return fail("nothing arrived");
    };
    let first: Value = serde_json::from_str(first).unwrap_or(Value::Null);
    if first["type"] != "RUN_STARTED" {
        return fail(format!(
            "the first frame is {}, not RUN_STARTED",
            first["type"]
        ));
    }
    if first["threadId"] != json!(format!("class:{class_id}")) {
        return fail(format!(
            "RUN_STARTED.threadId is {}, not \"class:{class_id}\"",
            first["threadId"]
        ));
    }
    if id.is_some() {
        return fail("RUN_STARTED carries an id: line");
    }
    let Some((id, second)) = frames.next() else {
        return fail("no STATE_SNAPSHOT after RUN_STARTED");
    };
    let second: Value = serde_json::from_str(second).unwrap_or(Value::Null);
    if second["type"] != "STATE_SNAPSHOT" {
        return fail(format!(
            "the frame after RUN_STARTED is {}, not STATE_SNAPSHOT",
            second["type"]
        ));
    }
    if id.is_some() {
        return fail("STATE_SNAPSHOT carries an id: line");
    }
    let snapshot = &second["snapshot"];
    if snapshot["class_id"] != json!(class_id) {
        return fail(format!(
            "snapshot.class_id is {}, not {class_id:?}",
            snapshot["class_id"]
        ));
    }
    for key in ["learners", "assignments"] {
        if !snapshot[key].is_array() {
            return fail(format!("snapshot.{key} is not a list"));
        }
    }
    Ok(None)
}

/// `feed.ping`: the longest silence seen, against the spec's 15 s.
fn ping_verdict(read: &FeedRead) -> Result<Option<String>, Verdict> {
    let mut last = Duration::ZERO;
    let mut longest = Duration::ZERO;
    for (at, _) in &read.items {
        longest = longest.max(at.saturating_sub(last));
        last = *at;
    }
    if read.ended.is_none() {
        longest = longest.max(read.watched.saturating_sub(last));
    }
    let pinged = read.items.iter().any(|(_, i)| matches!(i, Item::Comment));
    if longest > PING_BOUND {
        return fail(format!(
            "silent for {:.1} s (no frame, no ping)",
            longest.as_secs_f64()
        ));
    }
    if read.watched >= PING_BOUND {
        return Ok(Some(format!(
            "longest silence {:.1} s in {:.0} s",
            longest.as_secs_f64(),
            read.watched.as_secs_f64()
        )));
    }
    if pinged {
        return Ok(Some("a ping arrived".into()));
    }
    skip(format!(
        "watched {:.0} s and no ping came; 16 s or more (--seconds) tells",
        read.watched.as_secs_f64()
    ))
}

/// `feed.resume`: a second connection resumes from a seq in the middle of the full read.
async fn resume_verdict(
    conn: &Conn<'_>,
    class_id: &str,
    full: &FeedRead,
) -> Result<Option<String>, Verdict> {
    let numbered: Vec<(i64, &str)> = full
        .items
        .iter()
        .filter_map(|(_, item)| match item {
            Item::Frame { data, .. } => item.seq().map(|s| (s, data.as_str())),
            Item::Comment => None,
        })
        .collect();
    if numbered.len() < 2 {
        return skip("the feed carried fewer than 2 events while watched");
    }
    let (from, _) = numbered[numbered.len() / 2 - 1];
    let Some(last) = full.last_seq() else {
        return skip("no seq read");
    };
    let expected: Vec<(i64, &str)> = numbered
        .iter()
        .copied()
        .filter(|(s, _)| *s > from)
        .collect();
    let resumed = conn
        .read(
            class_id,
            Some(from),
            Duration::from_secs(15),
            Until::Seq(last),
        )
        .await
        .map_err(|e| Verdict::Fail(format!("the resumed connection failed: {e}")))?;
    let got: Vec<(i64, &str)> = resumed
        .items
        .iter()
        .filter_map(|(_, item)| match item {
            Item::Frame { data, .. } => item.seq().map(|s| (s, data.as_str())),
            Item::Comment => None,
        })
        .filter(|(s, _)| *s <= last)
        .collect();
    if let Some((seq, _)) = got.iter().find(|(s, _)| *s <= from) {
        return fail(format!(
            "resumed after {from}, the host sent {seq} again (a repeat)"
        ));
    }
    let got_seqs: HashSet<i64> = got.iter().map(|(s, _)| *s).collect();
    // A frame that came without its `id:` line is `feed.ids`'s failure, not a gap: it is
    // found by its data.
    let unnumbered: Vec<&str> = resumed
        .frames()
        .filter(|(id, _)| id.is_none())
        .map(|(_, data)| data)
        .collect();
    if let Some((seq, _)) = expected
        .iter()
        .find(|(s, data)| !got_seqs.contains(s) && !unnumbered.iter().any(|u| same_json(u, data)))
    {
        return fail(format!(
            "resumed after {from}, seq {seq} never came (a gap; {} of {} frames up to {last})",
            got.len(),
            expected.len()
        ));
    }
    let full_by_seq: HashMap<i64, &str> = expected.iter().copied().collect();
    if let Some((seq, _)) = got
        .iter()
        .find(|(s, data)| full_by_seq.get(s).is_some_and(|d| !same_json(d, data)))
    {
        return fail(format!(
            "seq {seq} carried a different event the second time"
        ));
    }
    Ok(Some(format!(
        "resumed after {from}: {} frames, as the full read had them",
        got.len()
    )))
}

fn same_json(a: &str, b: &str) -> bool {
    match (
        serde_json::from_str::<Value>(a),
        serde_json::from_str::<Value>(b),
    ) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// `results.match-feed`: for each pathway assigned to the class, what `get_pathway_results`
/// returns against what the feed carried. Payloads that break the contract are left out on both
/// sides (whether a host returns them says nothing about the rule).
async fn results_verdict(
    conn: &Conn<'_>,
    class_id: &str,
    full: &FeedRead,
    feed: &FeedFacts,
    registry: &Registry,
) -> Result<Option<String>, Verdict> {
    let pathways: BTreeSet<String> = full
        .frames()
        .nth(1)
        .and_then(|(_, data)| serde_json::from_str::<Value>(data).ok())
        .and_then(|v| v["snapshot"]["assignments"].as_array().cloned())
        .into_iter()
        .flatten()
        .filter_map(|a| a["pathway_id"].as_str().map(str::to_owned))
        .collect();
    if pathways.is_empty() {
        return skip("the class has no assignment");
    }
    let mut returned: HashMap<String, HashSet<String>> = HashMap::new();
    for pathway in &pathways {
        let answer = conn
            .client
            .call(
                "get_pathway_results",
                json!({"class_id": class_id, "pathway_id": pathway}),
            )
            .await
            .map_err(|e| Verdict::Fail(format!("get_pathway_results({pathway}): {e}")))?;
        let mut set = HashSet::new();
        for (key, verb) in [
            ("completed", "a2learn.widget_completed"),
            ("struggles", "a2learn.widget_struggle"),
        ] {
            let Some(items) = answer.get(key).and_then(Value::as_array) else {
                return fail(format!("get_pathway_results({pathway}) has no {key} list"));
            };
            for item in items {
                let event = json!({"type": "CUSTOM", "name": verb, "value": item});
                if let Ok(Parsed::Contract(message)) = agui::parse_event(&event)
                    && a2learn_contract::rules::validate_shape(&message).is_ok()
                    && let Some((_, payload)) = stored_payload(message)
                {
                    set.insert(payload);
                }
            }
        }
        returned.insert(pathway.clone(), set);
    }
    // What the feed carries now: results may be newer than the full read. Read from the start,
    // not resumed, so that this verdict does not hang on `feed.resume`'s rule.
    let later = conn
        .read(
            class_id,
            None,
            Duration::from_secs(5),
            Until::Idle(Duration::from_millis(500)),
        )
        .await
        .ok();
    let later_facts = later.as_ref().map(|read| FeedFacts::of(read, registry));
    let mut missing = 0usize;
    let mut extra = 0usize;
    let mut example = None;
    let mut total = 0usize;
    for pathway in &pathways {
        let carried = feed.payloads.get(pathway).cloned().unwrap_or_default();
        let got = returned.get(pathway).cloned().unwrap_or_default();
        total += got.len();
        for payload in carried.difference(&got) {
            missing += 1;
            example.get_or_insert_with(|| format!("missing from {pathway}: {}", run_of(payload)));
        }
        for payload in got.difference(&carried) {
            let carried_later = later_facts
                .as_ref()
                .is_some_and(|f| later_payloads(f, pathway).contains(payload));
            if !carried_later {
                extra += 1;
                example.get_or_insert_with(|| format!("never on the feed: {}", run_of(payload)));
            }
        }
    }
    if missing + extra > 0 {
        return fail(format!(
            "{missing} the feed carried are missing, {extra} were never on the feed ({})",
            example.unwrap_or_default()
        ));
    }
    Ok(Some(format!(
        "{total} results over {} assigned pathway(s)",
        pathways.len()
    )))
}

/// What a later read carried for a pathway.
fn later_payloads(facts: &FeedFacts, pathway: &str) -> HashSet<String> {
    facts.payloads.get(pathway).cloned().unwrap_or_default()
}

fn run_of(payload: &str) -> String {
    serde_json::from_str::<Value>(payload)
        .ok()
        .and_then(|v| v["widget_run_id"].as_str().map(|r| format!("run {r}")))
        .unwrap_or_else(|| "a payload".into())
}

/// What the writing checks left for the rest of the suite.
struct Writes {
    class_id: Option<String>,
    /// The host has the room tools (§3).
    room: bool,
}

async fn run_writes(
    conn: &Conn<'_>,
    suite: &mut Suite,
    pathways: &[Pathway],
    tools: &ToolSchemas,
) -> Writes {
    let section = format!("{HOST} §1");
    let title = OutgoingText::fixed("a2learn host check (throwaway class)");
    let created = conn.client.create_class(&title).await;
    let class_id = match created {
        Ok(c) if c.class_id.trim().is_empty() || c.join_code.trim().is_empty() => {
            suite.record(
                WRITE_CHECKS[0].0,
                &section,
                true,
                WRITE_CHECKS[0].1,
                fail("an empty class_id or join_code"),
            );
            None
        }
        Ok(c) => {
            let opened = conn
                .read(
                    &c.class_id,
                    None,
                    Duration::from_secs(5),
                    Until::Idle(Duration::from_millis(200)),
                )
                .await;
            let verdict = match opened {
                Ok(read) if (200..300).contains(&read.status) => {
                    Ok(Some(format!("class {}", c.class_id)))
                }
                Ok(read) => fail(format!("its feed answered HTTP {}", read.status)),
                Err(e) => fail(format!("its feed cannot be read: {e}")),
            };
            suite.record(
                WRITE_CHECKS[0].0,
                &section,
                true,
                WRITE_CHECKS[0].1,
                verdict,
            );
            Some(c.class_id)
        }
        Err(e) => {
            suite.record(
                WRITE_CHECKS[0].0,
                &section,
                true,
                WRITE_CHECKS[0].1,
                fail(e.to_string()),
            );
            None
        }
    };
    let assigned = match (&class_id, pathways.first()) {
        (None, _) => skip("no throwaway class"),
        (_, None) => skip("the catalog has no pathway"),
        (Some(class), Some(pathway)) => {
            let first = conn
                .client
                .assign_pathway(class, &pathway.pathway_id, None, None)
                .await;
            let second = conn
                .client
                .assign_pathway(class, &pathway.pathway_id, None, None)
                .await;
            match (first, second) {
                (Ok(a), Ok(b)) if a == b => Ok(Some(format!("{} twice: {a}", pathway.pathway_id))),
                (Ok(a), Ok(b)) => fail(format!("two ids for one assignment: {a} and {b}")),
                (Err(e), _) | (_, Err(e)) => fail(e.to_string()),
            }
        }
    };
    suite.record(
        WRITE_CHECKS[1].0,
        &section,
        true,
        WRITE_CHECKS[1].1,
        assigned,
    );
    Writes {
        class_id,
        room: tools.contains_key(crate::room::PAUSE_CLASS)
            && tools.contains_key(crate::room::RESUME_CLASS),
    }
}

/// Waits (at most `window`) for an open help or score request on the throwaway class, claims it,
/// answers it, and looks for both echoes on the feed.
async fn claim_respond_verdict(
    conn: &Conn<'_>,
    class_id: &str,
    window: Duration,
) -> Result<Option<String>, Verdict> {
    // A request seen in the backlog may have expired or been taken meanwhile: such a claim is
    // no verdict on the host, so the next request is tried, until the window ends.
    let started = tokio::time::Instant::now();
    let mut after = None;
    let call_id = loop {
        let remaining = window.saturating_sub(started.elapsed());
        if remaining.is_zero() {
            return skip(format!(
                "no open help or score request arrived within {} s (--seconds)",
                window.as_secs()
            ));
        }
        let mut open = OpenCalls::default();
        let mut found = |item: &Item| open.see(item);
        let read = conn
            .read(class_id, after, remaining, Until::Done(&mut found))
            .await
            .map_err(|e| Verdict::Fail(format!("the feed cannot be read: {e}")))?;
        after = read.last_seq().or(after);
        let Some((call_id, is_assist)) = open.calls.pop() else {
            continue;
        };
        match claim_and_answer(conn, &call_id, is_assist).await {
            Ok(()) => break call_id,
            Err(Attempt::Raced) => {}
            Err(Attempt::Failed(why)) => return fail(why),
        }
    };
    let mut claim_echo = false;
    let mut response_echo = false;
    let mut seen = |item: &Item| {
        if let Item::Frame { data, .. } = item
            && let Ok(value) = serde_json::from_str::<Value>(data)
            && value["value"]["call_id"] == json!(call_id)
        {
            match value["name"].as_str() {
                Some("a2learn.host.call_claimed") => claim_echo = true,
                Some("a2learn.assist.response" | "a2learn.score.response") => {
                    response_echo = true;
                }
                _ => {}
            }
        }
        claim_echo && response_echo
    };
    conn.read(class_id, None, ECHO_WAIT, Until::Done(&mut seen))
        .await
        .map_err(|e| Verdict::Fail(format!("the feed cannot be read: {e}")))?;
    match (claim_echo, response_echo) {
        (true, true) => Ok(Some(format!("call {call_id}"))),
        (false, _) => fail(format!("no a2learn.host.call_claimed echo for {call_id}")),
        (_, false) => fail(format!("no response echo for {call_id}")),
    }
}

/// Why a claim-and-answer did not go through.
enum Attempt {
    /// The call expired or another teacher took it meanwhile: no verdict on the host.
    Raced,
    Failed(String),
}

/// Claims a call and answers it: an assist with a teacher's answer, a score with a `declined`
/// error (the suite runs no check of its own).
async fn claim_and_answer(conn: &Conn<'_>, call_id: &str, is_assist: bool) -> Result<(), Attempt> {
    let raced = |e: &HostError| {
        matches!(
            e.tool_code(),
            Some("expired" | "already_answered" | "already_claimed")
        )
    };
    let claimed_by = match conn.client.claim(call_id).await {
        Ok(by) => by,
        Err(e) if raced(&e) => return Err(Attempt::Raced),
        Err(e) => return Err(Attempt::Failed(format!("claim({call_id}): {e}"))),
    };
    if claimed_by.trim().is_empty() {
        return Err(Attempt::Failed("claim returned an empty claimed_by".into()));
    }
    let answer = if is_assist {
        Ok(ResponseValue::Assist(AssistValue {
            answer: "Try drawing both fractions on one number line.".into(),
            answered_by: a2learn_contract::AnsweredBy::Teacher,
        }))
    } else {
        Err(CallError {
            code: "declined".into(),
            message: "host check declines score requests".into(),
        })
    };
    match conn.client.respond(call_id, answer).await {
        Ok(()) => Ok(()),
        Err(e) if raced(&e) => Err(Attempt::Raced),
        Err(e) => Err(Attempt::Failed(format!("respond({call_id}): {e}"))),
    }
}

/// The requests a feed has opened and nothing has closed or claimed yet: call id, and whether
/// it is an assist (else a score).
#[derive(Default)]
struct OpenCalls {
    calls: Vec<(String, bool)>,
}

impl OpenCalls {
    /// Takes in one item; true once a request is open.
    fn see(&mut self, item: &Item) -> bool {
        if let Item::Frame { data, .. } = item
            && let Ok(value) = serde_json::from_str::<Value>(data)
            && let Some(call_id) = value["value"]["call_id"].as_str()
        {
            match value["name"].as_str() {
                Some("a2learn.assist") => self.calls.push((call_id.to_owned(), true)),
                Some("a2learn.score") => self.calls.push((call_id.to_owned(), false)),
                Some(
                    "a2learn.assist.response"
                    | "a2learn.score.response"
                    | "a2learn.host.call_claimed",
                ) => self.calls.retain(|(c, _)| c != call_id),
                _ => {}
            }
        }
        !self.calls.is_empty()
    }
}

/// `writes.room`: pause and resume the throwaway class and look for both echoes.
async fn room_verdict(conn: &Conn<'_>, class_id: &str) -> Result<Option<String>, Verdict> {
    let message = OutgoingText::fixed("host check");
    conn.client
        .pause_class(class_id, Some(&message))
        .await
        .map_err(|e| Verdict::Fail(format!("pause_class: {e}")))?;
    conn.client
        .resume_class(class_id)
        .await
        .map_err(|e| Verdict::Fail(format!("resume_class: {e}")))?;
    let wanted = ["a2learn.host.class_paused", "a2learn.host.class_resumed"];
    let mut found = [false; 2];
    let mut seen = |item: &Item| {
        if let Item::Frame { data, .. } = item
            && let Ok(value) = serde_json::from_str::<Value>(data)
            && let Some(i) = wanted.iter().position(|w| value["name"] == json!(w))
        {
            found[i] = true;
        }
        found == [true; 2]
    };
    conn.read(class_id, None, ECHO_WAIT, Until::Done(&mut seen))
        .await
        .map_err(|e| Verdict::Fail(format!("the feed cannot be read: {e}")))?;
    match wanted.iter().zip(found).find(|(_, found)| !found) {
        Some((name, _)) => fail(format!("no {name} echo within {} s", ECHO_WAIT.as_secs())),
        None => Ok(None),
    }
}
