//! The single-message rules of `contract.md` §3, as pure functions of a message and the
//! registry. The sequence rules (quiet reporting, call bookkeeping) live in
//! [`crate::sequence`].
//!
//! ## What is an identifier and what is a payload field (rule 2)
//!
//! Rule 2 has two halves, and this module draws the line between them as follows:
//! - **Identifiers** are `learner`, `widget_run_id`, `widget_id`, `pathway_id` and `call_id`.
//!   `learner` must match `^[A-Za-z0-9_-]{8,64}$` with at least one letter. The other ids are
//!   opaque and often random UUIDs, and a random UUID contains a run of 7+ digits about one
//!   time in ten (`...-4012-8123456...`), so the digit-run check does **not** apply to them;
//!   they are only refused when they contain an e-mail address (`non-anonymous-id`).
//!   Timestamps (`at`, `deadline`) are machine fields too: fractional seconds may well be 7+
//!   digits.
//! - **Payload fields** are everything a widget or a host writes about the work: `prose`,
//!   `kind`, `standard`, `widget_result.detail` (keys and values, recursively), the request
//!   `args` (recursively), a response's `value` (feedback, answer) and `error` (code,
//!   message). None may contain an e-mail address or a run of 7+ digits
//!   (`pii-in-payload`). A JSON number counts by the digits of its integer part, so
//!   `12345678` is refused (a bare school id) while a measurement like `0.1234567` is not.
//!
//! Free-text length bounds (`prose` 1..1000, `args.question` 1..2000, `value.answer`
//! 1..4000) are reported as `empty-prose` / `prose-too-long` with the field named. Shape
//! violations with no rule of their own (a malformed timestamp, a score outside [0, 1], a
//! response value of the wrong function) are `bad-frame`: the message does not match the
//! contract's schema.

use std::collections::BTreeMap;

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use crate::error::ContractError;
use crate::types::{
    Event, Function, Identity, Message, RegistryEntry, RegistryFile, ResponseValue,
};

/// Maximum characters of `prose`.
pub const PROSE_MAX: usize = 1000;
/// Maximum characters of an assist `question`.
pub const QUESTION_MAX: usize = 2000;
/// Maximum characters of an assist `answer`.
pub const ANSWER_MAX: usize = 4000;
/// The shortest run of digits that counts as a possible personal number (school id, phone).
pub const DIGIT_RUN_MIN: usize = 7;

/// The registry: registry entries by kind, checked on construction.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Registry {
    entries: BTreeMap<String, RegistryEntry>,
}

impl Registry {
    /// Checks every entry (rule 1: a kind that does not assess may not declare
    /// `widget_struggle` or `score`; kinds are unique) and indexes them.
    pub fn new(entries: Vec<RegistryEntry>) -> Result<Self, ContractError> {
        let mut map = BTreeMap::new();
        for entry in entries {
            validate_registry_entry(&entry)?;
            if map.contains_key(&entry.kind) {
                return Err(ContractError::bad_frame(format!(
                    "registry declares kind {:?} twice",
                    entry.kind
                )));
            }
            map.insert(entry.kind.clone(), entry);
        }
        Ok(Registry { entries: map })
    }

    /// Parses a registry file, `{"entries": [registry entries]}`.
    pub fn from_json(text: &str) -> Result<Self, ContractError> {
        let file: RegistryFile = serde_json::from_str(text)
            .map_err(|e| ContractError::bad_frame(format!("registry file: {e}")))?;
        Registry::new(file.entries)
    }

    pub fn get(&self, kind: &str) -> Option<&RegistryEntry> {
        self.entries.get(kind)
    }

    pub fn entries(&self) -> impl Iterator<Item = &RegistryEntry> {
        self.entries.values()
    }
}

/// Rule 1 on a registry entry.
pub fn validate_registry_entry(entry: &RegistryEntry) -> Result<(), ContractError> {
    if !entry.assesses {
        if entry.declares_event(Event::WidgetStruggle) {
            return Err(ContractError::VerdictNotAssessing {
                kind: entry.kind.clone(),
                what: "a kind that does not assess may not declare widget_struggle".into(),
            });
        }
        if entry.declares_function(Function::Score) {
            return Err(ContractError::VerdictNotAssessing {
                kind: entry.kind.clone(),
                what: "a kind that does not assess may not declare score".into(),
            });
        }
    }
    Ok(())
}

