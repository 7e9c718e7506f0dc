//! The app binary's start, before any window: which database it opens.

use std::process::Command;

const SECRET: &str = "canary-secret";

fn app() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher-app"));
    cmd.env_remove("A2LEARN_TEACHER_DB");
    cmd
}

/// A shared store's URL, from the variable or the flag, is refused before anything opens: the
/// message says what to do instead and never prints the password.
#[test]
fn the_app_refuses_a_shared_store_and_keeps_its_password() {
    let url = format!("postgres://teacher:{SECRET}@127.0.0.1:9/a2learn");
    let dir = tempfile::tempdir().expect("temp dir");
    let by_env = app()
        .env("A2LEARN_TEACHER_DB", &url)
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .expect("run the app");
    let by_flag = app()
        .arg(format!("--db={url}"))
        .env("XDG_DATA_HOME", dir.path())
        .output()
        .expect("run the app");
    for out in [by_env, by_flag] {
        let stderr = String::from_utf8_lossy(&out.stderr);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(!out.status.success(), "{stderr}");
        assert!(stderr.contains("opens a local SQLite file"), "{stderr}");
        assert!(stderr.contains("teacher:***@127.0.0.1"), "{stderr}");
        assert!(!stderr.contains(SECRET) && !stdout.contains(SECRET));
    }
    // Nothing was created: no file named after the URL, nothing in the data folder.
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("read dir").collect();
    assert!(left.is_empty(), "{left:?}");
    assert!(!std::path::Path::new("postgres:").exists());
}

/// Control: an address that is neither a file nor PostgreSQL is refused with its own message,
/// so the message above is the shared store's, not any bad value's.
#[test]
fn another_scheme_gets_its_own_message() {
    let out = app()
        .env("A2LEARN_TEACHER_DB", "mysql://teacher@db/a2learn")
        .output()
        .expect("run the app");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("\"mysql://\" is neither"), "{stderr}");
    assert!(!stderr.contains("opens a local SQLite file"), "{stderr}");
}
