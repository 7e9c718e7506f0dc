//! The embedded demo host: the reference pathway host, started inside the app on a free
//! loopback port, so that a newcomer sees a live class within seconds and nothing leaves the
//! machine. Its event log sits beside the database, so the demo class survives a restart.

use std::path::Path;

use a2learn_teacher::live::HostTarget;
use pathway_host::{HostConfig, RunningHost};

/// Environment variable: the demo's speed-up factor (default: the host's demo speed).
pub const DEMO_SPEED_ENV: &str = "A2LEARN_DEMO_SPEED";
/// Environment variable: seconds a demo help request waits for the teacher (default: the host's
/// `DEMO_HELP_WAIT`, 4 minutes). The end-to-end tests shorten it to see requests expire.
pub const DEMO_HELP_WAIT_ENV: &str = "A2LEARN_DEMO_HELP_WAIT_SECS";
/// Environment variable: learners per class in the demo (default 24).
pub const DEMO_LEARNERS_ENV: &str = "A2LEARN_DEMO_LEARNERS";

/// The test-only question hook (`A2LEARN_DEMO_INJECT_QUESTION`), compiled in only with the
/// shell's `test-hooks` feature; the tests below show that no default build turns it on.
#[cfg(feature = "test-hooks")]
pub mod test_hook;

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
    /// Starts the demo host named `host_id` ([`a2learn_teacher::Store::demo_host_id`]), keeping
    /// its log in `data_dir`.
    pub async fn start(data_dir: &Path, host_id: &str) -> anyhow::Result<Self> {
        let token = pathway_host::cli::random_token()?;
        let mut config = HostConfig::demo(token.clone());
        if let Some(seed) = seed_of(host_id) {
            config.seed = seed;
        }
        config.log_path = Some(data_dir.join("demo-host.jsonl"));
        if let Some(speed) = env_number::<f64>(DEMO_SPEED_ENV) {
            config.speed = speed;
        }
        if let Some(secs) = env_number::<u64>(DEMO_HELP_WAIT_ENV) {
            config.help_wait = Some(std::time::Duration::from_secs(secs));
        }
        if let Some(learners) = env_number::<usize>(DEMO_LEARNERS_ENV) {
            config.learners = learners;
        }
        let host = pathway_host::start(config).await?;
        tracing::info!(url = %host.url(), "demo host started");
        Ok(Self { host, token })
    }

    /// The host to point the app at, named `host_id` ([`a2learn_teacher::Store::demo_host_id`]).
    pub fn target(&self, host_id: &str) -> HostTarget {
        HostTarget::demo(&self.host.url(), &self.token, host_id)
    }

    pub async fn shutdown(self) {
        self.host.shutdown().await;
    }
}

/// The seed of the demo host named `host_id`: the host's own in a teacher's file (`demo`);
/// beside a shared store, one of its own from its name. The host derives its class ids from its
/// seed, so co-teachers' demo hosts on one seed would make the same class id, which the shared
/// store refuses for the second (it belongs to the first's host).
fn seed_of(host_id: &str) -> Option<u64> {
    if host_id == a2learn_teacher::store::DEMO_HOST_ID {
        return None;
    }
    // FNV-1a: stable across builds and platforms, as the host's log must be across restarts.
    Some(host_id.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    }))
}

fn env_number<T: std::str::FromStr>(name: &str) -> Option<T> {
    std::env::var(name).ok().and_then(|v| v.trim().parse().ok())
}

