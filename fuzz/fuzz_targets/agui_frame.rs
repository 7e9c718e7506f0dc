//! Arbitrary bytes as a class feed: SSE into frames, as the feed reader turns them
//! (`host::feed`), then the store's parse and validate stages without the database
//! (`a2learn_proto::ingest::check_batch`, the same functions `Store::ingest` runs), against the fixtures'
//! registry. What is accepted must survive both ways back out (the AG-UI projection, and the
//! ledger's payload that `db rebuild` reads); what is refused must carry a known rule id and a
//! reason; and every frame must be accounted for exactly once.

#![no_main]

use std::sync::LazyLock;

use a2learn_contract::transport::agui;
use a2learn_contract::{CallClaimed, HostEvent, Parsed, Registry, RuleId, validate_message};
use a2learn_proto::ingest::{
    Accepted, Incoming, QUARANTINE_RAW_BYTES, check_batch, stored_message,
};
use a2learn_proto::sse::{SseItem, SseParser};
use libfuzzer_sys::fuzz_target;

static REGISTRY: LazyLock<Registry> = LazyLock::new(|| {
    Registry::from_json(include_str!("../../tests/fixtures/contract/registry.json"))
        .expect("the fixtures' registry is valid")
});

fuzz_target!(|data: &[u8]| {
    let mut parser = SseParser::new();
    let mut items = Vec::new();
    if parser.feed(data, &mut items).is_err() {
        return;
    }
    let batch: Vec<Incoming> = items
        .into_iter()
        .filter_map(|item| match item {
            SseItem::Event(e) => Some(Incoming::Frame {
                id: e.id,
                data: e.data,
            }),
            SseItem::Comment(_) => None,
        })
        .collect();
    let frames: Vec<String> = batch
        .iter()
        .filter_map(|i| match i {
            Incoming::Frame { data, .. } => Some(data.clone()),
            Incoming::Backfill { .. } => None,
        })
        .collect();

    let checked = check_batch("class-fuzz", &REGISTRY, batch).expect("payloads encode");
    let outcome = &checked.outcome;
    assert_eq!(
        frames.len() as u64,
        checked.accepted.len() as u64
            + outcome.duplicates
            + checked.quarantined.len() as u64
            + outcome.ignored,
        "every frame is accepted, a duplicate, quarantined or ignored: {outcome:?}"
    );

    for row in &checked.quarantined {
        assert!(
            row.rule_id().parse::<RuleId>().is_ok(),
            "unknown rule id {:?}",
            row.rule_id()
        );
        assert!(!row.message().is_empty(), "{row:?}");
        assert!(row.raw().len() <= QUARANTINE_RAW_BYTES, "{row:?}");
        assert!(
            frames.iter().any(|f| f.starts_with(row.raw())
                && i64::try_from(f.len()).ok() == Some(row.raw_bytes())),
            "quarantine keeps a prefix of a frame received: {row:?}"
        );
    }

    let mut last_seq = None;
    for accepted in &checked.accepted {
        let seq = match accepted {
            Accepted::Contract {
                seq,
                message,
                payload,
                ..
            } => {
                assert!(validate_message(message, &REGISTRY).is_ok(), "{message:?}");
                let back = stored_message(message.verb().name(), payload)
                    .unwrap_or_else(|e| panic!("ledger payload unreadable: {e}\n{payload}"));
                assert_eq!(&back, message, "ledger round trip\n{payload}");
                let line = agui::project(message).expect("accepted AG-UI messages project");
                assert_eq!(
                    agui::parse_event_str(&line).expect("projection parses"),
                    Parsed::Contract(message.clone()),
                    "AG-UI round trip\n{line}"
                );
                *seq
            }
            Accepted::Claimed {
                seq,
                claim,
                payload,
            } => {
                let back: CallClaimed = serde_json::from_str(payload).expect("ledger claim reads");
                assert_eq!(&back, claim);
                let event = HostEvent::CallClaimed(claim.clone());
                let line = agui::project_host(&event).expect("claims project");
                assert_eq!(
                    agui::parse_event_str(&line).expect("projection parses"),
                    Parsed::Host(event)
                );
                Some(*seq)
            }
        };
        // The ledger is the feed in order: every stored frame has a seq, each higher than the
        // one before.
        let seq = seq.expect("feed frames are stored with their seq");
        assert!(
            last_seq.is_none_or(|last| seq > last),
            "{seq} after {last_seq:?}"
        );
        last_seq = Some(seq);
    }
    if let Some(seq) = last_seq {
        assert!(
            outcome.last_seq.is_some_and(|high| high >= seq),
            "{outcome:?}"
        );
    }
});
