//! The xAPI export against a real record store: Ralph (PyPI `ralph-malph` 5.1.0, file backend)
//! on loopback. The whole export goes in one POST and must be accepted; a re-post of the same
//! export must be recognised as the same statements (same ids) and not stored twice.
//!
//! Ralph is installed by `scripts/install.sh` into `~/.cache/a2learn/ralph-venv` (or the venv
//! named by `A2LEARN_RALPH_VENV`). Without it the test is skipped, unless `CI` is set: then a
//! missing peer fails the run.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::io::Cursor;
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use a2learn_teacher::export::{ExportRequest, Format, write_export};
use serde_json::Value;
use support::{catalog, completion, frame, open_store, reflection};
use tokio_util::sync::CancellationToken;

const CLASS: &str = "class-xapi-1";
const HOME: &str = "https://school.example";
const USER: &str = "a2learn-test";
const PASSWORD: &str = "not-a-secret-test-only";

fn ralph() -> Option<PathBuf> {
    let venv = std::env::var_os("A2LEARN_RALPH_VENV")
        .map(PathBuf::from)
        .or_else(|| dirs::home_dir().map(|h| h.join(".cache/a2learn/ralph-venv")))?;
    let bin = venv.join("bin/ralph");
    bin.exists().then_some(bin)
}

/// Kills the server when the test ends, however it ends — with the worker processes it forks
/// (uvicorn's multiprocessing children outlive a plain kill of their parent), by killing its
/// whole process group.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-KILL", "--", &group]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

fn start_ralph(bin: &PathBuf, dir: &std::path::Path) -> (Server, String) {
    let auth = dir.join("auth.json");
    let envs = [
        // Without it, `ralph auth` looks for Elasticsearch.
        ("RALPH_RUNSERVER_BACKEND", "fs".to_string()),
        ("RALPH_AUTH_FILE", auth.to_string_lossy().into_owned()),
        (
            "RALPH_BACKENDS__LRS__FS__DEFAULT_DIRECTORY_PATH",
            dir.join("lrs").to_string_lossy().into_owned(),
        ),
    ];
    let status = Command::new(bin)
        .args([
            "auth", "-u", USER, "-p", PASSWORD, "-s", "all", "-A", "teacher", HOME, "-w",
        ])
        .envs(envs.clone())
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "ralph auth failed");
    let port = free_port();
    let log = std::fs::File::create(dir.join("ralph.log")).unwrap();
    let child = Command::new(bin)
        // Bound to loopback explicitly: its default is every interface.
        .args([
            "runserver",
            "-b",
            "fs",
            "-h",
            "127.0.0.1",
            "-p",
            &port.to_string(),
        ])
        .envs(envs)
        .current_dir(dir)
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        // Its own process group, so Drop can end every process it starts.
        .process_group(0)
        .spawn()
        .unwrap();
    (Server(child), format!("http://127.0.0.1:{port}"))
}

async fn get(client: &reqwest::Client, url: &str) -> reqwest::Response {
    client
        .get(url)
        .basic_auth(USER, Some(PASSWORD))
        .header("X-Experience-API-Version", "1.0.3")
        .send()
        .await
        .unwrap()
}