/// Every single-message rule, in a fixed order: shape (`bad-frame`), identifiers, free
/// text, PII, then the registry rules. Pure: no state, no clock.
pub fn validate_message(message: &Message, registry: &Registry) -> Result<(), ContractError> {
    validate_shape(message)?;
    if let Some(identity) = message.identity() {
        validate_identity(identity)?;
    }
    validate_text_bounds(message)?;
    validate_no_pii(message)?;
    validate_against_registry(message, registry)
}

/// Shape constraints the type system does not carry: timestamps, non-empty ids, numeric
/// ranges, value XOR error, and a response value that matches its named function.
pub fn validate_shape(message: &Message) -> Result<(), ContractError> {
    if let Some(identity) = message.identity() {
        for (field, value) in [
            ("widget_run_id", &identity.widget_run_id),
            ("widget_id", &identity.widget_id),
            ("pathway_id", &identity.pathway_id),
        ] {
            non_empty_id(field, value)?;
        }
        parse_timestamp("at", &identity.at)?;
    }
    match message {
        Message::WidgetCompleted(m) => {
            if let Some(score) = m.widget_result.score {
                unit_interval("widget_result.score", score)?;
            }
        }
        Message::WidgetStruggle(_) => {}
        Message::ScoreRequest(r) => {
            non_empty_id("call_id", &r.call_id)?;
            parse_timestamp("deadline", &r.deadline)?;
        }
        Message::AssistRequest(r) => {
            non_empty_id("call_id", &r.call_id)?;
            parse_timestamp("deadline", &r.deadline)?;
        }
        Message::ScoreResponse(_) | Message::AssistResponse(_) | Message::Response(_) => {}
    }
    if let Some((function, response)) = message.response() {
        non_empty_id("call_id", &response.call_id)?;
        match (&response.value, &response.error) {
            (Some(_), Some(_)) => return Err(ContractError::ValueAndError),
            (None, None) => return Err(ContractError::NoValueNoError),
            _ => {}
        }
        if let Some(at) = &response.at {
            parse_timestamp("at", at)?;
        }
        if let Some(value) = &response.value {
            if let Some(function) = function {
                check_value_function(function, value)?;
            }
            if let ResponseValue::Score(v) = value {
                unit_interval("value.score", v.score)?;
            }
        }
    }
    Ok(())
}

/// A response value must be of the function it answers (`bad-frame` otherwise).
pub fn check_value_function(
    function: Function,
    value: &ResponseValue,
) -> Result<(), ContractError> {
    if value.function() != function {
        return Err(ContractError::bad_frame(format!(
            "a {} response carries the value of {}",
            function.as_str(),
            value.function().as_str()
        )));
    }
    Ok(())
}

fn non_empty_id(field: &'static str, value: &str) -> Result<(), ContractError> {
    if value.trim().is_empty() {
        return Err(ContractError::bad_frame(format!("{field} is empty")));
    }
    Ok(())
}

fn unit_interval(field: &'static str, value: f64) -> Result<(), ContractError> {
    if !(0.0..=1.0).contains(&value) {
        return Err(ContractError::bad_frame(format!(
            "{field} is outside [0, 1]"
        )));
    }
    Ok(())
}

/// Parses an RFC 3339 time, in UTC. Writers send `Z`; a reader accepts any offset (`+05:30` names
/// the same instant) and keeps UTC (`contract.md` §1): an offset is a formatting slip, not a reason
/// to lose a student's work. [`Message::times_to_utc`] rewrites a message's times to `Z`.
pub fn parse_timestamp(field: &'static str, value: &str) -> Result<OffsetDateTime, ContractError> {
    let parsed = OffsetDateTime::parse(value, &Rfc3339)
        .map_err(|_| ContractError::bad_frame(format!("{field} is not an RFC 3339 time")))?;
    Ok(parsed.to_offset(time::UtcOffset::UTC))
}

