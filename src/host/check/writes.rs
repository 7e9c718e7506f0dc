//! The checks that write (`--allow-writes`), on a throwaway class only: create a class, assign a
//! pathway twice, claim and answer a request, pause and resume the room.

use std::time::Duration;

use a2learn_contract::{AssistValue, CallError, ResponseValue};
use serde_json::{Value, json};

use super::read::{Item, Until};
use super::{Conn, ECHO_WAIT, HOST, Suite, ToolSchemas, Verdict, fail, skip};
use crate::host::mcp::HostError;
use crate::privacy::outgoing::OutgoingText;
use crate::store::Pathway;

pub(super) const WRITE_CHECKS: [(&str, &str); 3] = [
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

/// What the writing checks left for the rest of the suite.
pub(super) struct Writes {
    pub(super) class_id: Option<String>,
    /// The host has the room tools (§3).
    pub(super) room: bool,
}

pub(super) async fn run_writes(
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
pub(super) async fn claim_respond_verdict(
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
pub(super) async fn room_verdict(
    conn: &Conn<'_>,
    class_id: &str,
) -> Result<Option<String>, Verdict> {
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
