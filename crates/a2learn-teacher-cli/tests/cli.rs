//! The `a2learn-teacher` binary as a user runs it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

use std::process::Command;

fn cli() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"));
    cmd.env_remove("A2LEARN_TEACHER_DB");
    cmd
}

fn stdout(cmd: &mut Command) -> String {
    let out = cmd.output().expect("run a2learn-teacher");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// The version of the newest file in migrations/, which a fresh database must be at.
fn newest_migration() -> i64 {
    std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../migrations"))
        .unwrap()
        .filter_map(|e| {
            e.ok()?
                .file_name()
                .to_str()?
                .split('_')
                .next()?
                .parse()
                .ok()
        })
        .max()
        .unwrap()
}

#[test]
fn version_and_help() {
    let version = stdout(cli().arg("--version"));
    assert_eq!(
        version.trim(),
        format!("a2learn-teacher {}", env!("CARGO_PKG_VERSION"))
    );
    let help = stdout(cli().arg("--help"));
    for needle in ["--db", "db", "contract"] {
        assert!(help.contains(needle), "help mentions {needle}: {help}");
    }
}

#[test]
fn db_info_on_a_fresh_file_via_flag() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("fresh.db");
    let text = stdout(cli().arg("--db").arg(&path).args(["db", "info"]));
    assert!(
        text.contains(&format!("path: {}", path.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("schema version: {}", newest_migration())),
        "{text}"
    );
    assert!(text.contains("classes: 0"), "{text}");
    assert!(path.exists(), "db info creates and migrates the file");
}

#[test]
fn db_info_follows_the_environment_variable_and_prints_json() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("from-env.db");
    let json = stdout(
        cli()
            .env("A2LEARN_TEACHER_DB", &path)
            .args(["db", "info", "--json"]),
    );
    let info: serde_json::Value = serde_json::from_str(&json).expect("json");
    assert_eq!(info["path"], path.display().to_string());
    assert!(info["schema_version"].as_i64().unwrap() >= 20261129000001);
}

#[test]
fn db_info_on_an_unopenable_path_fails_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let blocker = dir.path().join("file");
    std::fs::write(&blocker, "x").unwrap();
    let out = cli()
        .arg("--db")
        .arg(blocker.join("t.db"))
        .args(["db", "info"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("error: cannot create the folder"), "{err}");
}

#[test]
fn unknown_subcommand_is_a_usage_error() {
    let out = cli().arg("frobnicate").output().unwrap();
    assert_eq!(out.status.code(), Some(2), "clap's usage exit code");
    assert!(String::from_utf8_lossy(&out.stderr).contains("unrecognized subcommand"));
}