/// Rule 2 on the identifiers (see the module comment for the line drawn).
pub fn validate_identity(identity: &Identity) -> Result<(), ContractError> {
    check_learner(&identity.learner)?;
    for (field, value) in [
        ("widget_run_id", &identity.widget_run_id),
        ("widget_id", &identity.widget_id),
        ("pathway_id", &identity.pathway_id),
    ] {
        check_opaque_id(field, value)?;
    }
    Ok(())
}

/// `learner` matches `^[A-Za-z0-9_-]{8,64}$` and contains at least one letter.
pub fn check_learner(learner: &str) -> Result<(), ContractError> {
    let charset_ok = learner
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    // The charset is ASCII, so the byte length is the character count.
    if !charset_ok || !(8..=64).contains(&learner.len()) {
        return Err(ContractError::NonAnonymousId {
            field: "learner",
            why: "must be 8 to 64 characters of A-Z, a-z, 0-9, _ and -",
        });
    }
    if !learner.chars().any(|c| c.is_ascii_alphabetic()) {
        return Err(ContractError::NonAnonymousId {
            field: "learner",
            why: "must contain a letter (a bare number may be a school id)",
        });
    }
    Ok(())
}

/// Opaque ids (`widget_run_id`, `widget_id`, `pathway_id`, `call_id`) may be anything but an
/// e-mail address. Digit runs are allowed: UUIDs have them.
pub fn check_opaque_id(field: &'static str, value: &str) -> Result<(), ContractError> {
    if contains_email(value) {
        return Err(ContractError::NonAnonymousId {
            field,
            why: "contains an e-mail address",
        });
    }
    Ok(())
}

/// A host's own words on the feed (a set-aside's source and reason): non-empty, at most
/// [`PROSE_MAX`] characters, no e-mail address.
pub fn check_host_text(field: &'static str, text: &str) -> Result<(), ContractError> {
    text_bounds(field, text, PROSE_MAX)?;
    check_opaque_id(field, text)
}

fn validate_text_bounds(message: &Message) -> Result<(), ContractError> {
    match message {
        Message::WidgetCompleted(m) => text_bounds("prose", &m.prose, PROSE_MAX),
        Message::WidgetStruggle(m) => text_bounds("prose", &m.prose, PROSE_MAX),
        Message::AssistRequest(r) => text_bounds("args.question", &r.args.question, QUESTION_MAX),
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            match &r.value {
                Some(ResponseValue::Assist(v)) => {
                    text_bounds("value.answer", &v.answer, ANSWER_MAX)
                }
                _ => Ok(()),
            }
        }
        Message::ScoreRequest(_) => Ok(()),
    }
}

/// Non-empty after trimming, at most `max` characters (Unicode scalar values, untrimmed).
fn text_bounds(field: &'static str, text: &str, max: usize) -> Result<(), ContractError> {
    if text.trim().is_empty() {
        return Err(ContractError::EmptyProse { field });
    }
    let chars = text.chars().count();
    if chars > max {
        return Err(ContractError::ProseTooLong { field, chars, max });
    }
    Ok(())
}

/// Rule 2 on payload fields (see the module comment): no e-mail address, no run of 7+
/// digits. Also refuses e-mail addresses in the opaque `call_id`.
pub fn validate_no_pii(message: &Message) -> Result<(), ContractError> {
    let mut scan = PiiScan::default();
    match message {
        Message::WidgetCompleted(m) => {
            scan.text("prose", &m.prose);
            scan.text("widget_result.kind", &m.widget_result.kind);
            scan.opt_text(
                "widget_result.standard",
                m.widget_result.standard.as_deref(),
            );
            for (key, value) in &m.widget_result.detail {
                scan.text("widget_result.detail (a key)", key);
                scan.json(&format!("widget_result.detail.{key}"), value);
            }
        }
        Message::WidgetStruggle(m) => {
            scan.text("prose", &m.prose);
            scan.text("kind", &m.kind);
            scan.opt_text("standard", m.standard.as_deref());
        }
        Message::ScoreRequest(r) => {
            check_opaque_id("call_id", &r.call_id)?;
            scan.text("kind", &r.kind);
            scan.opt_text("standard", r.standard.as_deref());
            scan.json("args.response", &r.args.response);
        }
        Message::AssistRequest(r) => {
            check_opaque_id("call_id", &r.call_id)?;
            scan.text("kind", &r.kind);
            scan.opt_text("standard", r.standard.as_deref());
            scan.text("args.question", &r.args.question);
        }
        Message::ScoreResponse(r) | Message::AssistResponse(r) | Message::Response(r) => {
            check_opaque_id("call_id", &r.call_id)?;
            match &r.value {
                Some(ResponseValue::Score(v)) => {
                    scan.opt_text("value.feedback", v.feedback.as_deref())
                }
                Some(ResponseValue::Assist(v)) => scan.text("value.answer", &v.answer),
                None => {}
            }
            if let Some(error) = &r.error {
                scan.text("error.code", &error.code);
                scan.text("error.message", &error.message);
            }
        }
    }
    match scan.found {
        Some(err) => Err(err),
        None => Ok(()),
    }
}

