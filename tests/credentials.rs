//! The host token lives outside the database: in a real Secret Service (gnome-keyring, started
//! by this test under its own D-Bus session), or where none answers, in a private file. A token
//! that an earlier version kept in the settings table is moved out and wiped on the next open.
//!
//! Each scenario runs in a child process of this test binary, so that its environment (the
//! session bus, `A2LEARN_CREDENTIALS`, `HOME`) is its own: the parent only sets it up and
//! checks the child passed.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::path::Path;
use std::process::Command;
use std::sync::Arc;

use a2learn_teacher::host::credentials::{SERVICE, SecretStorage};
use a2learn_teacher::host::mcp::HostClient;
use a2learn_teacher::host::settings::HostMode;
use a2learn_teacher::{FixedClock, Store};

const CHILD: &str = "A2LEARN_CREDENTIALS_TEST_CHILD";
const TOKEN: &str = "tok-canary-7f3a9c2e5b1d";
const LEGACY_TOKEN: &str = "tok-legacy-plaintext-4e8b6a";

/// Starts a D-Bus session with an unlocked gnome-keyring in it (a login keyring created with a
/// throwaway password: an empty one leaves it locked), then runs the rest.
const WITH_KEYRING: &str = "printf 'a2learn-test' | gnome-keyring-daemon --unlock --components=secrets \
     --daemonize >/dev/null || exit 97; exec \"$@\"";

fn have(tool: &str) -> bool {
    Command::new("sh")
        .args(["-c", &format!("command -v {tool}")])
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Runs `test` of this binary again as a child: under `wrapper` (a command line, or none), in
/// an empty home, with `env`. Panics with the child's output if it failed.
fn run_child(test: &str, wrapper: &[&str], env: &[(&str, &str)]) {
    let home = tempfile::tempdir().unwrap();
    let runtime = home.path().join("run");
    std::fs::create_dir(&runtime).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&runtime, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let exe = std::env::current_exe().unwrap();
    let mut args: Vec<String> = wrapper.iter().map(|s| s.to_string()).collect();
    args.extend([
        exe.display().to_string(),
        "--exact".into(),
        test.into(),
        "--nocapture".into(),
    ]);
    let mut cmd = Command::new(&args[0]);
    cmd.args(&args[1..])
        .env(CHILD, "1")
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_RUNTIME_DIR", &runtime)
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("DISPLAY")
        .env_remove("A2LEARN_CREDENTIALS");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "the child {test} failed:\n{text}");
    assert!(text.contains("1 passed"), "the child ran its test:\n{text}");
}

fn is_child() -> bool {
    std::env::var_os(CHILD).is_some()
}

async fn open(path: &Path) -> Store {
    Store::open(path, Arc::new(FixedClock::at(1_800_000_000_000)))
        .await
        .unwrap()
}

/// Every byte of the database's files (main, WAL, shared memory), as text.
fn db_bytes(path: &Path) -> String {
    let mut text = String::new();
    for suffix in ["", "-wal", "-shm"] {
        let file = format!("{}{suffix}", path.display());
        if let Ok(bytes) = std::fs::read(&file) {
            text.push_str(&String::from_utf8_lossy(&bytes));
        }
    }
    text
}

/// `sqlite3 teacher.db .dump`, as a person would check.
fn dump(path: &Path) -> String {
    // A closed pool's last connection may still be shutting down: wait for its lock.
    let out = Command::new("sqlite3")
        .args(["-cmd", ".timeout 10000"])
        .arg(path)
        .arg(".dump")
        .output()
        .expect("sqlite3 is installed (scripts/install.sh)");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success() && !text.contains("ERROR"), "{text}");
    text
}

