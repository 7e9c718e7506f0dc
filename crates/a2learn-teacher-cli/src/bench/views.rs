//! **Views** and **exports** over big stores.
//!
//! A store is filled with synthetic results straight into the derived tables (batched multi-row
//! INSERTs, a few big transactions): the measured classes first (one per size in
//! `Options::classes`), then classes of 30 learners until the store holds the requested number
//! of results. Each learner completes 1 to 10 steps of a 10-step pathway; about one in five
//! also fails a step twice (repeated failures), one in thirteen is struggling on the next step,
//! one in seventeen waits for help on it, and one in three has an answered score call — so
//! every view query has rows to read. The filled file is cached under `Options::data_dir`, keyed
//! by its sizes, the fill's version and the schema version, so a rerun skips the fill.
//!
//! Measured: [`Store::grid`] (the whole grid of the class, read from the rollup), the grid as
//! the window opens it (the whole class up to a page, else the first page with the class
//! totals), [`Store::grid_page`], [`Store::mastery`], [`Store::needs_me`] and
//! [`Store::step_report`], each of these four beside its raw read limit (the same statements
//! on the same data, fetched into the same rows, nothing built from them), the whole
//! after-class report of the class's assignment, rendered as HTML (what
//! `a2learn-teacher report --format html` does, privacy scan included), and the class page's
//! two maps as their commands build them on the teacher's screen: the knowledge map
//! ([`knowledge_map`]) and the pathway map ([`pathway_map`]). With `--postgres` the filled
//! store is copied into a fresh PostgreSQL database and every figure is measured there too.
//!
//! Exports: one class of `export_rows / 100` learners x 100 steps, every step completed, written
//! by [`a2learn_teacher::export::export_to_path`] (CSV: one row per learner x step; xAPI: one statement
//! per result) to a temporary file.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use sqlx::{QueryBuilder, Sqlite};
use tokio_util::sync::CancellationToken;

use super::copy::{insert_rows, kinds_in, on_raw, read_table};
use super::ingest::Target;
use super::{Options, Report, Spread};
use a2learn_teacher::clock::{SharedClock, SystemClock};
use a2learn_teacher::desk::room::{FOLLOWUPS_SQL, Row as FollowUpRow};
use a2learn_teacher::export::{ExportRequest, Format, export_to_path};
use a2learn_teacher::groups::Scope;
use a2learn_teacher::progress::attention::{
    OPEN_REQUESTS_SQL, REPEATED_FAILURES, repeated_failures_sql, struggling_sql,
};
use a2learn_teacher::progress::mastery::{CountRow, standard_counts_sql};
use a2learn_teacher::progress::names::Privacy;
use a2learn_teacher::progress::steps::{RunRow, STEP_RUNS_SQL};
use a2learn_teacher::store::{MIGRATOR, RawPool, Store};
use a2learn_teacher::views::class as class_view;
use a2learn_teacher::views::knowledge::knowledge_map;
use a2learn_teacher::views::pathway_map::pathway_map;
use a2learn_teacher::views::report::{ReportNames, ReportRequest, report as report_view, to_html};

/// Bumped whenever the fill's shape changes, so stale cached files are not reused.
const FILL_VERSION: u32 = 4;
/// Results per transaction of the fill.
const FLUSH_RESULTS: usize = 250_000;
const VIEW_PATHWAY: &str = "p-bench";
const VIEW_STEPS: usize = 10;
const EXPORT_PATHWAY: &str = "p-export";
const EXPORT_STEPS: usize = 100;
const EXPORT_CLASS: &str = "c-export";
const BASE_MS: i64 = 1_800_000_000_000;
/// Learners a live change names, for the grid rows measurement (a 50 ms window at classroom
/// rates names a handful).
const ROWS_NAMED: usize = 5;

/// The class id of the measured class of `learners`.
pub fn class_of(learners: usize) -> String {
    format!("c-learners-{learners}")
}

fn assignment_of(class_id: &str) -> String {
    format!("as-{class_id}")
}

#[derive(Debug, Clone)]
struct Step {
    widget_id: String,
    kind: &'static str,
    standard: Option<String>,
    assesses: bool,
}

fn steps(pathway: &str, n: usize) -> Vec<Step> {
    (0..n)
        .map(|s| {
            let assesses = s % 4 != 3;
            Step {
                widget_id: format!("w-{pathway}-{s:03}"),
                kind: if assesses {
                    "fraction_compare"
                } else {
                    "reflection"
                },
                standard: assesses.then(|| format!("CCSS.MATH.CONTENT.4.NF.A.{}", s % 5)),
                assesses,
            }
        })
        .collect()
}