/// Collects the first PII finding while walking payload fields.
#[derive(Default)]
struct PiiScan {
    found: Option<ContractError>,
}

impl PiiScan {
    fn text(&mut self, field: &str, text: &str) {
        if self.found.is_some() {
            return;
        }
        let what = if contains_email(text) {
            "an e-mail address"
        } else if longest_digit_run(text) >= DIGIT_RUN_MIN {
            "a run of 7 or more digits"
        } else {
            return;
        };
        self.found = Some(ContractError::PiiInPayload {
            field: field.to_owned(),
            what,
        });
    }

    fn opt_text(&mut self, field: &str, text: Option<&str>) {
        if let Some(text) = text {
            self.text(field, text);
        }
    }

    fn json(&mut self, field: &str, value: &Value) {
        if self.found.is_some() {
            return;
        }
        match value {
            Value::String(s) => self.text(field, s),
            Value::Number(n) => {
                // A number counts by the digits of its integer part (see module comment).
                let text = n.to_string();
                let integer_part = text.split(['.', 'e', 'E']).next().unwrap_or("");
                self.text(field, integer_part);
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.json(&format!("{field}[{i}]"), item);
                }
            }
            Value::Object(map) => {
                for (key, item) in map {
                    self.text(&format!("{field} (a key)"), key);
                    self.json(&format!("{field}.{key}"), item);
                }
            }
            Value::Null | Value::Bool(_) => {}
        }
    }
}

/// The longest run of consecutive ASCII digits.
pub fn longest_digit_run(text: &str) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

/// Whether `text` contains something shaped like an e-mail address: a non-empty local part,
/// `@`, and a domain of at least two dot-separated labels whose last label has two or more
/// letters. Deliberately broad (Unicode letters count): a false alarm costs a quarantined
/// message, a miss leaks an address.
pub fn contains_email(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c != '@' {
            continue;
        }
        let local_ok = i > 0 && is_local_char(chars[i - 1]);
        if !local_ok {
            continue;
        }
        let domain: String = chars[i + 1..]
            .iter()
            .take_while(|&&c| c.is_alphanumeric() || c == '.' || c == '-')
            .collect();
        let domain = domain.trim_end_matches(['.', '-']);
        let labels: Vec<&str> = domain.split('.').collect();
        if labels.len() >= 2
            && labels.iter().all(|l| !l.is_empty())
            && labels
                .last()
                .is_some_and(|tld| tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
        {
            return true;
        }
    }
    false
}

fn is_local_char(c: char) -> bool {
    c.is_alphanumeric() || "._%+-'".contains(c)
}

