//! Hosts kept apart, against two real reference hosts on loopback: a class belongs to the host it
//! was created on; pointing the app at a host follows that host's classes only (another host's
//! class is never asked of it), and pointing it back resumes each class from its own cursor. The
//! same class id on two hosts is two classes, each kept under its own key. And a database
//! written before hosts were kept apart gives its classes to the host its settings named.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::sync::Arc;
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::live::{HostTarget, Live};
use a2learn_teacher::store::DEMO_HOST_ID;
use a2learn_teacher::{FixedClock, Store, SystemClock};
use pathway_host::{HostConfig, RunningHost};
use support::copy_of_0_1_0_database;

const TOKEN: &str = "test-token-hosts-abcdefghijkl";

async fn host(seed: u64) -> RunningHost {
    let mut config = HostConfig::local(TOKEN);
    config.learners = 4;
    config.speed = 20.0;
    config.seed = seed;
    config.ping_interval = Duration::from_millis(200);
    pathway_host::start(config).await.expect("host starts")
}

/// The feed connections `host` has seen for `class_id`.
fn connections(host: &RunningHost, class_id: &str) -> usize {
    host.feed_connections()
        .iter()
        .filter(|c| c.class_id == class_id)
        .count()
}

async fn wait_connections(host: &RunningHost, class_id: &str, n: usize) {
    let until = Instant::now() + Duration::from_secs(20);
    while connections(host, class_id) < n {
        assert!(Instant::now() < until, "no feed connection for {class_id}");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Puts a marker frame on `class_id`'s feed at `host` and waits until the dashboard has stored
/// past it: proof that the followers ran after this call, read before a "nothing else happened"
/// is asserted (a sleep would prove nothing on a slow machine).
async fn wait_stored_past_marker(store: &Store, host: &RunningHost, class_id: &str, key: &str) {
    let marker = r#"{"type":"CUSTOM","name":"test.marker","value":{}}"#;
    let seq = i64::try_from(host.emit_raw(class_id, marker, None).unwrap()).unwrap();
    let until = Instant::now() + Duration::from_secs(20);
    while store.cursor(key).await.unwrap() < Some(seq) {
        assert!(
            Instant::now() < until,
            "{class_id}'s marker {seq} was not stored"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// The app's core on a store of its own: classes follow the host it is pointed at.
async fn dashboard() -> (tempfile::TempDir, Store, Arc<Live>) {
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock.clone())
        .await
        .unwrap();
    let (live, _, _) = Live::new(store.clone(), clock);
    (dir, store, live)
}

async fn class_ids(store: &Store, host_id: &str) -> Vec<String> {
    store
        .classes_of_host(host_id)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.class_id)
        .collect()
}

#[tokio::test]
async fn switching_hosts_follows_that_hosts_classes_only() {
    let (a, b) = (host(11).await, host(12).await);
    let (_dir, store, live) = dashboard().await;
    let at_a = HostTarget::at(&a.url(), TOKEN);
    let at_b = HostTarget::at(&b.url(), TOKEN);

    live.set_target(Some(at_a.clone())).await.unwrap();
    let class_a = live.create_class("Period 3").await.unwrap().class_id;
    wait_connections(&a, &class_a, 1).await;

    live.set_target(Some(at_b.clone())).await.unwrap();
    let class_b = live.create_class("Period 4").await.unwrap().class_id;
    wait_connections(&b, &class_b, 1).await;
    assert_ne!(class_a, class_b);
    // Each class is its host's.
    assert_eq!(
        class_ids(&store, &at_a.host_id).await,
        vec![class_a.clone()]
    );
    assert_eq!(
        class_ids(&store, &at_b.host_id).await,
        vec![class_b.clone()]
    );
    let listed: Vec<String> = store
        .class_counts(Some(&at_b.host_id))
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.class_id)
        .collect();
    assert_eq!(
        listed,
        vec![class_b.clone()],
        "the sidebar lists B's class only"
    );

    // Let B's feeds run a while. A's class is not asked of B (the bug: every class the store
    // knew was followed against whichever host the app pointed at, and B, which does not know
    // it, left the status bar saying "offline"); A is no longer followed.
    let a_before = connections(&a, &class_a);
    wait_stored_past_marker(&store, &b, &class_b, &class_b).await;
    assert_eq!(live.connection(), ConnectionState::Connected);
    assert_eq!(
        connections(&a, &class_a),
        a_before,
        "A is no longer followed"
    );

    // Back to A: its class resumes from its own cursor; B's class is not asked of A.
    let cursor_a = store.cursor(&class_a).await.unwrap();
    live.set_target(Some(at_a)).await.unwrap();
    wait_connections(&a, &class_a, a_before + 1).await;
    let resumed = a
        .feed_connections()
        .into_iter()
        .rfind(|c| c.class_id == class_a)
        .unwrap();
    assert_eq!(
        resumed.last_event_id.map(|s| i64::try_from(s).unwrap()),
        cursor_a,
        "resumed from A's class's own cursor"
    );
    wait_stored_past_marker(&store, &a, &class_a, &class_a).await;
    assert_eq!(
        live.connection(),
        ConnectionState::Connected,
        "B's class is not asked of A"
    );
    live.set_target(None).await.unwrap();
}

#[tokio::test]
async fn the_same_class_id_on_two_hosts_is_two_classes() {
    // Two hosts with the same seed hand out the same class ids: each is its host's class, with
    // its own key here, its own cursor, results and sidebar entry.
    let (a, b) = (host(21).await, host(21).await);
    let (_dir, store, live) = dashboard().await;
    live.set_target(Some(HostTarget::at(&a.url(), TOKEN)))
        .await
        .unwrap();
    let first = live.create_class("Period 3").await.unwrap().class_id;
    wait_stored_past_marker(&store, &a, &first, &first).await;
    let a_cursor = store.cursor(&first).await.unwrap();
    let a_ledger = ledger_rows(&store, &first).await;

    live.set_target(Some(HostTarget::at(&b.url(), TOKEN)))
        .await
        .unwrap();
    let second = live.create_class("Period 3 at B").await.unwrap().class_id;
    assert_ne!(second, first, "another class");
    assert_eq!(
        store.host_class_id(&second).await.unwrap(),
        first,
        "which B names as A names A's"
    );
    // B's class is followed by B's id, and its learners' work stores under its own key.
    wait_connections(&b, &first, 1).await;
    b.assign(&first, "fractions-compare-4", None, None).unwrap();
    let until = Instant::now() + Duration::from_secs(30);
    while ledger_rows(&store, &second).await == 0 {
        assert!(Instant::now() < until, "B's class stored nothing");
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    wait_stored_past_marker(&store, &b, &first, &second).await;
    assert_eq!(
        store.cursor(&first).await.unwrap(),
        a_cursor,
        "A's class untouched"
    );
    assert_eq!(ledger_rows(&store, &first).await, a_ledger);
    assert_eq!(class_ids(&store, &a.url()).await, vec![first.clone()]);
    assert_eq!(class_ids(&store, &b.url()).await, vec![second.clone()]);
    let titles: Vec<String> = store
        .classes()
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.title)
        .collect();
    assert_eq!(titles, ["Period 3", "Period 3 at B"], "each kept its title");

    // Back to A: its class resumes from its own cursor.
    let before = connections(&a, &first);
    live.set_target(Some(HostTarget::at(&a.url(), TOKEN)))
        .await
        .unwrap();
    wait_connections(&a, &first, before + 1).await;
    let resumed = a
        .feed_connections()
        .into_iter()
        .rfind(|c| c.class_id == first)
        .unwrap();
    assert_eq!(
        resumed.last_event_id.map(|s| i64::try_from(s).unwrap()),
        a_cursor
    );
    live.set_target(None).await.unwrap();
}

/// A store the current release wrote (its classes keyed by their id alone) opens with each class
/// named by its host and its id, keeps its key, cursor and results, and takes another host's
/// class of the same id beside it.
#[tokio::test]
async fn a_store_of_the_release_before_keys_each_class_by_its_host() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("teacher.db");
    let clock = Arc::new(FixedClock::at(1_800_000_000_000));
    let store = Store::open(&path, clock.clone()).await.unwrap();
    store
        .bind_class_to_host("c1", "https://a.example")
        .await
        .unwrap();
    store
        .upsert_class("c1", "Period 3", Some("JOIN-1"))
        .await
        .unwrap();
    store.ensure_class("by-id").await.unwrap();
    let registry = store.registry().await.unwrap();
    let marker = a2learn_teacher::store::Incoming::Frame {
        id: Some("7".into()),
        data: r#"{"type":"CUSTOM","name":"test.marker","value":{}}"#.into(),
    };
    store.ingest("c1", &registry, vec![marker]).await.unwrap();
    store.close().await;
    // The file as the release before left it: this release's migrations undone.
    let mut conn = <sqlx::SqliteConnection as sqlx::Connection>::connect_with(
        &sqlx::sqlite::SqliteConnectOptions::new().filename(&path),
    )
    .await
    .unwrap();
    for undo in [
        "DROP TABLE learner_group_members",
        "DROP TABLE learner_groups",
        "DROP TABLE class_versions",
        "DROP INDEX classes_host_class",
        "ALTER TABLE classes DROP COLUMN host_class_id",
        "DROP INDEX quarantine_payload",
        "ALTER TABLE quarantine DROP COLUMN payload_key",
        "DELETE FROM _sqlx_migrations WHERE version >= 20261207000001",
    ] {
        sqlx::query(undo).execute(&mut conn).await.unwrap();
    }
    sqlx::Connection::close(conn).await.unwrap();

    let store = Store::open(&path, clock).await.unwrap();
    let classes = store.classes().await.unwrap();
    let named: Vec<(&str, &str, Option<&str>)> = classes
        .iter()
        .map(|c| {
            (
                c.class_id.as_str(),
                c.host_class_id.as_str(),
                c.host_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        named,
        [
            ("by-id", "by-id", None),
            ("c1", "c1", Some("https://a.example"))
        ]
    );
    assert_eq!(
        store.cursor("c1").await.unwrap(),
        Some(7),
        "its cursor kept"
    );
    assert_eq!(
        store
            .bind_class_to_host("c1", "https://a.example")
            .await
            .unwrap(),
        "c1"
    );
    let other = store
        .bind_class_to_host("c1", "https://b.example")
        .await
        .unwrap();
    assert_ne!(other, "c1");
    assert_eq!(
        store.cursor(&other).await.unwrap(),
        None,
        "a class of its own"
    );
    assert_eq!(
        store
            .bind_class_to_host("by-id", "https://b.example")
            .await
            .unwrap(),
        "by-id",
        "a class followed by id alone becomes the host's"
    );
    store.close().await;
}

async fn ledger_rows(store: &Store, class_id: &str) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM ledger WHERE class_id = ?")
        .bind(class_id)
        .fetch_one(store.sqlite().unwrap())
        .await
        .unwrap()
}

#[tokio::test]
async fn binding_is_per_host_and_a_class_followed_by_id_goes_with_any_host() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(
        &dir.path().join("teacher.db"),
        Arc::new(FixedClock::at(1_800_000_000_000)),
    )
    .await
    .unwrap();
    store.upsert_class("c1", "Period 3", None).await.unwrap();
    store.ensure_class("by-id").await.unwrap();
    assert_eq!(
        store.bind_class_to_host("c1", DEMO_HOST_ID).await.unwrap(),
        "c1"
    );
    // Again with the same host: nothing changes.
    assert_eq!(
        store.bind_class_to_host("c1", DEMO_HOST_ID).await.unwrap(),
        "c1"
    );
    // Another host's c1 is another class, under a key of its own, the same each time.
    let school = store
        .bind_class_to_host("c1", "https://school.example")
        .await
        .unwrap();
    assert_ne!(school, "c1");
    assert!(school.starts_with("c1@"), "{school}");
    assert_eq!(
        store
            .bind_class_to_host("c1", "https://school.example")
            .await
            .unwrap(),
        school
    );
    assert_eq!(store.host_class_id(&school).await.unwrap(), "c1");
    assert_eq!(store.host_class_id("c1").await.unwrap(), "c1");
    // A new class is made bound, never listed without its host in between: another app on a
    // shared store would take an unbound class up and ask its own host for it.
    store.bind_class_to_host("new", DEMO_HOST_ID).await.unwrap();
    assert_eq!(
        class_ids(&store, DEMO_HOST_ID).await,
        ["by-id", "c1", "new"]
    );
    assert_eq!(
        class_ids(&store, "https://school.example").await,
        ["by-id", school.as_str()],
        "a class with no host goes with any host; the demo's do not"
    );
    // Two classes listed with one title: the sidebar names where each comes from.
    store.upsert_class("by-id", "Period 3", None).await.unwrap();
    let listed = a2learn_teacher::views::app::classes(&store).await.unwrap();
    let hosts: Vec<(String, Option<String>)> =
        listed.into_iter().map(|c| (c.class_id, c.host)).collect();
    assert_eq!(
        hosts,
        [
            ("by-id".to_string(), Some("no host".to_string())),
            ("c1".to_string(), Some(DEMO_HOST_ID.to_string())),
            ("new".to_string(), None),
        ],
        "named where titles meet, not elsewhere"
    );
    let no_host: Vec<String> = store
        .class_counts(None)
        .await
        .unwrap()
        .into_iter()
        .map(|c| c.class_id)
        .collect();
    assert_eq!(no_host, ["by-id"]);
}

/// Copies the 0.1.0 fixture (two classes, no hosts) and writes `settings` into it first, as the
/// app of that version would have.
async fn database_from_0_1_0(dir: &std::path::Path, settings: &[(&str, &str)]) -> Store {
    let path = copy_of_0_1_0_database(dir);
    {
        let raw = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
            .await
            .unwrap();
        for (key, value) in settings {
            sqlx::query("INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)")
                .bind(key)
                .bind(value)
                .execute(&raw)
                .await
                .unwrap();
        }
        raw.close().await;
    }
    Store::open(&path, Arc::new(FixedClock::at(1_800_000_000_000)))
        .await
        .unwrap()
}

#[tokio::test]
async fn a_database_from_0_1_0_gives_its_classes_to_the_host_it_named() {
    let school = "https://school.example/a2learn";
    let dir = tempfile::tempdir().unwrap();
    let store =
        database_from_0_1_0(dir.path(), &[("host_mode", "custom"), ("host_url", school)]).await;
    assert_eq!(class_ids(&store, school).await, ["class-1", "class-2"]);
    assert_eq!(
        store.named_host_id().await.unwrap().as_deref(),
        Some(school)
    );
    assert!(
        class_ids(&store, DEMO_HOST_ID).await.is_empty(),
        "not the demo's"
    );

    // Control: a database that ran on the demo host (no settings: the default).
    let dir = tempfile::tempdir().unwrap();
    let store = database_from_0_1_0(dir.path(), &[]).await;
    assert_eq!(
        class_ids(&store, DEMO_HOST_ID).await,
        ["class-1", "class-2"]
    );
    assert!(class_ids(&store, school).await.is_empty());
}

/// Two co-teachers on one shared store, each with their own file: the host each follows (and
/// every other choice of theirs) stays in their file, so one can follow the school's host while
/// the other follows the demo; a mark about the store's data (a class's backfill done) is the
/// store's, seen by both. `pg_dump` of the shared database holds the mark and neither teacher's
/// host. On a teacher's file both kinds are one table (the control).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn co_teachers_on_one_shared_store_keep_their_own_settings() {
    use support::engines::{Engine, TestDb, pg_dump};
    const SCHOOL: &str = "https://school-host.example";
    let file = TestDb::open(Engine::Sqlite).await.unwrap();
    file.store.set_setting("host_url", SCHOOL).await.unwrap();
    assert_eq!(
        file.store
            .store_setting("host_url")
            .await
            .unwrap()
            .as_deref(),
        Some(SCHOOL),
        "a teacher's file is both homes"
    );

    let Some(db) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    let (ada, bea) = co_teachers(&db).await;
    bea.set_setting("host_mode", "custom").await.unwrap();
    bea.set_setting("host_url", SCHOOL).await.unwrap();
    assert_eq!(bea.named_host_id().await.unwrap().as_deref(), Some(SCHOOL));
    assert_eq!(
        ada.named_host_id().await.unwrap(),
        Some(ada.demo_host_id().await.unwrap()),
        "Bea's host is not Ada's: Ada's is her demo host"
    );
    ada.set_store_setting("backfill_done:class-1", "1")
        .await
        .unwrap();
    assert_eq!(
        bea.store_setting("backfill_done:class-1")
            .await
            .unwrap()
            .as_deref(),
        Some("1")
    );
    assert_eq!(bea.setting("backfill_done:class-1").await.unwrap(), None);
    let dump = pg_dump(&db.location);
    assert!(dump.contains("backfill_done:class-1"), "the store's mark");
    assert!(!dump.contains(SCHOOL), "a teacher's host reached the store");
}

