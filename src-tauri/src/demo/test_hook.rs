//! The demo's **test-only** question hook, compiled in only with the shell's `test-hooks`
//! feature (off by default: `scripts/test.sh` turns it on for clippy and `cargo test`, whose app
//! binary the end-to-end tests run). A build without the feature holds none of this, so the
//! variable below does nothing there.

use std::path::PathBuf;
use std::time::Duration;

use a2learn_teacher::store::{ClassRow, Store};
use pathway_host::FeedWriter;

use super::{DemoHost, assist_request_event};
use crate::AppState;

/// Environment variable: when set, the demo host emits one `a2learn.assist` request with this
/// text as the student's question once the demo class exists. The simulated students never ask
/// anything hostile; the end-to-end test uses this to prove that a question like
/// `<img src=x onerror=...>` is shown as text and runs nothing. The call is not one the host
/// opened, so answering it is refused (`unknown_call`); nothing else reads this variable.
pub const DEMO_INJECT_QUESTION_ENV: &str = "A2LEARN_DEMO_INJECT_QUESTION";

/// The learner id of the injected question (anonymous, as the contract requires).
pub const INJECTED_LEARNER: &str = "anon_injected01";

/// Environment variable: a schedule of extra completions for the latency measurement
/// (`tests/e2e/latency.test.mjs`), phases of `RATExCOUNT` separated by commas, e.g.
/// `10x200,100x200`: 200 completions at 10 a second, a 3 s pause, then 200 at 100 a second.
/// Each completion is by a new learner (`anon_lat_NNNNN`, counting down so that each new row
/// sorts first in the live grid and is drawn). Needs [`DEMO_EMIT_LOG_ENV`].
pub const DEMO_EMIT_ENV: &str = "A2LEARN_DEMO_EMIT";
/// Environment variable: the file the emitter appends one JSON line per completion to
/// (`{"learner":…,"class_id":…,"seq":…,"emit_ms":…,"rate":…}`, wall time in epoch ms, from the
/// store's clock), after each phase. The emitter starts once `<file>.go` exists (the test
/// creates it when the page watches), waiting at most 5 minutes.
pub const DEMO_EMIT_LOG_ENV: &str = "A2LEARN_DEMO_EMIT_LOG";
/// Pause between two phases of [`DEMO_EMIT_ENV`], so their latencies do not overlap.
const EMIT_PHASE_GAP: Duration = Duration::from_secs(3);

impl DemoHost {
    /// Emits one assist request with the question of [`DEMO_INJECT_QUESTION_ENV`] into
    /// `class_id`'s feed (10 minutes to answer). Does nothing without the variable.
    pub fn inject_question_from_env(&self, class_id: &str) -> anyhow::Result<()> {
        let Ok(question) = std::env::var(DEMO_INJECT_QUESTION_ENV) else {
            return Ok(());
        };
        let now = self.host.now_ms();
        let event = assist_request_event(
            &self.host.pathways(),
            "call-injected-question",
            INJECTED_LEARNER,
            &question,
            now,
            now + 10 * 60 * 1000,
        )
        .ok_or_else(|| anyhow::anyhow!("no widget in the catalog declares assist"))?;
        self.host
            .emit_custom(class_id, &event)
            .map_err(|e| anyhow::anyhow!("cannot inject the test question: {e:?}"))?;
        tracing::warn!("test hook: injected one assist request into the demo class");
        Ok(())
    }
}

/// One phase of [`DEMO_EMIT_ENV`]: events a second, and how many.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Phase {
    rate: f64,
    count: usize,
}

/// Reads `10x200,100x200`; `None` when any phase is malformed.
fn parse_schedule(text: &str) -> Option<Vec<Phase>> {
    text.split(',')
        .map(|phase| {
            let (rate, count) = phase.trim().split_once('x')?;
            let rate: f64 = rate.trim().parse().ok()?;
            let count: usize = count.trim().parse().ok()?;
            (rate > 0.0 && rate.is_finite() && count > 0).then_some(Phase { rate, count })
        })
        .collect()
}

