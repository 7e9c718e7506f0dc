//! `host check` against real reference hosts on loopback: the reference host passes every check,
//! and a host that breaks exactly one rule (the reference host's switches) fails exactly the
//! check of that rule, while every other check still passes or is skipped. The passing checks
//! are the presence that makes each "only this one failed" mean something.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use a2learn_teacher::host::check::{
    CheckError, CheckOptions, CheckReport, CheckStatus, check_host,
};
use futures_util::future::join_all;
use pathway_host::cli::BrokenRule;
use pathway_host::{Faults, HostConfig, Injection, RunningHost};

const TOKEN: &str = "test-token-host-check-qwertyuiop";

/// A reference host with `faults`, and a class whose feed has events in it (at least one
/// completion), so that every feed check has something to judge.
async fn host_with_class(faults: Faults, simulate: bool) -> (RunningHost, String) {
    let mut config = HostConfig::local(TOKEN);
    config.learners = 12;
    config.speed = 60.0;
    config.ping_interval = Duration::from_millis(500);
    // Help requests wait as long as in class: the claim-respond check answers within it.
    config.help_wait = Some(Duration::from_secs(120));
    config.simulate = simulate;
    config.faults = faults;
    if !simulate {
        config.ping_interval = Duration::from_secs(3600);
    }
    let host = pathway_host::start(config).await.expect("host starts");
    let (class_id, _) = host.create_class("Room 12").unwrap();
    if simulate {
        host.assign(&class_id, "fractions-compare-4", None, None)
            .unwrap();
        let started = Instant::now();
        while !host.log(&class_id).iter().any(|f| {
            f.data.contains("a2learn.widget_completed") && f.data.contains("fractions-compare-4")
        }) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "no completion in the class"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    (host, class_id)
}

fn options(host: &RunningHost, class_id: Option<&str>, seconds: u64, writes: bool) -> CheckOptions {
    CheckOptions {
        host: host.url(),
        token: TOKEN.into(),
        class_id: class_id.map(str::to_owned),
        seconds,
        allow_writes: writes,
    }
}

fn with(status: CheckStatus, report: &CheckReport) -> BTreeSet<String> {
    report
        .checks
        .iter()
        .filter(|c| c.status == status)
        .map(|c| c.id.clone())
        .collect()
}

fn ids(list: &[&str]) -> BTreeSet<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}

