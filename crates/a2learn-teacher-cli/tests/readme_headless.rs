//! The README's headless try, run as written: its two commands are read from the README's
//! "Try the pipeline headless" block, the placeholders filled from what the first one prints
//! (`host:`, `token:`, `class:`), and the second one must store the class's results. A README
//! whose commands stop working fails here, not in front of a newcomer.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The shell lines of the README's block that follows `marker`, comments and blanks dropped.
fn readme_block(marker: &str) -> Vec<String> {
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../README.md"))
            .unwrap();
    let after = &readme[readme
        .find(marker)
        .expect("the README has the headless try")..];
    let body = after.split("```sh\n").nth(1).unwrap();
    let body = &body[..body.find("```").unwrap()];
    body.lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// `line` as program words: `NAME=value` words first become the environment; the README's
/// `target/debug/a2learn-teacher` becomes this build's binary.
fn command(line: &str) -> Command {
    let mut words = line.split_whitespace().peekable();
    let mut env = Vec::new();
    while let Some(w) = words.peek()
        && let Some((k, v)) = w.split_once('=')
        && k.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')
    {
        env.push((k.to_string(), v.to_string()));
        words.next();
    }
    let program = words.next().unwrap();
    assert_eq!(program, "target/debug/a2learn-teacher", "{line}");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"));
    cmd.args(words).envs(env);
    cmd
}

struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts the README's host line (on a free port: the default one may be taken on a test
/// machine) and returns it with the `key: value` lines it printed.
fn start_host(line: &str, extra: &[&str]) -> (Killed, Vec<(String, String)>) {
    let mut child = command(line)
        .args(["--bind", "127.0.0.1:0"])
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let child = Killed(child);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut printed = Vec::new();
    // The host prints its lines at once; a second of silence after the token means it is done.
    while let Ok(line) =
        rx.recv_timeout(Duration::from_secs(if printed.is_empty() { 30 } else { 1 }))
    {
        let (k, v) = line.split_once(": ").expect("`key: value` lines");
        printed.push((k.to_string(), v.to_string()));
    }
    (child, printed)
}

fn printed<'a>(lines: &'a [(String, String)], key: &str) -> Vec<&'a str> {
    lines
        .iter()
        .filter(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .collect()
}

#[test]
fn the_readmes_headless_try_stores_the_class() {
    let lines = readme_block("Try the pipeline headless");
    assert_eq!(lines.len(), 2, "two commands: {lines:?}");
    let (_host, out) = start_host(&lines[0], &[]);
    let (url, token, class) = (
        printed(&out, "host"),
        printed(&out, "token"),
        printed(&out, "class"),
    );
    assert_eq!((url.len(), token.len()), (1, 1), "{out:?}");
    assert_eq!(
        class.len(),
        1,
        "the host makes one class and names it: {out:?}"
    );

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let sync_line = lines[1]
        .replace("<token>", token[0])
        .replace("<url>", url[0])
        .replace("<id>", class[0])
        .replace("/tmp/t.db", db.to_str().unwrap());
    assert!(
        !sync_line.contains('<'),
        "a placeholder the host did not fill: {sync_line}"
    );
    // The sync's log, kept to say why when nothing arrives (it holds no name: ids only).
    let log = dir.path().join("sync.log");
    let _sync = Killed(
        command(&sync_line)
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap(),
    );

    // The simulated learners work; their results reach the file.
    let until = Instant::now() + Duration::from_secs(90);
    let results = loop {
        let info = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .arg("--db")
            .arg(&db)
            .args(["db", "info", "--json"])
            .output()
            .unwrap();
        let results = serde_json::from_slice::<serde_json::Value>(&info.stdout)
            .ok()
            .and_then(|v| count(&v, "results"))
            .unwrap_or(0);
        if results > 0 || Instant::now() > until {
            break results;
        }
        std::thread::sleep(Duration::from_millis(300));
    };
    assert!(
        results > 0,
        "the README's sync stored no result in 90 s; its log:\n{}",
        std::fs::read_to_string(&log).unwrap_or_default()
    );
}

/// The negative control: with `--no-class` the host names no class, so the README's second
/// command would have nothing to fill `<id>` with.
#[test]
fn with_no_class_the_host_names_none() {
    let lines = readme_block("Try the pipeline headless");
    let (_host, out) = start_host(&lines[0], &["--no-class"]);
    assert_eq!(printed(&out, "host").len(), 1, "{out:?}");
    assert!(printed(&out, "class").is_empty(), "{out:?}");
}

/// The row count of `table` in `db info --json`.
fn count(info: &serde_json::Value, table: &str) -> Option<u64> {
    info["row_counts"]
        .as_array()?
        .iter()
        .find(|t| t[0] == table)?[1]
        .as_u64()
}