/// Rules 1 and 4, and the kind lookup.
pub fn validate_against_registry(
    message: &Message,
    registry: &Registry,
) -> Result<(), ContractError> {
    let Some(kind) = message.kind() else {
        // Responses carry no kind; the call bookkeeping ties them to their request.
        return Ok(());
    };
    let entry = registry
        .get(kind)
        .ok_or_else(|| ContractError::UnknownKind {
            kind: kind.to_owned(),
        })?;
    let undeclared = |emission: &'static str| ContractError::UndeclaredEmission {
        kind: kind.to_owned(),
        emission,
    };
    match message {
        Message::WidgetCompleted(m) => {
            if !entry.declares_event(Event::WidgetCompleted) {
                return Err(undeclared("widget_completed"));
            }
            let result = &m.widget_result;
            if !entry.assesses {
                if result.correct.is_some() {
                    return Err(ContractError::VerdictNotAssessing {
                        kind: kind.to_owned(),
                        what: "correct must be null".into(),
                    });
                }
                if result.score.is_some() {
                    return Err(ContractError::VerdictNotAssessing {
                        kind: kind.to_owned(),
                        what: "score must be absent".into(),
                    });
                }
            } else if result.correct.is_some() && result.attempts == 0 {
                return Err(ContractError::CorrectWithoutAttempt);
            }
        }
        Message::WidgetStruggle(m) => {
            if !entry.declares_event(Event::WidgetStruggle) {
                return Err(undeclared("widget_struggle"));
            }
            if m.failed_checks < 2 {
                return Err(ContractError::StruggleTooEarly {
                    failed_checks: m.failed_checks,
                });
            }
        }
        Message::ScoreRequest(_) if !entry.declares_function(Function::Score) => {
            return Err(undeclared("score"));
        }
        Message::AssistRequest(_) if !entry.declares_function(Function::Assist) => {
            return Err(undeclared("assist"));
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::RuleId;
    use crate::types::*;
    use serde_json::json;

    fn registry() -> Registry {
        Registry::new(vec![
            RegistryEntry {
                kind: "fraction_compare".into(),
                title: "Compare fractions".into(),
                standard: None,
                assesses: true,
                events: vec![Event::WidgetCompleted, Event::WidgetStruggle],
                functions: vec![Function::Score, Function::Assist],
            },
            RegistryEntry {
                kind: "reflection".into(),
                title: "Reflect".into(),
                standard: None,
                assesses: false,
                events: vec![Event::WidgetCompleted],
                functions: vec![],
            },
        ])
        .unwrap()
    }

    fn completed(kind: &str) -> WidgetCompleted {
        WidgetCompleted {
            prose: "Compared 3/4 and 2/3 correctly on the second try.".into(),
            identity: Identity {
                learner: "anon_k3x9q2".into(),
                widget_run_id: "run-0001".into(),
                widget_id: "w-fractions-1".into(),
                pathway_id: "p-fractions".into(),
                at: "2026-03-02T10:15:00Z".into(),
            },
            widget_result: WidgetResult {
                kind: kind.into(),
                standard: None,
                correct: Some(true),
                attempts: 2,
                hints: 1,
                score: Some(1.0),
                detail: serde_json::Map::new(),
            },
        }
    }

    fn rule(message: Message) -> Option<RuleId> {
        validate_message(&message, &registry())
            .err()
            .map(|e| e.rule_id())
    }

    #[test]
    fn a_valid_completion_passes() {
        assert_eq!(
            rule(Message::WidgetCompleted(completed("fraction_compare"))),
            None
        );
    }

    #[test]
    fn verdicts_only_where_the_kind_assesses() {
        let mut m = completed("reflection");
        assert_eq!(
            rule(Message::WidgetCompleted(m.clone())),
            Some(RuleId::VerdictNotAssessing)
        );
        m.widget_result.correct = None;
        assert_eq!(
            rule(Message::WidgetCompleted(m.clone())),
            Some(RuleId::VerdictNotAssessing)
        );
        m.widget_result.score = None;
        assert_eq!(rule(Message::WidgetCompleted(m)), None);
    }

    #[test]
    fn correct_needs_an_attempt() {
        let mut m = completed("fraction_compare");
        m.widget_result.attempts = 0;
        assert_eq!(
            rule(Message::WidgetCompleted(m.clone())),
            Some(RuleId::CorrectWithoutAttempt)
        );
        m.widget_result.correct = None;
        assert_eq!(rule(Message::WidgetCompleted(m)), None);
    }

    #[test]
    fn a_non_assessing_entry_may_not_declare_struggle_or_score() {
        let entry = RegistryEntry {
            kind: "k".into(),
            title: "t".into(),
            standard: None,
            assesses: false,
            events: vec![Event::WidgetStruggle],
            functions: vec![],
        };
        assert_eq!(
            validate_registry_entry(&entry).unwrap_err().rule_id(),
            RuleId::VerdictNotAssessing
        );
        let entry = RegistryEntry {
            events: vec![],
            functions: vec![Function::Score],
            ..entry
        };
        assert!(validate_registry_entry(&entry).is_err());
        let entry = RegistryEntry {
            functions: vec![Function::Assist],
            ..entry
        };
        assert!(validate_registry_entry(&entry).is_ok());
    }

    #[test]
    fn prose_bounds() {
        let mut m = completed("fraction_compare");
        m.prose = "  \n ".into();
        assert_eq!(
            rule(Message::WidgetCompleted(m.clone())),
            Some(RuleId::EmptyProse)
        );
        m.prose = "é".repeat(PROSE_MAX);
        assert_eq!(rule(Message::WidgetCompleted(m.clone())), None);
        m.prose.push('x');
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::ProseTooLong)
        );
    }

    #[test]
    fn learner_ids() {
        assert!(check_learner("anon_k3x9q2").is_ok());
        assert!(check_learner("a1234567").is_ok());
        assert!(check_learner(&"a".repeat(64)).is_ok());
        assert!(check_learner(&"a".repeat(65)).is_err());
        assert!(
            check_learner("abc1234").is_err(),
            "7 characters is too short"
        );
        assert!(check_learner("12345678").is_err(), "no letter");
        assert!(check_learner("jane.doe@school.org").is_err());
        assert!(check_learner("Jane Doe Smith").is_err());
        assert!(check_learner("ånon_k3x9q2").is_err(), "non-ASCII letter");
    }

    #[test]
    fn uuids_are_fine_as_opaque_ids_but_e_mails_are_not() {
        let mut m = completed("fraction_compare");
        m.identity.widget_run_id = "6f1c2d3e-4012-8123-4567-891234567890".into();
        assert_eq!(rule(Message::WidgetCompleted(m.clone())), None);
        m.identity.widget_id = "jane@school.org".into();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::NonAnonymousId)
        );
    }

    #[test]
    fn pii_in_any_payload_field() {
        let base = completed("fraction_compare");
        let mut m = base.clone();
        m.prose = "Jane (jane.doe@school.org) finished.".into();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::PiiInPayload)
        );
        let mut m = base.clone();
        m.prose = "Student 1234567 finished.".into();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::PiiInPayload)
        );
        let mut m = base.clone();
        m.prose = "Student 123456 finished (six digits are fine).".into();
        assert_eq!(rule(Message::WidgetCompleted(m)), None);
        let mut m = base.clone();
        m.widget_result.detail = json!({"nested": [{"note": "call 5551234567"}]})
            .as_object()
            .cloned()
            .unwrap();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::PiiInPayload)
        );
        let mut m = base.clone();
        m.widget_result.detail = json!({"student_id": 12345678})
            .as_object()
            .cloned()
            .unwrap();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::PiiInPayload)
        );
        let mut m = base.clone();
        m.widget_result.detail = json!({"ratio": 0.12345678, "items": 12})
            .as_object()
            .cloned()
            .unwrap();
        assert_eq!(rule(Message::WidgetCompleted(m)), None);
        let mut m = base;
        m.widget_result.detail = json!({"bob@example.com": true})
            .as_object()
            .cloned()
            .unwrap();
        assert_eq!(
            rule(Message::WidgetCompleted(m)),
            Some(RuleId::PiiInPayload)
        );
    }

    #[test]
    fn e_mail_detection() {
        assert!(contains_email("a@b.co"));
        assert!(contains_email("write to jane.doe+x@mail.school.org."));
        assert!(!contains_email("score @ 5"));
        assert!(!contains_email("a@b"));
        assert!(!contains_email("a@b.1"));
        assert!(!contains_email("@school.org"));
        assert!(!contains_email("3/4 > 2/3"));
    }

    #[test]
    fn digit_runs() {
        assert_eq!(longest_digit_run("ab12cd1234567"), 7);
        assert_eq!(longest_digit_run("2026-03-02"), 4);
        assert_eq!(longest_digit_run(""), 0);
    }

    #[test]
    fn timestamps_must_be_rfc3339_and_are_kept_as_utc() {
        assert!(parse_timestamp("at", "2026-03-02T10:15:00Z").is_ok());
        assert!(parse_timestamp("at", "2026-03-02T10:15:00.123456789+00:00").is_ok());
        let local = parse_timestamp("at", "2026-03-02T11:15:00+01:00").expect("an offset is read");
        assert_eq!(
            local,
            parse_timestamp("at", "2026-03-02T10:15:00Z").unwrap()
        );
        assert!(local.offset().is_utc(), "kept as UTC");
        assert!(parse_timestamp("at", "2026-03-02 10:15").is_err());
        let mut m = completed("fraction_compare");
        m.identity.at = "yesterday".into();
        assert_eq!(rule(Message::WidgetCompleted(m)), Some(RuleId::BadFrame));
    }

    #[test]
    fn times_in_an_offset_are_rewritten_as_utc() {
        let mut m = completed("fraction_compare");
        m.identity.at = "2026-03-02T15:45:00+05:30".into();
        let mut message = Message::WidgetCompleted(m);
        assert_eq!(rule(message.clone()), None, "an offset breaks no rule");
        assert_eq!(message.times(), [("at", "2026-03-02T15:45:00+05:30")]);
        assert_eq!(message.times_to_utc(), 1);
        assert_eq!(message.times(), [("at", "2026-03-02T10:15:00Z")]);
        assert_eq!(message.times_to_utc(), 0, "UTC stays as it is");
    }

    #[test]
    fn counts_written_as_whole_floats_are_read_and_fractions_refused() {
        let mut value = serde_json::to_value(completed("fraction_compare")).unwrap();
        value["widget_result"]["attempts"] = serde_json::json!(2.0);
        let m: WidgetCompleted = serde_json::from_value(value.clone()).expect("2.0 is 2");
        assert_eq!(m.widget_result.attempts, 2);
        for bad in [
            serde_json::json!(1.5),
            serde_json::json!(-1),
            serde_json::json!(5e9),
        ] {
            value["widget_result"]["attempts"] = bad.clone();
            let err = serde_json::from_value::<WidgetCompleted>(value.clone())
                .expect_err("not a count")
                .to_string();
            assert!(err.contains("is not a count"), "{bad}: {err}");
        }
    }

    #[test]
    fn registry_rules() {
        let mut m = completed("no_such_kind");
        assert_eq!(
            rule(Message::WidgetCompleted(m.clone())),
            Some(RuleId::UnknownKind)
        );
        m.widget_result.kind = "reflection".into();
        m.widget_result.correct = None;
        m.widget_result.score = None;
        let struggle = WidgetStruggle {
            prose: "Stuck on the second comparison.".into(),
            identity: m.identity.clone(),
            kind: "reflection".into(),
            standard: None,
            failed_checks: 3,
            hints: 0,
        };
        assert_eq!(
            rule(Message::WidgetStruggle(struggle.clone())),
            Some(RuleId::UndeclaredEmission)
        );
        let early = WidgetStruggle {
            kind: "fraction_compare".into(),
            failed_checks: 1,
            ..struggle
        };
        assert_eq!(
            rule(Message::WidgetStruggle(early.clone())),
            Some(RuleId::StruggleTooEarly)
        );
        let ok = WidgetStruggle {
            failed_checks: 2,
            ..early
        };
        assert_eq!(rule(Message::WidgetStruggle(ok)), None);
    }

    #[test]
    fn value_xor_error() {
        let both = FunctionResponse {
            call_id: "c-1".into(),
            at: Some("2026-03-02T10:15:00Z".into()),
            value: Some(ResponseValue::Score(ScoreValue {
                correct: true,
                score: 1.0,
                feedback: None,
            })),
            error: Some(CallError {
                code: "declined".into(),
                message: "no".into(),
            }),
        };
        assert_eq!(
            rule(Message::ScoreResponse(both.clone())),
            Some(RuleId::ValueAndError)
        );
        let neither = FunctionResponse {
            value: None,
            error: None,
            ..both.clone()
        };
        assert_eq!(
            rule(Message::ScoreResponse(neither)),
            Some(RuleId::NoValueNoError)
        );
        let value_only = FunctionResponse {
            error: None,
            ..both
        };
        assert_eq!(rule(Message::ScoreResponse(value_only.clone())), None);
        assert_eq!(
            rule(Message::AssistResponse(value_only)),
            Some(RuleId::BadFrame)
        );
    }
}