/// Every check the suite knows, in a run with writes.
const ALL: [&str; 20] = [
    "auth.refused",
    "auth.accepted",
    "tools.required",
    "tools.optional",
    "catalog.valid",
    "writes.create-class",
    "writes.assign-idempotent",
    "feed.unknown-class",
    "feed.content-type",
    "feed.opening",
    "feed.ids",
    "feed.seq-order",
    "feed.agui",
    "feed.contract",
    "feed.utc",
    "feed.ping",
    "feed.resume",
    "results.match-feed",
    "writes.claim-respond",
    "writes.room",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_reference_host_passes_every_check_and_the_token_is_never_echoed() {
    let (host, _class) = host_with_class(Faults::default(), true).await;
    // Writes on: the suite creates its own class; 16 s tells the ping rule.
    let report = check_host(&options(&host, None, 16, true)).await.unwrap();
    let lines = report.lines().join("\n");
    assert_eq!(with(CheckStatus::Pass, &report), ids(&ALL), "{lines}");
    assert_eq!(
        (report.passed, report.failed, report.skipped),
        (20, 0, 0),
        "{lines}"
    );
    assert!(!report.required_failed());
    assert_eq!(lines.lines().last(), Some("20 passed, 0 failed, 0 skipped"));
    let json = serde_json::to_string(&report).unwrap();
    assert!(json.contains(&host.url()), "the report names the host");
    for text in [&lines, &json] {
        assert!(!text.contains(TOKEN), "the token is never echoed");
    }
    let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(value["checks"][0]["status"], "PASS");
    assert_eq!(value["checks"][0]["section"], "pathway-host.md, opening");
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn read_only_changes_nothing_and_skips_the_writes() {
    let (host, class_id) = host_with_class(Faults::default(), true).await;
    let classes_before = host.class_ids();
    let report = check_host(&options(&host, Some(&class_id), 3, false))
        .await
        .unwrap();
    let lines = report.lines().join("\n");
    assert_eq!(
        with(CheckStatus::Skip, &report)
            .intersection(&ids(&[
                "writes.create-class",
                "writes.assign-idempotent",
                "writes.claim-respond"
            ]))
            .count(),
        3,
        "{lines}"
    );
    assert!(with(CheckStatus::Fail, &report).is_empty(), "{lines}");
    assert!(
        with(CheckStatus::Pass, &report).contains("feed.resume"),
        "{lines}"
    );
    assert_eq!(host.class_ids(), classes_before, "no class was created");
    assert!(
        host.calls(&class_id).iter().all(|c| c.claimed_by.is_none()),
        "no call was claimed"
    );
    host.shutdown().await;
}

/// A read-only host (the bridge over the upstream's database is one) lists none of the write
/// tools: that passes, and the write checks are skipped even when writes are allowed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_read_only_host_passes_and_its_writes_are_skipped() {
    let faults = Faults {
        missing_tools: ["create_class", "assign_pathway", "claim", "respond"]
            .map(String::from)
            .to_vec(),
        ..Faults::default()
    };
    let (host, class_id) = host_with_class(faults, true).await;
    let classes_before = host.class_ids();
    let report = check_host(&options(&host, Some(&class_id), 3, true))
        .await
        .unwrap();
    let lines = report.lines().join("\n");
    assert!(!report.required_failed(), "{lines}");
    let tools = report
        .checks
        .iter()
        .find(|c| c.id == "tools.required")
        .unwrap();
    assert_eq!(tools.status, CheckStatus::Pass, "{lines}");
    assert!(
        tools.detail.as_deref().unwrap_or("").contains("read-only"),
        "{lines}"
    );
    for id in [
        "writes.create-class",
        "writes.assign-idempotent",
        "writes.claim-respond",
    ] {
        let check = report.checks.iter().find(|c| c.id == id).unwrap();
        assert_eq!(check.status, CheckStatus::Skip, "{lines}");
        assert!(
            check
                .detail
                .as_deref()
                .unwrap_or("")
                .contains("read-only host"),
            "{lines}"
        );
    }
    // Presence: the feed was read and judged.
    assert!(
        with(CheckStatus::Pass, &report).contains("feed.resume"),
        "{lines}"
    );
    assert_eq!(host.class_ids(), classes_before, "no class was created");
    host.shutdown().await;
}

/// One broken host: what it breaks, and the one check that must fail.
struct Broken {
    name: &'static str,
    faults: Faults,
    inject: Option<Injection>,
    writes: bool,
    fails: &'static str,
}

fn broken(rule: BrokenRule, writes: bool, fails: &'static str) -> Broken {
    let mut faults = Faults::default();
    rule.apply(&mut faults);
    Broken {
        name: fails,
        faults,
        inject: None,
        writes,
        fails,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_that_breaks_one_rule_fails_exactly_that_check() {
    let cases = vec![
        broken(BrokenRule::NoAuth, false, "auth.refused"),
        broken(BrokenRule::MissingTool, false, "tools.required"),
        broken(BrokenRule::BadCatalog, false, "catalog.valid"),
        broken(BrokenRule::UnknownClassOpens, false, "feed.unknown-class"),
        broken(BrokenRule::ContentType, false, "feed.content-type"),
        broken(BrokenRule::NoSnapshot, false, "feed.opening"),
        broken(BrokenRule::MissingIds, false, "feed.ids"),
        broken(BrokenRule::RepeatedSeq, false, "feed.seq-order"),
        broken(BrokenRule::ResumeGap, false, "feed.resume"),
        broken(BrokenRule::ResultsMismatch, false, "results.match-feed"),
        broken(BrokenRule::NoJoinCode, true, "writes.create-class"),
        broken(
            BrokenRule::AssignNotIdempotent,
            true,
            "writes.assign-idempotent",
        ),
        broken(BrokenRule::RespondRefuses, true, "writes.claim-respond"),
        Broken {
            name: "some write tools, not all",
            faults: Faults {
                missing_tools: vec!["claim".into()],
                ..Faults::default()
            },
            inject: None,
            writes: false,
            fails: "tools.required",
        },
        Broken {
            name: "a frame that is not JSON",
            faults: Faults::default(),
            inject: Some(Injection::NotJson),
            writes: false,
            fails: "feed.agui",
        },
        Broken {
            name: "a completion with empty prose",
            faults: Faults::default(),
            inject: Some(Injection::EmptyProse),
            writes: false,
            fails: "feed.contract",
        },
    ];
    let runs = cases.into_iter().map(|case| async move {
        let (host, class_id) = host_with_class(case.faults.clone(), true).await;
        if let Some(injection) = case.inject {
            host.inject(&class_id, injection).unwrap();
        }
        // A help request must reach the throwaway class for claim-respond: a longer watch.
        let seconds = if case.writes { 15 } else { 3 };
        let report = check_host(&options(&host, Some(&class_id), seconds, case.writes))
            .await
            .unwrap();
        host.shutdown().await;
        (case, report)
    });
    for (case, report) in join_all(runs).await {
        let lines = report.lines().join("\n");
        assert_eq!(
            with(CheckStatus::Fail, &report),
            ids(&[case.fails]),
            "{}: {lines}",
            case.name
        );
        assert!(report.required_failed(), "{}", case.name);
        let failed = report.checks.iter().find(|c| c.id == case.fails).unwrap();
        assert!(
            failed.detail.as_deref().is_some_and(|d| !d.is_empty()),
            "{}: a failure says why",
            case.name
        );
        // Presence: the rest of the suite ran and passed around the one failure.
        assert!(report.passed >= 12, "{}: {lines}", case.name);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn local_times_are_a_warning_not_a_failure() {
    let faults = Faults {
        utc_offset_minutes: 330,
        ..Faults::default()
    };
    let (host, class_id) = host_with_class(faults, true).await;
    let report = check_host(&options(&host, Some(&class_id), 3, false))
        .await
        .unwrap();
    let lines = report.lines().join("\n");
    assert_eq!(
        with(CheckStatus::Fail, &report),
        ids(&["feed.utc"]),
        "{lines}"
    );
    assert!(!report.required_failed(), "a warning only: exit 0");
    let utc = report.checks.iter().find(|c| c.id == "feed.utc").unwrap();
    assert!(!utc.required);
    let detail = utc.detail.as_deref().unwrap();
    assert!(
        detail.starts_with("warning:") && detail.contains("+05:30"),
        "{detail}"
    );
    // The same instants: the results match the feed through the offset.
    assert!(
        with(CheckStatus::Pass, &report).contains("results.match-feed"),
        "{lines}"
    );
    host.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_feed_silent_for_15_seconds_fails_the_ping_rule() {
    let (host, class_id) = host_with_class(Faults::default(), false).await;
    host.emit_custom(
        &class_id,
        &serde_json::json!({"type": "CUSTOM", "name": "someone.else", "value": {}}),
    )
    .unwrap();
    let report = check_host(&options(&host, Some(&class_id), 16, false))
        .await
        .unwrap();
    let lines = report.lines().join("\n");
    assert_eq!(
        with(CheckStatus::Fail, &report),
        ids(&["feed.ping"]),
        "{lines}"
    );
    assert!(
        with(CheckStatus::Pass, &report).contains("feed.opening"),
        "{lines}"
    );
    host.shutdown().await;
}

#[tokio::test]
async fn no_host_at_the_address_is_unreachable() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let err = check_host(&CheckOptions {
        host: url.clone(),
        token: TOKEN.into(),
        class_id: None,
        seconds: 1,
        allow_writes: false,
    })
    .await
    .expect_err("nothing listens there");
    let CheckError::Unreachable { host, .. } = &err;
    assert_eq!(host, &url);
    assert!(!err.to_string().contains(TOKEN));
}

/// Settings checks a typed host before saving. With the token field left empty it uses the saved
/// token, and only for the saved address: a saved token never goes to a host the teacher typed
/// next, which could be anyone's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn settings_checks_a_host_and_never_sends_the_saved_token_elsewhere() {
    use a2learn_teacher::host::settings::HostMode;
    use a2learn_teacher::views::host_check::{HostCheckInput, check_new_host};
    let (host, _class) = host_with_class(Faults::default(), true).await;
    let mut broken = Faults::default();
    BrokenRule::ResumeGap.apply(&mut broken);
    let (other, _other_class) = host_with_class(broken, true).await;
    let dir = tempfile::tempdir().unwrap();
    let clock: a2learn_teacher::clock::SharedClock =
        std::sync::Arc::new(a2learn_teacher::SystemClock);
    let store = a2learn_teacher::Store::open(&dir.path().join("teacher.db"), clock)
        .await
        .unwrap();
    store
        .save_host_settings(HostMode::Custom, Some(&host.url()), Some(TOKEN))
        .await
        .unwrap();
    // The saved address, token left empty: the saved token is used, and the host works.
    let view = check_new_host(
        &store,
        &HostCheckInput {
            url: host.url(),
            token: String::new(),
        },
    )
    .await
    .unwrap();
    assert!(view.works, "{}", view.verdict);
    assert_eq!(view.verdict, "This host works with a2learn Teacher.");
    let connections = other.feed_connections().len();
    // Another address with the token field empty: refused before anything is sent.
    let err = check_new_host(
        &store,
        &HostCheckInput {
            url: other.url(),
            token: String::new(),
        },
    )
    .await
    .expect_err("no token for that host");
    assert!(err.to_string().contains("enter the token"), "{err}");
    assert_eq!(
        other.feed_connections().len(),
        connections,
        "nothing reached it"
    );
    // With its token typed, the other host is checked, and its broken rule named in words.
    let view = check_new_host(
        &store,
        &HostCheckInput {
            url: other.url(),
            token: TOKEN.into(),
        },
    )
    .await
    .unwrap();
    assert!(!view.works);
    assert!(
        view.verdict
            .starts_with("This host breaks a rule the dashboard needs: reconnecting"),
        "{}",
        view.verdict
    );
    assert!(
        other.feed_connections().len() > connections,
        "checked this time"
    );
    host.shutdown().await;
    other.shutdown().await;
}

/// A token the host refuses: the one failure, and nothing after it is judged (every other check
/// needs a session), while the 401 rule, which needs no token, still passed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_fails_auth_accepted_and_stops_there() {
    let (host, class_id) = host_with_class(Faults::default(), true).await;
    let mut options = options(&host, Some(&class_id), 3, false);
    options.token = "not-the-token-of-this-host".into();
    let report = check_host(&options).await.unwrap();
    let lines = report.lines().join("\n");
    assert_eq!(
        with(CheckStatus::Fail, &report),
        ids(&["auth.accepted"]),
        "{lines}"
    );
    assert_eq!(
        with(CheckStatus::Pass, &report),
        ids(&["auth.refused"]),
        "{lines}"
    );
    assert_eq!(report.checks.len(), 2, "{lines}");
    assert!(
        !lines.contains("not-the-token-of-this-host"),
        "never echoed"
    );
    host.shutdown().await;
}
