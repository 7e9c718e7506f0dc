//! The demo's **test-only** question hook, compiled in only with the shell's `test-hooks`
//! feature (off by default: `scripts/test.sh` turns it on for clippy and `cargo test`, whose app
//! binary the end-to-end tests run). A build without the feature holds none of this, so the
//! variable below does nothing there.

use a2learn_teacher::store::ClassRow;

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

/// Once the demo class exists: injects the question when a first start has just `created` it.
pub async fn on_demo_class(state: &AppState, created: Option<&ClassRow>) -> anyhow::Result<()> {
    if let Some(class) = created
        && let Some(demo) = state.demo.lock().await.as_ref()
    {
        demo.inject_question_from_env(&class.class_id)?;
    }
    Ok(())
}
