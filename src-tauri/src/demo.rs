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

    pub async fn shutdown(self) {
        self.host.shutdown().await;
    }
}

fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}
