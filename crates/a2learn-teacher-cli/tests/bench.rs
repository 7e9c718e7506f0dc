//! The benchmarks' helpers on tiny sizes: every figure `bench all` prints comes out finite.
//! No timing is asserted here (these machines are noisy); BENCHMARKS.md carries the figures.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;

use a2learn_teacher_cli::bench::{Options, Which, run};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bench_all_on_tiny_sizes_yields_finite_figures() {
    let data = tempfile::tempdir().unwrap();
    let opts = Options {
        runs: 1,
        frames: 1_000,
        stores: vec![4_000],
        classes: vec![30, 100],
        export_rows: 1_000,
        rates: vec![20.0],
        live_seconds: 0.5,
        memory_events: 1_000,
        data_dir: data.path().to_path_buf(),
        exe: Some(PathBuf::from(env!("CARGO_BIN_EXE_a2learn-teacher"))),
        // The ingest on PostgreSQL too, when the test command has started its cluster.
        postgres: std::env::var("A2LEARN_TEST_PG_URL").ok(),
    };
    let report = run(Which::All, &opts).await.unwrap();
    // Each ingest figure once per engine measured: 12 on SQLite (and parse + validate, which
    // stores nothing), 12 more named `postgres: …` on PostgreSQL.
    let ingest: Vec<&str> = report
        .figures
        .iter()
        .filter(|f| f.section == "ingest")
        .map(|f| f.name.as_str())
        .collect();
    let on_postgres = ingest
        .iter()
        .filter(|n| n.starts_with("postgres: "))
        .count();
    assert_eq!(ingest.len(), 13 + on_postgres, "{ingest:?}");
    let want_postgres = if opts.postgres.is_some() { 12 } else { 0 };
    assert_eq!(on_postgres, want_postgres, "{ingest:?}");
    // The bridge's ingest beside the reference host's, and their ratio, when there is a server
    // to make the upstream's tables on.
    let bridge = report
        .figures
        .iter()
        .filter(|f| f.section == "bridge")
        .count();
    assert_eq!(bridge, if opts.postgres.is_some() { 3 } else { 0 });
    for section in ["ingest", "views", "export", "live", "memory"] {
        assert!(
            report.figures.iter().any(|f| f.section == section),
            "no {section} figure"
        );
    }
    for f in &report.figures {
        assert!(
            f.value.is_finite(),
            "{} is not finite: {:?}",
            f.name,
            f.value
        );
        // Cores a kind of thread kept busy may be none at these sizes (the kernel counts in
        // hundredths of a second), or where it does not run (SQLite's worker on PostgreSQL).
        let at_least = if f.unit == "cores" {
            0.0
        } else {
            f64::MIN_POSITIVE
        };
        assert!(
            f.value.median >= at_least,
            "{} is below {at_least}: {:?}",
            f.name,
            f.value
        );
    }
    // 14 figures (grid, the grid as the window opens it and as 5 learners' rows, and the grid
    // page, mastery, who needs me and the step report each with its raw read limit, the
    // after-class report, knowledge map, pathway map) x 2 class sizes x 1 store on each engine
    // measured, 2 export formats, p50 and p99 per rate.
    let views = |postgres: bool| {
        report
            .figures
            .iter()
            .filter(|f| f.section == "views" && f.name.starts_with("postgres: ") == postgres)
            .count()
    };
    assert_eq!(views(false), 28);
    let want = if opts.postgres.is_some() { 28 } else { 0 };
    assert_eq!(views(true), want);
    let raw = report
        .figures
        .iter()
        .filter(|f| f.section == "views" && f.name.contains("raw read: "))
        .count();
    assert_eq!(raw, 2 * 4 * if opts.postgres.is_some() { 2 } else { 1 });
    assert_eq!(
        report
            .figures
            .iter()
            .filter(|f| f.section == "export")
            .count(),
        2
    );
    assert_eq!(
        report
            .figures
            .iter()
            .filter(|f| f.section == "live")
            .count(),
        2
    );

    // A second run reuses the cached stores (no second fill). Only the database files count:
    // SQLite's -wal and -shm files come and go with open connections.
    let databases = || {
        let mut names: Vec<String> = std::fs::read_dir(data.path())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|name| name.ends_with(".db"))
            .collect();
        names.sort();
        names
    };
    let cached = databases();
    assert!(!cached.is_empty(), "the first run cached its stores");
    let again = run(Which::Views, &opts).await.unwrap();
    assert_eq!(again.figures.len(), 28 + want);
    assert_eq!(databases(), cached, "no second fill");
}
