//! Peers that tests start or need from the machine: a PostgreSQL cluster, Ralph (the xAPI record
//! store), a Secret Service, a tmpfs, WebDriver. One rule for all of them: with `CI` set to
//! anything non-empty a missing peer fails the test (CI has installed it; a skip there would
//! hide a lost check); without it the test is skipped, says so, and the skip is appended to the
//! file `A2LEARN_SKIPPED_PEERS` names, which `scripts/test.sh` prints in one line at the end.
//! The end-to-end tests follow the same rule (`tests/e2e/peers.mjs`).

use std::io::Write;

/// Whether a missing peer fails the test: `CI` set to anything non-empty.
pub fn required() -> bool {
    std::env::var_os("CI").is_some_and(|v| !v.is_empty())
}

/// A peer is missing: fails the test under CI, else records the skip and returns (the caller
/// then returns without testing).
pub fn missing(peer: &str, why: &str) {
    assert!(
        !required(),
        "CI is set but {peer} is missing: {why} (scripts/install.sh and scripts/test.sh provide it)"
    );
    eprintln!("skipped: {peer} is missing: {why}");
    if let Some(path) = std::env::var_os("A2LEARN_SKIPPED_PEERS")
        && let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
    {
        let _ = writeln!(file, "{peer}");
    }
}
