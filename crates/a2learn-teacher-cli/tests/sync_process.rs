//! The CLI's `sync` as separate processes against the real reference host on loopback: killed
//! and restarted, or two on one database, nothing is lost and nothing doubled.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/pipeline.rs"]
mod pipeline_support;

use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use pathway_host::Faults;
use pipeline_support::{
    TOKEN, assert_store_matches, open, start_host, wait_for_cursor, wait_for_log,
};

/// The CLI's `sync` as a separate process.
fn sync_process(db: &Path, url: &str, class_id: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(db)
        .args(["sync", "--quiet", "--host", url, "--class", class_id])
        .env("A2LEARN_TOKEN", TOKEN)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn sync")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sync_killed_with_sigkill_resumes_from_its_cursor() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let (host, class_id) = start_host(Faults::default(), None).await;
    let mut child = sync_process(&db, &host.url(), &class_id);
    let store = open(&db).await;
    // Kill it mid-stream, several times.
    for round in 1..=3 {
        wait_for_log(&host, &class_id, round * 150).await;
        tokio::time::sleep(Duration::from_millis(150)).await;
        child.kill().expect("SIGKILL"); // Child::kill sends SIGKILL on Unix
        child.wait().unwrap();
        child = sync_process(&db, &host.url(), &class_id);
    }
    let log = wait_for_log(&host, &class_id, 600).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    child.kill().unwrap();
    child.wait().unwrap();
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_sync_processes_on_one_database_store_each_event_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let faults = Faults {
        drop_every: 53,
        ..Faults::default()
    };
    let (host, class_id) = start_host(faults, None).await;
    let store = open(&db).await;
    let mut a = sync_process(&db, &host.url(), &class_id);
    let mut b = sync_process(&db, &host.url(), &class_id);
    let log = wait_for_log(&host, &class_id, 500).await;
    let upto = log.last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    for child in [&mut a, &mut b] {
        child.kill().unwrap();
        child.wait().unwrap();
    }
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
}
