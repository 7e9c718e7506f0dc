//! The privacy proof: identity never leaves the machine.
//!
//! A roster of canary names ("Zephyrine Quabbelwick", ...) is imported for a class that then
//! runs a whole session against the reference host on loopback: the dashboard syncs the class
//! (MCP catalog and backfill, the live feed), the help desk claims, answers, declines and says
//! "coming over", and every default export is written. Meanwhile a recording TCP proxy between
//! the dashboard and the host keeps every byte the dashboard sends, a TRACE-level subscriber
//! keeps every log line, and every exported file is read back. Then the teacher types canary
//! names into an answer, a group answer, a teacher note and a class title: each is blocked
//! before any byte leaves, and goes through once rephrased. No canary may appear in any of
//! them. Negative controls: the recordings are not empty (they saw the answers and the export),
//! and the identified exports do contain the canaries, so the check would catch a leak.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use a2learn_teacher::clock::SharedClock;
use a2learn_teacher::desk::{Desk, RequestState};
use a2learn_teacher::export::{ExportRequest, Format, export_to_path};
use a2learn_teacher::host::feed::{Backoff, FeedConfig, FeedSinks};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::live::{HostTarget, Live};
use a2learn_teacher::progress::assign;
use a2learn_teacher::roster::{RosterEntry, parse_roster_csv};
use a2learn_teacher::sync::sync_class;
use a2learn_teacher::{Store, SystemClock};
use pathway_host::HostConfig;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_util::sync::CancellationToken;

const TOKEN: &str = "test-token-abcdefghijklmnop";
const PATHWAY: &str = "fractions-compare-4";
const FIRST: [&str; 6] = [
    "Zephyrine",
    "Quillonae",
    "Barnabitha",
    "Oswendril",
    "Thaddelia",
    "Mirabeaux",
];
const LAST: [&str; 5] = [
    "Quabbelwick",
    "Snorkeldink",
    "Fernhallow",
    "Grizzletop",
    "Wobblecrane",
];

/// Everything written to it is kept: the test's log sink.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// A TCP proxy on loopback to `target`; keeps every byte the client sends.
async fn recording_proxy(target: SocketAddr, record: Sink) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        while let Ok((inbound, _)) = listener.accept().await {
            let mut record = record.clone();
            tokio::spawn(async move {
                let Ok(outbound) = tokio::net::TcpStream::connect(target).await else {
                    return;
                };
                let (mut from_client, mut to_client) = inbound.into_split();
                let (mut from_host, mut to_host) = outbound.into_split();
                let up = async move {
                    let mut buf = vec![0u8; 16 * 1024];
                    loop {
                        let n = match from_client.read(&mut buf).await {
                            Ok(0) | Err(_) => break,
                            Ok(n) => n,
                        };
                        record.write_all(&buf[..n]).unwrap();
                        if to_host.write_all(&buf[..n]).await.is_err() {
                            break;
                        }
                    }
                    let _ = to_host.shutdown().await;
                };
                let down = async move {
                    let _ = tokio::io::copy(&mut from_host, &mut to_client).await;
                    let _ = to_client.shutdown().await;
                };
                tokio::join!(up, down);
            });
        }
    });
    addr
}

fn canaries() -> Vec<String> {
    let mut out: Vec<String> = FIRST
        .iter()
        .chain(LAST.iter())
        .map(|s| s.to_string())
        .collect();
    for f in FIRST {
        for l in LAST {
            out.push(format!("{f} {l}"));
        }
    }
    out
}

/// The canaries found in `text` (case-insensitive).
fn found_in(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    canaries()
        .into_iter()
        .filter(|c| lower.contains(&c.to_lowercase()))
        .collect()
}

/// The text of an exported file (a zip's entries, decompressed, then its raw bytes).
fn file_text(path: &std::path::Path) -> String {
    let bytes = std::fs::read(path).unwrap();
    let mut text = String::from_utf8_lossy(&bytes).into_owned();
    if path.extension().is_some_and(|e| e == "zip") {
        let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap();
        for i in 0..zip.len() {
            let mut f = zip.by_index(i).unwrap();
            f.read_to_string(&mut text).unwrap();
        }
    }
    text
}

