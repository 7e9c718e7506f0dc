//! `report` as a user runs it, against a class synced from the real reference host: the JSON's
//! counts recomputed here from the host's own event log file (parsed frame by frame, newest run
//! per learner and step), not by the code under test; the HTML self-contained; no roster name
//! in a default report, and the names there with `--identified`.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

#[path = "../../../tests/support/pipeline.rs"]
mod pipeline_support;

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::process::{Command, Output};
use std::time::{Duration, Instant};

use a2learn_teacher::roster::RosterEntry;
use pathway_host::Faults;
use pipeline_support::{PATHWAY, feed_config, open, spawn_sync, start_host, wait_for_cursor};
use serde_json::Value;

const CANARY: &str = "Philomena Grubbswaite";
/// Completions to wait for: enough that every outcome shows up on some step.
const COMPLETIONS: usize = 260;

fn report(db: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(db)
        .arg("report")
        .args(args)
        .output()
        .unwrap()
}

fn ok(out: &Output) {
    assert!(
        out.status.success(),
        "report failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The host's event log file: (class learners, every completion's value with its seq).
fn read_log(path: &Path, class_id: &str, upto: i64) -> (BTreeSet<String>, Vec<(i64, Value)>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut learners = BTreeSet::new();
    let mut completions = Vec::new();
    for line in text.lines() {
        // The host may be writing its last line: a torn line is not a record yet.
        let Ok(rec) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if rec["class_id"] != class_id {
            continue;
        }
        match rec["rec"].as_str() {
            Some("learners") => {
                for l in rec["learners"].as_array().unwrap() {
                    learners.insert(l.as_str().unwrap().to_string());
                }
            }
            Some("frame") => {
                let seq = rec["seq"].as_i64().unwrap();
                if seq > upto || rec.get("expect_rule").is_some() {
                    continue;
                }
                let event: Value = serde_json::from_str(rec["data"].as_str().unwrap()).unwrap();
                if event["type"] == "CUSTOM" && event["name"] == "a2learn.widget_completed" {
                    completions.push((seq, event["value"].clone()));
                }
            }
            _ => {}
        }
    }
    (learners, completions)
}

/// What one step's row must say, from the log.
#[derive(Debug, Default, PartialEq)]
struct Want {
    counts: [i64; 5],
    mean_attempts: Option<f64>,
    mean_hints: Option<f64>,
    responses: Vec<(String, i64)>,
}

fn recompute(learners: &BTreeSet<String>, completions: &[(i64, Value)], widget_id: &str) -> Want {
    // Newest run per learner on this step: the highest seq the host gave it.
    let mut newest: HashMap<&str, (i64, &Value)> = HashMap::new();
    for (seq, v) in completions {
        if v["widget_id"] != widget_id {
            continue;
        }
        let learner = v["learner"].as_str().unwrap();
        if newest.get(learner).is_none_or(|(s, _)| seq > s) {
            newest.insert(learner, (*seq, v));
        }
    }
    let mut want = Want::default();
    let (mut attempts, mut hints, mut n) = (0i64, 0i64, 0i64);
    let mut responses: BTreeMap<String, i64> = BTreeMap::new();
    for learner in learners {
        let Some((_, v)) = newest.get(learner.as_str()) else {
            want.counts[4] += 1;
            continue;
        };
        let r = &v["widget_result"];
        let a = r["attempts"].as_i64().unwrap();
        let group = match r["correct"].as_bool() {
            Some(true) if a == 1 => 0,
            Some(true) => 1,
            Some(false) => 2,
            None => 3,
        };
        want.counts[group] += 1;
        attempts += a;
        hints += r["hints"].as_i64().unwrap();
        n += 1;
        if let Some(text) = r["detail"]["response"].as_str() {
            *responses.entry(text.to_string()).or_default() += 1;
        }
    }
    if n > 0 {
        want.mean_attempts = Some(attempts as f64 / n as f64);
        want.mean_hints = Some(hints as f64 / n as f64);
    }
    let mut responses: Vec<(String, i64)> = responses.into_iter().collect();
    // Most frequent first; the BTreeMap's text order breaks ties (the sort is stable).
    responses.sort_by_key(|r| std::cmp::Reverse(r.1));
    responses.truncate(5);
    want.responses = responses;
    want
}

fn got(step: &Value) -> Want {
    let n = |k: &str| step[k].as_i64().unwrap_or_else(|| panic!("{k} in {step}"));
    Want {
        counts: [
            n("first_try"),
            n("after_retries"),
            n("incorrect"),
            n("no_verdict"),
            n("not_reached"),
        ],
        mean_attempts: step["mean_attempts"].as_f64(),
        mean_hints: step["mean_hints"].as_f64(),
        responses: step["common_responses"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                (
                    r["response"].as_str().unwrap().to_string(),
                    r["count"].as_i64().unwrap(),
                )
            })
            .collect(),
    }
}

fn close(a: Option<f64>, b: Option<f64>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => (a - b).abs() < 1e-9,
        (None, None) => true,
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_matches_the_host_log_and_names_nobody_by_default() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("t.db");
    let log_path = dir.path().join("host-log.jsonl");
    let (host, class_id) = start_host(Faults::default(), Some(&log_path)).await;
    let store = open(&db).await;
    let (cancel, task) = spawn_sync(store.clone(), feed_config(&host.url(), &class_id));

    // Sync until the host has logged a good number of completions.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        let done = host
            .log(&class_id)
            .iter()
            .filter(|f| f.data.contains("a2learn.widget_completed"))
            .count();
        if done >= COMPLETIONS {
            break;
        }
        assert!(Instant::now() < deadline, "only {done} completions");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // Let the store catch up with the log as it stood (the sync may still have been fetching
    // the catalog and the backfill on a loaded machine), then stop: the store's cursor says how
    // far into the log the report may look.
    let logged = host.log(&class_id).last().unwrap().seq;
    wait_for_cursor(&store, &class_id, logged).await;
    cancel.cancel();
    task.await.unwrap().unwrap();
    let store = open(&db).await;
    let upto = store.cursor(&class_id).await.unwrap().unwrap();
    // A canary name for one learner, imported into the class's roster.
    let learner0 = host.learners(&class_id)[0].clone();
    store
        .import_roster(
            &class_id,
            &[RosterEntry {
                learner: learner0.clone(),
                display_name: CANARY.into(),
            }],
        )
        .await
        .unwrap();
    // A group of two learners, made as the app makes it (in the teacher's file).
    let table: Vec<String> = host.learners(&class_id)[..2].to_vec();
    store
        .save_group(&class_id, "Table 1", &table)
        .await
        .unwrap();
    store.close().await;

    // The JSON report, against the log recomputed here.
    let json_path = dir.path().join("report.json");
    let out = report(
        &db,
        &["--class", &class_id, "--format", "json", "--out"]
            .into_iter()
            .chain([json_path.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    ok(&out);
    let text = std::fs::read_to_string(&json_path).unwrap();
    assert!(!text.contains(CANARY) && !text.contains("Grubbswaite"));
    assert!(text.contains(&learner0), "anonymous ids by default");
    let json: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(json["class_id"], class_id.as_str());
    let assignments = json["assignments"].as_array().unwrap();
    assert_eq!(assignments.len(), 1);
    let a = &assignments[0];
    assert_eq!(a["pathway_id"], PATHWAY);

    let (learners, completions) = read_log(&log_path, &class_id, upto);
    assert!(
        completions.len() >= COMPLETIONS / 2,
        "the comparison must have something to compare: {} completions",
        completions.len()
    );
    assert_eq!(a["learners"].as_i64().unwrap(), learners.len() as i64);
    let pathway = host
        .pathways()
        .into_iter()
        .find(|p| p.pathway_id == PATHWAY)
        .unwrap();
    let steps = a["steps"].as_array().unwrap();
    assert_eq!(steps.len(), pathway.steps.len());
    let mut totals = [0i64; 5];
    let mut responses_seen = 0;
    for (step, host_step) in steps.iter().zip(&pathway.steps) {
        assert_eq!(
            step["widget_id"],
            host_step.widget_id.as_str(),
            "pathway order"
        );
        assert_eq!(step["title"], host_step.entry.title.as_str());
        assert_eq!(
            step["standard"].as_str(),
            host_step.entry.standard.as_deref()
        );
        assert_eq!(step["assesses"], host_step.entry.assesses);
        let want = recompute(&learners, &completions, &host_step.widget_id);
        let have = got(step);
        assert_eq!(
            have.counts, want.counts,
            "counts of {}",
            host_step.widget_id
        );
        assert_eq!(
            have.counts.iter().sum::<i64>(),
            learners.len() as i64,
            "the five add up to the class"
        );
        assert!(
            close(have.mean_attempts, want.mean_attempts)
                && close(have.mean_hints, want.mean_hints),
            "means of {}: {have:?} vs {want:?}",
            host_step.widget_id
        );
        assert_eq!(
            have.responses, want.responses,
            "responses of {}",
            host_step.widget_id
        );
        for (t, c) in totals.iter_mut().zip(have.counts) {
            *t += c;
        }
        responses_seen += have.responses.len();
        // The learners behind each count are listed, as many as the count.
        for k in [
            "first_try",
            "after_retries",
            "incorrect",
            "no_verdict",
            "not_reached",
        ] {
            assert_eq!(
                step["who"][k].as_array().unwrap().len() as i64,
                step[k].as_i64().unwrap()
            );
        }
    }
    // Not a vacuous comparison: the class produced every outcome the host can.
    assert!(
        totals[0] > 0 && totals[1] > 0 && totals[3] > 0 && totals[4] > 0,
        "{totals:?}"
    );
    assert!(responses_seen > 0, "some step has common responses");
    eprintln!(
        "outcomes over all steps: {totals:?}, {} completions",
        completions.len()
    );
    // Negative control: the recount notices a changed log.
    let mut tampered = completions.clone();
    if let Some((_, v)) = tampered
        .iter_mut()
        .find(|(_, v)| v["widget_result"]["correct"] == true)
    {
        v["widget_result"]["correct"] = Value::Bool(false);
    }
    let differs =
        pathway.steps.iter().zip(steps).any(|(s, step)| {
            recompute(&learners, &tampered, &s.widget_id).counts != got(step).counts
        });
    assert!(differs, "a changed verdict changes the recount");

    // One assignment by id; an unknown class is an error, not an empty report.
    let assignment_id = a["assignment_id"].as_str().unwrap().to_string();
    let one = dir.path().join("one.json");
    ok(&report(
        &db,
        &[
            "--class",
            &class_id,
            "--assignment",
            &assignment_id,
            "--format",
            "json",
            "--out",
            one.to_str().unwrap(),
        ],
    ));
    let one: Value = serde_json::from_str(&std::fs::read_to_string(&one).unwrap()).unwrap();
    assert_eq!(one["assignments"][0]["steps"], a["steps"]);
    let missing = report(
        &db,
        &[
            "--class",
            "no-such-class",
            "--format",
            "json",
            "--out",
            "x.json",
        ],
    );
    assert!(!missing.status.success());

    // --group: the group's learners only, its name on the report; an unknown group is an
    // error, never the whole class.
    let grouped = dir.path().join("group.json");
    ok(&report(
        &db,
        &[
            "--class",
            &class_id,
            "--group",
            "Table 1",
            "--format",
            "json",
            "--out",
            grouped.to_str().unwrap(),
        ],
    ));
    let grouped: Value = serde_json::from_str(&std::fs::read_to_string(&grouped).unwrap()).unwrap();
    assert_eq!(grouped["group"], "Table 1");
    assert_eq!(grouped["assignments"][0]["learners"], 2);
    let strips: Vec<&str> = grouped["assignments"][0]["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["learner"].as_str().unwrap())
        .collect();
    let mut want: Vec<&str> = table.iter().map(String::as_str).collect();
    want.sort_unstable();
    assert_eq!(strips, want);
    assert!(
        a["learners"].as_i64().unwrap() > 2,
        "the control: the class has more"
    );
    let nobody = report(
        &db,
        &[
            "--class", &class_id, "--group", "Nobody", "--format", "json", "--out", "x.json",
        ],
    );
    assert!(!nobody.status.success());
    assert!(String::from_utf8_lossy(&nobody.stderr).contains("no group named"));

    // The same group through `export --group`: its learners' rows only.
    let csv_path = dir.path().join("group.csv");
    let exported = Command::new(env!("CARGO_BIN_EXE_a2learn-teacher"))
        .arg("--db")
        .arg(&db)
        .args([
            "export", "--class", &class_id, "--group", "Table 1", "--format", "csv", "--out",
        ])
        .arg(&csv_path)
        .output()
        .unwrap();
    ok(&exported);
    let csv = std::fs::read_to_string(&csv_path).unwrap();
    let ids: BTreeSet<&str> = csv
        .lines()
        .skip(1)
        .filter_map(|l| l.split(',').next())
        .collect();
    assert_eq!(ids, want.iter().copied().collect::<BTreeSet<_>>());

    // The HTML: self-contained, no name.
    let html_path = dir.path().join("report.html");
    ok(&report(
        &db,
        &[
            "--class",
            &class_id,
            "--format",
            "html",
            "--out",
            html_path.to_str().unwrap(),
        ],
    ));
    let html = std::fs::read_to_string(&html_path).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.to_lowercase().contains("<script"), "no script");
    assert!(
        !html.contains("http://") && !html.contains("https://"),
        "no remote resource"
    );
    assert!(!html.contains("<link") && !html.contains("@import"));
    assert!(!html.contains(CANARY) && !html.contains("Grubbswaite"));
    assert!(
        html.contains(&pathway.steps[1].entry.title),
        "titles, not ids"
    );

    // The page's language: --lang picks it; a language not shipped is refused, nothing written.
    let in_lang = |lang: &str| {
        let path = dir.path().join(format!("report-{lang}.html"));
        let out = report(
            &db,
            &[
                "--class",
                &class_id,
                "--format",
                "html",
                "--lang",
                lang,
                "--out",
                path.to_str().unwrap(),
            ],
        );
        (out, path)
    };
    let (out, en) = in_lang("en");
    ok(&out);
    let en = std::fs::read_to_string(en).unwrap();
    assert!(en.contains("<html lang=\"en\" dir=\"ltr\">") && en.contains("Mastery by standard"));
    let (out, es) = in_lang("es");
    ok(&out);
    let es = std::fs::read_to_string(es).unwrap();
    assert!(es.contains("<html lang=\"es\" dir=\"ltr\">"), "{es}");
    assert!(es.contains("Dominio por estándar") && !es.contains("Mastery by standard"));
    assert!(
        es.contains(&pathway.steps[1].entry.title),
        "the host's titles stay as they are"
    );
    let (out, ar) = in_lang("ar");
    ok(&out);
    let ar = std::fs::read_to_string(ar).unwrap();
    assert!(ar.contains("<html lang=\"ar\" dir=\"rtl\">") && ar.contains("الإتقان بحسب المعيار"));
    let (out, fr) = in_lang("fr");
    assert!(!out.status.success(), "French is not shipped");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("choose en, es or ar"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!fr.exists(), "nothing written for a refused language");

    // Positive control: --identified names the learner, and warns.
    let named = dir.path().join("named.html");
    let out = report(
        &db,
        &[
            "--class",
            &class_id,
            "--format",
            "html",
            "--identified",
            "--out",
            named.to_str().unwrap(),
        ],
    );
    ok(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("warning"));
    assert!(std::fs::read_to_string(&named).unwrap().contains(CANARY));

    // A student's response naming a rostered learner: the default report is refused with the
    // export's exit code, names the field and not the name, and writes nothing.
    let store = open(&db).await;
    sqlx::query(
        "UPDATE results SET response = 'ask Philomena Grubbswaite' WHERE widget_run_id = \
         (SELECT widget_run_id FROM results WHERE class_id = ? ORDER BY widget_run_id LIMIT 1)",
    )
    .bind(&class_id)
    .execute(store.sqlite().unwrap())
    .await
    .unwrap();
    store.close().await;
    let blocked_path = dir.path().join("blocked.json");
    let blocked = report(
        &db,
        &[
            "--class",
            &class_id,
            "--format",
            "json",
            "--out",
            blocked_path.to_str().unwrap(),
        ],
    );
    assert_eq!(blocked.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&blocked.stderr);
    assert!(stderr.contains("common_responses"), "{stderr}");
    assert!(!stderr.contains("Grubbswaite"), "{stderr}");
    assert!(!blocked_path.exists(), "nothing written");
    host.shutdown().await;
}