/// Two co-teachers on one shared store, each app with its embedded demo host (the default): each
/// demo host is named apart, so each app makes a demo class of its own and follows it on its own
/// demo host. Under one name the second app found the first's demo class, made none, and asked
/// its own demo host for a class that host never had. In a teacher's own file the demo host
/// keeps its one name (the control), and a teacher's name for theirs survives a restart.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn co_teachers_in_demo_mode_on_one_shared_store_each_follow_their_own_demo_class() {
    use support::engines::{Engine, TestDb};
    let file = TestDb::open(Engine::Sqlite).await.unwrap();
    assert_eq!(file.store.demo_host_id().await.unwrap(), DEMO_HOST_ID);

    let Some(db) = TestDb::open(Engine::Postgres).await else {
        return;
    };
    let (ada, bea) = co_teachers(&db).await;
    let (ada_demo, bea_demo) = (
        ada.demo_host_id().await.unwrap(),
        bea.demo_host_id().await.unwrap(),
    );
    assert_ne!(ada_demo, bea_demo);
    assert!(ada_demo.starts_with(DEMO_HOST_ID), "{ada_demo}");
    assert_eq!(
        db.teacher_store().await.demo_host_id().await.unwrap(),
        ada_demo,
        "kept in Ada's file across a restart"
    );
    // A first start asks from several places at once (the views, the demo host): one name.
    let home_c = Store::open(&db.dir().join("home-c.db"), Arc::new(db.clock.clone()))
        .await
        .unwrap();
    let cleo = db.store.clone().with_home(home_c).unwrap();
    let names: Vec<String> = futures_util::future::join_all((0..8).map(|_| cleo.demo_host_id()))
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert!(names.iter().all(|n| *n == names[0]), "{names:?}");
    assert_eq!(cleo.demo_host_id().await.unwrap(), names[0]);

    let clock: SharedClock = Arc::new(SystemClock);
    let (host_a, host_b) = (host(1).await, host(2).await);
    let (ada_live, _, _) = Live::new(ada.clone(), clock.clone());
    let (bea_live, _, _) = Live::new(bea.clone(), clock);
    let ada_class = demo_class_on(&ada_live, &host_a, &ada_demo)
        .await
        .expect("Ada's demo class");
    let bea_class = demo_class_on(&bea_live, &host_b, &bea_demo)
        .await
        .expect("Bea's demo class, though Ada's is in the store");
    assert_ne!(ada_class.class_id, bea_class.class_id);
    assert_eq!(
        class_ids(&ada, &ada_demo).await,
        [ada_class.class_id.as_str()]
    );
    assert_eq!(
        class_ids(&bea, &bea_demo).await,
        [bea_class.class_id.as_str()]
    );
    wait_connections(&host_a, &ada_class.class_id, 1).await;
    wait_connections(&host_b, &bea_class.class_id, 1).await;
    assert_eq!(
        connections(&host_b, &ada_class.class_id),
        0,
        "Bea's app never asks her demo host for Ada's class"
    );
    assert_eq!(connections(&host_a, &bea_class.class_id), 0);
    assert_eq!(
        ada_live.ensure_demo_class().await.unwrap(),
        None,
        "a second start makes no second class"
    );
    ada_live.shutdown().await;
    bea_live.shutdown().await;
    host_a.shutdown().await;
    host_b.shutdown().await;
}

