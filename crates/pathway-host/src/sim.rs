//! The simulated learners: pure state machines over a seeded generator and virtual time.
//!
//! A learner works through its class's assigned pathways in order, one widget run at a
//! time. Each call to [`Learner::step`] or [`Learner::on_response`] returns what happened
//! ([`SimOut`]): contract messages to emit, calls to open, and when to wake the learner next.
//! The host owns time and the event log; this module only decides. Everything follows the
//! contract's rules: verdicts only on assessing kinds and only after an attempt, at most one
//! struggle per run and only after two failed checks and before the completion, only
//! declared emissions.

use std::collections::HashSet;

use a2learn_contract::{
    AssistArgs, AssistRequest, Event, Function, FunctionResponse, Identity, Message, ResponseValue,
    ScoreArgs, ScoreRequest, WidgetCompleted, WidgetResult, WidgetStruggle,
};
use serde_json::{Map, Value, json};

use crate::catalog::Step;
use crate::rng::Rng;

/// Virtual milliseconds.
const SEC: u64 = 1000;
/// How long an assist request stays open (virtual time): a student who asks for help waits
/// minutes, long enough for a teacher to cross the room. At speed `s` that is `4 min / s` of
/// real time.
pub const ASSIST_DEADLINE_MS: u64 = 4 * 60 * SEC;
/// How long a score request stays open (virtual time).
pub const SCORE_DEADLINE_MS: u64 = 3 * 60 * SEC;
const MAX_ATTEMPTS: u32 = 4;

/// What a learner did.
#[derive(Debug, Clone, PartialEq)]
pub enum SimOut {
    Emit(Box<Message>),
    /// A request was emitted: the host opens the call with this virtual deadline offset.
    Open {
        call_id: String,
        function: Function,
        deadline_in_ms: u64,
    },
    /// Wake the learner after this much virtual time.
    Wake(u64),
}

/// One widget run in progress.
#[derive(Debug, Clone)]
struct Run {
    run_id: String,
    pathway_id: String,
    step: Step,
    attempts: u32,
    hints: u32,
    failed_checks: u32,
    struggled: bool,
    asked: bool,
    helped: bool,
    waiting: Option<String>,
    minutes: u64,
    /// Set when a score call answered (or failed): the run completes on the next step.
    scored: Option<Option<(bool, f64)>>,
    /// The written answer sent for scoring (kinds the host scores).
    answer: Option<String>,
}

/// A simulated learner.
#[derive(Debug, Clone)]
pub struct Learner {
    pub id: String,
    rng: Rng,
    skill: f64,
    pace: f64,
    done: HashSet<(String, String)>,
    run: Option<Run>,
    /// Bumped whenever a wake-up is scheduled; older wake-ups are stale.
    pub token: u64,
}

impl Learner {
    pub fn new(id: String, mut rng: Rng) -> Self {
        let skill = 0.35 + rng.unit() * 0.55;
        let pace = 0.7 + rng.unit() * 0.7;
        Learner {
            id,
            rng,
            skill,
            pace,
            done: HashSet::new(),
            run: None,
            token: 0,
        }
    }

    /// Marks a widget as done (progress recovered from the event log after a restart).
    pub fn mark_done(&mut self, pathway_id: &str, widget_id: &str) {
        self.done
            .insert((pathway_id.to_owned(), widget_id.to_owned()));
    }

    /// Is the learner between widgets with nothing left to do?
    pub fn is_idle(&self) -> bool {
        self.run.is_none()
    }

    /// The step of the run in progress, as `(pathway_id, widget_id)`, if any.
    pub fn current_step(&self) -> Option<(&str, &str)> {
        self.run
            .as_ref()
            .map(|r| (r.pathway_id.as_str(), r.step.widget_id.as_str()))
    }

    /// The call the learner waits on, if any.
    pub fn waiting_on(&self) -> Option<&str> {
        self.run.as_ref().and_then(|r| r.waiting.as_deref())
    }

    /// The first delay after joining a class: learners open the pathway within seconds.
    pub fn first_delay(&mut self) -> u64 {
        self.rng.range(0, 10 * SEC)
    }