/// A small, fast, seeded hash (splitmix64) for the fill's variety.
fn mix(a: u64, b: u64) -> u64 {
    let mut z = a
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(b)
        .wrapping_add(0x6A09_E667_F3BC_C909);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

struct ResultRow {
    run: String,
    class_id: Arc<str>,
    widget: usize,
    learner: Arc<str>,
    correct: Option<bool>,
    at: i64,
    /// Its ledger row's: the payload is kept there, once.
    seq: i64,
    payload: String,
    /// `detail.response`, which ingest keeps beside the payload.
    response: Option<&'static str>,
}

struct StruggleRow {
    run: String,
    class_id: Arc<str>,
    widget: usize,
    learner: Arc<str>,
    at: i64,
    seq: i64,
}

struct CallRow {
    call_id: String,
    class_id: Arc<str>,
    assist: bool,
    widget: usize,
    learner: Arc<str>,
    at: i64,
    open: bool,
}

/// Buffers rows and writes them in big transactions of multi-row statements.
struct Filler<'a> {
    store: &'a Store,
    pathway: &'static str,
    steps: Vec<Step>,
    results: Vec<ResultRow>,
    struggles: Vec<StruggleRow>,
    calls: Vec<CallRow>,
    learners: Vec<(Arc<str>, Arc<str>)>,
    classes: Vec<Arc<str>>,
    next_id: u64,
    /// The feed's seq of the next ledger row (one sequence for every class: seqs need only be
    /// unique within a class).
    next_seq: i64,
    written: u64,
}

impl<'a> Filler<'a> {
    fn new(store: &'a Store, pathway: &'static str, n_steps: usize) -> Self {
        Self {
            store,
            pathway,
            steps: steps(pathway, n_steps),
            results: Vec::new(),
            struggles: Vec::new(),
            calls: Vec::new(),
            learners: Vec::new(),
            classes: Vec::new(),
            next_id: 0,
            next_seq: 1,
            written: 0,
        }
    }

    fn id(&mut self, prefix: &str) -> String {
        self.next_id += 1;
        format!("{prefix}-{:012}", self.next_id)
    }

    fn seq(&mut self) -> i64 {
        self.next_seq += 1;
        self.next_seq - 1
    }

    fn result(
        &mut self,
        class_id: &Arc<str>,
        learner: &Arc<str>,
        s: usize,
        correct: Option<bool>,
        at: i64,
    ) {
        let run = self.id("run");
        let step = &self.steps[s];
        let standard = step
            .standard
            .as_deref()
            .map_or_else(|| "null".to_string(), |st| format!("\"{st}\""));
        let (correct_json, score) = match correct {
            Some(true) => ("true", "1.0"),
            Some(false) => ("false", "0.0"),
            None => ("null", "null"),
        };
        // The learner's answer, as a widget's detail carries it (the step report counts them).
        let response = match correct {
            Some(true) => Some("3/4 > 2/3"),
            Some(false) if at % 2 == 0 => Some("3/4 < 2/3"),
            Some(false) => Some("3/4 = 2/3"),
            None => None,
        };
        let detail =
            response.map_or_else(|| "{}".to_string(), |r| format!("{{\"response\":\"{r}\"}}"));
        let payload = format!(
            "{{\"prose\":\"Compared 3/4 and 2/3 using a common denominator.\",\"learner\":\"{learner}\",\
             \"widget_run_id\":\"{run}\",\"widget_id\":\"{}\",\"pathway_id\":\"{}\",\"at\":\"{}\",\
             \"widget_result\":{{\"kind\":\"{}\",\"standard\":{standard},\"correct\":{correct_json},\
             \"attempts\":2,\"hints\":1,\"score\":{score},\"detail\":{detail}}}}}",
            step.widget_id,
            self.pathway,
            a2learn_teacher::export::rfc3339(at),
            step.kind,
        );
        let seq = self.seq();
        self.results.push(ResultRow {
            run,
            class_id: class_id.clone(),
            widget: s,
            learner: learner.clone(),
            correct,
            at,
            seq,
            payload,
            response,
        });
    }

