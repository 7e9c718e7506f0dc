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
        Self::spawn_with(db, dir, url, &["--class", class_id], name)
    }

    /// A sync with `which` naming what it follows (`--class ID`, `--all-classes …`).
    fn spawn_with(db: &str, dir: &Path, url: &str, which: &[&str], name: &str) -> Self {
        let stderr = dir.join(format!("{name}.stderr"));
        let stdout = dir.join(format!("{name}.stdout"));
        let child = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .arg("--db")
            .arg(db)
            .args(["sync", "--quiet", "--host", url])
            .args(which)
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

    /// SIGTERM, then its closing line's frames and stored counts (`stopped: F frames, S stored,
    /// Q quarantined, cursor C`).
    fn stop(self) -> (u64, u64) {
        let line = self.stop_with_line();
        (
            number_before(&line, "frames"),
            number_before(&line, "stored"),
        )
    }

    /// SIGTERM, then its closing line (`stopped: …`).
    fn stop_with_line(mut self) -> String {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success());
        let status = self.child.wait().unwrap();
        let out = std::fs::read_to_string(&self.stdout).unwrap();
        assert!(status.success(), "{status:?}\n{out}\n{}", self.stderr());
        out.lines()
            .find(|l| l.starts_with("stopped:"))
            .unwrap_or_else(|| panic!("no closing line in {out:?}"))
            .to_string()
    }
}