    fn scaled(&mut self, lo_s: u64, hi_s: u64) -> u64 {
        let base = self.rng.range(lo_s * SEC, hi_s * SEC) as f64;
        (base * self.pace) as u64
    }

    fn identity(&self, run: &Run, at: &str) -> Identity {
        Identity {
            learner: self.id.clone(),
            widget_run_id: run.run_id.clone(),
            widget_id: run.step.widget_id.clone(),
            pathway_id: run.pathway_id.clone(),
            at: at.to_owned(),
        }
    }

    /// Advances the learner. `plan` is the class's assigned steps in order; `at` the
    /// current time stamp.
    pub fn step(&mut self, plan: &[(String, Step)], at: &str) -> Vec<SimOut> {
        let Some(mut run) = self.run.take() else {
            return self.start_next(plan);
        };
        if run.waiting.is_some() {
            // Woken while waiting on a call: only a response (or the timeout) moves it on.
            self.run = Some(run);
            return Vec::new();
        }
        let entry = run.step.entry.clone();
        let mut out = Vec::new();
        if let Some(scored) = run.scored.take() {
            out.push(self.complete(&run, scored, at));
            self.finish(&run);
            out.push(SimOut::Wake(self.scaled(3, 15)));
            return out;
        }
        if !entry.assesses {
            if entry.declares_function(Function::Assist) && !run.asked && self.rng.chance(0.12) {
                run.asked = true;
                out.extend(self.ask(&mut run, at));
                self.run = Some(run);
                return out;
            }
            out.push(self.complete(&run, None, at));
            self.finish(&run);
            out.push(SimOut::Wake(self.scaled(3, 15)));
            return out;
        }
        if entry.declares_function(Function::Score) {
            // The widget cannot check a written answer: the learner submits once and the
            // host (the teacher) scores it.
            run.attempts = 1;
            let call_id = format!("call-{}", self.rng.letters(12));
            let answer = written_answer(&entry.kind, &mut self.rng);
            run.answer = Some(answer.clone());
            let request = ScoreRequest {
                call_id: call_id.clone(),
                identity: self.identity(&run, at),
                kind: entry.kind.clone(),
                standard: entry.standard.clone(),
                deadline: String::new(),
                args: ScoreArgs {
                    response: json!({"text": answer}),
                },
            };
            run.waiting = Some(call_id.clone());
            out.push(SimOut::Emit(Box::new(Message::ScoreRequest(request))));
            out.push(SimOut::Open {
                call_id,
                function: Function::Score,
                deadline_in_ms: SCORE_DEADLINE_MS,
            });
            self.run = Some(run);
            return out;
        }
        // An attempt at a self-checking widget.
        run.attempts += 1;
        let p = (self.skill
            + 0.1 * f64::from(run.hints)
            + if run.helped { 0.25 } else { 0.0 }
            + 0.05 * f64::from(run.attempts - 1))
        .min(0.95);
        if self.rng.chance(p) {
            out.push(self.complete(&run, Some((true, 1.0 / f64::from(run.attempts))), at));
            self.finish(&run);
            out.push(SimOut::Wake(self.scaled(3, 15)));
            return out;
        }
        run.failed_checks += 1;
        if run.attempts >= MAX_ATTEMPTS {
            out.push(self.complete(&run, Some((false, 0.0)), at));
            self.finish(&run);
            out.push(SimOut::Wake(self.scaled(3, 15)));
            return out;
        }
        if self.rng.chance(0.5) {
            run.hints += 1;
        }
        if run.failed_checks >= 2
            && !run.struggled
            && entry.declares_event(Event::WidgetStruggle)
            && self.rng.chance(0.6)
        {
            run.struggled = true;
            out.push(SimOut::Emit(Box::new(Message::WidgetStruggle(
                WidgetStruggle {
                    prose: format!(
                        "The learner is stuck on {}: {} failed checks and {} hints so far.",
                        entry.title.to_lowercase(),
                        run.failed_checks,
                        run.hints
                    ),
                    identity: self.identity(&run, at),
                    kind: entry.kind.clone(),
                    standard: entry.standard.clone(),
                    failed_checks: run.failed_checks,
                    hints: run.hints,
                },
            ))));
        }
        if entry.declares_function(Function::Assist) && !run.asked && self.rng.chance(0.25) {
            run.asked = true;
            out.extend(self.ask(&mut run, at));
            self.run = Some(run);
            return out;
        }
        let think = self.scaled(25, 100);
        run.minutes += think / (60 * SEC);
        out.push(SimOut::Wake(think));
        self.run = Some(run);
        out
    }