async fn statements(client: &reqwest::Client, base: &str, query: &str) -> Vec<Value> {
    let url = format!("{base}/xAPI/statements?limit=1000&{query}");
    let response = get(client, &url).await;
    assert_eq!(response.status(), 200, "GET {url}");
    let body: Value = serde_json::from_str(&response.text().await.unwrap()).unwrap();
    body["statements"].as_array().unwrap().clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ralph_accepts_the_export_in_one_post_and_a_re_post_as_the_same_statements() {
    let Some(bin) = ralph() else {
        support::peers::missing("Ralph", "ralph-malph is not installed");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (server, base) = start_ralph(&bin, dir.path());

    // A class of 20: each completed the assessed step (right, wrong or unchecked), half the
    // reflection too.
    let store = open_store(&dir).await;
    store.upsert_class(CLASS, "Period 5", None).await.unwrap();
    store.save_catalog(&catalog()).await.unwrap();
    let registry = store.registry().await.unwrap();
    let mut batch = Vec::new();
    for i in 0..20_i64 {
        let learner = format!("anon_x{i:04}abc");
        let correct = [Some(true), Some(false), None][usize::try_from(i % 3).unwrap()];
        batch.push(frame(
            2 * i + 1,
            "a2learn.widget_completed",
            completion(&learner, &format!("run-{i}-a"), correct),
        ));
        if i % 2 == 0 {
            batch.push(frame(
                2 * i + 2,
                "a2learn.widget_completed",
                reflection(&learner, &format!("run-{i}-b")),
            ));
        }
    }
    store.ingest(CLASS, &registry, batch).await.unwrap();
    let mut req = ExportRequest::new(CLASS, Format::Xapi);
    req.home_page = HOME.into();
    let mut buf = Cursor::new(Vec::new());
    write_export(
        &store,
        &req,
        &mut buf,
        &mut |_| {},
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    let body = buf.into_inner();
    let exported: Vec<Value> = serde_json::from_slice(&body).unwrap();
    assert_eq!(exported.len(), 30);

    let client = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match client
            .get(format!("{base}/whoami"))
            .basic_auth(USER, Some(PASSWORD))
            .send()
            .await
        {
            Ok(r) if r.status().is_success() => break,
            _ => {
                assert!(Instant::now() < deadline, "Ralph did not start");
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }

    let post = || async {
        client
            .post(format!("{base}/xAPI/statements"))
            .basic_auth(USER, Some(PASSWORD))
            .header("X-Experience-API-Version", "1.0.3")
            .header("Content-Type", "application/json")
            .body(body.clone())
            .send()
            .await
            .unwrap()
    };
    let first = post().await;
    let status = first.status();
    let text = first.text().await.unwrap();
    eprintln!(
        "Ralph, first POST: {status} {}",
        &text[..text.len().min(200)]
    );
    assert_eq!(status, 200, "{text}");
    let ids: Vec<String> = serde_json::from_str(&text).unwrap();
    let mut ours: Vec<String> = exported
        .iter()
        .map(|s| s["id"].as_str().unwrap().to_string())
        .collect();
    let mut theirs = ids.clone();
    ours.sort();
    theirs.sort();
    assert_eq!(theirs, ours, "Ralph stored our ids");

    let again = post().await;
    let status = again.status();
    let text = again.text().await.unwrap();
    eprintln!("Ralph, re-POST: {status} {text:?}");
    assert!(
        status == 204 || status == 200,
        "a re-post of the same statements is accepted: {status} {text}"
    );

    // Not stored twice: by registration (one statement per run) and by agent.
    let one = &exported[0];
    let registration = one["context"]["registration"].as_str().unwrap();
    let found = statements(&client, &base, &format!("registration={registration}")).await;
    assert_eq!(found.len(), 1, "one statement for one widget run");
    assert_eq!(found[0]["id"], one["id"]);
    let agent = serde_json::to_string(&one["actor"]).unwrap();
    let learner = one["actor"]["account"]["name"].as_str().unwrap();
    let want = exported
        .iter()
        .filter(|s| s["actor"]["account"]["name"] == learner)
        .count();
    let found = statements(&client, &base, &format!("agent={}", encode(&agent))).await;
    assert_eq!(found.len(), want, "the learner's statements, once each");
    let all = statements(&client, &base, "since=2000-01-01T00:00:00Z").await;
    assert_eq!(
        all.len(),
        exported.len(),
        "the store holds each statement once"
    );
    // What Ralph gives back is what we sent (it adds stored/authority/version).
    let back = all.iter().find(|s| s["id"] == one["id"]).unwrap();
    assert_eq!(back["result"], one["result"]);
    assert_eq!(back["actor"]["account"], one["actor"]["account"]);
    drop(server);
}