    /// One class: every learner's results, and (with `extras`) failures, struggles and calls.
    async fn class(
        &mut self,
        class_id: &str,
        learners: usize,
        all_steps: bool,
        extras: bool,
    ) -> anyhow::Result<()> {
        let class: Arc<str> = Arc::from(class_id);
        self.classes.push(class.clone());
        let ci = self.classes.len() as u64;
        let n = self.steps.len();
        for l in 0..learners {
            let learner: Arc<str> = Arc::from(format!("anon_{ci:06}x{l:07}").as_str());
            self.learners.push((class.clone(), learner.clone()));
            let h = mix(ci, l as u64);
            let done = if all_steps {
                n
            } else {
                1 + (h % n as u64) as usize
            };
            let mut at = BASE_MS + (ci as i64) * 10_000_000 + (l as i64) * 1_000;
            for s in 0..done {
                at += 7;
                let correct = self.steps[s]
                    .assesses
                    .then(|| !(h >> 8).wrapping_add(s as u64).is_multiple_of(4));
                self.result(&class, &learner, s, correct, at);
            }
            if extras {
                let last = done - 1;
                if h.is_multiple_of(5) && self.steps[last].assesses {
                    for _ in 0..2 {
                        at += 7;
                        self.result(&class, &learner, last, Some(false), at);
                    }
                }
                if h.is_multiple_of(3) && self.steps[last].assesses {
                    let call_id = self.id("call");
                    self.calls.push(CallRow {
                        call_id,
                        class_id: class.clone(),
                        assist: false,
                        widget: last,
                        learner: learner.clone(),
                        at,
                        open: false,
                    });
                }
                if done < n && h % 13 == 1 && self.steps[done].assesses {
                    at += 7;
                    let run = self.id("srun");
                    let seq = self.seq();
                    self.struggles.push(StruggleRow {
                        run,
                        class_id: class.clone(),
                        widget: done,
                        learner: learner.clone(),
                        at,
                        seq,
                    });
                }
                if done < n && h % 17 == 2 {
                    at += 7;
                    let call_id = self.id("call");
                    self.calls.push(CallRow {
                        call_id,
                        class_id: class.clone(),
                        assist: true,
                        widget: done,
                        learner: learner.clone(),
                        at,
                        open: true,
                    });
                }
            }
            if self.results.len() >= FLUSH_RESULTS {
                self.flush().await?;
            }
        }
        Ok(())
    }

    async fn flush(&mut self) -> anyhow::Result<()> {
        let mut tx = self.store.sqlite()?.begin_with("BEGIN IMMEDIATE").await?;
        for chunk in self.classes.chunks(500) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO classes (class_id, title, join_code, created_at) ",
            );
            q.push_values(chunk, |mut b, c| {
                b.push_bind(c.as_ref())
                    .push_bind("Bench class")
                    .push_bind(Option::<String>::None)
                    .push_bind(0_i64);
            });
            q.build().execute(&mut *tx).await?;
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO assignments (assignment_id, class_id, pathway_id, due_at, teacher_note, created_at) ",
            );
            q.push_values(chunk, |mut b, c| {
                b.push_bind(assignment_of(c))
                    .push_bind(c.as_ref())
                    .push_bind(self.pathway)
                    .push_bind(Option::<i64>::None)
                    .push_bind(Option::<String>::None)
                    .push_bind(0_i64);
            });
            q.build().execute(&mut *tx).await?;
        }
        for chunk in self.learners.chunks(2_000) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO learners (class_id, learner, first_seen_at) ",
            );
            q.push_values(chunk, |mut b, (c, l)| {
                b.push_bind(c.as_ref())
                    .push_bind(l.as_ref())
                    .push_bind(0_i64);
            });
            q.build().execute(&mut *tx).await?;
        }
        let steps = &self.steps;
        let pathway = self.pathway;
        // The payloads are the ledger's, as ingest keeps them.
        let ledger = self
            .results
            .iter()
            .map(|r| {
                (
                    &r.class_id,
                    r.seq,
                    "a2learn.widget_completed",
                    r.payload.as_str(),
                )
            })
            .chain(
                self.struggles
                    .iter()
                    .map(|r| (&r.class_id, r.seq, "a2learn.widget_struggle", "{}")),
            )
            .collect::<Vec<_>>();
        for chunk in ledger.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO ledger (class_id, seq, name, payload, received_at) ",
            );
            q.push_values(chunk, |mut b, (class_id, seq, name, payload)| {
                b.push_bind(class_id.as_ref())
                    .push_bind(*seq)
                    .push_bind(*name)
                    .push_bind(*payload)
                    .push_bind(0_i64);
            });
            q.build().execute(&mut *tx).await?;
        }
        for chunk in self.results.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO results (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
                 standard, correct, attempts, hints, score, at_ms, seq, response) ",
            );
            q.push_values(chunk, |mut b, r| {
                let step = &steps[r.widget];
                b.push_bind(r.run.as_str())
                    .push_bind(r.class_id.as_ref())
                    .push_bind(pathway)
                    .push_bind(step.widget_id.as_str())
                    .push_bind(r.learner.as_ref())
                    .push_bind(step.kind)
                    .push_bind(step.standard.as_deref())
                    .push_bind(r.correct)
                    .push_bind(2_i64)
                    .push_bind(1_i64)
                    .push_bind(r.correct.map(|c| if c { 1.0 } else { 0.0 }))
                    .push_bind(r.at)
                    .push_bind(r.seq)
                    .push_bind(r.response);
            });
            q.build().execute(&mut *tx).await?;
        }
        for chunk in self.struggles.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO struggles (widget_run_id, class_id, pathway_id, widget_id, learner, kind, \
                 standard, failed_checks, hints, at_ms, seq) ",
            );
            q.push_values(chunk, |mut b, r| {
                let step = &steps[r.widget];
                b.push_bind(r.run.as_str())
                    .push_bind(r.class_id.as_ref())
                    .push_bind(pathway)
                    .push_bind(step.widget_id.as_str())
                    .push_bind(r.learner.as_ref())
                    .push_bind(step.kind)
                    .push_bind(step.standard.as_deref())
                    .push_bind(3_i64)
                    .push_bind(1_i64)
                    .push_bind(r.at)
                    .push_bind(r.seq);
            });
            q.build().execute(&mut *tx).await?;
        }
        for chunk in self.calls.chunks(200) {
            let mut q = QueryBuilder::<Sqlite>::new(
                "INSERT INTO calls (call_id, class_id, function, pathway_id, widget_id, widget_run_id, \
                 learner, kind, standard, request, at_ms, deadline, deadline_ms, opened_seq, state) ",
            );
            q.push_values(chunk, |mut b, c| {
                let step = &steps[c.widget];
                b.push_bind(c.call_id.as_str())
                    .push_bind(c.class_id.as_ref())
                    .push_bind(if c.assist { "assist" } else { "score" })
                    .push_bind(pathway)
                    .push_bind(step.widget_id.as_str())
                    .push_bind(format!("{}-run", c.call_id))
                    .push_bind(c.learner.as_ref())
                    .push_bind(step.kind)
                    .push_bind(step.standard.as_deref())
                    .push_bind("{}")
                    .push_bind(c.at)
                    .push_bind("2027-01-15T08:10:00Z")
                    .push_bind(c.at + 600_000)
                    .push_bind(0_i64)
                    .push_bind(if c.open { "open" } else { "answered" });
            });
            q.build().execute(&mut *tx).await?;
        }
        tx.commit().await?;
        self.written += self.results.len() as u64;
        self.classes.clear();
        self.learners.clear();
        self.results.clear();
        self.struggles.clear();
        self.calls.clear();
        Ok(())
    }
}

