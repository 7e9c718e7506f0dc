//! The CLI's `sync` as separate processes against the real reference host on loopback: killed
//! and restarted, or two on one database, nothing is lost and nothing doubled — and the tests
//! check that each process really ran: alive when killed, with events stored, a restart asking
//! the host for what came after the stored cursor (the host logs every connection's
//! `Last-Event-ID`), two processes alive and receiving at the same time. Each runs on a SQLite
//! file and on a shared PostgreSQL store (`--db postgres://…`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/pipeline.rs"]
mod pipeline_support;

#[path = "../../../tests/support/engines.rs"]
mod engines;
/// Where the shared macros look for the engines' helpers (`crate::support::engines`).
mod support {
    pub(crate) use super::engines;
}

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use a2learn_teacher::Store;
use pathway_host::{Faults, RunningHost};
use pipeline_support::{
    TOKEN, assert_store_matches, slower_host_config, start_host, start_host_with, wait_for_cursor,
    wait_for_log,
};
use support::engines::{TestDb, on_both_engines};

/// The CLI's `sync` as a separate process; its stderr goes to a file the assertions quote.
struct SyncProcess {
    child: Child,
    stderr: PathBuf,
    stdout: PathBuf,
}

impl SyncProcess {
    /// A sync of `class_id` into the store at `db` (a file's path or a postgres:// URL), its
    /// output kept in `dir`.
    fn spawn(db: &str, dir: &Path, url: &str, class_id: &str, name: &str) -> Self {
        let stderr = dir.join(format!("{name}.stderr"));
        let stdout = dir.join(format!("{name}.stdout"));
        let child = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .arg("--db")
            .arg(db)
            .args(["sync", "--quiet", "--host", url, "--class", class_id])
            .env("A2LEARN_TOKEN", TOKEN)
            .stdout(std::fs::File::create(&stdout).unwrap())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .expect("spawn sync");
        Self {
            child,
            stderr,
            stdout,
        }
    }

    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    fn assert_alive(&mut self, when: &str) {
        let status = self.child.try_wait().unwrap();
        assert!(
            status.is_none(),
            "the sync had exited ({status:?}) {when}; its stderr:\n{}",
            self.stderr()
        );
    }

    /// SIGTERM, then its closing line: `stopped: F frames, S stored, Q quarantined, cursor C`.
    fn stop(mut self) -> (u64, u64) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let status = self.child.wait().unwrap();
        let out = std::fs::read_to_string(&self.stdout).unwrap();
        assert!(status.success(), "{status:?}\n{out}\n{}", self.stderr());
        let line = out
            .lines()
            .find(|l| l.starts_with("stopped:"))
            .unwrap_or_else(|| panic!("no closing line in {out:?}"));
        let number = |word: &str| -> u64 {
            let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
            let i = words.iter().position(|w| *w == word).unwrap();
            words[i - 1].parse().unwrap()
        };
        (number("frames"), number("stored"))
    }
}

