//! The event log file: JSON lines, appended as things happen, read back on start.
//!
//! One record per line, tagged by `rec`: `start` (one per start of the host, so a restart
//! knows its generation and never reuses ids), `class`, `assignment`, `learners` and
//! `frame` (every frame of every class feed, with its `seq` and, for injected faults, the
//! rule that must reject it). Open calls, claims, pause and pacing are not written separately:
//! they are facts of the frames (their echoes) and are rebuilt from them. Each record is written with one `write`
//! and no buffering, so a crash loses at most the line being written; a torn last line is
//! skipped on load.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::error::HostError;
use crate::state::Assignment;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "rec", rename_all = "snake_case")]
pub(crate) enum Record {
    Start {
        generation: u64,
    },
    Class {
        class_id: String,
        title: String,
        join_code: String,
    },
    Assignment {
        class_id: String,
        #[serde(flatten)]
        assignment: Assignment,
    },
    Learners {
        class_id: String,
        learners: Vec<String>,
    },
    Frame {
        class_id: String,
        seq: u64,
        data: String,
        injected: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        expect_rule: Option<String>,
    },
}

pub(crate) struct Persist {
    path: PathBuf,
    file: Option<File>,
}

impl Persist {
    pub fn new(path: PathBuf) -> Self {
        Persist { path, file: None }
    }

    fn display(&self) -> String {
        self.path.display().to_string()
    }

    /// Reads every record, then opens the file for appending.
    pub fn load(&mut self) -> Result<Vec<Record>, HostError> {
        let mut records = Vec::new();
        // Bytes of whole, parsed lines: a torn last line is cut off before appending again.
        let mut good_len: Option<u64> = None;
        if self.path.exists() {
            let file = File::open(&self.path).map_err(|source| HostError::Log {
                path: self.display(),
                source,
            })?;
            let lines: Vec<String> = BufReader::new(file)
                .lines()
                .collect::<Result<_, _>>()
                .map_err(|source| HostError::Log {
                    path: self.display(),
                    source,
                })?;
            let last = lines.len();
            let mut offset = 0u64;
            for (i, line) in lines.iter().enumerate() {
                let start = offset;
                offset += line.len() as u64 + 1;
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Record>(line) {
                    Ok(r) => records.push(r),
                    Err(_) if i + 1 == last => {
                        tracing::warn!(line = i + 1, "skipping a torn last line of the event log");
                        good_len = Some(start);
                    }
                    Err(e) => {
                        return Err(HostError::LogFormat {
                            path: self.display(),
                            line: i + 1,
                            reason: e.to_string(),
                        });
                    }
                }
            }
        }
        if let Some(dir) = self.path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|source| HostError::Log {
                path: self.display(),
                source,
            })?;
        }
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .map_err(|source| HostError::Log {
                path: self.display(),
                source,
            })?;
        if let Some(len) = good_len {
            file.set_len(len).map_err(|source| HostError::Log {
                path: self.display(),
                source,
            })?;
        }
        self.file = Some(file);
        Ok(records)
    }

    pub fn append(&mut self, record: &Record) {
        let Some(file) = self.file.as_mut() else {
            return;
        };
        let mut line = match serde_json::to_string(record) {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot serialize a log record");
                return;
            }
        };
        line.push('\n');
        if let Err(e) = file.write_all(line.as_bytes()) {
            tracing::warn!(error = %e, "cannot append to the event log");
        }
    }
}
