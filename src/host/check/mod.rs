//! `host check`: a conformance suite for a pathway host. It runs the interface of
//! `pathway-host.md` against a live host and gives one verdict per rule, so that whoever builds a
//! host learns what the dashboard needs from it without guessing from what the app shows.
//!
//! Read-only unless [`CheckOptions::allow_writes`]: a check against a school's host changes
//! nothing. The token is sent only as the bearer header and never appears in a verdict.
//!
//! The same suite serves the command line (`a2learn-teacher host check`), the settings page (a
//! short verdict before a host is saved) and Diagnostics (the full list).

mod feed;
mod read;
mod writes;

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use a2learn_contract::Registry;
use serde::Serialize;
use serde_json::{Value, json};

use super::mcp::{HostClient, HostError};
use super::offers::{ASSIGN_PATHWAY, CLAIM, CREATE_CLASS, RESPOND};
use crate::store::Pathway;
use feed::{FEED_CHECKS, feed_checks};
use read::{FeedRead, Until, read_feed};
use writes::{WRITE_CHECKS, claim_respond_verdict, room_verdict, run_writes};

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

    fn localized(&self, c: &a2learn_i18n::Words) -> Option<String> {
        let CheckError::Unreachable { host, why } = self;
        Some(c.t_args(
            "error-check-unreachable",
            &[("host", host.into()), ("why", why.into())],
        ))
    }
}

/// The spec's bound on a silent feed (`pathway-host.md` §2).
const PING_BOUND: Duration = Duration::from_secs(15);
/// The tools every host has (`pathway-host.md` §1), with the arguments each must take.
const READ_TOOLS: [(&str, &[&str]); 2] = [
    ("list_pathways", &[]),
    ("get_pathway_results", &["class_id", "pathway_id"]),
];
/// The §1 tools that change the host. A read-only host (the bridge over the upstream's
/// database) lists none of them, and the dashboard then shows none of their controls; a host
/// that lists some but not all is broken.
const WRITE_TOOLS: [(&str, &[&str]); 4] = [
    (CREATE_CLASS, &["title"]),
    (ASSIGN_PATHWAY, &["class_id", "pathway_id"]),
    (CLAIM, &["call_id"]),
    (RESPOND, &["call_id"]),
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
        let url = super::feed::feed_url(self.base, class_id);
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
    let probe_url = super::feed::feed_url(&host, probe_class);
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
            Ok(tools) => required_tools_verdict(tools),
            Err(e) => fail(e.to_string()),
        },
    );
    let tools = tools.unwrap_or_default();
    let read_only = WRITE_TOOLS
        .iter()
        .all(|(tool, _)| !tools.contains_key(*tool));
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
    let writes = if options.allow_writes && !read_only {
        Some(run_writes(&conn, &mut suite, &pathways, &tools).await)
    } else {
        let why = if read_only {
            "a read-only host: it offers no write tools"
        } else {
            "read-only: `host check --allow-writes` runs it on a throwaway class"
        };
        for (id, what) in WRITE_CHECKS {
            suite.record(id, &format!("{HOST} §1"), true, what, skip(why));
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
            WRITE_CHECKS[2].1,
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
    } else if options.allow_writes && !read_only {
        suite.record(
            "writes.claim-respond",
            &format!("{HOST} §1, §2"),
            true,
            WRITE_CHECKS[2].1,
            skip("no throwaway class was created"),
        );
    }
    client.close().await;
    Ok(suite.report(&host))
}

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

/// `tools.required`: every read tool, and the write tools all or none (a read-only host).
fn required_tools_verdict(tools: &ToolSchemas) -> Result<Option<String>, Verdict> {
    let read = tools_verdict(tools, &READ_TOOLS, true)?;
    let offered: Vec<&str> = WRITE_TOOLS
        .iter()
        .map(|(tool, _)| *tool)
        .filter(|tool| tools.contains_key(*tool))
        .collect();
    if offered.is_empty() {
        return Ok(Some(format!(
            "{}; a read-only host: no write tools (the dashboard shows none of their controls)",
            read.unwrap_or_default()
        )));
    }
    let writes = tools_verdict(tools, &WRITE_TOOLS, false)?;
    if offered.len() < WRITE_TOOLS.len() {
        let missing: Vec<&str> = WRITE_TOOLS
            .iter()
            .map(|(tool, _)| *tool)
            .filter(|tool| !offered.contains(tool))
            .collect();
        return fail(format!(
            "missing: {} (a host offers all four write tools, or none when it is read-only)",
            missing.join(", ")
        ));
    }
    Ok(Some(format!(
        "{}; {}",
        read.unwrap_or_default(),
        writes.unwrap_or_default()
    )))
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
