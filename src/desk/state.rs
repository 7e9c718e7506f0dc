//! The state of one help request, as a pure function of what the store knows and the clock.
//!
//! `calls.state` is what the host said (through the feed); `desk_sent` is what this dashboard
//! sent and the host accepted but has not echoed yet; the clock closes a request whose deadline
//! has passed even before the host's `timeout` arrives (the host refuses a late answer anyway,
//! and a teacher must not type one).

use serde::Serialize;

/// Where a help request stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum RequestState {
    /// Waiting, nobody holds it.
    Open,
    /// Held by this dashboard's teacher.
    ClaimedByMe,
    /// Held by a co-teacher: this dashboard may not answer it.
    ClaimedByOther,
    /// Answered (by anyone).
    Answered,
    /// Declined (an `error` with code `declined`).
    Declined,
    /// The deadline passed (the host's `timeout`, or the clock before it).
    Expired,
    /// Closed with another error code.
    Failed,
}

impl RequestState {
    /// Still waiting for an answer.
    pub fn is_waiting(self) -> bool {
        matches!(self, Self::Open | Self::ClaimedByMe | Self::ClaimedByOther)
    }
}

/// What the store knows about one call, as the state machine needs it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CallView<'a> {
    /// `calls.state`: open, answered, declined, expired, failed.
    pub stored_state: &'a str,
    pub claimed_by: Option<&'a str>,
    /// The opaque id this dashboard's teacher got from the host on a claim, if any yet.
    pub my_teacher_id: Option<&'a str>,
    /// `desk_sent.outcome`, when this dashboard sent a response the feed has not echoed yet.
    pub sent: Option<&'a str>,
    pub deadline_ms: i64,
}

/// The request's state at `now_ms`.
pub fn request_state(call: &CallView<'_>, now_ms: i64) -> RequestState {
    match call.stored_state {
        "answered" => return RequestState::Answered,
        "declined" => return RequestState::Declined,
        "expired" => return RequestState::Expired,
        "failed" => return RequestState::Failed,
        _ => {}
    }
    match call.sent {
        Some("declined") => return RequestState::Declined,
        Some(_) => return RequestState::Answered,
        None => {}
    }
    // The host closes a call once its time is past the deadline; at the deadline itself an
    // answer would race the host's timeout, so the desk stops one millisecond earlier.
    if now_ms >= call.deadline_ms {
        return RequestState::Expired;
    }
    match (call.claimed_by, call.my_teacher_id) {
        (None, _) => RequestState::Open,
        (Some(by), Some(me)) if by == me => RequestState::ClaimedByMe,
        (Some(_), _) => RequestState::ClaimedByOther,
    }
}

/// Why a response may not be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// It already has its one response (answered, declined, failed).
    AlreadyAnswered,
    /// Its deadline passed.
    Expired,
    /// A co-teacher holds it.
    ClaimedByOther,
}

/// May this dashboard send the call's one response now?
pub fn may_respond(state: RequestState) -> Result<(), Refusal> {
    match state {
        RequestState::Open | RequestState::ClaimedByMe => Ok(()),
        RequestState::ClaimedByOther => Err(Refusal::ClaimedByOther),
        RequestState::Expired => Err(Refusal::Expired),
        RequestState::Answered | RequestState::Declined | RequestState::Failed => {
            Err(Refusal::AlreadyAnswered)
        }
    }
}

/// May this dashboard claim the call now? Claiming one's own claim again is harmless (the host
/// answers with the same id).
pub fn may_claim(state: RequestState) -> Result<(), Refusal> {
    may_respond(state)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DEADLINE: i64 = 1_000_000;

    fn open() -> CallView<'static> {
        CallView {
            stored_state: "open",
            claimed_by: None,
            my_teacher_id: None,
            sent: None,
            deadline_ms: DEADLINE,
        }
    }

    #[test]
    fn an_open_call_before_its_deadline_is_open_and_answerable() {
        let s = request_state(&open(), DEADLINE - 1);
        assert_eq!(s, RequestState::Open);
        assert!(s.is_waiting());
        assert_eq!(may_respond(s), Ok(()));
    }

    #[test]
    fn a_late_answer_is_refused_by_the_clock_before_the_host_says_so() {
        // Stored state is still open (no timeout echo yet); the clock alone closes it.
        let s = request_state(&open(), DEADLINE);
        assert_eq!(s, RequestState::Expired);
        assert_eq!(may_respond(s), Err(Refusal::Expired));
        let s = request_state(&open(), DEADLINE + 60_000);
        assert_eq!(may_respond(s), Err(Refusal::Expired));
        // And the host's own timeout echo says the same whatever the clock.
        let echoed = CallView {
            stored_state: "expired",
            ..open()
        };
        assert_eq!(request_state(&echoed, 0), RequestState::Expired);
    }

    #[test]
    fn a_double_answer_is_refused_before_and_after_the_echo() {
        // Sent, not yet echoed.
        let sent = CallView {
            sent: Some("answered"),
            ..open()
        };
        let s = request_state(&sent, 10);
        assert_eq!(s, RequestState::Answered);
        assert_eq!(may_respond(s), Err(Refusal::AlreadyAnswered));
        // Echoed (by this dashboard or a co-teacher's).
        let echoed = CallView {
            stored_state: "answered",
            ..open()
        };
        assert_eq!(
            may_respond(request_state(&echoed, 10)),
            Err(Refusal::AlreadyAnswered)
        );
        // An answered call stays answered after its deadline: not "expired".
        assert_eq!(request_state(&echoed, DEADLINE + 1), RequestState::Answered);
    }

    #[test]
    fn a_declined_call_is_declined_and_closed() {
        let sent = CallView {
            sent: Some("declined"),
            ..open()
        };
        assert_eq!(request_state(&sent, 10), RequestState::Declined);
        let echoed = CallView {
            stored_state: "declined",
            ..open()
        };
        let s = request_state(&echoed, 10);
        assert_eq!(s, RequestState::Declined);
        assert!(!s.is_waiting());
        assert_eq!(may_respond(s), Err(Refusal::AlreadyAnswered));
        let failed = CallView {
            stored_state: "failed",
            ..open()
        };
        assert_eq!(
            may_respond(request_state(&failed, 10)),
            Err(Refusal::AlreadyAnswered)
        );
    }

    #[test]
    fn a_claim_is_mine_or_a_co_teachers() {
        let mine = CallView {
            claimed_by: Some("t-1"),
            my_teacher_id: Some("t-1"),
            ..open()
        };
        let s = request_state(&mine, 10);
        assert_eq!(s, RequestState::ClaimedByMe);
        assert_eq!(may_respond(s), Ok(()));
        let theirs = CallView {
            claimed_by: Some("t-2"),
            my_teacher_id: Some("t-1"),
            ..open()
        };
        let s = request_state(&theirs, 10);
        assert_eq!(s, RequestState::ClaimedByOther);
        assert!(s.is_waiting());
        assert_eq!(may_respond(s), Err(Refusal::ClaimedByOther));
        // Before this dashboard ever claimed, any claim is someone else's.
        let unknown_me = CallView {
            claimed_by: Some("t-2"),
            ..open()
        };
        assert_eq!(request_state(&unknown_me, 10), RequestState::ClaimedByOther);
        // A claimed call still expires.
        assert_eq!(request_state(&mine, DEADLINE), RequestState::Expired);
    }
}
