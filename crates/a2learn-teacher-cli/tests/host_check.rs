//! `a2learn-teacher host check` as a host builder runs it: its lines, its JSON and its exit
//! codes, against the reference host run as a command (`a2learn-teacher host`) with and without a
//! broken rule. What each check judges is tested in the core (tests/host_check.rs); this is the
//! interface others script against.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Output, Stdio};

const TOKEN: &str = "test-token-cli-host-check-zxcvbnm";

/// `a2learn-teacher host` on a free port, with `extra` flags; stopped when dropped.
struct HostProcess {
    child: Child,
    url: String,
    /// Kept open: the host prints its token line after the URL, and a closed pipe would end it.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl HostProcess {
    fn start(extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
            .args(["host", "--bind", "127.0.0.1:0", "--token", TOKEN])
            .args(["--speed", "60", "--learners", "12", "--ping-secs", "1"])
            .args(extra)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the host starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        let url = first
            .strip_prefix("host: ")
            .expect("`host: URL` first")
            .trim()
            .to_owned();
        HostProcess {
            child,
            url,
            _stdout: stdout,
        }
    }
}

impl Drop for HostProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn check(url: &str, extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .args(["host", "check", "--host", url, "--token", TOKEN])
        .args(extra)
        .output()
        .expect("host check runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_good_host_exits_0_with_a_line_per_check_and_the_totals() {
    let host = HostProcess::start(&[]);
    let out = check(&host.url, &["--allow-writes", "--seconds", "5"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}{}", text(&out.stderr));
    let lines: Vec<&str> = stdout.lines().collect();
    let (totals, checks) = lines.split_last().unwrap();
    assert!(checks.len() >= 18, "{stdout}");
    for line in checks {
        assert!(
            ["PASS ", "FAIL ", "SKIP "]
                .iter()
                .any(|s| line.starts_with(s)),
            "{line}"
        );
    }
    assert!(
        checks.iter().any(|l| l.starts_with("PASS feed.resume ")),
        "the throwaway class's feed was read: {stdout}"
    );
    assert!(
        totals.ends_with(" failed, 0 skipped") || totals.contains(" passed, 0 failed, "),
        "{totals}"
    );
    assert!(!stdout.contains(TOKEN), "the token is never printed");
}

#[test]
fn json_has_the_shape_scripts_read() {
    let host = HostProcess::start(&[]);
    let out = check(&host.url, &["--allow-writes", "--seconds", "3", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["host"], host.url.as_str());
    let checks = report["checks"].as_array().unwrap();
    let passed = checks.iter().filter(|c| c["status"] == "PASS").count();
    assert_eq!(report["passed"], passed);
    assert_eq!(report["failed"], 0);
    for c in checks {
        assert!(c["id"].is_string() && c["section"].is_string(), "{c}");
        assert!(c["required"].is_boolean(), "{c}");
        assert!(["PASS", "FAIL", "SKIP"].contains(&c["status"].as_str().unwrap()));
        assert!(c.get("detail").is_some(), "{c}");
    }
    assert!(!text(&out.stdout).contains(TOKEN));
}

#[test]
fn a_host_run_with_a_broken_rule_fails_that_check_and_exits_1() {
    let host = HostProcess::start(&["--break", "resume-gap"]);
    let out = check(&host.url, &["--allow-writes", "--seconds", "4"]);
    let stdout = text(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    let failed: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert_eq!(failed.len(), 1, "{stdout}");
    assert!(
        failed[0].starts_with("FAIL feed.resume ") && failed[0].contains("a gap"),
        "{}",
        failed[0]
    );
    assert!(stdout.contains("PASS feed.opening "), "{stdout}");
}

#[test]
fn no_host_exits_2() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let out = check(&url, &["--seconds", "1"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("cannot be reached"), "{stderr}");
    assert!(out.stdout.is_empty());
}
