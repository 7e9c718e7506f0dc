//! The embedded demo host: the reference pathway host, started inside the app on a free
//! loopback port, so that a newcomer sees a live class within seconds and nothing leaves the
//! machine. Its event log sits beside the database, so the demo class survives a restart.

use std::path::Path;

use a2learn_teacher::live::HostTarget;
use pathway_host::{HostConfig, RunningHost};

/// Environment variable: the demo's speed-up factor (default: the host's demo speed).
pub const DEMO_SPEED_ENV: &str = "A2LEARN_DEMO_SPEED";
/// Environment variable: learners per class in the demo (default 24).
pub const DEMO_LEARNERS_ENV: &str = "A2LEARN_DEMO_LEARNERS";

/// Environment variable, **test-only**: when set, the demo host emits one `a2learn.assist`
/// request with this text as the student's question once the demo class exists. The simulated
/// students never ask anything hostile; the end-to-end test uses this to prove that a question
/// like `<img src=x onerror=...>` is shown as text and runs nothing. The call is not one the host
/// opened, so answering it is refused (`unknown_call`); nothing else reads this variable.
pub const DEMO_INJECT_QUESTION_ENV: &str = "A2LEARN_DEMO_INJECT_QUESTION";

/// The learner id of the injected question (anonymous, as the contract requires).
pub const INJECTED_LEARNER: &str = "anon_injected01";

/// An AG-UI `CUSTOM a2learn.assist` request for the first widget of `pathways` that declares
/// `assist`, as a host would put it on the feed.
pub fn assist_request_event(
    pathways: &[pathway_host::Pathway],
    call_id: &str,
    learner: &str,
    question: &str,
    now_ms: i64,
    deadline_ms: i64,
) -> Option<serde_json::Value> {
    let (pathway, step) = pathways
        .iter()
        .flat_map(|p| p.steps.iter().map(move |s| (p, s)))
        .find(|(_, s)| {
            // Read through serde: the contract's types are not a dependency of the shell.
            serde_json::to_value(&s.entry).is_ok_and(|e| {
                e["functions"]
                    .as_array()
                    .is_some_and(|f| f.iter().any(|f| f == "assist"))
            })
        })?;
    let mut value = serde_json::json!({
        "call_id": call_id,
        "learner": learner,
        "widget_run_id": format!("run-{call_id}"),
        "widget_id": step.widget_id,
        "pathway_id": pathway.pathway_id,
        "at": pathway_host::clock::rfc3339(now_ms),
        "kind": step.entry.kind,
        "deadline": pathway_host::clock::rfc3339(deadline_ms),
        "args": { "question": question, "attempts": 1, "hints": 0 },
    });
    if let Some(standard) = &step.entry.standard {
        value["standard"] = serde_json::json!(standard);
    }
    Some(serde_json::json!({
        "type": "CUSTOM",
        "name": "a2learn.assist",
        "value": value,
        "timestamp": now_ms,
    }))
}

pub struct DemoHost {
    host: RunningHost,
    token: String,
}

impl DemoHost {
    /// Starts the demo host, keeping its log in `data_dir`.
    pub async fn start(data_dir: &Path) -> anyhow::Result<Self> {
        let token = pathway_host::cli::random_token()?;
        let mut config = HostConfig::demo(token.clone());
        config.log_path = Some(data_dir.join("demo-host.jsonl"));
        if let Some(speed) = env_number::<f64>(DEMO_SPEED_ENV) {
            config.speed = speed;
        }
        if let Some(learners) = env_number::<usize>(DEMO_LEARNERS_ENV) {
            config.learners = learners;
        }
        let host = pathway_host::start(config).await?;
        tracing::info!(url = %host.url(), "demo host started");
        Ok(Self { host, token })
    }

    pub fn target(&self) -> HostTarget {
        HostTarget {
            url: self.host.url(),
            token: self.token.clone(),
        }
    }

    /// The test-only hook of [`DEMO_INJECT_QUESTION_ENV`]: emits one assist request with that
    /// question into `class_id`'s feed (10 minutes to answer). Does nothing without the variable.
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

    pub async fn shutdown(self) {
        self.host.shutdown().await;
    }
}

fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}