/// Points `live` at a demo host named `host_id` and makes its demo class (none when it has one).
async fn demo_class_on(
    live: &Live,
    host: &RunningHost,
    host_id: &str,
) -> Option<a2learn_teacher::store::ClassRow> {
    live.set_target(Some(HostTarget::demo(&host.url(), TOKEN, host_id)))
        .await
        .unwrap();
    live.ensure_demo_class().await.unwrap()
}

/// Two teachers on `db`'s shared store, each with a file of their own (Ada's is the test's
/// `home.db`, Bea's `home-b.db`).
async fn co_teachers(db: &support::engines::TestDb) -> (Store, Store) {
    let ada = db.teacher_store().await;
    let home_b = Store::open(&db.dir().join("home-b.db"), Arc::new(db.clock.clone()))
        .await
        .unwrap();
    let bea = db.store.clone().with_home(home_b).unwrap();
    (ada, bea)
}

/// A class made elsewhere (on the host itself, a bridged upstream pathway) is listed by a host
/// with `list_classes`, followed once the teacher picks it, and from then on the sidebar's: its
/// learners arrive through its feed. One the host does not list is refused.
#[tokio::test]
async fn a_class_the_host_lists_is_followed_once_picked() {
    use a2learn_teacher::views::app::{classes, follow_host_class, host_classes};
    let host = host(21).await;
    let (_dir, store, live) = dashboard().await;
    let target = HostTarget::at(&host.url(), TOKEN);
    // As Settings saves a school's host: the sidebar lists that host's classes.
    store
        .save_host_settings(
            a2learn_teacher::host::settings::HostMode::Custom,
            Some(&host.url()),
            Some(TOKEN),
        )
        .await
        .unwrap();
    live.set_target(Some(target.clone())).await.unwrap();
    let (elsewhere, _) = host.create_class("Made on the host").unwrap();
    host.assign(&elsewhere, "fractions-compare-4", None, None)
        .unwrap();
    let listed = host_classes(&live).await.unwrap();
    let picked = listed.iter().find(|c| c.class_id == elsewhere).unwrap();
    assert_eq!(picked.title, "Made on the host");
    assert!(!picked.followed);
    assert!(
        classes(&store).await.unwrap().is_empty(),
        "not followed yet"
    );

    follow_host_class(&live, &elsewhere).await.unwrap();
    let listed = host_classes(&live).await.unwrap();
    assert!(
        listed
            .iter()
            .find(|c| c.class_id == elsewhere)
            .unwrap()
            .followed
    );
    let sidebar = classes(&store).await.unwrap();
    assert_eq!(sidebar.len(), 1);
    assert_eq!(sidebar[0].title, "Made on the host");
    wait_connections(&host, &elsewhere, 1).await;
    let started = Instant::now();
    while store.learners(&elsewhere).await.unwrap().is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no learner arrived"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    let err = follow_host_class(&live, "no-such-class").await.unwrap_err();
    assert!(err.to_string().contains("lists no class"), "{err}");
    assert_eq!(classes(&store).await.unwrap().len(), 1, "nothing added");
    live.shutdown().await;
    host.shutdown().await;
}