async fn catalog(store: &Store, pathway: &str, n_steps: usize) -> anyhow::Result<()> {
    let mut tx = store.sqlite()?.begin().await?;
    sqlx::query(
        "INSERT INTO pathways (pathway_id, title, version, fetched_at) VALUES (?, 'Bench', '1', 0)",
    )
    .bind(pathway)
    .execute(&mut *tx)
    .await?;
    for (i, s) in steps(pathway, n_steps).iter().enumerate() {
        sqlx::query(
            "INSERT INTO pathway_steps (pathway_id, position, widget_id, kind, title, standard, \
             assesses, entry) VALUES (?, ?, ?, ?, ?, ?, ?, '{}')",
        )
        .bind(pathway)
        .bind(i as i64)
        .bind(&s.widget_id)
        .bind(s.kind)
        .bind(format!("Step {i}"))
        .bind(&s.standard)
        .bind(s.assesses)
        .execute(&mut *tx)
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

fn schema_version() -> i64 {
    MIGRATOR.iter().map(|m| m.version).max().unwrap_or(0)
}

/// Opens the cached database `name` under `dir`, filling it first with `fill` when it is not
/// there yet (into a `.part` file renamed into place when complete).
async fn cached<F, Fut>(dir: &Path, name: &str, fill: F) -> anyhow::Result<Store>
where
    F: FnOnce(Store) -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<u64>>,
{
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{name}-f{FILL_VERSION}-m{}.db", schema_version()));
    let clock: SharedClock = Arc::new(SystemClock);
    if !path.exists() {
        let part = path.with_extension("db.part");
        for ext in ["", "-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", part.display()));
        }
        println!("  filling {} (cached for later runs)…", path.display());
        let started = Instant::now();
        let store = Store::open(&part, clock.clone()).await?;
        let results = fill(store.clone()).await?;
        // The fill writes the derived tables directly, not through ingest: the grid's rollup
        // is built from them once, as `db rebuild` would.
        store.rebuild_grid_rollup().await?;
        // Everything into the main file before it moves (a WAL left behind would be lost).
        let (busy, _, _): (i64, i64, i64) = sqlx::query_as("PRAGMA wal_checkpoint(TRUNCATE)")
            .fetch_one(store.sqlite()?)
            .await?;
        anyhow::ensure!(busy == 0, "the filled database could not be checkpointed");
        store.close().await;
        std::fs::rename(&part, &path)?;
        for ext in ["-wal", "-shm"] {
            let _ = std::fs::remove_file(format!("{}{ext}", part.display()));
        }
        let secs = started.elapsed().as_secs_f64();
        println!(
            "  filled {results} results in {secs:.1} s ({:.0} results/s, {:.2} GB)",
            results as f64 / secs,
            std::fs::metadata(&path).map_or(0, |m| m.len()) as f64 / 1e9
        );
    } else {
        println!("  using the cached {}", path.display());
    }
    // A cached bench store is scratch data of many GB: no daily backup copies of it.
    let open = a2learn_teacher::store::OpenOptions {
        automatic_backups: false,
        ..Default::default()
    };
    Ok(Store::open_with(&path, clock, open).await?)
}