/// The secret of one account, through the Secret Service's own client (two databases here, so
/// two accounts: the lookup names its account).
fn secret_tool_lookup(account: &str) -> String {
    let out = Command::new("secret-tool")
        .args(["lookup", "service", SERVICE, "username", account])
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// The scenario both storages share: set a token, find it nowhere in the database, restart,
/// still connect; then an old database with a plain-text token is cleaned on open.
async fn token_scenario(expect: SecretStorage) -> String {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("teacher.db");
    let host = pathway_host::start(pathway_host::HostConfig::local(TOKEN))
        .await
        .unwrap();
    let url = format!("http://{}", host.addr());

    let store = open(&db).await;
    let saved = store
        .save_host_settings(HostMode::Custom, Some(&url), Some(TOKEN))
        .await
        .unwrap();
    assert_eq!(saved.token_storage, Some(expect));
    assert_eq!(saved.token.as_deref(), Some(TOKEN));
    store.close().await;
    assert!(!dump(&db).contains(TOKEN), "no token in .dump");
    assert!(!db_bytes(&db).contains(TOKEN), "no token in the files");

    // A restart reads it back and connects.
    let store = open(&db).await;
    let settings = store.host_settings().await.unwrap();
    assert_eq!(settings.token.as_deref(), Some(TOKEN));
    let client = HostClient::connect(&url, settings.token.as_deref().unwrap())
        .await
        .unwrap();
    assert!(!client.list_pathways().await.unwrap().is_empty());
    client.close().await;
    store.close().await;

    // An earlier version's database: the token in the settings table, in plain text.
    let old = dir.path().join("old").join("teacher.db");
    let store = open(&old).await;
    for (key, value) in [
        ("host_mode", "custom"),
        ("host_url", url.as_str()),
        ("host_token", LEGACY_TOKEN),
    ] {
        sqlx::query("INSERT INTO settings (key, value, updated_at) VALUES (?, ?, 0)")
            .bind(key)
            .bind(value)
            .execute(store.sqlite().unwrap())
            .await
            .unwrap();
    }
    store.close().await;
    // Control: the check below can see a token that is there.
    let before = dump(&old);
    assert!(before.contains(LEGACY_TOKEN), "{before}");
    let store = open(&old).await;
    let settings = store.host_settings().await.unwrap();
    assert_eq!(settings.token.as_deref(), Some(LEGACY_TOKEN));
    assert_eq!(settings.token_storage, Some(expect));
    let account: String =
        sqlx::query_scalar("SELECT value FROM settings WHERE key = 'host_token_account'")
            .fetch_one(store.sqlite().unwrap())
            .await
            .unwrap();
    store.close().await;
    assert!(!dump(&old).contains(LEGACY_TOKEN), "wiped from .dump");
    assert!(
        !db_bytes(&old).contains(LEGACY_TOKEN),
        "wiped from the file's bytes, not just unlinked"
    );
    host.shutdown().await;
    account
}

#[test]
fn the_token_lives_in_a_real_secret_service() {
    if is_child() {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let account = rt.block_on(token_scenario(SecretStorage::System));
        // Read back through the Secret Service's own client, not through ours.
        assert_eq!(secret_tool_lookup(&account), LEGACY_TOKEN);
        return;
    }
    let tools = [
        "dbus-run-session",
        "gnome-keyring-daemon",
        "secret-tool",
        "sqlite3",
    ];
    if !tools.iter().all(|t| have(t)) {
        support::peers::missing("Secret Service", &format!("{tools:?} not all installed"));
        return;
    }
    run_child(
        "the_token_lives_in_a_real_secret_service",
        &["dbus-run-session", "--", "sh", "-c", WITH_KEYRING, "sh"],
        &[("A2LEARN_CREDENTIALS", "system")],
    );
}

#[test]
fn without_a_credential_store_the_token_goes_to_a_private_file() {
    if is_child() {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(token_scenario(SecretStorage::File));
        return;
    }
    if !have("sqlite3") {
        support::peers::missing("sqlite3", "the sqlite3 shell is not installed");
        return;
    }
    // No session bus at all: `auto` must fall back, and say so.
    run_child(
        "without_a_credential_store_the_token_goes_to_a_private_file",
        &[],
        &[("A2LEARN_CREDENTIALS", "auto")],
    );
}

#[test]
fn system_only_without_a_credential_store_is_a_clear_error() {
    if is_child() {
        let rt = tokio::runtime::Runtime::new().unwrap();
        rt.block_on(async {
            let dir = tempfile::tempdir().unwrap();
            let store = open(&dir.path().join("teacher.db")).await;
            let err = store
                .save_host_settings(HostMode::Custom, Some("http://127.0.0.1:9"), Some(TOKEN))
                .await
                .unwrap_err();
            let text = err.to_string();
            assert!(text.contains("credential store"), "{text}");
            assert!(!text.contains(TOKEN), "the error never quotes the token");
            assert!(!dir.path().join("credentials").exists(), "no file fallback");
        });
        return;
    }
    run_child(
        "system_only_without_a_credential_store_is_a_clear_error",
        &[],
        &[("A2LEARN_CREDENTIALS", "system")],
    );
}

/// A teacher's file pointed at a school's shared store: the URL is kept in the file without its
/// password, the password in the credential store (here the private file), and the next open
/// of the teacher's store opens the shared store with the file as its home. A password in the
/// URL, or a wrong one, is refused with nothing saved and never quoted.
#[test]
fn a_shared_stores_password_lives_in_the_credential_store() {
    if !is_child() {
        if support::engines::pg_admin_url().is_some() && have("sqlite3") {
            run_child(
                "a_shared_stores_password_lives_in_the_credential_store",
                &[],
                &[("A2LEARN_CREDENTIALS", "file")],
            );
        }
        return;
    }
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let dir = tempfile::tempdir().unwrap();
        let full = support::engines::new_pg_database(dir.path()).await.unwrap();
        // postgres://user:PASSWORD@host:port/db, as the test cluster writes it.
        let (scheme, rest) = full.split_once("://").unwrap();
        let (userinfo, host) = rest.split_once('@').unwrap();
        let (user, password) = userinfo.split_once(':').unwrap();
        let bare = format!("{scheme}://{user}@{host}");
        let db = dir.path().join("teacher.db");
        let store = open(&db).await;

        for (url, password_given, why) in [
            (full.as_str(), Some(password), "a password in the URL"),
            (
                bare.as_str(),
                Some("not-the-password-5c1e"),
                "a wrong password",
            ),
        ] {
            let err = store
                .save_shared_store(url, password_given)
                .await
                .unwrap_err();
            let text = err.to_string();
            assert!(!text.contains(password), "{why}: {text}");
            assert!(!text.contains("not-the-password"), "{why}: {text}");
            assert_eq!(
                store.shared_store().await.unwrap(),
                None,
                "{why}: nothing saved"
            );
        }
        let saved = store
            .save_shared_store(&bare, Some(password))
            .await
            .unwrap();
        assert_eq!(saved.to_string(), bare);
        store.close().await;
        assert!(
            !db_bytes(&db).contains(password),
            "no byte of the file holds it"
        );
        assert!(!dump(&db).contains(password));
        let kept = std::fs::read_to_string(
            dir.path()
                .join("credentials/a2learn-shared-store-password.secret"),
        )
        .unwrap();
        assert_eq!(kept, password, "the credential store holds it");

        // The next open is the shared store, with the file as its home.
        let clock = Arc::new(FixedClock::at(1_800_000_000_000));
        let teachers = Store::open_teachers(&db, clock.clone()).await.unwrap();
        assert_eq!(teachers.path(), None, "the shared store");
        assert!(
            teachers.holds_names(),
            "with the teacher's file as its home"
        );
        assert_eq!(
            teachers
                .shared_store()
                .await
                .unwrap()
                .map(|u| u.to_string()),
            Some(bare.clone()),
            "the teacher's settings come from their file"
        );
        let view = a2learn_teacher::views::app::results_store(&teachers)
            .await
            .unwrap();
        assert_eq!(
            (view.shared_url.as_str(), view.in_use),
            (bare.as_str(), true)
        );
        // Back to this computer, as Settings does it (an empty address).
        let input: a2learn_teacher::views::app::ResultsStoreInput =
            serde_json::from_value(serde_json::json!({"shared_url": "", "password": ""})).unwrap();
        let view = a2learn_teacher::views::app::save_results_store(&teachers, &input)
            .await
            .unwrap();
        assert_eq!(
            (view.shared_url.as_str(), view.in_use),
            ("", true),
            "in use until a restart"
        );
        teachers.close().await;
        assert!(
            !dir.path()
                .join("credentials/a2learn-shared-store-password.secret")
                .exists()
        );
        let back = Store::open_teachers(&db, clock).await.unwrap();
        assert_eq!(back.path(), Some(db.as_path()), "back to this computer");
    });
}
