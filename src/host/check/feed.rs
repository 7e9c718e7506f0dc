//! The checks of a class's feed (`pathway-host.md` §2): its framing, its events against AG-UI
//! and the contract, its pings, a resume, and `get_pathway_results` against what it carried.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::Duration;

use a2learn_contract::check::{Checker, Outcome, offset_warning};
use a2learn_contract::transport::agui;
use a2learn_contract::{Message, Parsed, Registry};
use serde_json::{Value, json};

use super::read::{FeedRead, Item, Until};

/// The frames a connection opens with, without an `id:` (`RUN_STARTED`, `STATE_SNAPSHOT`): what
/// `feed.opening` judges, and `feed.ids` does not.
const OPENING_FRAMES: usize = 2;
use super::{Conn, HOST, PING_BOUND, Suite, ToolSchemas, Verdict, fail, skip};

/// The checks on one class's feed, and `get_pathway_results` against it.
pub(super) async fn feed_checks(
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

/// The checks of a class's feed: id, section, what, required.
pub(super) const FEED_CHECKS: [(&str, &str, &str, bool); 10] = [
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
            .skip(OPENING_FRAMES)
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