/// The view store: the measured classes, then classes of 30 until `total` results.
pub async fn view_store(data_dir: &Path, total: u64, classes: &[usize]) -> anyhow::Result<Store> {
    let sizes: Vec<String> = classes.iter().map(ToString::to_string).collect();
    let name = format!("views-{total}-c{}", sizes.join("_"));
    let classes = classes.to_vec();
    cached(data_dir, &name, |store| async move {
        catalog(&store, VIEW_PATHWAY, VIEW_STEPS).await?;
        let mut filler = Filler::new(&store, VIEW_PATHWAY, VIEW_STEPS);
        for &n in &classes {
            filler.class(&class_of(n), n, false, true).await?;
        }
        let mut bulk = 0;
        while filler.written + (filler.results.len() as u64) < total {
            bulk += 1;
            filler
                .class(&format!("c-bulk-{bulk:07}"), 30, false, true)
                .await?;
        }
        filler.flush().await?;
        Ok(filler.written)
    })
    .await
}

/// The export store: one class of `rows / 100` learners x 100 steps, all completed.
pub async fn export_store(data_dir: &Path, rows: u64) -> anyhow::Result<Store> {
    let learners = rows.div_ceil(EXPORT_STEPS as u64).max(1) as usize;
    cached(data_dir, &format!("export-{rows}"), |store| async move {
        catalog(&store, EXPORT_PATHWAY, EXPORT_STEPS).await?;
        let mut filler = Filler::new(&store, EXPORT_PATHWAY, EXPORT_STEPS);
        filler.class(EXPORT_CLASS, learners, true, false).await?;
        filler.flush().await?;
        // A roster, so the default exports pay for the name scan.
        let roster = a2learn_teacher::roster::parse_roster_csv(
            "anonymous_id,display_name\nanon_000001x0000000,Zephyrine Quabbelwick\n\
             anon_000001x0000001,Bartholomew Xanthopoulos\n",
        )
        .map_err(|e| anyhow::anyhow!("{e:?}"))?;
        store.import_roster(EXPORT_CLASS, &roster).await?;
        Ok(filler.written)
    })
    .await
}

/// Times `f` once unmeasured (warm-up), then `runs` times. Milliseconds.
async fn time_ms<T, F, Fut>(runs: usize, mut f: F) -> anyhow::Result<(Spread, T)>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = anyhow::Result<T>>,
{
    let mut last = f().await?;
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        last = f().await?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
    }
    Ok((Spread::of(&times), last))
}

/// The raw read limit of a grid page: the same statements `Store::grid_page` runs (the page of
/// learners, their cells from the rollup, the class totals, the class's size), fetched straight
/// through sqlx with nothing built from them. Returns the cells read.
async fn raw_page_read(store: &Store, class: &str) -> anyhow::Result<usize> {
    on_raw!(store, |pool| {
        // As `grid_page` asks: in code point order on PostgreSQL too.
        let (learner, list) = if PG {
            (
                "learner COLLATE \"C\"",
                "SELECT json_array_elements_text($3::json)",
            )
        } else {
            ("learner", "SELECT value FROM json_each($3)")
        };
        let learners: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT learner FROM learners WHERE class_id = $1 AND {learner} > $2 \
             ORDER BY {learner} LIMIT $3"
        ))
        .bind(class)
        .bind("")
        .bind(i64::from(class_view::GRID_PAGE) + 1)
        .fetch_all(pool)
        .await?;
        let page = serde_json::Value::from(learners).to_string();
        let cells: Vec<(String, String, String, i64, i64)> = sqlx::query_as(&format!(
            "SELECT learner, widget_id, state, completions, incorrect FROM grid_cells \
             WHERE class_id = $1 AND pathway_id = $2 AND learner IN ({list})"
        ))
        .bind(class)
        .bind(VIEW_PATHWAY)
        .bind(&page)
        .fetch_all(pool)
        .await?;
        let totals: Vec<(String, String, i64)> = sqlx::query_as(
            "SELECT widget_id, state, learners FROM grid_totals \
             WHERE class_id = $1 AND pathway_id = $2 AND learners > 0",
        )
        .bind(class)
        .bind(VIEW_PATHWAY)
        .fetch_all(pool)
        .await?;
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM learners WHERE class_id = $1")
            .bind(class)
            .fetch_one(pool)
            .await?;
        anyhow::ensure!(count > 0 && !totals.is_empty(), "an empty class {class}");
        Ok(cells.len())
    })
}