/// A contract-valid completion of `step` by `learner`, as the host would put it on the feed.
fn completion_event(
    pathway_id: &str,
    step: &pathway_host::Step,
    learner: &str,
    run: &str,
    at_ms: i64,
) -> serde_json::Value {
    let assesses = step.entry.assesses;
    serde_json::json!({
        "type": "CUSTOM",
        "name": "a2learn.widget_completed",
        "value": {
            "prose": "Compared 3/4 and 2/3 using a common denominator.",
            "learner": learner,
            "widget_run_id": run,
            "widget_id": step.widget_id,
            "pathway_id": pathway_id,
            "at": pathway_host::clock::rfc3339(at_ms),
            "widget_result": {
                "kind": step.entry.kind,
                "standard": step.entry.standard,
                "correct": assesses.then_some(true),
                "attempts": 1,
                "hints": 0,
                "score": if assesses { Some(1.0) } else { None },
                "detail": {}
            }
        },
        "timestamp": at_ms,
    })
}

impl DemoHost {
    /// Starts the emitter of [`DEMO_EMIT_ENV`] for `class_id`. Does nothing without the
    /// variables.
    fn start_emitter_from_env(&self, store: &Store, class_id: &str) -> anyhow::Result<()> {
        let (Ok(schedule), Ok(log)) = (
            std::env::var(DEMO_EMIT_ENV),
            std::env::var(DEMO_EMIT_LOG_ENV),
        ) else {
            return Ok(());
        };
        let phases = parse_schedule(&schedule).ok_or_else(|| {
            anyhow::anyhow!("{DEMO_EMIT_ENV}: expected RATExCOUNT,…, got {schedule:?}")
        })?;
        let pathway = self
            .host
            .pathways()
            .into_iter()
            .find(|p| !p.steps.is_empty())
            .ok_or_else(|| anyhow::anyhow!("the catalog has no pathway with steps"))?;
        let emitter = Emitter {
            writer: self.host.feed_writer(),
            store: store.clone(),
            class_id: class_id.to_owned(),
            pathway,
            log: PathBuf::from(log),
        };
        tauri::async_runtime::spawn(async move {
            if let Err(e) = emitter.run(phases).await {
                tracing::error!(error = %e, "test hook: the latency emitter stopped");
            }
        });
        tracing::warn!("test hook: a latency emitter waits for its go file");
        Ok(())
    }
}

/// Emits the completions of [`DEMO_EMIT_ENV`] on a fixed schedule.
struct Emitter {
    writer: FeedWriter,
    store: Store,
    class_id: String,
    pathway: pathway_host::Pathway,
    log: PathBuf,
}