    fn ask(&mut self, run: &mut Run, at: &str) -> Vec<SimOut> {
        let entry = &run.step.entry;
        let call_id = format!("call-{}", self.rng.letters(12));
        let request = AssistRequest {
            call_id: call_id.clone(),
            identity: self.identity(run, at),
            kind: entry.kind.clone(),
            standard: entry.standard.clone(),
            deadline: String::new(),
            args: AssistArgs {
                question: question(&entry.kind, &mut self.rng),
                attempts: run.attempts,
                hints: run.hints,
            },
        };
        run.waiting = Some(call_id.clone());
        vec![
            SimOut::Emit(Box::new(Message::AssistRequest(request))),
            SimOut::Open {
                call_id,
                function: Function::Assist,
                deadline_in_ms: ASSIST_DEADLINE_MS,
            },
        ]
    }

    /// A response (the teacher's, or the host's timeout) reached the widget.
    pub fn on_response(&mut self, response: &FunctionResponse) -> Vec<SimOut> {
        let Some(run) = self.run.as_mut() else {
            return Vec::new();
        };
        if run.waiting.as_deref() != Some(response.call_id.as_str()) {
            return Vec::new();
        }
        run.waiting = None;
        let mut wake = 0;
        match &response.value {
            Some(ResponseValue::Score(v)) => {
                run.scored = Some(Some((v.correct, v.score)));
            }
            Some(ResponseValue::Assist(_)) => {
                run.helped = true;
                wake = self.rng.range(10 * SEC, 30 * SEC);
            }
            None => {
                if run.step.entry.declares_function(Function::Score) && run.attempts >= 1 {
                    // No check ran: the completion reports correct = null.
                    run.scored = Some(None);
                }
                wake = self.rng.range(5 * SEC, 15 * SEC);
            }
        }
        let wake = wake.max(SEC);
        vec![SimOut::Wake(wake)]
    }

    fn finish(&mut self, run: &Run) {
        self.done
            .insert((run.pathway_id.clone(), run.step.widget_id.clone()));
    }

    fn start_next(&mut self, plan: &[(String, Step)]) -> Vec<SimOut> {
        let Some((pathway_id, step)) = plan
            .iter()
            .find(|(p, s)| !self.done.contains(&(p.clone(), s.widget_id.clone())))
        else {
            return Vec::new();
        };
        let run = Run {
            run_id: format!("run-{}", self.rng.letters(12)),
            pathway_id: pathway_id.clone(),
            step: step.clone(),
            attempts: 0,
            hints: 0,
            failed_checks: 0,
            struggled: false,
            asked: false,
            helped: false,
            waiting: None,
            minutes: 0,
            scored: None,
            answer: None,
        };
        let entry = &run.step.entry;
        // Time on the widget before the first check (or before finishing, for non-assessing
        // widgets); the intro video is short so a fresh assignment shows activity quickly.
        let (lo, hi) = match entry.kind.as_str() {
            "intro_video" => (10, 40),
            "reading_passage" => (90, 240),
            "reflection_journal" => (60, 180),
            "explain_reasoning" | "summary_writing" => (60, 180),
            _ => (30, 120),
        };
        let wait = self.scaled(lo, hi);
        let mut run = run;
        run.minutes = wait / (60 * SEC);
        self.run = Some(run);
        vec![SimOut::Wake(wait)]
    }

