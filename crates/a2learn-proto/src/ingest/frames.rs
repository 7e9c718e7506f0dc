//! Stage 1, the frame level: dedupe by seq against the cursor and the stored seqs, parse AG-UI,
//! and set aside what is malformed or not ours. Also the payloads' JSON, both ways.

use std::collections::HashSet;

use a2learn_contract::transport::agui;
use a2learn_contract::{Message, Parsed, RoomEcho};

use super::quarantine::{QuarantineRow, quarantine_row};
use super::{BatchOutcome, Incoming, IngestError};

/// A snapshot's view of the class (from `STATE_SNAPSHOT`).
#[derive(Debug, Default)]
pub struct Snapshot {
    pub learners: Vec<String>,
    pub assignments: Vec<SnapshotAssignment>,
}

/// The longest pause message a host may send (`pathway-host.md` §3); a longer one is cut here.
pub const MAX_PAUSE_MESSAGE_CHARS: usize = 200;

/// What the feed says about the room controls (`pathway-host.md` §3), in feed order: a
/// snapshot's state first, then the echoes after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RoomUpdate {
    /// A snapshot's `paused` and `pacing` (each absent when the host does not say: a host
    /// without the room tools).
    Snapshot {
        paused: Option<bool>,
        pacing: Option<Vec<(String, String)>>,
    },
    Paused {
        message: Option<String>,
    },
    Resumed,
    Pacing {
        pathway_id: String,
        up_to: Option<String>,
    },
}

#[derive(Debug, serde::Deserialize)]
pub struct SnapshotAssignment {
    pub assignment_id: String,
    pub pathway_id: String,
    #[serde(default)]
    pub due_at: Option<String>,
    #[serde(default)]
    pub teacher_note: Option<String>,
}

/// What the frame level made of a batch.
pub struct Frames {
    /// What goes on to the contract level: the seq (none for backfill), the parsed event, and
    /// the frame as received.
    pub parsed: Vec<(Option<i64>, Parsed, Option<String>)>,
    /// The class's snapshot, when the batch carried one.
    pub snapshot: Option<Snapshot>,
    /// Room control state and echoes, in feed order.
    pub room: Vec<RoomUpdate>,
    /// The highest seq seen: the cursor after this batch.
    pub high: Option<i64>,
}

/// Dedupes, parses and sorts one batch; counts duplicates and ignored frames in `outcome` and
/// puts what cannot be placed or parsed in `quarantine`. `class_id` is the class as its host
/// names it (a room echo for another class is not this class's).
pub fn read_frames(
    class_id: &str,
    batch: Vec<Incoming>,
    cursor: Option<i64>,
    stored_seqs: &HashSet<i64>,
    outcome: &mut BatchOutcome,
    quarantine: &mut Vec<QuarantineRow>,
) -> Frames {
    let mut parsed: Vec<(Option<i64>, Parsed, Option<String>)> = Vec::with_capacity(batch.len());
    let mut snapshot = None;
    let mut room = Vec::new();
    let mut high = cursor;
    for item in batch {
        match item {
            Incoming::Backfill { data } => match agui::parse_event_str(&data) {
                Ok(Parsed::Contract(message)) => {
                    parsed.push((None, Parsed::Contract(message), Some(data)));
                }
                Ok(_) => outcome.ignored += 1,
                Err(err) => quarantine.push(quarantine_row(
                    None,
                    err.rule_id().as_str(),
                    &err.to_string(),
                    &data,
                )),
            },
            Incoming::Frame { id, data } => {
                let seq = match id.as_deref().map(parse_seq) {
                    None => None,
                    Some(Ok(seq)) => Some(seq),
                    Some(Err(why)) => {
                        // Without a usable seq the frame cannot be placed in the log; keep it
                        // for diagnosis and go on.
                        quarantine.push(quarantine_row(None, "bad-frame", &why, &data));
                        continue;
                    }
                };
                if let Some(seq) = seq {
                    if high.is_some_and(|h| seq <= h) {
                        outcome.duplicates += 1;
                        continue;
                    }
                    high = Some(seq);
                    if stored_seqs.contains(&seq) {
                        outcome.duplicates += 1;
                        continue;
                    }
                }
                match agui::parse_event_str(&data) {
                    Ok(Parsed::Ignored(_)) => {
                        if seq.is_none()
                            && let Some((s, r)) = parse_snapshot(&data)
                        {
                            snapshot = Some(s);
                            room.push(r);
                        } else if let Some(r) = parse_room_echo(&data, class_id) {
                            room.push(r);
                        }
                        outcome.ignored += 1;
                    }
                    Ok(p) => match seq {
                        Some(_) => parsed.push((seq, p, Some(data))),
                        None => {
                            // The spec gives every stored event a seq; one without cannot be
                            // resumed past, so it is not stored.
                            quarantine.push(quarantine_row(
                                None,
                                "bad-frame",
                                "a2learn event without an id: line",
                                &data,
                            ));
                        }
                    },
                    Err(err) => {
                        quarantine.push(quarantine_row(
                            seq,
                            err.rule_id().as_str(),
                            &err.to_string(),
                            &data,
                        ));
                    }
                }
            }
        }
    }
    Frames {
        parsed,
        snapshot,
        room,
        high,
    }
}