/// The first page of the class of `n` learners (`Store::grid_page`) and its raw read limit,
/// each timed `runs` times, checked to have read a page.
async fn time_first_page(store: &Store, n: usize, runs: usize) -> anyhow::Result<(Spread, Spread)> {
    let class = class_of(n);
    let assignment = assignment_of(&class);
    let shown = n.min(class_view::GRID_PAGE as usize);
    let (page, page_rows) = time_ms(runs, || async {
        let page = store
            .grid_page(&class, &assignment, None, class_view::GRID_PAGE)
            .await?;
        Ok(page.grid.rows.len())
    })
    .await?;
    anyhow::ensure!(
        page_rows == shown,
        "the first page of {class} has {page_rows} rows"
    );
    let (raw_page, raw_cells) = time_ms(runs, || raw_page_read(store, &class)).await?;
    anyhow::ensure!(raw_cells > 0, "the first page of {class} has no cells");
    Ok((page, raw_page))
}

/// The raw read limit of the step report: its statements (the class's learners and every
/// completion of the pathway, `detail.response` included) fetched into the same rows, nothing
/// built from them. Returns the runs read.
async fn raw_step_report_read(store: &Store, class: &str) -> anyhow::Result<usize> {
    on_raw!(store, |pool| {
        let learners: Vec<String> = sqlx::query_scalar(&format!(
            "SELECT learner FROM learners WHERE class_id = $1 ORDER BY {}",
            if PG {
                "learner COLLATE \"C\""
            } else {
                "learner"
            }
        ))
        .bind(class)
        .fetch_all(pool)
        .await?;
        let runs: Vec<RunRow> = sqlx::query_as(STEP_RUNS_SQL)
            .bind(class)
            .bind(VIEW_PATHWAY)
            .fetch_all(pool)
            .await?;
        anyhow::ensure!(!learners.is_empty(), "an empty class {class}");
        Ok(runs.len())
    })
}

/// The raw read limit of mastery: its two statements, nothing built from them.
async fn raw_mastery_read(store: &Store, class: &str) -> anyhow::Result<usize> {
    on_raw!(store, |pool| {
        let (by_standard, whole_class) = standard_counts_sql(PG);
        let rows: Vec<CountRow> = sqlx::query_as(&by_standard)
            .bind(class)
            .fetch_all(pool)
            .await?;
        let _total: CountRow = sqlx::query_as(&whole_class)
            .bind(class)
            .fetch_one(pool)
            .await?;
        Ok(rows.len())
    })
}

/// The raw read limit of "who needs me": its four statements, nothing built from them.
async fn raw_needs_me_read(store: &Store, class: &str) -> anyhow::Result<usize> {
    let now = store.now_ms();
    on_raw!(store, |pool| {
        type Row5 = (String, String, String, i64, i64);
        let follow_ups: Vec<FollowUpRow> = sqlx::query_as(FOLLOWUPS_SQL)
            .bind(now)
            .bind(class)
            .fetch_all(pool)
            .await?;
        let requests: Vec<(String, String, String, i64)> = sqlx::query_as(OPEN_REQUESTS_SQL)
            .bind(class)
            .bind(now)
            .fetch_all(pool)
            .await?;
        let struggles: Vec<Row5> = sqlx::query_as(&struggling_sql(PG))
            .bind(class)
            .fetch_all(pool)
            .await?;
        let failures: Vec<Row5> = sqlx::query_as(&repeated_failures_sql(PG))
            .bind(class)
            .bind(i64::from(REPEATED_FAILURES))
            .fetch_all(pool)
            .await?;
        Ok(follow_ups.len() + requests.len() + struggles.len() + failures.len())
    })
}

/// A view's time and its raw read limit's, added to the report side by side (`engine` is the
/// figures' prefix: empty for SQLite, "postgres: " for PostgreSQL).
fn add_with_raw(
    report: &mut Report,
    engine: &str,
    what: &str,
    raw_what: &str,
    at: &str,
    (view, raw): (Spread, Spread),
) {
    println!(
        "    {engine}{what}: {:.2} ms, its queries alone {:.2} ms ({:.2}x)",
        view.median,
        raw.median,
        view.median / raw.median
    );
    report.add("views", format!("{engine}{what}, {at}"), "ms", view);
    report.add(
        "views",
        format!("{engine}raw read: {raw_what}, {at}"),
        "ms",
        raw,
    );
}

