//! Rejections: one error per rule of `contract.md` §3, each with a stable kebab-case rule id.
//!
//! Messages name the field that broke a rule but never repeat its value: a rejection reason
//! is kept for diagnosis (quarantine, CLI output, logs), and the value may be the very
//! e-mail address or school id the rule keeps out.

use std::fmt;
use std::str::FromStr;

/// The stable id of a rejection rule. `Display`/`FromStr` use the kebab-case id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RuleId {
    VerdictNotAssessing,
    CorrectWithoutAttempt,
    EmptyProse,
    ProseTooLong,
    PiiInPayload,
    NonAnonymousId,
    UndeclaredEmission,
    UnknownKind,
    SecondCompletion,
    SecondStruggle,
    StruggleAfterCompletion,
    StruggleTooEarly,
    ValueAndError,
    NoValueNoError,
    UnknownCall,
    AlreadyAnswered,
    LateResponse,
    /// Not in the brief's list: `contract.md` §1 says `call_id` is unique per request, and
    /// none of the other rules names a second request reusing an id.
    DuplicateCall,
    BadFrame,
}

impl RuleId {
    pub const ALL: [RuleId; 19] = [
        RuleId::VerdictNotAssessing,
        RuleId::CorrectWithoutAttempt,
        RuleId::EmptyProse,
        RuleId::ProseTooLong,
        RuleId::PiiInPayload,
        RuleId::NonAnonymousId,
        RuleId::UndeclaredEmission,
        RuleId::UnknownKind,
        RuleId::SecondCompletion,
        RuleId::SecondStruggle,
        RuleId::StruggleAfterCompletion,
        RuleId::StruggleTooEarly,
        RuleId::ValueAndError,
        RuleId::NoValueNoError,
        RuleId::UnknownCall,
        RuleId::AlreadyAnswered,
        RuleId::LateResponse,
        RuleId::DuplicateCall,
        RuleId::BadFrame,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            RuleId::VerdictNotAssessing => "verdict-not-assessing",
            RuleId::CorrectWithoutAttempt => "correct-without-attempt",
            RuleId::EmptyProse => "empty-prose",
            RuleId::ProseTooLong => "prose-too-long",
            RuleId::PiiInPayload => "pii-in-payload",
            RuleId::NonAnonymousId => "non-anonymous-id",
            RuleId::UndeclaredEmission => "undeclared-emission",
            RuleId::UnknownKind => "unknown-kind",
            RuleId::SecondCompletion => "second-completion",
            RuleId::SecondStruggle => "second-struggle",
            RuleId::StruggleAfterCompletion => "struggle-after-completion",
            RuleId::StruggleTooEarly => "struggle-too-early",
            RuleId::ValueAndError => "value-and-error",
            RuleId::NoValueNoError => "no-value-no-error",
            RuleId::UnknownCall => "unknown-call",
            RuleId::AlreadyAnswered => "already-answered",
            RuleId::LateResponse => "late-response",
            RuleId::DuplicateCall => "duplicate-call",
            RuleId::BadFrame => "bad-frame",
        }
    }
}

impl fmt::Display for RuleId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An unknown rule id.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown rule id {0:?}")]
pub struct UnknownRuleId(pub String);

impl FromStr for RuleId {
    type Err = UnknownRuleId;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        RuleId::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| UnknownRuleId(s.to_owned()))
    }
}

/// Why a message (or a registry) was rejected.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContractError {
    #[error("kind {kind:?} does not assess: {what}")]
    VerdictNotAssessing { kind: String, what: String },
    #[error("correct is set but attempts is 0")]
    CorrectWithoutAttempt,
    #[error("{field} is empty")]
    EmptyProse { field: &'static str },
    #[error("{field} has {chars} characters, more than {max}")]
    ProseTooLong {
        field: &'static str,
        chars: usize,
        max: usize,
    },
    #[error("{field} contains {what}")]
    PiiInPayload { field: String, what: &'static str },
    #[error("{field} is not an anonymous id: {why}")]
    NonAnonymousId {
        field: &'static str,
        why: &'static str,
    },
    #[error("kind {kind:?} does not declare {emission}")]
    UndeclaredEmission {
        kind: String,
        emission: &'static str,
    },
    #[error("kind {kind:?} is not in the registry")]
    UnknownKind { kind: String },
    #[error("widget run already completed")]
    SecondCompletion,
    #[error("widget run already struggled")]
    SecondStruggle,
    #[error("widget run already completed; a struggle comes before the completion")]
    StruggleAfterCompletion,
    #[error("struggle after {failed_checks} failed checks; it needs at least 2")]
    StruggleTooEarly { failed_checks: u32 },
    #[error("response carries both value and error")]
    ValueAndError,
    #[error("response carries neither value nor error")]
    NoValueNoError,
    #[error("call {call_id:?} {why}")]
    UnknownCall { call_id: String, why: String },
    #[error("call {call_id:?} is already answered")]
    AlreadyAnswered { call_id: String },
    #[error("response at {at} is after the call's deadline {deadline}")]
    LateResponse { at: String, deadline: String },
    #[error("call id {call_id:?} is already used by an earlier request")]
    DuplicateCall { call_id: String },
    #[error("{0}")]
    BadFrame(String),
}

impl ContractError {
    pub fn rule_id(&self) -> RuleId {
        match self {
            ContractError::VerdictNotAssessing { .. } => RuleId::VerdictNotAssessing,
            ContractError::CorrectWithoutAttempt => RuleId::CorrectWithoutAttempt,
            ContractError::EmptyProse { .. } => RuleId::EmptyProse,
            ContractError::ProseTooLong { .. } => RuleId::ProseTooLong,
            ContractError::PiiInPayload { .. } => RuleId::PiiInPayload,
            ContractError::NonAnonymousId { .. } => RuleId::NonAnonymousId,
            ContractError::UndeclaredEmission { .. } => RuleId::UndeclaredEmission,
            ContractError::UnknownKind { .. } => RuleId::UnknownKind,
            ContractError::SecondCompletion => RuleId::SecondCompletion,
            ContractError::SecondStruggle => RuleId::SecondStruggle,
            ContractError::StruggleAfterCompletion => RuleId::StruggleAfterCompletion,
            ContractError::StruggleTooEarly { .. } => RuleId::StruggleTooEarly,
            ContractError::ValueAndError => RuleId::ValueAndError,
            ContractError::NoValueNoError => RuleId::NoValueNoError,
            ContractError::UnknownCall { .. } => RuleId::UnknownCall,
            ContractError::AlreadyAnswered { .. } => RuleId::AlreadyAnswered,
            ContractError::LateResponse { .. } => RuleId::LateResponse,
            ContractError::DuplicateCall { .. } => RuleId::DuplicateCall,
            ContractError::BadFrame(_) => RuleId::BadFrame,
        }
    }

    pub(crate) fn bad_frame(reason: impl Into<String>) -> Self {
        ContractError::BadFrame(reason.into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_ids_round_trip_through_display_and_from_str() {
        for rule in RuleId::ALL {
            assert_eq!(rule.to_string().parse::<RuleId>(), Ok(rule));
        }
        assert!("no-such-rule".parse::<RuleId>().is_err());
    }

    #[test]
    fn rule_ids_are_kebab_case_and_distinct() {
        let mut seen = std::collections::BTreeSet::new();
        for rule in RuleId::ALL {
            let id = rule.as_str();
            assert!(
                id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{id}"
            );
            assert!(seen.insert(id), "duplicate {id}");
        }
    }
}
