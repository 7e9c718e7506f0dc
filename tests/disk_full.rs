//! A full disk during ingest, on a real (small) tmpfs with the real host on loopback: what was
//! stored stays intact, the sync keeps trying instead of dying, and when space returns the feed
//! resumes from its cursor and catches up — nothing lost, nothing doubled.
//!
//! Mounting a tmpfs needs root: a peer of the machine's, skipped or required by the rule of
//! `tests/support/peers.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "support/peers.rs"]
mod peers;
#[path = "support/pipeline.rs"]
mod pipeline_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use a2learn_teacher::host::feed::FeedSinks;
use a2learn_teacher::sync::sync_class;
use pathway_host::Faults;
use pipeline_support::*;
use tokio_util::sync::CancellationToken;

/// A tmpfs of `size` mounted at `dir`, unmounted on drop.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(dir: &Path, size: &str) -> Option<Self> {
        std::fs::create_dir_all(dir).unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .status()
            .ok()?;
        status.success().then(|| Self(dir.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg("-l").arg(&self.0).status();
    }
}

/// Writes zeros to `path` until the file system refuses more; returns the bytes written.
fn fill(path: &Path) -> u64 {
    let mut file = std::fs::File::create(path).unwrap();
    let chunk = vec![0u8; 16 * 1024];
    let mut written = 0u64;
    loop {
        match file.write(&chunk) {
            Ok(0) => break,
            Ok(n) => written += n as u64,
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(28), "ENOSPC, not {e}");
                break;
            }
        }
    }
    let _ = file.sync_all();
    written
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_disk_loses_nothing_and_the_feed_resumes_when_space_returns() {
    let dir = tempfile::tempdir().unwrap();
    let Some(disk) = Tmpfs::mount(&dir.path().join("disk"), "8m") else {
        peers::missing("tmpfs", "no tmpfs could be mounted here (needs root)");
        return;
    };
    let db = disk.0.join("t.db");
    let filler = disk.0.join("filler");
    let (host, class_id) = start_host_with(slower_host_config(Faults::default(), None)).await;
    let store = open(&db).await;
    let (sinks, _state, stats) = FeedSinks::new();
    let cancel = CancellationToken::new();
    let task = tokio::spawn(sync_class(
        store.clone(),
        feed_config(&host.url(), &class_id),
        clock(),
        sinks,
        cancel.clone(),
    ));
    wait_for_cursor(&store, &class_id, 100).await;

    // The disk fills up (another program, a download...).
    let connections_before = stats.borrow().connections;
    let filled = fill(&filler);
    assert!(filled > 0, "the filler took the free space");
    // The class goes on; the sync cannot store it. Wait until the host has logged well past
    // what was stored, and until the sync has failed a batch and reconnected twice (it tried,
    // and kept trying), then check the cursor stays behind: the full disk really bit.
    let stuck_at = store.cursor(&class_id).await.unwrap().unwrap();
    wait_for_log(&host, &class_id, stuck_at as usize + 150).await;
    let until = Instant::now() + Duration::from_secs(60);
    while stats.borrow().connections < connections_before + 2 {
        assert!(
            Instant::now() < until,
            "the sync did not retry on a full disk"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let during = store.cursor(&class_id).await.unwrap().unwrap();
    let logged = host.log(&class_id).last().unwrap().seq as i64;
    assert!(
        during < logged,
        "the store kept up ({during} of {logged}): the disk was not full"
    );
    assert!(!task.is_finished(), "the sync gave up on a full disk");

    // What was stored is intact and readable while the disk is full.
    let check: String = sqlx::query_scalar("PRAGMA quick_check")
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap();
    assert_eq!(check, "ok");
    assert_store_matches(&store, &class_id, &host.log(&class_id), during as u64).await;

    // Space returns: the feed resumes from its cursor and catches up.
    std::fs::remove_file(&filler).unwrap();
    let started = Instant::now();
    let upto = host.log(&class_id).last().unwrap().seq;
    wait_for_cursor(&store, &class_id, upto).await;
    eprintln!(
        "MEASURE disk full: stuck at {during} while the host logged {logged}; caught up to {upto} {} ms after space returned",
        started.elapsed().as_millis()
    );
    cancel.cancel();
    task.await.unwrap().unwrap();
    assert_store_matches(&store, &class_id, &host.log(&class_id), upto).await;
    host.shutdown().await;
    store.close().await;
    drop(disk);
}
