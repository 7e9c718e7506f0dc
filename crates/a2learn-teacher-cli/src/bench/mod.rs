//! Benchmarks, each printed beside the raw limit measured in the same run (these machines are
//! noisy: absolute figures drift, ratios hold). `a2learn-teacher bench` runs them; BENCHMARKS.md
//! at the repository root holds the figures of a full run and what they mean.
//!
//! - [`ingest`]: the pipeline (SSE on loopback -> parse -> validate -> store) against batched
//!   raw inserts of the same rows.
//! - [`views`]: the class view's queries (grid, mastery by standard, who needs me now) for one
//!   class among millions of stored results, and the CSV and xAPI exports.
//! - [`live`]: latency from the host emitting an event to the app's coalesced change
//!   notification.
//! - [`memory`]: peak RSS of a `sync` child process replaying a long feed.
//!
//! Timings are printed, never asserted: this crate's `tests/bench.rs` only checks that every helper runs on
//! tiny sizes and yields finite figures.

pub mod bridge;
mod copy;
pub mod ingest;
pub mod live;
pub mod memory;
pub mod views;

use std::path::PathBuf;

pub use ingest::{
    ReplaySource, Target, parse_and_validate, pipeline_replay, prepare_replay, raw_insert,
    store_ingest,
};

/// How many of the machine's cores a stretch of work kept busy, on average, from the kernel's
/// counters (`/proc/stat`; NaN elsewhere). It counts every process — the pipeline, the host
/// serving the log, PostgreSQL — which is the point: it shows whether a phase left a core idle.
pub struct CpuMeter {
    start: Option<CpuTimes>,
}

#[derive(Clone, Copy)]
struct CpuTimes {
    busy: u64,
    total: u64,
    cores: usize,
}

impl CpuTimes {
    fn now() -> Option<Self> {
        let stat = std::fs::read_to_string("/proc/stat").ok()?;
        let mut lines = stat.lines();
        let all: Vec<u64> = lines
            .next()?
            .strip_prefix("cpu ")?
            .split_whitespace()
            .filter_map(|n| n.parse().ok())
            .collect();
        // user nice system idle iowait irq softirq steal: idle and iowait are not work.
        let total: u64 = all.iter().take(8).sum();
        let idle = all.get(3)? + all.get(4).copied().unwrap_or(0);
        let cores = lines.filter(|l| l.starts_with("cpu")).count();
        Some(Self {
            busy: total - idle,
            total,
            cores,
        })
    }
}

impl CpuMeter {
    pub fn start() -> Self {
        Self {
            start: CpuTimes::now(),
        }
    }

    /// Cores busy on average since [`CpuMeter::start`] (of [`CpuMeter::cores`]).
    pub fn cores_busy(&self) -> f64 {
        match (self.start, CpuTimes::now()) {
            (Some(a), Some(b)) if b.total > a.total => {
                (b.busy - a.busy) as f64 / (b.total - a.total) as f64 * b.cores as f64
            }
            _ => f64::NAN,
        }
    }

    /// The machine's cores.
    pub fn cores(&self) -> usize {
        self.start.map_or(0, |t| t.cores)
    }
}

/// CPU time of this process's threads by kind over a stretch (`/proc/self/task`; empty
/// elsewhere): whether the store's SQLite worker thread and the async runtime's threads work at
/// the same time or take turns. Threads are grouped by name, digits dropped ("sqlx-sqlite-wor",
/// "tokio-runtime-w").
pub struct ThreadCpu {
    start: std::collections::BTreeMap<String, u64>,
    started: std::time::Instant,
}

impl ThreadCpu {
    fn sample() -> std::collections::BTreeMap<String, u64> {
        let mut by_kind = std::collections::BTreeMap::new();
        let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
            return by_kind;
        };
        for task in tasks.flatten() {
            let path = task.path();
            let (Ok(name), Ok(stat)) = (
                std::fs::read_to_string(path.join("comm")),
                std::fs::read_to_string(path.join("stat")),
            ) else {
                continue;
            };
            // Fields after the parenthesised name: state is the 3rd field, utime the 14th and
            // stime the 15th of the whole line.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let ticks = |i: usize| {
                fields
                    .get(i)
                    .and_then(|f| f.parse::<u64>().ok())
                    .unwrap_or(0)
            };
            let kind: String = name
                .trim()
                .trim_end_matches(|c: char| c.is_ascii_digit())
                .into();
            *by_kind.entry(kind).or_insert(0) += ticks(11) + ticks(12);
        }
        by_kind
    }

    pub fn start() -> Self {
        Self {
            start: Self::sample(),
            started: std::time::Instant::now(),
        }
    }

    /// Cores each kind of thread kept busy since [`ThreadCpu::start`] (the kernel counts in
    /// hundredths of a second). Threads that ended meanwhile are not counted.
    pub fn cores(&self) -> std::collections::BTreeMap<String, f64> {
        let secs = self.started.elapsed().as_secs_f64();
        Self::sample()
            .into_iter()
            .map(|(kind, ticks)| {
                let before = self.start.get(&kind).copied().unwrap_or(0);
                (kind, ticks.saturating_sub(before) as f64 / 100.0 / secs)
            })
            .collect()
    }
}

