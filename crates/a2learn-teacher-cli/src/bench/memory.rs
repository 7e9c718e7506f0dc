//! **Peak memory** of a sync replaying a long feed.
//!
//! The log is built in an in-process reference host (no simulation) by appending contract-valid
//! completions in a loop (the simulation would take far longer to reach millions of frames). A
//! child process — `a2learn-teacher --db <tmp> sync --host <url> --class <id> --quiet`, the real
//! command — replays it into a fresh database. The database is prepared with the class's
//! backfill marked done, so the child measures the feed replay alone (see docs/benchmarks-log.md: a first
//! sync of a class with millions of results would also fetch them through
//! `get_pathway_results`, in one response). When the child's cursor reaches the last `seq`, its
//! `VmHWM` (peak resident set) is read from `/proc/<pid>/status`, then it is stopped.

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::{Options, Report, Spread};
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::store::Store;

/// What one replay measured.
#[derive(Debug, Clone, PartialEq)]
pub struct PeakMemory {
    pub events: u64,
    pub build_s: f64,
    pub replay_s: f64,
    pub vm_hwm_kib: u64,
}

/// `VmHWM` of a process, in KiB (Linux).
pub fn vm_hwm_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// Kills the child on every path out (it is ours: spawned here, stopped by its own handle).
struct ChildGuard(Child);

impl Drop for ChildGuard {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Builds a log of `events` completions and replays it with a `sync` child of `exe`.
pub async fn measure(exe: &Path, events: u64) -> anyhow::Result<PeakMemory> {
    let token = "bench-token-0123456789abcdef".to_string();
    let mut config = pathway_host::HostConfig::local(token.clone());
    config.simulate = false;
    let host = pathway_host::start(config).await?;
    let (class_id, _) = host
        .create_class("Memory class")
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    let pathway = host
        .pathways()
        .into_iter()
        .next()
        .ok_or_else(|| anyhow::anyhow!("the host has no pathway"))?;

    let build = Instant::now();
    let base = host.now_ms();
    // Short, valid frames built as text (a JSON tree per frame would dominate the build).
    let steps: Vec<(String, String, String, bool)> = pathway
        .steps
        .iter()
        .map(|s| {
            let standard = s
                .entry
                .standard
                .as_deref()
                .map_or_else(|| "null".to_string(), |st| format!("\"{st}\""));
            (
                s.widget_id.clone(),
                s.entry.kind.clone(),
                standard,
                s.entry.assesses,
            )
        })
        .collect();
    let at = a2learn_teacher::export::rfc3339(base);
    let mut last_seq = 0;
    for i in 0..events {
        let (widget, kind, standard, assesses) = &steps[(i as usize) % steps.len()];
        let (correct, score) = if *assesses {
            ("true", ",\"score\":1.0")
        } else {
            ("null", "")
        };
        let data = format!(
            "{{\"type\":\"CUSTOM\",\"name\":\"a2learn.widget_completed\",\"value\":{{\"prose\":\"Done.\",\
             \"learner\":\"anon_m{:06}\",\"widget_run_id\":\"r{i:09}\",\"widget_id\":\"{widget}\",\
             \"pathway_id\":\"{}\",\"at\":\"{at}\",\"widget_result\":{{\"kind\":\"{kind}\",\
             \"standard\":{standard},\"correct\":{correct},\"attempts\":1,\"hints\":0{score},\
             \"detail\":{{}}}}}},\"timestamp\":{base}}}",
            i % 10_000,
            pathway.pathway_id,
        );
        last_seq = host
            .emit_raw(&class_id, &data, None)
            .map_err(|e| anyhow::anyhow!("{e:?}"))?;
    }
    let build_s = build.elapsed().as_secs_f64();
    println!("  log of {events} frames built in {build_s:.1} s");

    let dir = tempfile::tempdir()?;
    let db = dir.path().join("sync.db");
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&db, clock).await?;
    store.ensure_class(&class_id).await?;
    store
        .set_store_setting(&format!("backfill_done:{class_id}"), "1")
        .await?;

    let started = Instant::now();
    let child = Command::new(exe)
        .arg("--db")
        .arg(&db)
        .args([
            "sync",
            "--host",
            &host.url(),
            "--class",
            &class_id,
            "--quiet",
        ])
        .env("A2LEARN_TOKEN", &token)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()?;
    let mut child = ChildGuard(child);
    let pid = child.0.id();
    // Bounded: a replay slower than 1,000 events/s (plus a minute) is a failure, not a figure.
    let limit = Duration::from_secs(60 + events / 1_000);
    let mut peak = 0;
    loop {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if let Some(status) = child.0.try_wait()? {
            anyhow::bail!("the sync child exited early: {status}");
        }
        peak = peak.max(vm_hwm_kib(pid).unwrap_or(0));
        let cursor = store.cursor(&class_id).await?.unwrap_or(-1);
        if cursor >= last_seq as i64 {
            break;
        }
        anyhow::ensure!(
            started.elapsed() < limit,
            "the replay did not finish within {} s (cursor {cursor} of {last_seq})",
            limit.as_secs()
        );
    }
    let replay_s = started.elapsed().as_secs_f64();
    peak = peak.max(vm_hwm_kib(pid).unwrap_or(0));
    drop(child);
    store.close().await;
    host.shutdown().await;
    Ok(PeakMemory {
        events,
        build_s,
        replay_s,
        vm_hwm_kib: peak,
    })
}

/// `bench memory`: one replay (it is long), its peak RSS and how long it took.
pub async fn run(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    let exe = opts
        .exe
        .as_deref()
        .ok_or_else(|| anyhow::anyhow!("cannot find the a2learn-teacher binary"))?;
    println!(
        "memory: a sync child replaying {} events",
        opts.memory_events
    );
    let m = measure(exe, opts.memory_events).await?;
    report.add(
        "memory",
        format!("sync replay of {} events: peak RSS (VmHWM)", m.events),
        "MiB",
        Spread::one(m.vm_hwm_kib as f64 / 1024.0),
    );
    report.add(
        "memory",
        format!("sync replay of {} events: wall time", m.events),
        "s",
        Spread::one(m.replay_s),
    );
    report.add(
        "memory",
        format!("sync replay of {} events: rate", m.events),
        "events/s",
        Spread::one(m.events as f64 / m.replay_s),
    );
    Ok(())
}
