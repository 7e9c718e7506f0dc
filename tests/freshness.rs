//! The freshness line's facts against a real reference host on loopback: while the feed keeps
//! up the class is current, with the newest work's time and when the host was last heard; when
//! the host stops it turns unreachable and keeps showing the work it had. A class no feed
//! follows says so, and the printed report carries the same facts.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::i18n::{Lang, words};
use a2learn_teacher::live::{HostTarget, Live};
use a2learn_teacher::views::freshness::{FreshnessState, FreshnessView, freshness, report_line};
use a2learn_teacher::{Store, SystemClock};
use pathway_host::HostConfig;

const TOKEN: &str = "test-token-freshness-qwertyuiop";

async fn wait_for(
    store: &Store,
    live: &Live,
    class_id: &str,
    what: &str,
    ok: impl Fn(&FreshnessView) -> bool,
) -> FreshnessView {
    let until = Instant::now() + Duration::from_secs(30);
    loop {
        let view = freshness(store, Some(live), class_id).await.unwrap();
        if ok(&view) {
            return view;
        }
        assert!(Instant::now() < until, "{what}: still {view:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn current_while_the_feed_keeps_up_and_unreachable_once_the_host_stops() {
    let mut config = HostConfig::local(TOKEN);
    config.learners = 4;
    config.speed = 30.0;
    config.ping_interval = Duration::from_millis(200);
    let host = pathway_host::start(config).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock.clone())
        .await
        .unwrap();
    let (live, _, _) = Live::new(store.clone(), clock);
    live.set_target(Some(HostTarget::at(&host.url(), TOKEN)))
        .await
        .unwrap();
    let class = live.create_class("Period 2").await.unwrap();
    let pathway = host.pathways()[0].pathway_id.clone();
    host.assign(&class.host_class_id, &pathway, None, None)
        .unwrap();

    let current = wait_for(&store, &live, &class.class_id, "current with work", |v| {
        v.state == FreshnessState::Current && v.newest_work_ms.is_some()
    })
    .await;
    let heard = current.last_heard_ms.expect("the host was heard");
    assert!(
        report_line(
            &freshness(&store, None, &class.class_id).await.unwrap(),
            words(Lang::En)
        )
        .starts_with("All work up to "),
        "the report prints the newest work"
    );

    host.shutdown().await;
    let down = wait_for(&store, &live, &class.class_id, "unreachable", |v| {
        v.state == FreshnessState::Unreachable
    })
    .await;
    assert!(
        down.newest_work_ms >= current.newest_work_ms,
        "the work stays shown"
    );
    assert!(down.last_heard_ms >= Some(heard));

    // The same class where no feed follows it (the command line, another host's class).
    let unfollowed = freshness(&store, None, &class.class_id).await.unwrap();
    assert_eq!(unfollowed.state, FreshnessState::NotFollowed);
    live.shutdown().await;
}

#[tokio::test]
async fn a_class_with_no_work_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock)
        .await
        .unwrap();
    store.ensure_class("quiet").await.unwrap();
    let view = freshness(&store, None, "quiet").await.unwrap();
    assert_eq!(view.newest_work_ms, None);
    assert_eq!(report_line(&view, words(Lang::En)), "No work received yet.");
    assert_eq!(
        report_line(&view, words(Lang::Es)),
        "Aún no se ha recibido trabajo."
    );
}