/// Min, median and max of several runs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spread {
    pub min: f64,
    pub median: f64,
    pub max: f64,
}

impl Spread {
    pub fn of(values: &[f64]) -> Self {
        let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
        v.sort_by(f64::total_cmp);
        if v.is_empty() {
            return Self {
                min: f64::NAN,
                median: f64::NAN,
                max: f64::NAN,
            };
        }
        let mid = v.len() / 2;
        let median = if v.len().is_multiple_of(2) {
            (v[mid - 1] + v[mid]) / 2.0
        } else {
            v[mid]
        };
        Self {
            min: v[0],
            median,
            max: v[v.len() - 1],
        }
    }

    /// One value (a single measurement).
    pub fn one(value: f64) -> Self {
        Self::of(&[value])
    }

    pub fn is_finite(&self) -> bool {
        self.min.is_finite() && self.median.is_finite() && self.max.is_finite()
    }
}

impl std::fmt::Display for Spread {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let digits = if self.median.abs() >= 100.0 {
            0
        } else if self.median.abs() >= 1.0 {
            2
        } else {
            3
        };
        write!(
            f,
            "{:>10.digits$} (min {:.digits$}, max {:.digits$})",
            self.median, self.min, self.max
        )
    }
}

/// The q-quantile (0..=1) of `values` by the nearest-rank method; NaN when empty.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let rank = (q * v.len() as f64).ceil() as usize;
    v[rank.clamp(1, v.len()) - 1]
}

/// One printed figure.
#[derive(Debug, Clone, PartialEq)]
pub struct Figure {
    /// The benchmark it belongs to (`ingest`, `views`, ...).
    pub section: &'static str,
    pub name: String,
    pub unit: &'static str,
    pub value: Spread,
}

/// Every figure a run printed, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Report {
    pub figures: Vec<Figure>,
}

impl Report {
    /// Records a figure and prints it at once (long runs show progress as they go).
    pub fn add(
        &mut self,
        section: &'static str,
        name: impl Into<String>,
        unit: &'static str,
        value: Spread,
    ) {
        let name = name.into();
        println!("  {name:<58} {value} {unit}");
        self.figures.push(Figure {
            section,
            name,
            unit,
            value,
        });
    }

    pub fn get(&self, name: &str) -> Option<&Figure> {
        self.figures.iter().find(|f| f.name == name)
    }
}

/// The sizes of a run. [`BenchArgs`] fills it from the command line; the defaults are the
/// issue's, `--quick` makes every size small.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub runs: usize,
    /// Frames in the host log replayed by the ingest benchmark.
    pub frames: usize,
    /// Total results in the stores the view queries run over.
    pub stores: Vec<u64>,
    /// Learners in the measured class.
    pub classes: Vec<usize>,
    /// Results in the exported class.
    pub export_rows: u64,
    /// Events per second of the live-latency runs.
    pub rates: Vec<f64>,
    /// Seconds of emitting at each rate.
    pub live_seconds: f64,
    /// Events in the log the memory benchmark's sync replays.
    pub memory_events: u64,
    /// Where filled databases are cached between runs.
    pub data_dir: PathBuf,
    /// The `a2learn-teacher` binary the memory benchmark runs as a child.
    pub exe: Option<PathBuf>,
    /// A PostgreSQL server on which the ingest benchmark and the grid's page also run, beside
    /// SQLite.
    pub postgres: Option<String>,
}

impl Options {
    /// The sizes.
    pub fn full() -> Self {
        Self {
            runs: 5,
            frames: 100_000,
            stores: vec![1_000_000, 10_000_000],
            classes: vec![30, 1_000, 100_000],
            export_rows: 1_000_000,
            rates: vec![10.0, 1_000.0],
            live_seconds: 20.0,
            memory_events: 10_000_000,
            data_dir: PathBuf::from("target/bench-data"),
            exe: std::env::current_exe().ok(),
            postgres: None,
        }
    }

    /// Small sizes: seconds, for CI and a quick check.
    pub fn quick() -> Self {
        Self {
            runs: 2,
            frames: 3_000,
            stores: vec![20_000],
            classes: vec![30, 300],
            export_rows: 5_000,
            rates: vec![10.0, 200.0],
            live_seconds: 1.5,
            memory_events: 5_000,
            data_dir: PathBuf::from("target/bench-data"),
            exe: std::env::current_exe().ok(),
            postgres: None,
        }
    }
}

