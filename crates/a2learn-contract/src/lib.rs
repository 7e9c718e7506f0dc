//! The a2learn interaction contract (`contract.md`): the vocabulary interactive learning
//! widgets use to talk to whoever runs the lesson, defined once and projected into AG-UI,
//! A2UI and MCP Apps.
//!
//! - [`types`]: the payloads of the four verbs and the registry entry (serde + specta +
//!   JSON Schema);
//! - [`rules`]: the single-message rules, pure functions; [`Registry`];
//! - [`sequence`]: the sequence rules as one state machine over a pluggable
//!   [`SequenceState`], fed check-then-commit;
//! - [`transport`]: projection and parsing for each transport, and transport detection;
//! - [`check`]: checking a file of messages line by line (the CLI's `contract check`);
//! - [`schema`]: the JSON Schema of the canonical payloads;
//! - [`rfc3339`]: RFC 3339 time stamps from and to epoch milliseconds;
//! - [`dialect`]: other projects' shapes translated into the contract (the upstream's, `ile`).
//!
//! No I/O, no clock, no Tauri: any Rust host can use it.

pub mod check;
pub mod dialect;
pub mod error;
pub mod rfc3339;
pub mod rules;
pub mod schema;
pub mod sequence;
pub mod transport;
pub mod types;

pub use error::{ContractError, RuleId, UnknownRuleId};
pub use rules::{Registry, validate_message, validate_registry_entry};
pub use sequence::{
    CallFacts, Facts, InMemoryState, Lookup, Rejection, RunFacts, SequenceState, Sequencer,
    Transition, lookup, sequence_rules,
};
pub use transport::{
    CallClaimed, HostEvent, Parsed, ProjectError, RoomEcho, SetAside, Transport, carried_by,
    detect, parse, parse_line, project, project_to_string,
};
pub use types::*;