impl Emitter {
    async fn run(self, phases: Vec<Phase>) -> anyhow::Result<()> {
        let mut go = self.log.clone().into_os_string();
        go.push(".go");
        let go = PathBuf::from(go);
        let waited = tokio::time::timeout(Duration::from_secs(300), async {
            while !go.exists() {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
        .await;
        anyhow::ensure!(waited.is_ok(), "no {} within 5 minutes", go.display());
        let step = self
            .pathway
            .steps
            .first()
            .ok_or_else(|| anyhow::anyhow!("a pathway without steps"))?;
        let mut k: usize = 0;
        for (i, phase) in phases.iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(EMIT_PHASE_GAP).await;
            }
            let mut lines = String::new();
            let started = tokio::time::Instant::now();
            for n in 0..phase.count {
                // On a schedule: a late tick catches up rather than drifting.
                tokio::time::sleep_until(started + Duration::from_secs_f64(n as f64 / phase.rate))
                    .await;
                let learner = format!("anon_lat_{:05}", 99_999usize.saturating_sub(k));
                let emit_ms = self.store.now_ms();
                let event = completion_event(
                    &self.pathway.pathway_id,
                    step,
                    &learner,
                    &format!("run-lat-{k:06}"),
                    emit_ms,
                );
                let seq = self
                    .writer
                    .emit_custom(&self.class_id, &event)
                    .map_err(|e| anyhow::anyhow!("cannot emit: {e:?}"))?;
                lines.push_str(
                    &serde_json::json!({
                        "learner": learner,
                        "class_id": self.class_id,
                        "seq": seq,
                        "emit_ms": emit_ms,
                        "rate": phase.rate,
                    })
                    .to_string(),
                );
                lines.push('\n');
                k += 1;
            }
            let log = self.log.clone();
            tokio::task::spawn_blocking(move || -> std::io::Result<()> {
                use std::io::Write;
                let mut file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(log)?;
                file.write_all(lines.as_bytes())
            })
            .await??;
        }
        Ok(())
    }
}

/// The core's side of the latency measurement, beside [`DEMO_EMIT_LOG_ENV`]'s file in
/// `<file>.core`, one JSON line per record (wall time in epoch ms, from the store's clock):
/// `{"stored_ms","class_id","cursor"}` when a batch's change notification leaves the store (its
/// commit time and the class's cursor just after), `{"emitted_ms"}` just before the window is sent
/// a `StoreChanged`. With the emit log and the page's arrival times, the test splits the
/// notification path into feed + ingest, coalescing, and delivery to the page.
pub struct ChangeTrace {
    store: Store,
    file: std::sync::Mutex<std::fs::File>,
}

impl ChangeTrace {
    /// A trace when [`DEMO_EMIT_LOG_ENV`] is set (the latency measurement), else none.
    pub fn from_env(store: &Store) -> Option<std::sync::Arc<Self>> {
        let log = std::env::var(DEMO_EMIT_LOG_ENV).ok()?;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(format!("{log}.core"))
            .inspect_err(|e| tracing::error!(error = %e, "test hook: no change trace"))
            .ok()?;
        Some(std::sync::Arc::new(Self {
            store: store.clone(),
            file: std::sync::Mutex::new(file),
        }))
    }

    fn write(&self, record: serde_json::Value) {
        use std::io::Write;
        let mut file = self
            .file
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Err(e) = writeln!(file, "{record}") {
            tracing::warn!(error = %e, "test hook: cannot write the change trace");
        }
    }

    /// Passes every store change on, recording it first.
    pub fn forward(
        self: std::sync::Arc<Self>,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<a2learn_teacher::host::feed::StoreChanged>,
    ) -> tokio::sync::mpsc::UnboundedReceiver<a2learn_teacher::host::feed::StoreChanged> {
        let (tx, out) = tokio::sync::mpsc::unbounded_channel();
        tauri::async_runtime::spawn(async move {
            while let Some(change) = rx.recv().await {
                let cursor = self.store.cursor(&change.class_id).await.ok().flatten();
                self.write(serde_json::json!({
                    "stored_ms": change.committed_at_ms,
                    "class_id": change.class_id,
                    "cursor": cursor,
                }));
                if tx.send(change).is_err() {
                    return;
                }
            }
        });
        out
    }

    /// Records that a `StoreChanged` is about to be sent to the window.
    pub fn emitted(&self) {
        self.write(serde_json::json!({ "emitted_ms": self.store.now_ms() }));
    }
}

/// Once the demo class exists: injects the question and starts the latency emitter when a
/// first start has just `created` it.
pub async fn on_demo_class(state: &AppState, created: Option<&ClassRow>) -> anyhow::Result<()> {
    if let Some(class) = created
        && let Some(demo) = state.demo.lock().await.as_ref()
    {
        demo.inject_question_from_env(&class.class_id)?;
        demo.start_emitter_from_env(&state.store, &class.class_id)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_schedule_of_phases() {
        assert_eq!(
            parse_schedule("10x200, 100x200"),
            Some(vec![
                Phase {
                    rate: 10.0,
                    count: 200
                },
                Phase {
                    rate: 100.0,
                    count: 200
                }
            ])
        );
        assert_eq!(parse_schedule("10x0"), None);
        assert_eq!(parse_schedule("0x10"), None);
        assert_eq!(parse_schedule("10"), None);
        assert_eq!(parse_schedule(""), None);
    }
}