/// `a2learn-teacher bench <what>`: the sizes, each with the default.
#[derive(Debug, Clone, clap::Args)]
pub struct BenchArgs {
    /// Small sizes everywhere (seconds, not minutes); explicit flags still win.
    #[arg(long)]
    pub quick: bool,
    /// Runs of each measurement (the median is reported, with min and max) [default: 5; quick 2].
    #[arg(long)]
    pub runs: Option<usize>,
    /// Ingest: frames in the host's log [default: 100000].
    #[arg(long)]
    pub frames: Option<usize>,
    /// Views: total stored results, comma-separated [default: 1000000,10000000].
    #[arg(long, value_delimiter = ',')]
    pub stores: Option<Vec<u64>>,
    /// Views: learners in the measured class, comma-separated [default: 30,1000,100000].
    #[arg(long, value_delimiter = ',')]
    pub classes: Option<Vec<usize>>,
    /// Exports: results in the exported class [default: 1000000].
    #[arg(long)]
    pub export_rows: Option<u64>,
    /// Live: events per second, comma-separated [default: 10,1000].
    #[arg(long, value_delimiter = ',')]
    pub rates: Option<Vec<f64>>,
    /// Live: seconds of emitting at each rate [default: 20].
    #[arg(long)]
    pub live_seconds: Option<f64>,
    /// Memory: events in the log the sync child replays [default: 10000000].
    #[arg(long)]
    pub memory_events: Option<u64>,
    /// Where filled databases are cached, keyed by size [default: target/bench-data].
    #[arg(long, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Ingest and the class views: measure on PostgreSQL too, beside SQLite: a server URL
    /// (with a database to connect to, e.g. /postgres) where the bench creates and drops its
    /// own databases (`a2learn_bench_*`).
    #[arg(long, value_name = "URL")]
    pub postgres: Option<String>,
}

impl BenchArgs {
    pub fn options(&self) -> Options {
        let base = if self.quick {
            Options::quick()
        } else {
            Options::full()
        };
        Options {
            runs: self.runs.unwrap_or(base.runs).max(1),
            frames: self.frames.unwrap_or(base.frames),
            stores: self.stores.clone().unwrap_or(base.stores),
            classes: self.classes.clone().unwrap_or(base.classes),
            export_rows: self.export_rows.unwrap_or(base.export_rows),
            rates: self.rates.clone().unwrap_or(base.rates),
            live_seconds: self.live_seconds.unwrap_or(base.live_seconds),
            memory_events: self.memory_events.unwrap_or(base.memory_events),
            data_dir: self.data_dir.clone().unwrap_or(base.data_dir),
            exe: base.exe,
            postgres: self.postgres.clone(),
        }
    }
}

/// Which benchmark to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    Ingest,
    Views,
    Export,
    Live,
    Memory,
    Bridge,
    All,
}

/// Runs one benchmark (or all of them, in one run) and returns what it printed.
pub async fn run(which: Which, opts: &Options) -> anyhow::Result<Report> {
    let mut report = Report::default();
    print_machine();
    if matches!(which, Which::Ingest | Which::All) {
        ingest::run(opts, &mut report).await?;
    }
    if matches!(which, Which::Views | Which::All) {
        views::run_queries(opts, &mut report).await?;
    }
    if matches!(which, Which::Export | Which::All) {
        views::run_exports(opts, &mut report).await?;
    }
    if matches!(which, Which::Live | Which::All) {
        live::run(opts, &mut report).await?;
    }
    if matches!(which, Which::Memory | Which::All) {
        memory::run(opts, &mut report).await?;
    }
    if matches!(which, Which::Bridge | Which::All) {
        bridge::run(opts, &mut report).await?;
    }
    Ok(report)
}

/// The machine, as BENCHMARKS.md records it.
fn print_machine() {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into());
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    let mem = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .next()
                .map(|l| l.split_whitespace().nth(1).unwrap_or("0").to_string())
        })
        .and_then(|kb| kb.parse::<u64>().ok())
        .map_or_else(
            || "unknown".into(),
            |kb| format!("{:.1} GiB", kb as f64 / 1_048_576.0),
        );
    println!("machine: {cores} cores, {mem} RAM, CPU {cpu}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_is_min_median_max() {
        let s = Spread::of(&[3.0, 1.0, 2.0]);
        assert_eq!((s.min, s.median, s.max), (1.0, 2.0, 3.0));
        assert_eq!(Spread::of(&[1.0, 2.0, 3.0, 10.0]).median, 2.5);
        assert!(Spread::of(&[]).median.is_nan());
    }

    #[test]
    fn quantiles_by_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), 50.0);
        assert_eq!(quantile(&v, 0.99), 99.0);
        assert_eq!(quantile(&v, 1.0), 100.0);
        assert_eq!(quantile(&[7.0], 0.99), 7.0);
        assert!(quantile(&[], 0.5).is_nan());
    }
}