/// The test hook's absence from the product. `scripts/test.sh` runs the tests with `test-hooks`
/// on (the end-to-end step needs the hook), so no test there can be one that only a default
/// build compiles. These check, cheaply and in every build, the two facts that make the default
/// build lack the hook: no default feature set turns `test-hooks` on, and only code behind
/// `#[cfg(feature = "test-hooks")]` can reach it.
#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

    use super::seed_of;
    use std::path::{Path, PathBuf};

    use serde_json::Value;

    /// The feature's name, and the hook's module and variable, spelled so that this file's own
    /// text does not match them.
    const FEATURE: &str = concat!("test", "-hooks");
    const MODULE: &str = concat!("test", "_hook");
    const VARIABLE: &str = concat!("A2LEARN_DEMO_", "INJECT_QUESTION");

    #[test]
    fn no_default_build_turns_the_test_hooks_on() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let manifest = Path::new(env!("CARGO_MANIFEST_DIR")).join("../Cargo.toml");
        let out = std::process::Command::new(cargo)
            .args([
                "metadata",
                "--no-deps",
                "--offline",
                "--format-version",
                "1",
            ])
            .arg("--manifest-path")
            .arg(&manifest)
            .output()
            .expect("cargo metadata runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let metadata: Value = serde_json::from_slice(&out.stdout).expect("metadata is JSON");
        let packages = metadata["packages"].as_array().expect("packages");
        let shell = packages
            .iter()
            .find(|p| p["name"] == env!("CARGO_PKG_NAME"))
            .expect("the shell is a member");
        let features = shell["features"].as_object().expect("features");
        assert!(
            features.contains_key(FEATURE),
            "the shell declares {FEATURE}"
        );

        // Everything `default` turns on, followed through the shell's own features.
        let mut on: Vec<&str> = Vec::new();
        let mut todo = vec!["default"];
        while let Some(feature) = todo.pop() {
            if on.contains(&feature) {
                continue;
            }
            on.push(feature);
            for value in features[feature].as_array().expect("feature list") {
                let name = value.as_str().expect("feature name");
                if features.contains_key(name) {
                    todo.push(name);
                }
            }
        }
        assert!(
            !on.contains(&FEATURE),
            "default features turn on {FEATURE}: {on:?}"
        );

        // No crate of the workspace depends on the shell with the feature on.
        for package in packages {
            for dep in package["dependencies"].as_array().expect("dependencies") {
                if dep["name"] == env!("CARGO_PKG_NAME") {
                    let features = dep["features"].as_array().expect("features");
                    assert!(
                        !features.iter().any(|f| f == FEATURE),
                        "{} turns on {FEATURE}",
                        package["name"]
                    );
                }
            }
        }
    }

    #[test]
    fn only_feature_gated_code_reaches_the_hook() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let hook_file = src.join("demo").join(format!("{MODULE}.rs"));
        assert!(
            hook_file.is_file(),
            "the hook lives in {}",
            hook_file.display()
        );
        let gate = format!("#[cfg(feature = \"{FEATURE}\")]");
        let mut files = vec![src.clone()];
        let mut rust: Vec<PathBuf> = Vec::new();
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            } else if path.extension().is_some_and(|e| e == "rs") && path != hook_file {
                rust.push(path);
            }
        }
        let mut gated_uses = 0;
        for path in rust {
            let text = std::fs::read_to_string(&path).unwrap();
            let lines: Vec<&str> = text.lines().map(str::trim).collect();
            for (i, line) in lines.iter().enumerate() {
                if line.starts_with("//") {
                    continue;
                }
                assert!(
                    !line.contains(VARIABLE),
                    "{}:{}: only the hook's module may name {VARIABLE}",
                    path.display(),
                    i + 1
                );
                if names(line, MODULE) {
                    assert!(
                        i > 0 && lines[i - 1] == gate,
                        "{}:{}: a use of the hook without {gate} on the line above",
                        path.display(),
                        i + 1
                    );
                    gated_uses += 1;
                }
            }
        }
        // The module's declaration and its two call sites: the demo class's hook and the
        // latency measurement's change trace.
        assert_eq!(
            gated_uses, 3,
            "the hook is declared once and reached from two places"
        );
    }

    /// Whether `line` holds the identifier `name` (not as part of a longer one).
    fn names(line: &str, name: &str) -> bool {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        line.match_indices(name).any(|(at, _)| {
            !line[..at].ends_with(ident) && !line[at + name.len()..].starts_with(ident)
        })
    }

    #[test]
    fn each_shared_store_demo_host_has_a_seed_of_its_own_and_a_file_keeps_the_default() {
        assert_eq!(
            seed_of("demo"),
            None,
            "a teacher's file: the host's own seed"
        );
        let a = seed_of("demo-0123456789abcdef0123456789abcdef");
        let b = seed_of("demo-fedcba9876543210fedcba9876543210");
        assert!(a.is_some() && b.is_some());
        assert_ne!(a, b);
        assert_eq!(
            a,
            seed_of("demo-0123456789abcdef0123456789abcdef"),
            "stable"
        );
    }
}
