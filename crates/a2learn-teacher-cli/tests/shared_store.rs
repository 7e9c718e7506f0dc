//! The CLI on a school's shared store (`--db postgres://…`) in the test cluster: what works there
//! works, what only a teacher's file has is refused with the way to do it instead, and the
//! store's password never reaches the output — not when it works, not when it fails.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/engines.rs"]
mod engines;
/// Where the shared macros look for the engines' helpers (`crate::support::engines`).
mod support {
    pub(crate) use super::engines;
}

use std::process::{Command, Output};

use support::engines::{Engine, TestDb};

fn cli(db: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .env_remove("A2LEARN_TEACHER_DB")
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .expect("run the CLI")
}

/// Everything the command printed, on both streams.
fn printed(out: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The password of a `postgres://user:password@…` URL (the test cluster always has one).
fn password_of(url: &str) -> String {
    let (_, rest) = url.split_once("://").unwrap();
    let (userinfo, _) = rest.split_once('@').unwrap();
    let (_, password) = userinfo.split_once(':').unwrap();
    assert!(password.len() >= 8, "the cluster's password is a real one");
    password.to_string()
}

async fn shared() -> Option<TestDb> {
    TestDb::open(Engine::Postgres).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn db_info_on_a_shared_store_shows_its_tables_and_never_its_password() {
    let Some(db) = shared().await else { return };
    let password = password_of(&db.location);
    db.execute("INSERT INTO classes (class_id, title, created_at) VALUES ('c-1', 'Period 1', 0)")
        .await;

    let out = cli(&db.location, &["db", "info", "--json"]);
    assert!(out.status.success(), "{}", printed(&out));
    let info: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let path = info["path"].as_str().unwrap();
    assert!(
        path.starts_with("postgres://") && path.contains(":***@"),
        "{path}"
    );
    let rows = info["row_counts"].as_array().unwrap();
    let classes = rows.iter().find(|r| r[0] == "classes").expect("classes");
    assert_eq!(classes[1], 1, "the row the test wrote is counted");
    assert!(rows.iter().any(|r| r[0] == "ledger"), "{rows:?}");
    // The shared store keeps no names: no roster table to count.
    assert!(!rows.iter().any(|r| r[0] == "roster"), "{rows:?}");
    // Control: the password was in what the command was given, and in none of what it printed.
    assert!(db.location.contains(&password));
    assert!(!printed(&out).contains(&password), "{}", printed(&out));

    // The rebuild of the derived tables runs on the shared store too.
    let out = cli(&db.location, &["db", "rebuild"]);
    assert!(out.status.success(), "{}", printed(&out));
    assert!(!printed(&out).contains(&password));
    assert_eq!(db.count("SELECT COUNT(*) FROM classes").await, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_password_is_refused_without_printing_either_password() {
    let Some(db) = shared().await else { return };
    let password = password_of(&db.location);
    let wrong_password = "not-the-Password-4242";
    let wrong = db.location.replacen(&password, wrong_password, 1);
    assert_ne!(wrong, db.location);

    let out = cli(&wrong, &["db", "info"]);
    let text = printed(&out);
    assert!(!out.status.success(), "{text}");
    assert_eq!(
        text.matches("password authentication failed").count(),
        1,
        "the cause, once: {text}"
    );
    assert!(
        text.contains(":***@"),
        "the store is named, redacted: {text}"
    );
    assert!(!text.contains(wrong_password), "{text}");
    assert!(!text.contains(&password), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn what_only_a_file_has_is_refused_on_a_shared_store_with_the_way_instead() {
    let Some(db) = shared().await else { return };
    let password = password_of(&db.location);
    let out_dir = tempfile::tempdir().unwrap();
    let file = out_dir.path().join("out.file");
    let file = file.to_str().unwrap();
    for (args, instead) in [
        (vec!["db", "backup", "--out", file], "pg_dump"),
        (vec!["db", "restore", "--from", file], "pg_restore"),
    ] {
        let out = cli(&db.location, &args);
        let text = printed(&out);
        assert!(!out.status.success(), "{args:?}: {text}");
        assert!(text.contains("works on a SQLite file"), "{args:?}: {text}");
        assert!(text.contains(instead), "{args:?}: {text}");
        assert!(!text.contains(&password), "{args:?}: {text}");
        assert!(
            !std::path::Path::new(file).exists(),
            "{args:?} wrote nothing"
        );
    }
}

#[test]
fn a_store_of_an_engine_we_do_not_run_on_is_named_as_such() {
    let out = cli(
        "mysql://root:hunter2-secret@127.0.0.1/school",
        &["db", "info"],
    );
    let text = printed(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("mysql"), "{text}");
    assert!(text.contains("PostgreSQL"), "{text}");
    assert!(!text.contains("hunter2-secret"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_exports_every_format_and_refuses_names() {
    let Some(db) = shared().await else { return };
    let password = password_of(&db.location);
    db.execute("INSERT INTO classes (class_id, title, created_at) VALUES ('c-1', 'Period 1', 0)")
        .await;
    db.execute(
        "INSERT INTO learners (class_id, learner, first_seen_at) VALUES ('c-1', 'anon_x', 0)",
    )
    .await;
    let out_dir = tempfile::tempdir().unwrap();
    let csv = out_dir.path().join("class.csv");
    let out = cli(
        &db.location,
        &[
            "export",
            "--class",
            "c-1",
            "--format",
            "csv",
            "--out",
            csv.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", printed(&out));
    assert!(!printed(&out).contains(&password), "{}", printed(&out));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("anonymous_id,pathway_id"), "{text}");

    // Every other format too; names are refused with the reason and write nothing.
    for format in ["xapi", "oneroster", "standards-csv", "standards-summary"] {
        let file = out_dir.path().join(format!("class.{format}"));
        let file = file.to_str().unwrap();
        let args = [
            "export", "--class", "c-1", "--format", format, "--out", file,
        ];
        let out = cli(&db.location, &args);
        assert!(out.status.success(), "{format}: {}", printed(&out));
        assert!(std::path::Path::new(file).exists(), "{format}");
    }
    let file = out_dir.path().join("refused.out");
    let file = file.to_str().unwrap();
    let args = [
        "export",
        "--class",
        "c-1",
        "--out",
        file,
        "--format",
        "csv",
        "--identified",
    ];
    let out = cli(&db.location, &args);
    let text = printed(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("roster"), "{text}");
    assert!(!std::path::Path::new(file).exists(), "wrote nothing");
}

/// The after-class report is written from a shared store as from a file; an identified one is
/// refused there (the store holds no names) and writes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_shared_store_writes_the_report_and_refuses_an_identified_one() {
    let Some(db) = shared().await else { return };
    let password = password_of(&db.location);
    db.execute("INSERT INTO classes (class_id, title, created_at) VALUES ('c-1', 'Period 1', 0)")
        .await;
    let out_dir = tempfile::tempdir().unwrap();
    let html = out_dir.path().join("report.html");
    let html = html.to_str().unwrap();
    let args = [
        "report", "--class", "c-1", "--format", "html", "--out", html,
    ];
    let out = cli(&db.location, &args);
    assert!(out.status.success(), "{}", printed(&out));
    assert!(!printed(&out).contains(&password), "{}", printed(&out));
    let page = std::fs::read_to_string(html).unwrap();
    assert!(page.contains("Period 1"), "{page}");
    std::fs::remove_file(html).unwrap();

    let mut identified = args.to_vec();
    identified.push("--identified");
    let out = cli(&db.location, &identified);
    let text = printed(&out);
    assert!(!out.status.success(), "{text}");
    assert!(text.contains("roster"), "{text}");
    assert!(!std::path::Path::new(html).exists(), "wrote nothing");
    // A class the store does not have is named as missing.
    let out = cli(
        &db.location,
        &[
            "report", "--class", "c-none", "--format", "json", "--out", html,
        ],
    );
    assert!(!out.status.success());
    assert!(
        printed(&out).contains("no class c-none"),
        "{}",
        printed(&out)
    );
}