/// A send refused for a name: its own code, and the word quoted for the teacher's window.
fn assert_blocked(err: a2learn_teacher::UiError, word: &str) {
    assert_eq!(
        err.code,
        a2learn_teacher::ErrorCode::TextBlocked,
        "{}",
        err.message
    );
    assert!(
        err.message.contains(&format!("“{word}”")),
        "{}",
        err.message
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_canary_name_reaches_the_network_the_logs_or_a_default_export() {
    let logs = Sink::default();
    let writer = logs.clone();
    // The only test in this binary: the global default is this test's, for every thread.
    tracing_subscriber::fmt()
        .with_max_level(tracing::Level::TRACE)
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .try_init()
        .expect("the test's subscriber is the first");

    let mut config = HostConfig::local(TOKEN);
    config.learners = 30;
    // Assist deadlines are 4 simulated minutes: 10 s at this speed.
    config.speed = 24.0;
    config.seed = 2026;
    config.ping_interval = Duration::from_millis(200);
    let host = pathway_host::start(config).await.expect("host starts");
    let (class_id, _) = host.create_class("Period 3").expect("class");
    host.assign(&class_id, PATHWAY, None, None).expect("assign");
    let sent = Sink::default();
    let proxy = recording_proxy(host.addr(), sent.clone()).await;
    let base = format!("http://{proxy}");

    let dir = tempfile::tempdir().unwrap();
    let clock: SharedClock = Arc::new(SystemClock);
    let store = Store::open(&dir.path().join("teacher.db"), clock.clone())
        .await
        .unwrap();
    store
        .upsert_class(&class_id, "Period 3", None)
        .await
        .unwrap();
    // The roster is in place before anything is synced: every path below runs with names
    // in the store.
    let learners = host.learners(&class_id);
    assert_eq!(learners.len(), 30);
    let mut csv = String::from("anonymous_id,display_name\n");
    for (i, learner) in learners.iter().enumerate() {
        csv.push_str(&format!(
            "{learner},{} {}\n",
            FIRST[i % 6],
            LAST[(i / 6) % 5]
        ));
    }
    let roster: Vec<RosterEntry> = parse_roster_csv(&csv).unwrap();
    store.import_roster(&class_id, &roster).await.unwrap();
    assert_eq!(store.all_roster_names().await.unwrap().len(), 30);

    // The session: sync through the proxy, and the help desk at work.
    let mut feed = FeedConfig::new(&base, TOKEN, &class_id);
    feed.backoff = Backoff {
        min: Duration::from_millis(20),
        max: Duration::from_millis(200),
    };
    let cancel = CancellationToken::new();
    let (sinks, _state, _stats) = FeedSinks::new();
    let sync = tokio::spawn(sync_class(
        store.clone(),
        feed,
        clock.clone(),
        sinks,
        cancel.clone(),
    ));
    let client = HostClient::connect(&base, TOKEN).await.unwrap();
    let desk = Desk::new(&store);
    let mut handled = 0;
    let until = Instant::now() + Duration::from_secs(90);
    loop {
        let results: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results")
            .fetch_one(store.sqlite().unwrap())
            .await
            .unwrap();
        if handled >= 3 && results >= 40 {
            break;
        }
        assert!(
            Instant::now() < until,
            "the session stalled: {handled} requests handled, {results} results"
        );
        for request in desk.queue(Some(&class_id)).await.unwrap() {
            if request.state != RequestState::Open {
                continue;
            }
            // The queue joins the local name for the teacher's screen; it must stay there.
            assert!(request.display_name.is_some());
            if desk.claim(&client, &request.call_id).await.is_err() {
                continue;
            }
            let outcome = match handled % 3 {
                0 => {
                    desk.answer(
                        &client,
                        &request.call_id,
                        "Find a common denominator first.",
                    )
                    .await
                }
                1 => desk.coming_over(&client, &request.call_id).await,
                _ => desk.decline(&client, &request.call_id).await,
            };
            if outcome.is_ok() {
                handled += 1;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    cancel.cancel();
    sync.await.unwrap().unwrap();

    // The teacher's own words, with names in them: every path that sends text is blocked
    // before the network, and says which word; the same paths without the name go through.
    let before_typed = sent.0.lock().unwrap().len();
    let call_ids: Vec<String> = desk
        .queue(Some(&class_id))
        .await
        .unwrap()
        .into_iter()
        .map(|r| r.call_id)
        .collect();
    assert!(!call_ids.is_empty());
    let typed = "Quillonae, count three halves from zero.";
    let err = desk.answer(&client, &call_ids[0], typed).await.unwrap_err();
    assert_blocked(a2learn_teacher::UiError::from(err), "Quillonae");
    let err = desk
        .prepare_answer("Work with Thaddelia Grizzletop on this one.")
        .await
        .unwrap_err();
    assert_blocked(err.into(), "Thaddelia Grizzletop");
    assert_eq!(
        sent.0.lock().unwrap().len(),
        before_typed,
        "not a byte went out for a blocked answer"
    );
    let (live, _, _) = Live::new(store.clone(), clock.clone());
    live.set_target(Some(HostTarget::at(&base, TOKEN)))
        .await
        .unwrap();
    let outcome = assign::assign_pathway(
        &live,
        &class_id,
        PATHWAY,
        None,
        Some("Sit next to Oswendril Fernhallow today."),
    )
    .await
    .unwrap();
    assert_eq!(
        outcome.assignment_id, None,
        "a note with a name is not sent"
    );
    assert_eq!(outcome.field_errors.len(), 1);
    assert_eq!(outcome.field_errors[0].field, "note");
    assert!(
        outcome.field_errors[0]
            .message
            .to_string()
            .contains("“Oswendril Fernhallow”")
    );
    let err = live
        .create_class("Mirabeaux's reading group")
        .await
        .unwrap_err();
    assert_blocked(err.into(), "Mirabeaux");
    let err = a2learn_teacher::room::pause(&live, &class_id, Some("Quillonae, eyes up here"))
        .await
        .unwrap_err();
    assert_blocked(err.into(), "Quillonae");
    // Controls: the same paths with the text rephrased reach the host.
    let outcome = assign::assign_pathway(
        &live,
        &class_id,
        PATHWAY,
        None,
        Some("Bring your fraction strips today."),
    )
    .await
    .unwrap();
    assert!(outcome.assignment_id.is_some(), "{outcome:?}");
    live.create_class("Reading group B").await.unwrap();
    a2learn_teacher::room::pause(&live, &class_id, Some("Eyes up here, everyone"))
        .await
        .unwrap();
    live.shutdown().await;
    client.close().await;

    // Every default export, to files.
    let out = dir.path().join("exports");
    std::fs::create_dir(&out).unwrap();
    let mut written = Vec::new();
    for format in Format::ALL {
        let path = out.join(format!(
            "default-{}.{}",
            format.as_str(),
            format.extension()
        ));
        let summary = export_to_path(
            &store,
            &ExportRequest::new(&class_id, format),
            &path,
            &mut |_| {},
            &CancellationToken::new(),
        )
        .await
        .unwrap_or_else(|e| panic!("{format:?}: {e}"));
        assert!(summary.rows > 0, "{format:?} exported nothing");
        written.push(path);
    }
    host.shutdown().await;

    // The proof.
    let sent_text = String::from_utf8_lossy(&sent.0.lock().unwrap()).into_owned();
    let log_text = logs.text();
    assert_eq!(
        found_in(&sent_text),
        Vec::<String>::new(),
        "sent to the host"
    );
    assert_eq!(found_in(&log_text), Vec::<String>::new(), "in a log line");
    for path in &written {
        assert_eq!(
            found_in(&file_text(path)),
            Vec::<String>::new(),
            "in {}",
            path.display()
        );
    }

    // Controls: the recordings saw the session (so an empty recording cannot pass)...
    assert!(sent_text.contains("tools/call"), "the proxy saw MCP calls");
    assert!(
        sent_text.contains("Find a common denominator first."),
        "the proxy saw the teacher's answer"
    );
    assert!(sent_text.contains(&class_id));
    assert!(
        sent_text.contains("Bring your fraction strips today.")
            && sent_text.contains("Reading group B")
            && sent_text.contains("Eyes up here, everyone"),
        "the proxy saw the rephrased note, title and pause message"
    );
    assert!(
        log_text.contains("export written"),
        "the log saw the exports"
    );
    assert!(log_text.contains("TRACE"), "the log ran at TRACE");
    // ...and an identified export does carry the names, so the check would catch a leak.
    for format in [
        Format::Csv,
        Format::StandardsCsv,
        Format::Jsonl,
        Format::Xapi,
        Format::Oneroster,
    ] {
        let path = out.join(format!(
            "identified-{}.{}",
            format.as_str(),
            format.extension()
        ));
        let mut req = ExportRequest::new(&class_id, format);
        req.identified = true;
        export_to_path(&store, &req, &path, &mut |_| {}, &CancellationToken::new())
            .await
            .unwrap();
        assert!(
            !found_in(&file_text(&path)).is_empty(),
            "{format:?}: the identified export names learners"
        );
    }
    eprintln!(
        "privacy proof: {} bytes sent, {} bytes of logs, {} exports, {handled} requests handled",
        sent_text.len(),
        log_text.len(),
        written.len()
    );
}
