//! Each class's contract messages, folded once from its rows and kept: the feed's frames (seq =
//! the row's id) and `get_pathway_results` both read them, so the two always agree. A row with no
//! contract form is kept aside with its reason (logged without ids, and sent at its seq as
//! `a2learn.host.set_aside` for the dashboard's Diagnostics); the feed goes on.

use std::collections::HashMap;
use std::sync::Arc;

use a2learn_contract::dialect::ile::{Folder, Row, plan_steps};
use a2learn_contract::transport::agui;
use a2learn_contract::{HostEvent, Message, Registry, SetAside};
use serde_json::Value;
use tokio::sync::Mutex;

use crate::pseudonym::pseudonym;
use crate::source::Source;

/// The pathway id of a class: its session's, prefixed.
pub fn pathway_id(session_id: &str) -> String {
    format!("ile-{session_id}")
}

/// One class's messages so far.
pub struct ClassLog {
    folder: Folder,
    /// Rows folded up to this id.
    upto: i64,
    /// `(seq, AG-UI event)`, in seq order.
    pub frames: Vec<(i64, String)>,
    pub completed: Vec<Value>,
    pub struggles: Vec<Value>,
    /// Rows kept aside: `(id, why)`.
    pub set_aside: Vec<(i64, String)>,
}

impl ClassLog {
    /// Keeps a row aside, and tells the dashboard at the row's seq (`a2learn.host.set_aside`),
    /// so its Diagnostics lists the row with the reason. The reason may quote what the row
    /// said (a widget kind a browser sent); when that would not pass the contract's rule on
    /// host text, the dashboard gets the rule's words instead.
    fn set_aside(&mut self, id: i64, reason: String) {
        let source = format!("interactions row {id}");
        let cut: String = reason
            .chars()
            .take(a2learn_contract::rules::PROSE_MAX)
            .collect();
        let mut event = HostEvent::SetAside(SetAside {
            source: source.clone(),
            reason: cut,
        });
        if let Err(e) = a2learn_contract::check::check_host_event(&event) {
            event = HostEvent::SetAside(SetAside {
                source,
                reason: format!("its reason could not be sent ({})", e.rule_id()),
            });
        }
        if let Ok(frame) = agui::project_host(&event) {
            self.frames.push((id, frame));
        }
        self.set_aside.push((id, reason));
    }
}

/// Every class asked for so far.
#[derive(Clone)]
pub struct Classes {
    source: Source,
    key: Arc<str>,
    registry: Arc<Registry>,
    logs: Arc<Mutex<HashMap<String, Arc<Mutex<ClassLog>>>>>,
}

#[derive(Debug, thiserror::Error)]
pub enum ClassError {
    #[error("no shared pathway {0:?}")]
    Unknown(String),
    #[error("the upstream database: {0}")]
    Source(#[from] sqlx::Error),
}

impl Classes {
    pub fn new(source: Source, key: &str) -> Self {
        Classes {
            source,
            key: key.into(),
            registry: Arc::new(
                Registry::new(a2learn_contract::dialect::ile::registry_entries())
                    .unwrap_or_default(),
            ),
            logs: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    pub fn source(&self) -> &Source {
        &self.source
    }

    pub fn key(&self) -> &str {
        &self.key
    }

    /// A class's log, folded up to `settled` (the commit horizon).
    pub async fn caught_up(
        &self,
        class_id: &str,
        settled: i64,
    ) -> Result<Arc<Mutex<ClassLog>>, ClassError> {
        let log = {
            let mut logs = self.logs.lock().await;
            match logs.get(class_id) {
                Some(log) => log.clone(),
                None => {
                    let session = self
                        .source
                        .session(class_id)
                        .await?
                        .ok_or_else(|| ClassError::Unknown(class_id.to_owned()))?;
                    let steps = plan_steps(&session.id, &session.plan);
                    let log = Arc::new(Mutex::new(ClassLog {
                        folder: Folder::new(&pathway_id(&session.id), steps),
                        upto: 0,
                        frames: Vec::new(),
                        completed: Vec::new(),
                        struggles: Vec::new(),
                        set_aside: Vec::new(),
                    }));
                    logs.insert(class_id.to_owned(), log.clone());
                    log
                }
            }
        };
        {
            let mut guard = log.lock().await;
            if guard.upto < settled {
                let rows = self.source.rows(class_id, guard.upto, settled).await?;
                for row in rows {
                    self.fold(&mut guard, row);
                }
                guard.upto = settled;
            }
        }
        Ok(log)
    }

    fn fold(&self, log: &mut ClassLog, row: crate::source::SourceRow) {
        let at = a2learn_contract::rfc3339::format_ms(row.created_at_ms)
            .unwrap_or_else(|| "1970-01-01T00:00:00Z".into());
        let folded = log.folder.fold(&Row {
            learner: pseudonym(&self.key, &row.student_id),
            widget_kind: row.widget_kind,
            event_type: row.event_type,
            standard_code: row.standard_code,
            correct: row.correct,
            payload: row.payload,
            at,
        });
        let messages = match folded {
            Ok(messages) => messages,
            Err(why) => {
                tracing::warn!(row = row.id, reason = %why, "an upstream row has no contract form; kept aside");
                log.set_aside(row.id, why.to_string());
                return;
            }
        };
        // A row folds into one message at most; what the bridge sends passes the contract's
        // single-message rules, and a message that would not (a step title with an e-mail
        // address in it, say) is kept aside instead.
        for message in messages {
            if let Err(e) = a2learn_contract::validate_message(&message, &self.registry) {
                log.set_aside(row.id, format!("{}: {e}", e.rule_id()));
                continue;
            }
            let (payload, list) = match &message {
                Message::WidgetCompleted(m) => (serde_json::to_value(m), &mut log.completed),
                Message::WidgetStruggle(m) => (serde_json::to_value(m), &mut log.struggles),
                _ => continue,
            };
            let (Ok(payload), Ok(frame)) = (payload, agui::project(&message)) else {
                continue;
            };
            list.push(payload);
            log.frames.push((row.id, frame));
        }
    }
}
