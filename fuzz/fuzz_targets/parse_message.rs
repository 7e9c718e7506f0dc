//! Arbitrary bytes into every transport parser. Whatever parses must validate without
//! panicking, and survive project -> parse in every transport as `carried_by` says.

#![no_main]

use a2learn_contract::transport::agui;
use a2learn_contract::{
    Message, Parsed, ProjectError, Registry, Transport, carried_by, parse, parse_line, project,
    project_to_string, validate_message,
};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Auto-detection path (the CLI's).
    if let Ok((transport, parsed)) = parse_line(text) {
        check(transport, parsed);
    }
    // Every parser on any JSON value, whatever detection would say.
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        for transport in Transport::ALL {
            if let Ok(parsed) = parse(transport, &value) {
                check(transport, parsed);
            }
        }
    }
});

fn check(transport: Transport, parsed: Parsed) {
    match parsed {
        Parsed::Contract(message) => round_trip(transport, &message),
        Parsed::Host(event) => {
            let line = agui::project_host(&event).expect("host events project");
            assert_eq!(
                agui::parse_event_str(&line).expect("host event parses"),
                Parsed::Host(event)
            );
        }
        Parsed::Ignored(_) => {}
    }
}

fn round_trip(from: Transport, message: &Message) {
    // Validation is total: it may reject, never panic.
    let _ = validate_message(message, &Registry::default());
    for to in Transport::ALL {
        let expected = carried_by(message, to);
        match project(message, to) {
            Ok(value) => {
                let back =
                    parse(to, &value).unwrap_or_else(|e| panic!("{from} -> {to}: {e}\n{value}"));
                assert_eq!(
                    back,
                    Parsed::Contract(expected.clone()),
                    "{from} -> {to}\n{value}"
                );
                let line = project_to_string(message, to).expect("projects as a line");
                assert_eq!(
                    parse_line(&line).expect("line parses"),
                    (to, Parsed::Contract(expected))
                );
            }
            Err(ProjectError::UnnamedResponse { .. }) => {
                assert!(matches!(message, Message::Response(_)) && to == Transport::Agui);
            }
            Err(ProjectError::ResponseWithoutAt { .. }) => {
                let (_, r) = message.response().expect("only responses lack at");
                assert!(r.at.is_none() && to != Transport::A2ui);
            }
            Err(e) => panic!("{from} -> {to}: {e}"),
        }
    }
}