/// A test that fails leaves no sync running (it would hold its database and its host's port).
impl Drop for SyncProcess {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

async fn cursor(store: &Store, class_id: &str) -> i64 {
    store.cursor(class_id).await.unwrap().unwrap_or(0)
}

/// Waits until the store's cursor moves past `from` (the running sync stored something).
async fn wait_for_progress(store: &Store, class_id: &str, from: i64, sync: &SyncProcess) -> i64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let now = cursor(store, class_id).await;
        if now > from {
            return now;
        }
        assert!(
            Instant::now() < deadline,
            "the sync stored nothing past {from}; its stderr:\n{}\nstdout:{}",
            sync.stderr(),
            std::fs::read_to_string(&sync.stdout).unwrap_or_default()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Waits until the host has logged more than `known` feed connections.
async fn next_connection(host: &RunningHost, known: usize) -> pathway_host::FeedConnection {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(c) = host.feed_connections().get(known) {
            return c.clone();
        }
        assert!(Instant::now() < deadline, "no new feed connection");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

on_both_engines!(
    a_sync_killed_with_sigkill_resumes_from_its_cursor,
    two_sync_processes_on_one_database_store_each_event_once,
    a_class_synced_from_one_host_is_refused_from_another,
);

async fn a_sync_killed_with_sigkill_resumes_from_its_cursor(db: TestDb) {
    // Each round needs new frames to come: the slower simulation lasts long enough.
    let (host, class_id) = start_host_with(slower_host_config(Faults::default(), None)).await;
    let spawn =
        |name: &str| SyncProcess::spawn(&db.location, db.dir(), &host.url(), &class_id, name);
    let mut sync = spawn("sync-0");
    let store = &db.store;
    // Kill it mid-stream, several times, each time after it stored events of its own.
    let mut left_by_the_last = 0;
    for round in 1..=3 {
        wait_for_log(&host, &class_id, round * 150).await;
        wait_for_progress(store, &class_id, left_by_the_last, &sync).await;
        sync.assert_alive(&format!("before SIGKILL {round}"));
        sync.child.kill().expect("SIGKILL"); // Child::kill sends SIGKILL on Unix
        sync.child.wait().unwrap();
        // What the killed process had committed is what the next one must ask after.
        let stored = cursor(store, &class_id).await;
        assert!(
            stored > left_by_the_last,
            "round {round}: the killed sync had stored events"
        );
        left_by_the_last = stored;
        let known = host.feed_connections().len();
        sync = spawn(&format!("sync-{round}"));
        let resumed = next_connection(&host, known).await;
        assert_eq!(
            resumed.last_event_id,
            Some(stored as u64),
            "round {round}: the restart resumed from the stored cursor, not from the start"
        );
    }
    let log = wait_for_log(&host, &class_id, 600).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(store, &class_id, upto).await;
    sync.assert_alive("at the end");
    sync.stop();
    assert_store_matches(store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
}

async fn two_sync_processes_on_one_database_store_each_event_once(db: TestDb) {
    let faults = Faults {
        drop_every: 53,
        ..Faults::default()
    };
    let (host, class_id) = start_host(faults, None).await;
    let store = &db.store;
    let mut a = SyncProcess::spawn(&db.location, db.dir(), &host.url(), &class_id, "a");
    let mut b = SyncProcess::spawn(&db.location, db.dir(), &host.url(), &class_id, "b");
    let log = wait_for_log(&host, &class_id, 500).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(store, &class_id, upto).await;
    // Both were running the whole time (started together, neither has exited) ...
    a.assert_alive("while the other ran");
    b.assert_alive("while the other ran");
    let (frames_a, stored_a) = a.stop();
    let (frames_b, stored_b) = b.stop();
    // ... both received the feed, and between them they stored each frame exactly once.
    assert!(frames_a > 0 && frames_b > 0, "a: {frames_a}, b: {frames_b}");
    let ledger = db
        .count(&format!(
            "SELECT COUNT(*) FROM ledger WHERE class_id = '{}'",
            class_id.replace('\'', "''")
        ))
        .await;
    assert_eq!(
        stored_a + stored_b,
        ledger as u64,
        "each ledger row stored by exactly one of them (a: {stored_a}, b: {stored_b})"
    );
    assert_store_matches(store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
}

/// A class belongs to the host it was first synced from: a sync of the same class id from
/// another host is refused with the reason (its results would land on the first host's class),
/// while the same host, however its URL is spelled, goes on.
async fn a_class_synced_from_one_host_is_refused_from_another(db: TestDb) {
    let (host, class_id) = start_host(Faults::default(), None).await;
    let mut first = SyncProcess::spawn(&db.location, db.dir(), &host.url(), &class_id, "first");
    let store = &db.store;
    let stored = wait_for_progress(store, &class_id, 0, &first).await;
    first.assert_alive("while syncing");
    first.stop();

    // Another host's class of the same id: refused before anything is asked of it.
    let elsewhere = "http://127.0.0.1:9";
    let out = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(&db.location)
        .args(["sync", "--quiet", "--host", elsewhere, "--class", &class_id])
        .env("A2LEARN_TOKEN", TOKEN)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("belongs to the host {}", host.url())),
        "{stderr}"
    );
    assert!(cursor(store, &class_id).await >= stored, "nothing lost");

    // Control: the first host again, its URL with a trailing slash: the sync goes on.
    let mut again = SyncProcess::spawn(
        &db.location,
        db.dir(),
        &format!("{}/", host.url()),
        &class_id,
        "again",
    );
    tokio::time::sleep(Duration::from_millis(500)).await;
    again.assert_alive("syncing from its own host");
    again.stop();
}