/// A frame's `id:` line as a seq: a plain non-negative decimal.
pub fn parse_seq(id: &str) -> Result<i64, String> {
    let trimmed = id.trim();
    match trimmed.parse::<i64>() {
        Ok(seq) if seq >= 0 && !trimmed.starts_with('+') => Ok(seq),
        _ => Err(format!(
            "the id: line is not a decimal seq ({} bytes)",
            id.len()
        )),
    }
}

/// The canonical JSON of a message's payload (what the ledger stores).
pub fn payload_json(message: &Message) -> Result<String, IngestError> {
    let result = match message {
        Message::WidgetCompleted(m) => serde_json::to_string(m),
        Message::WidgetStruggle(m) => serde_json::to_string(m),
        Message::ScoreRequest(m) => serde_json::to_string(m),
        Message::AssistRequest(m) => serde_json::to_string(m),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            serde_json::to_string(r)
        }
    };
    result.map_err(IngestError::Encode)
}

/// A stored payload back into its message, by verb name (what `db rebuild` reads the ledger with).
pub fn stored_message(name: &str, payload: &str) -> Result<Message, IngestError> {
    let unreadable = |source| IngestError::Unreadable {
        name: name.to_string(),
        source,
    };
    let payload = serde_json::from_str::<serde_json::Value>(payload).map_err(unreadable)?;
    let value = serde_json::json!({ "verb": name, "payload": payload });
    serde_json::from_value(value).map_err(unreadable)
}

fn parse_snapshot(data: &str) -> Option<(Snapshot, RoomUpdate)> {
    let value: serde_json::Value = serde_json::from_str(data).ok()?;
    if value.get("type")?.as_str()? != "STATE_SNAPSHOT" {
        return None;
    }
    let snap = value.get("snapshot")?;
    let learners = snap
        .get("learners")
        .and_then(|l| l.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| v.as_str())
                // Only anonymous ids enter the store; anything else is dropped unseen (it may be
                // a name, so it is not logged either).
                .filter(|id| a2learn_contract::rules::check_learner(id).is_ok())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let assignments = snap
        .get("assignments")
        .and_then(|a| a.as_array())
        .map(|list| {
            list.iter()
                .filter_map(|v| serde_json::from_value::<SnapshotAssignment>(v.clone()).ok())
                .collect()
        })
        .unwrap_or_default();
    let room = RoomUpdate::Snapshot {
        paused: snap.get("paused").and_then(serde_json::Value::as_bool),
        pacing: snap
            .get("pacing")
            .and_then(serde_json::Value::as_object)
            .map(|map| {
                map.iter()
                    .filter_map(|(pathway, up_to)| {
                        Some((pathway.clone(), up_to.as_str()?.to_owned()))
                    })
                    .collect()
            }),
    };
    Some((
        Snapshot {
            learners,
            assignments,
        },
        room,
    ))
}