/// Sharded followers start at once and bind the classes they see in the same moment: every
/// bind of one class agrees on its key and one row is made. On PostgreSQL the loser of the
/// race used to trip the (host, class) index and end its sync with "duplicate key".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binds_of_one_class_at_once_agree_on_one_key() {
    use support::engines::{Engine, TestDb};
    for engine in [Engine::Sqlite, Engine::Postgres] {
        let Some(db) = TestDb::open(engine).await else {
            continue;
        };
        for round in 0..20 {
            let class = format!("c-{round}");
            let keys: Vec<String> = futures_util::future::join_all((0..8).map(|_| {
                db.store
                    .bind_class_to_host(&class, "https://school.example")
            }))
            .await
            .into_iter()
            .map(|key| key.expect("every bind succeeds"))
            .collect();
            assert!(keys.iter().all(|k| *k == class), "{engine:?}: {keys:?}");
        }
        let bound = class_ids(&db.store, "https://school.example").await;
        assert_eq!(bound.len(), 20, "{engine:?}: one row per class: {bound:?}");
    }
}

/// Waits until `live`'s connection is `want` (20 s at most), then returns it.
async fn wait_connection(live: &Live, want: ConnectionState) -> ConnectionState {
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let now = live.connection();
        if now == want || Instant::now() > until {
            return now;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// With a host configured and no class yet, the status bar said "connected" whether or not the
/// host answered (with no feed, the merge of no states was "connected"). It now tells what a
/// probe of the host finds: connected while it answers, offline once it stops, token refused
/// for a wrong token, and nothing configured without a host.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_class_the_status_bar_tells_whether_the_host_answers() {
    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock.clone())
        .await
        .unwrap();
    let (live, _, _) = Live::with_probe_every(store.clone(), clock, Duration::from_millis(100));
    let school = host(31).await;
    let url = school.url();

    live.set_target(Some(HostTarget::at(&url, TOKEN)))
        .await
        .unwrap();
    assert_eq!(
        wait_connection(&live, ConnectionState::Connected).await,
        ConnectionState::Connected,
        "the host answers"
    );
    assert!(
        class_ids(&store, &url).await.is_empty(),
        "no class followed"
    );

    school.shutdown().await;
    assert_eq!(
        wait_connection(&live, ConnectionState::Offline).await,
        ConnectionState::Offline,
        "the host stopped answering"
    );

    let other = host(32).await;
    live.set_target(Some(HostTarget::at(&other.url(), "not-the-token")))
        .await
        .unwrap();
    assert_eq!(
        wait_connection(&live, ConnectionState::TokenRefused).await,
        ConnectionState::TokenRefused
    );
    live.set_target(None).await.unwrap();
    assert_eq!(
        wait_connection(&live, ConnectionState::NotConfigured).await,
        ConnectionState::NotConfigured
    );
    other.shutdown().await;
}