    fn complete(&mut self, run: &Run, verdict: Option<(bool, f64)>, at: &str) -> SimOut {
        let entry = &run.step.entry;
        let phrase = phrase(&entry.kind);
        let mut detail = Map::new();
        let (correct, score, prose) = if !entry.assesses {
            detail.insert("minutes".into(), Value::from(run.minutes.max(1)));
            (
                None,
                None,
                format!(
                    "The learner {phrase} in about {} minutes.",
                    run.minutes.max(1)
                ),
            )
        } else {
            detail.insert("failed_checks".into(), Value::from(run.failed_checks));
            if let Some(response) = final_response(run, verdict.map(|(correct, _)| correct)) {
                detail.insert("response".into(), Value::from(response));
            }
            match verdict {
                Some((correct, score)) => {
                    // The misconception a wrong answer shows (the knowledge map draws it).
                    if !correct
                        && let Some(m) = detail
                            .get("response")
                            .and_then(Value::as_str)
                            .and_then(|r| misconception(&entry.kind, r))
                    {
                        detail.insert("misconception".into(), Value::from(m));
                    }
                    let how = if correct {
                        "correct"
                    } else {
                        "not yet correct"
                    };
                    (
                        Some(correct),
                        Some((score * 100.0).round() / 100.0),
                        format!(
                            "The learner {phrase}: {how} after {} {} and {} {}.",
                            run.attempts,
                            plural(run.attempts, "attempt"),
                            run.hints,
                            plural(run.hints, "hint"),
                        ),
                    )
                }
                None => (
                    None,
                    None,
                    format!("The learner {phrase}; no check ran, so there is no verdict."),
                ),
            }
        };
        SimOut::Emit(Box::new(Message::WidgetCompleted(WidgetCompleted {
            prose,
            identity: self.identity(run, at),
            widget_result: WidgetResult {
                kind: entry.kind.clone(),
                standard: entry.standard.clone(),
                correct,
                attempts: run.attempts,
                hints: run.hints,
                score,
                detail,
            },
        })))
    }
}

/// The misconception a wrong answer of [`final_response`] shows, as a widget would name it.
fn misconception(kind: &str, response: &str) -> Option<&'static str> {
    Some(match (kind, response) {
        ("fraction_compare", "3/4 < 2/3" | "2/3 > 3/4") => "larger-denominator-larger-fraction",
        ("fraction_compare", "3/4 = 2/3") => "compares-numerators-only",
        ("equivalent_fractions", "2/4 = 3/5") => "adds-same-number-top-and-bottom",
        ("equivalent_fractions", "2/4 = 2/8") => "scales-denominator-only",
        ("number_line_place", "between 0 and 1/2") => "counts-ticks-not-intervals",
        ("number_line_place", "past 1") => "fraction-above-one",
        ("multiplication_facts", "54") => "skip-count-slip",
        ("multiplication_facts", "63" | "48") => "neighbouring-fact",
        ("area_model", "80" | "64") => "drops-a-partial-product",
        ("area_model", "24") => "adds-side-lengths",
        ("main_idea", _) => "detail-as-main-idea",
        ("vocab_in_context", "to fly fast") => "sound-alike-word",
        ("vocab_in_context", _) => "ignores-context",
        _ => return None,
    })
}

/// The learner's final answer, as the widget captured it (`detail.response`): the written
/// answer the host scored, or for a self-checking kind its right answer or one of its common
/// wrong ones. Picked from the run id, not the learner's random stream, so adding it changed
/// no simulated learner's behaviour.
fn final_response(run: &Run, correct: Option<bool>) -> Option<String> {
    if let Some(answer) = &run.answer {
        return Some(answer.clone());
    }
    let (right, wrong): (&str, &[&str]) = match run.step.entry.kind.as_str() {
        "fraction_compare" => ("3/4 > 2/3", &["3/4 < 2/3", "3/4 = 2/3", "2/3 > 3/4"]),
        "equivalent_fractions" => ("2/4 = 4/8", &["2/4 = 3/5", "2/4 = 2/8"]),
        "number_line_place" => ("between 1/2 and 1", &["between 0 and 1/2", "past 1"]),
        "multiplication_facts" => ("56", &["54", "63", "48"]),
        "area_model" => ("84", &["80", "24", "64"]),
        "main_idea" => (
            "Bats help farmers by eating insects",
            &["Bats fly at night", "Bats are mammals"],
        ),
        "vocab_in_context" => ("to move to another place", &["to fly fast", "to sleep"]),
        _ => return None,
    };
    match correct? {
        true => Some(right.to_owned()),
        false => {
            // FNV-1a of the run id: stable, and independent of the random stream.
            let h = run.run_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
            });
            let i = usize::try_from(h % wrong.len() as u64).unwrap_or(0);
            wrong.get(i).map(|w| (*w).to_owned())
        }
    }
}