/// A room control's echo (`agui::room_echo`) for this class; anything else (or another
/// class's echo) is `None`. The message is trimmed and cut to what a host may send.
fn parse_room_echo(data: &str, class_id: &str) -> Option<RoomUpdate> {
    let (echo_class, echo) = agui::room_echo(data)?;
    if echo_class != class_id {
        return None;
    }
    Some(match echo {
        RoomEcho::Paused { message } => RoomUpdate::Paused {
            message: message
                .as_deref()
                .map(str::trim)
                .filter(|m| !m.is_empty())
                .map(|m| m.chars().take(MAX_PAUSE_MESSAGE_CHARS).collect()),
        },
        RoomEcho::Resumed => RoomUpdate::Resumed,
        RoomEcho::Pacing { pathway_id, up_to } => RoomUpdate::Pacing { pathway_id, up_to },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_echoes_are_read_for_this_class_only() {
        let paused = r#"{"type":"CUSTOM","name":"a2learn.host.class_paused","value":{"class_id":"c1","message":"Eyes up here"}}"#;
        assert_eq!(
            parse_room_echo(paused, "c1"),
            Some(RoomUpdate::Paused {
                message: Some("Eyes up here".into())
            })
        );
        assert_eq!(parse_room_echo(paused, "c2"), None, "another class's echo");
        let long = format!(
            r#"{{"type":"CUSTOM","name":"a2learn.host.class_paused","value":{{"class_id":"c1","message":"{}"}}}}"#,
            "x".repeat(5000)
        );
        let Some(RoomUpdate::Paused { message: Some(m) }) = parse_room_echo(&long, "c1") else {
            panic!("a long message is cut, not dropped");
        };
        assert_eq!(m.chars().count(), MAX_PAUSE_MESSAGE_CHARS);
        let resumed =
            r#"{"type":"CUSTOM","name":"a2learn.host.class_resumed","value":{"class_id":"c1"}}"#;
        assert_eq!(parse_room_echo(resumed, "c1"), Some(RoomUpdate::Resumed));
        let pacing = r#"{"type":"CUSTOM","name":"a2learn.host.pacing","value":{"class_id":"c1","pathway_id":"p","up_to":"w3"}}"#;
        assert_eq!(
            parse_room_echo(pacing, "c1"),
            Some(RoomUpdate::Pacing {
                pathway_id: "p".into(),
                up_to: Some("w3".into())
            })
        );
        let unpaced = r#"{"type":"CUSTOM","name":"a2learn.host.pacing","value":{"class_id":"c1","pathway_id":"p","up_to":null}}"#;
        assert_eq!(
            parse_room_echo(unpaced, "c1"),
            Some(RoomUpdate::Pacing {
                pathway_id: "p".into(),
                up_to: None
            })
        );
        let bad = r#"{"type":"CUSTOM","name":"a2learn.host.pacing","value":{"class_id":"c1","pathway_id":"p","up_to":7}}"#;
        assert_eq!(
            parse_room_echo(bad, "c1"),
            None,
            "up_to must be a string or null"
        );
        let other = r#"{"type":"CUSTOM","name":"a2learn.host.other","value":{"class_id":"c1"}}"#;
        assert_eq!(parse_room_echo(other, "c1"), None);
    }

    #[test]
    fn a_snapshot_without_room_fields_says_nothing_about_the_room() {
        let bare = r#"{"type":"STATE_SNAPSHOT","snapshot":{"learners":["lrn-1"]}}"#;
        let (_, room) = parse_snapshot(bare).unwrap();
        assert_eq!(
            room,
            RoomUpdate::Snapshot {
                paused: None,
                pacing: None
            }
        );
        let full = r#"{"type":"STATE_SNAPSHOT","snapshot":{"paused":true,"pacing":{"p":"w2"}}}"#;
        let (_, room) = parse_snapshot(full).unwrap();
        assert_eq!(
            room,
            RoomUpdate::Snapshot {
                paused: Some(true),
                pacing: Some(vec![("p".into(), "w2".into())])
            }
        );
    }

    #[test]
    fn seq_must_be_a_plain_decimal() {
        assert_eq!(parse_seq("42"), Ok(42));
        assert_eq!(parse_seq("0"), Ok(0));
        assert!(parse_seq("-1").is_err());
        assert!(parse_seq("+1").is_err());
        assert!(parse_seq("abc").is_err());
        assert!(parse_seq("").is_err());
        assert!(
            parse_seq("99999999999999999999").is_err(),
            "overflow is not a seq"
        );
    }
}