/// Every class view of the class of `n` learners on `store` (either engine), those that are
/// a few statements beside their raw read limit measured in the same run.
async fn class_views(
    store: &Store,
    engine: &str,
    n: usize,
    total: u64,
    opts: &Options,
    report: &mut Report,
) -> anyhow::Result<()> {
    let class = class_of(n);
    let assignment = assignment_of(&class);
    let at = format!("{n} learners, {total} results");
    let (grid, rows) = time_ms(opts.runs, || async {
        Ok(store.grid(&class, &assignment).await?.rows.len())
    })
    .await?;
    anyhow::ensure!(rows == n, "the grid of {class} has {rows} rows, not {n}");
    report.add("views", format!("{engine}grid (full), {at}"), "ms", grid);
    // What the window's grid costs per live change: the whole grid view (labels, placement)
    // as the IPC carries it (JSON), against the rows of the few learners a change names
    // (`class_grid_rows`).
    let named: Vec<String> = store
        .learners(&class)
        .await?
        .into_iter()
        .step_by((n / ROWS_NAMED).max(1))
        .take(ROWS_NAMED)
        .collect();
    // The grid as the window opens it: the whole class up to a page, else the first page with
    // the class totals.
    let (whole, whole_bytes) = time_ms(opts.runs, || async {
        let view = class_view::grid(
            store,
            Privacy::Names,
            &class,
            &assignment,
            None,
            &Scope::Class,
        )
        .await?;
        Ok(serde_json::to_vec(&view)?.len())
    })
    .await?;
    let shown = n.min(class_view::GRID_PAGE as usize);
    add_with_raw(
        report,
        engine,
        &format!("grid page ({shown} learners, class totals)"),
        "the grid page's queries",
        &at,
        time_first_page(store, n, opts.runs).await?,
    );
    let (rows_only, rows_bytes) = time_ms(opts.runs, || async {
        let view = class_view::grid_rows(
            store,
            Privacy::Names,
            &class,
            &assignment,
            named.clone(),
            &Scope::Class,
        )
        .await?;
        anyhow::ensure!(view.rows.len() == named.len(), "rows of {named:?} missing");
        Ok(serde_json::to_vec(&view)?.len())
    })
    .await?;
    println!(
        "    {engine}grid as sent: as opened {whole_bytes} bytes, {ROWS_NAMED} learners' rows \
         {rows_bytes} bytes"
    );
    report.add(
        "views",
        format!("{engine}grid as the window opens it (JSON), {at}"),
        "ms",
        whole,
    );
    report.add(
        "views",
        format!("{engine}grid as sent (JSON), rows of {ROWS_NAMED} learners, {at}"),
        "ms",
        rows_only,
    );
    let (mastery, standards) = time_ms(opts.runs, || async {
        Ok(store.mastery(&class, 10).await?.standards.len())
    })
    .await?;
    let (raw_mastery, raw_standards) =
        time_ms(opts.runs, || raw_mastery_read(store, &class)).await?;
    anyhow::ensure!(
        standards > 0 && raw_standards == standards,
        "mastery of {class}: {standards} standards, {raw_standards} read raw"
    );
    add_with_raw(
        report,
        engine,
        "mastery by standard",
        "mastery's queries",
        &at,
        (mastery, raw_mastery),
    );
    let (needs, items) = time_ms(opts.runs, || async {
        Ok(store.needs_me(&class).await?.len())
    })
    .await?;
    let (raw_needs, raw_items) = time_ms(opts.runs, || raw_needs_me_read(store, &class)).await?;
    anyhow::ensure!(
        items > 0 && raw_items == items,
        "who-needs-me of {class}: {items} items, {raw_items} rows read raw (the fill is wrong)"
    );
    add_with_raw(
        report,
        engine,
        "who needs me now",
        "who-needs-me's queries",
        &at,
        (needs, raw_needs),
    );
    let (steps, responses) = time_ms(opts.runs, || async {
        let (_, _, steps) = store.step_report(&class, &assignment).await?;
        Ok(steps
            .iter()
            .map(|s| s.common_responses.len())
            .sum::<usize>())
    })
    .await?;
    anyhow::ensure!(
        responses > 0,
        "the step report of {class} has no responses: the fill is wrong"
    );
    let (raw_steps, runs) = time_ms(opts.runs, || raw_step_report_read(store, &class)).await?;
    anyhow::ensure!(runs >= n, "the step report of {class} read {runs} runs raw");
    add_with_raw(
        report,
        engine,
        "step report",
        "the step report's queries",
        &at,
        (steps, raw_steps),
    );
    let req = ReportRequest {
        class_id: class.clone(),
        assignment_id: Some(assignment.clone()),
        names: ReportNames::Anonymous,
        group: None,
    };
    let (after_class, bytes) = time_ms(opts.runs, || async {
        Ok(to_html(
            &report_view(store, &req).await?,
            a2learn_teacher::i18n::words(a2learn_teacher::i18n::Lang::En),
        )
        .len())
    })
    .await?;
    anyhow::ensure!(bytes > 0, "an empty report");
    report.add(
        "views",
        format!("{engine}after-class report (HTML), {at}"),
        "ms",
        after_class,
    );
    let (knowledge, standards) = time_ms(opts.runs, || async {
        Ok(knowledge_map(store, Privacy::Names, &class, &Scope::Class)
            .await?
            .nodes
            .len())
    })
    .await?;
    anyhow::ensure!(standards > 0, "the knowledge map of {class} is empty");
    report.add(
        "views",
        format!("{engine}knowledge map, {at}"),
        "ms",
        knowledge,
    );
    let (pathways, counted) = time_ms(opts.runs, || async {
        let map = pathway_map(store, Privacy::Names, &class, &Scope::Class).await?;
        Ok(map
            .pathways
            .iter()
            .flat_map(|p| &p.nodes)
            .flat_map(|node| &node.counts)
            .filter_map(|c| c.count)
            .map(i64::from)
            .sum::<i64>())
    })
    .await?;
    // Every learner has one status on each step of the pathway.
    anyhow::ensure!(
        counted == (n * VIEW_STEPS) as i64,
        "the pathway map of {class} counts {counted} places, not {n} x {VIEW_STEPS}"
    );
    report.add(
        "views",
        format!("{engine}pathway map, {at}"),
        "ms",
        pathways,
    );
    Ok(())
}