fn plural(n: u32, word: &str) -> String {
    if n == 1 {
        word.to_owned()
    } else {
        format!("{word}s")
    }
}

/// What a learner did on a widget of this kind, for the prose.
pub fn phrase(kind: &str) -> &'static str {
    match kind {
        "intro_video" => "watched the introduction video",
        "reading_passage" => "read the passage",
        "reflection_journal" => "wrote a short reflection",
        "fraction_compare" => "compared pairs of fractions",
        "equivalent_fractions" => "found equivalent fractions",
        "number_line_place" => "placed fractions on a number line",
        "explain_reasoning" => "explained their reasoning in writing",
        "multiplication_facts" => "practised multiplication facts",
        "area_model" => "used an area model to multiply",
        "main_idea" => "identified the main idea of a passage",
        "vocab_in_context" => "worked out word meanings from context",
        "summary_writing" => "wrote a summary of the passage",
        _ => "worked on the widget",
    }
}

fn question(kind: &str, rng: &mut Rng) -> String {
    let options: &[&str] = match kind {
        "fraction_compare" => &[
            "How do I know which fraction is bigger when the bottoms are different?",
            "Is 3/8 bigger than 2/5? I keep getting it wrong.",
        ],
        "equivalent_fractions" => &[
            "Why is 2/4 the same as 1/2?",
            "What do I multiply to get an equivalent fraction?",
        ],
        "area_model" => &[
            "How do I split the rectangle for 14 times 6?",
            "Do I add the parts of the area model or multiply them?",
        ],
        "main_idea" => &[
            "Is the main idea the first sentence?",
            "How is the main idea different from a detail?",
        ],
        "reading_passage" => &["What does the word 'migrate' mean here?"],
        _ => &["I am not sure what this question is asking. Can you help?"],
    };
    (*rng.pick(options)).to_owned()
}

fn written_answer(kind: &str, rng: &mut Rng) -> String {
    let options: &[&str] = match kind {
        "summary_writing" => &[
            "Bats help farmers because they eat insects that damage crops.",
            "The passage is about how bats find food at night using sound.",
        ],
        _ => &[
            "3/4 is bigger because the pieces are bigger when you cut it in 4.",
            "I made the bottoms the same, 6/8 and 5/8, so 3/4 is more.",
            "I think they are equal because both have 3.",
        ],
    };
    (*rng.pick(options)).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phrases_have_no_digits() {
        for k in crate::catalog::kinds() {
            assert!(!phrase(&k.kind).chars().any(|c| c.is_ascii_digit()));
        }
    }

    fn run_of(kind: &str, run_id: &str) -> Run {
        let entry = crate::catalog::kinds()
            .into_iter()
            .find(|k| k.kind == kind)
            .expect("kind");
        Run {
            run_id: run_id.to_owned(),
            pathway_id: "p".to_owned(),
            step: Step {
                widget_id: "w".to_owned(),
                entry,
            },
            attempts: 1,
            hints: 0,
            failed_checks: 0,
            struggled: false,
            asked: false,
            helped: false,
            waiting: None,
            minutes: 0,
            scored: None,
            answer: None,
        }
    }

    #[test]
    fn final_responses_are_stable_per_run_and_only_where_a_check_ran() {
        let run = run_of("fraction_compare", "run-abc");
        assert_eq!(
            final_response(&run, Some(true)).as_deref(),
            Some("3/4 > 2/3")
        );
        let wrong = final_response(&run, Some(false)).expect("a wrong answer");
        assert_ne!(wrong, "3/4 > 2/3");
        assert_eq!(final_response(&run, Some(false)), Some(wrong), "stable");
        assert_eq!(final_response(&run, None), None, "no check, no response");
        // Negative control: a kind without answers has none.
        assert_eq!(
            final_response(&run_of("intro_video", "r"), Some(true)),
            None
        );
        // A written answer the host scored is the response, whatever the verdict.
        let mut written = run_of("explain_reasoning", "r");
        written.answer = Some("I made the bottoms the same.".to_owned());
        assert_eq!(
            final_response(&written, None).as_deref(),
            Some("I made the bottoms the same.")
        );
    }
}