/// The number before `word` in a closing line (`… 3 classes` -> 3).
fn number_before(line: &str, word: &str) -> u64 {
    let words: Vec<&str> = line.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let i = words
        .iter()
        .position(|w| *w == word)
        .unwrap_or_else(|| panic!("no {word:?} in {line:?}"));
    words[i - 1].parse().unwrap()
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
    the_same_class_id_from_another_host_is_another_class,
    a_district_follower_follows_every_class_and_picks_up_new_ones,
    sharded_followers_split_the_classes_and_store_each_event_once,
    a_follower_keeps_another_hosts_class_of_the_same_id_apart,
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

/// Class ids are a host's names: the same id synced from another host is another class, with
/// a key of its own in the store, its own cursor and results; the first host's class is not
/// touched, and the first host again (its URL however spelled) goes on with its own class.
async fn the_same_class_id_from_another_host_is_another_class(db: TestDb) {
    // Two hosts started alike hand out the same class id.
    let (host, class_id) = start_host(Faults::default(), None).await;
    let (other, other_class) = start_host(Faults::default(), None).await;
    assert_eq!(class_id, other_class, "the premise: one id on two hosts");
    let mut first = SyncProcess::spawn(&db.location, db.dir(), &host.url(), &class_id, "first");
    let store = &db.store;
    wait_for_progress(store, &class_id, 0, &first).await;
    first.assert_alive("while syncing");
    first.stop();
    let first_cursor = cursor(store, &class_id).await;
    let first_ledger = ledger_rows(&db, &class_id).await;

    let mut second = SyncProcess::spawn(&db.location, db.dir(), &other.url(), &class_id, "second");
    // The second host's class, under its own key (found by its host).
    let started = std::time::Instant::now();
    let key = loop {
        let classes = store.classes().await.unwrap();
        if let Some(c) = classes
            .iter()
            .find(|c| c.host_id.as_deref() == Some(other.url().as_str()))
        {
            break c.class_id.clone();
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{classes:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_ne!(key, class_id);
    assert_eq!(store.host_class_id(&key).await.unwrap(), class_id);
    wait_for_progress(store, &key, 0, &second).await;
    second.assert_alive("syncing its own class");
    second.stop();
    let upto = u64::try_from(cursor(store, &key).await).unwrap();
    assert_store_matches(store, &key, &other.log(&class_id), upto).await;
    assert_eq!(
        cursor(store, &class_id).await,
        first_cursor,
        "the first class untouched"
    );
    assert_eq!(ledger_rows(&db, &class_id).await, first_ledger);

    // Control: the first host again, its URL with a trailing slash: its own class goes on.
    let mut again = SyncProcess::spawn(
        &db.location,
        db.dir(),
        &format!("{}/", host.url()),
        &class_id,
        "again",
    );
    // It stores what the host sends after it started: proof it follows, not only that it lives.
    let before = cursor(store, &class_id).await;
    wait_for_progress(store, &class_id, before, &again).await;
    again.assert_alive("syncing from its own host");
    again.stop();
    assert_eq!(
        store.classes().await.unwrap().len(),
        2,
        "two classes, no third"
    );
}

async fn ledger_rows(db: &TestDb, class_id: &str) -> i64 {
    db.count(&format!(
        "SELECT COUNT(*) FROM ledger WHERE class_id = '{}'",
        class_id.replace('\'', "''")
    ))
    .await
}

/// A host running `n` classes of [`pipeline_support::PATHWAY`] (the first from
/// [`start_host_with`]).
async fn host_with_classes(n: usize) -> (RunningHost, Vec<String>) {
    let (host, first) = start_host_with(slower_host_config(Faults::default(), None)).await;
    let mut classes = vec![first];
    for i in 1..n {
        classes.push(add_class(&host, &format!("Period {}", i + 3)));
    }
    (host, classes)
}

fn add_class(host: &RunningHost, title: &str) -> String {
    let (class_id, _) = host.create_class(title).expect("class");
    host.assign(&class_id, pipeline_support::PATHWAY, None, None)
        .expect("assign");
    class_id
}

/// Waits until every class's simulation has logged `frames`, then until the store holds each
/// class's log so far; returns each class's last logged seq.
async fn wait_for_all(
    host: &RunningHost,
    store: &Store,
    classes: &[String],
    frames: usize,
) -> Vec<u64> {
    let mut upto = Vec::new();
    for class_id in classes {
        let log = wait_for_log(host, class_id, frames).await;
        let last = log.last().unwrap().seq;
        wait_for_cursor(store, class_id, last).await;
        upto.push(last);
    }
    upto
}

async fn a_district_follower_follows_every_class_and_picks_up_new_ones(db: TestDb) {
    let (host, mut classes) = host_with_classes(2).await;
    let store = &db.store;
    let mut follower = SyncProcess::spawn_with(
        &db.location,
        db.dir(),
        &host.url(),
        &["--all-classes", "--poll-classes", "1"],
        "follower",
    );
    for class_id in &classes {
        wait_for_progress(store, class_id, 0, &follower).await;
    }
    // A class created while the follower runs is picked up by its next look at the host.
    let newcomer = add_class(&host, "Period 9");
    wait_for_progress(store, &newcomer, 0, &follower).await;
    classes.push(newcomer.clone());
    let upto = wait_for_all(&host, store, &classes, 300).await;
    follower.assert_alive("after following every class");
    let line = follower.stop_with_line();
    assert_eq!(number_before(&line, "classes"), 3, "{line}");
    for (class_id, upto) in classes.iter().zip(upto) {
        assert_store_matches(store, class_id, &host.log(class_id), upto).await;
    }
    // Each class is tied to the host it came from, with the host's title.
    let listed = store.classes().await.unwrap();
    let newcomer_row = listed.iter().find(|c| c.class_id == newcomer).unwrap();
    assert_eq!(newcomer_row.title, "Period 9");
    assert!(
        listed
            .iter()
            .all(|c| c.host_id.as_deref() == Some(host.url().as_str())),
        "{listed:?}"
    );
    host.shutdown().await;
}

/// Two followers, each one shard of the host's classes, and a third following them all at
/// once into the same store: every class lands in exactly one shard, and between them the
/// three store each event once.
async fn sharded_followers_split_the_classes_and_store_each_event_once(db: TestDb) {
    let (host, classes) = host_with_classes(6).await;
    let store = &db.store;
    let spawn = |which: &[&str], name: &str| {
        SyncProcess::spawn_with(&db.location, db.dir(), &host.url(), which, name)
    };
    let mut first = spawn(&["--all-classes", "--shard", "1/2"], "shard-1");
    let mut second = spawn(&["--all-classes", "--shard", "2/2"], "shard-2");
    let mut whole = spawn(&["--all-classes"], "whole");
    let upto = wait_for_all(&host, store, &classes, 300).await;
    for sync in [&mut first, &mut second, &mut whole] {
        sync.assert_alive("while the others ran");
    }
    let lines: Vec<String> = [first, second, whole]
        .into_iter()
        .map(SyncProcess::stop_with_line)
        .collect();
    let taken: Vec<u64> = lines.iter().map(|l| number_before(l, "classes")).collect();
    assert_eq!(
        taken[0] + taken[1],
        6,
        "the shards split the classes: {lines:?}"
    );
    assert!(
        taken[0] > 0 && taken[1] > 0,
        "each shard took some: {lines:?}"
    );
    assert_eq!(taken[2], 6, "{lines:?}");
    let stored: u64 = lines.iter().map(|l| number_before(l, "stored")).sum();
    let ledger = db.count("SELECT COUNT(*) FROM ledger").await;
    assert_eq!(
        stored, ledger as u64,
        "each ledger row stored by exactly one: {lines:?}"
    );
    for (class_id, upto) in classes.iter().zip(upto) {
        assert_store_matches(store, class_id, &host.log(class_id), upto).await;
    }
    host.shutdown().await;
}

/// Two hosts that reuse a class id: the follower of the second follows both of its host's
/// classes, the reused id under a key of its own, and leaves the first host's class alone.
async fn a_follower_keeps_another_hosts_class_of_the_same_id_apart(db: TestDb) {
    let (first, taken_id) = start_host_with(slower_host_config(Faults::default(), None)).await;
    let store = &db.store;
    store.ensure_class(&taken_id).await.unwrap();
    store
        .bind_class_to_host(&taken_id, &first.url())
        .await
        .unwrap();
    // The same seed makes the same class ids: the second host's first class reuses the id.
    let (second, reused) = start_host_with(slower_host_config(Faults::default(), None)).await;
    assert_eq!(reused, taken_id, "the premise: one id on both hosts");
    let own = add_class(&second, "Period 7");
    let mut follower = SyncProcess::spawn_with(
        &db.location,
        db.dir(),
        &second.url(),
        &["--all-classes", "--poll-classes", "1"],
        "follower",
    );
    wait_for_progress(store, &own, 0, &follower).await;
    let key = store
        .bind_class_to_host(&reused, &second.url())
        .await
        .unwrap();
    assert_ne!(key, taken_id);
    wait_for_progress(store, &key, 0, &follower).await;
    follower.assert_alive("following its host's classes");
    let line = follower.stop_with_line();
    assert_eq!(number_before(&line, "classes"), 2, "{line}");
    // The first host's class got nothing from the second.
    assert_eq!(store.cursor(&taken_id).await.unwrap(), None);
    let classes = store.classes().await.unwrap();
    let taken = classes.iter().find(|c| c.class_id == taken_id).unwrap();
    assert_eq!(taken.host_id.as_deref(), Some(first.url().as_str()));
    first.shutdown().await;
    second.shutdown().await;
}

/// A host without `list_classes`: the follower says why and stops, instead of waiting.
// Several threads: the host answers on the runtime while the test waits for the CLI's output.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_refuses_a_host_that_cannot_list_its_classes() {
    let mut config = slower_host_config(Faults::default(), None);
    config.class_list = false;
    let (host, class_id) = start_host_with(config).await;
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    let db = db.to_str().unwrap();
    let run = |which: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .args(["--db", db, "sync", "--quiet", "--host", &host.url()])
            .args(which)
            .env("A2LEARN_TOKEN", TOKEN)
            .output()
            .unwrap()
    };
    let out = run(&["--all-classes"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("no list_classes tool"), "{stderr}");
    // --shard and --poll-classes belong to --all-classes; --class with them is a usage error.
    let out = run(&["--class", &class_id, "--shard", "1/2"]);
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--all-classes", "--shard", "3/2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("1 <= K <= N"));
    // Control: the same host followed class by class works.
    let mut sync = SyncProcess::spawn(db, dir.path(), &host.url(), &class_id, "one");
    let store = pipeline_support::open_at(db).await;
    wait_for_progress(&store, &class_id, 0, &sync).await;
    sync.assert_alive("following one class");
    sync.stop();
    host.shutdown().await;
}