/// `bench views`: every class view for each class size over each store size, on SQLite and
/// (with `--postgres`) on PostgreSQL.
pub async fn run_queries(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    for &total in &opts.stores {
        println!(
            "views: a store of {total} results, measured classes {:?}",
            opts.classes
        );
        let store = view_store(&opts.data_dir, total, &opts.classes).await?;
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM results")
            .fetch_one(store.sqlite()?)
            .await?;
        println!("  the store holds {stored} results");
        for &n in &opts.classes {
            class_views(&store, "", n, total, opts, report).await?;
        }
        if let Some(server) = &opts.postgres {
            postgres_views(server, opts, &store, total, report).await?;
        }
        store.close().await;
    }
    Ok(())
}

/// The class views on PostgreSQL, each beside its own raw read limit: the filled store's
/// tables copied into a fresh database on `server` and analyzed, then measured as on SQLite.
async fn postgres_views(
    server: &str,
    opts: &Options,
    store: &Store,
    total: u64,
    report: &mut Report,
) -> anyhow::Result<()> {
    let target = Target::Postgres(server.to_string());
    let clock: SharedClock = Arc::new(SystemClock);
    let shared = target.fresh("views", clock).await?;
    let copying = Instant::now();
    let mut copied = 0;
    for (table, order) in [
        ("hosts", ""),
        ("classes", ""),
        ("pathways", ""),
        ("pathway_steps", ""),
        ("assignments", "rowid"),
        ("learners", ""),
        // The payloads the knowledge map reads (its misconceptions).
        ("ledger", "rowid"),
        ("results", ""),
        ("struggles", ""),
        ("calls", ""),
        ("grid_cells", ""),
        ("grid_totals", ""),
    ] {
        // The ledger's id is the database's own (an identity there).
        let skip: &[&str] = if table == "ledger" { &["id"] } else { &[] };
        // A table at a time, so only one is in memory.
        let rows = [read_table(store, table, order, skip).await?];
        let kinds = kinds_in(&shared, &rows).await?;
        insert_rows(&shared, &rows, &kinds, |t| &t.rows).await?;
        copied += rows[0].rows.len();
    }
    // The statistics autovacuum would have gathered as the store grew: without them the
    // planner takes the freshly copied tables for a few rows and reads a whole class's cells
    // for a page (measured: 156 ms a page at 100,000 learners, against 3 ms).
    if let RawPool::Postgres(pool) = shared.raw_pool() {
        sqlx::query("ANALYZE").execute(pool).await?;
    }
    println!(
        "  on PostgreSQL: {copied} rows copied (and analyzed) in {:.1} s",
        copying.elapsed().as_secs_f64()
    );
    for &n in &opts.classes {
        class_views(&shared, "postgres: ", n, total, opts, report).await?;
    }
    shared.close().await;
    target.clean(&["views"]).await?;
    Ok(())
}

/// `bench export`: CSV and xAPI rows per second over one class of `export_rows` results.
pub async fn run_exports(opts: &Options, report: &mut Report) -> anyhow::Result<()> {
    println!("exports: one class of {} results", opts.export_rows);
    let store = export_store(&opts.data_dir, opts.export_rows).await?;
    let dir = tempfile::tempdir()?;
    for format in [Format::Csv, Format::Xapi] {
        let mut rates = Vec::new();
        let mut rows = 0;
        for _ in 0..opts.runs {
            let path: PathBuf = dir.path().join(format!("out.{}", format.extension()));
            let started = Instant::now();
            let summary = export_to_path(
                &store,
                &ExportRequest::new(EXPORT_CLASS, format),
                &path,
                &mut |_| {},
                &CancellationToken::new(),
            )
            .await?;
            rates.push(summary.rows as f64 / started.elapsed().as_secs_f64());
            rows = summary.rows;
            std::fs::remove_file(&path)?;
        }
        report.add(
            "export",
            format!("export {} ({rows} rows)", format.as_str()),
            "rows/s",
            Spread::of(&rates),
        );
    }
    store.close().await;
    Ok(())
}
