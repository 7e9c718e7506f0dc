//! `a2learn-teacher contract import --dialect ile`: the upstream project's chat reports and
//! telemetry batches in, contract messages (AG-UI, one per line) out. The translation itself is
//! `a2learn_contract::dialect::ile`; this module reads lines, gives learners their pseudonyms
//! and prints.

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use a2learn_contract::dialect::ile::{self, DialectError, Folder, Row, Step};
use a2learn_contract::transport::agui;
use a2learn_contract::{Identity, Message};
use a2learn_teacher::clock::{Clock, SystemClock};
use anyhow::Context;
use ile_bridge::pseudonym::pseudonym;
use serde_json::Value;

use super::contract::{Dialect, ImportArgs, read_input};

/// The learner of every chat report: a chat names no student.
const CHAT_LEARNER: &str = "ile_chat_learner";

pub fn run(args: &ImportArgs) -> anyhow::Result<ExitCode> {
    match args.dialect {
        Dialect::Ile => {}
    }
    let key = match &args.key_file {
        Some(path) => key_from(path)?,
        None => pathway_host::cli::random_token()?,
    };
    let base_ms = match &args.at {
        Some(text) => a2learn_contract::rfc3339::parse_ms(text)
            .with_context(|| format!("--at {text:?} is not an RFC 3339 time"))?,
        None => SystemClock.now_ms(),
    };
    let text = read_input(&args.file)?;
    let mut importer = Importer {
        key,
        base_ms,
        folders: HashMap::new(),
    };
    let mut failed = false;
    let mut out = std::io::stdout().lock();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // What translates is printed; what does not is named, and the lines go on.
        let (messages, errors) = importer.line(i + 1, line);
        for message in messages {
            writeln!(out, "{}", agui::project(&message)?)?;
        }
        for why in errors {
            failed = true;
            eprintln!("line {}: {why}", i + 1);
        }
    }
    Ok(if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// The pseudonyms' secret: read from the file, or made and written there (this user only).
pub(crate) fn key_from(path: &Path) -> anyhow::Result<String> {
    if let Ok(text) = std::fs::read_to_string(path) {
        let key = text.trim().to_owned();
        anyhow::ensure!(!key.is_empty(), "{} is empty", path.display());
        return Ok(key);
    }
    let key = pathway_host::cli::random_token()?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options
        .open(path)
        .with_context(|| format!("creating {}", path.display()))?;
    writeln!(file, "{key}")?;
    Ok(key)
}

struct Importer {
    key: String,
    base_ms: i64,
    /// One fold per session: a batch's runs go on in the next batch of the same session.
    folders: HashMap<String, Folder>,
}

impl Importer {
    /// The messages a line translates to, and why each part that has no contract form has none.
    fn line(&mut self, n: usize, line: &str) -> (Vec<Message>, Vec<String>) {
        match self.translate(n, line) {
            Ok(done) => done,
            Err(why) => (Vec::new(), vec![why]),
        }
    }

    fn translate(&mut self, n: usize, line: &str) -> Result<(Vec<Message>, Vec<String>), String> {
        let value: Value = serde_json::from_str(line).map_err(|e| format!("not JSON: {e}"))?;
        if value.get("method").is_some() {
            let ids = Identity {
                learner: CHAT_LEARNER.into(),
                widget_run_id: format!("ile-chat-run-{n}"),
                widget_id: format!("ile-chat-widget-{n}"),
                pathway_id: "ile-chat".into(),
                at: self.at(0),
            };
            return ile::from_chat_report(&value, &ids)
                .map(|m| (m.into_iter().collect(), Vec::new()))
                .map_err(|e| e.to_string());
        }
        let Some(events) = value.get("events").and_then(Value::as_array) else {
            return Err(DialectError::NotUpstream(
                "neither a chat report nor a telemetry batch ({sessionId, studentId, events})"
                    .into(),
            )
            .to_string());
        };
        let field = |key: &str| {
            value
                .get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.trim().is_empty())
                .ok_or_else(|| format!("the batch has no {key}"))
        };
        let session = field("sessionId")?.to_owned();
        let learner = pseudonym(&self.key, field("studentId")?);
        let mut messages = Vec::new();
        let mut errors = Vec::new();
        for (i, event) in events.iter().enumerate() {
            let at = self.at(event.get("elapsedMs").and_then(Value::as_i64).unwrap_or(0));
            let kind = event
                .get("widgetKind")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let folder = self
                .folders
                .entry(session.clone())
                .or_insert_with(|| Folder::new(&format!("ile-{session}"), Vec::new()));
            if let Some(kind) = &kind {
                // A batch names no plan: each kind the session uses is one step.
                folder.ensure_step(Step {
                    widget_id: format!("{session}-{kind}"),
                    kind: kind.clone(),
                    title: kind.clone(),
                });
            }
            let row = Row {
                learner: learner.clone(),
                widget_kind: kind,
                event_type: event
                    .get("eventType")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_owned(),
                standard_code: event
                    .get("standardCode")
                    .and_then(Value::as_str)
                    .map(str::to_owned),
                correct: event.get("correct").and_then(Value::as_bool),
                payload: event.get("payload").cloned().unwrap_or(Value::Null),
                at,
            };
            match folder.fold(&row) {
                Ok(out) => messages.extend(out),
                Err(e) => errors.push(format!("event {}: {e}", i + 1)),
            }
        }
        Ok((messages, errors))
    }

    fn at(&self, after_ms: i64) -> String {
        a2learn_contract::rfc3339::format_ms(self.base_ms.saturating_add(after_ms.max(0)))
            .unwrap_or_else(|| "1970-01-01T00:00:00Z".into())
    }
}
