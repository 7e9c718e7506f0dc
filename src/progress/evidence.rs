//! The evidence behind one grid cell: every completion (its prose sentence and structured result)
//! and every struggle signal of one learner on one step, newest first. Prose and detail are the
//! widget's untrusted text: views render them as text, never as markup.

use serde::Serialize;

use crate::store::{Store, StoreError};

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceResult {
    pub widget_run_id: String,
    pub kind: String,
    pub standard: Option<String>,
    pub correct: Option<bool>,
    pub attempts: i64,
    pub hints: i64,
    pub score: Option<f64>,
    pub at_ms: i64,
    pub prose: String,
    /// The `detail` object as compact JSON text.
    pub detail: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvidenceStruggle {
    pub widget_run_id: String,
    pub failed_checks: i64,
    pub hints: i64,
    pub at_ms: i64,
    pub prose: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evidence {
    pub results: Vec<EvidenceResult>,
    pub struggles: Vec<EvidenceStruggle>,
    /// Open assist calls on this step (help requests waiting).
    pub open_requests: u32,
}

/// `prose` and `detail` from a stored payload (the contract module's own serialization).
fn prose_and_detail(payload: &str) -> (String, String) {
    let value: serde_json::Value = serde_json::from_str(payload).unwrap_or_default();
    let prose = value
        .get("prose")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_string();
    let detail = value
        .get("widget_result")
        .and_then(|r| r.get("detail"))
        .map(serde_json::Value::to_string)
        .unwrap_or_else(|| "{}".to_string());
    (prose, detail)
}

type ResultRow = (
    String,
    String,
    Option<String>,
    Option<bool>,
    i64,
    i64,
    Option<f64>,
    i64,
    String,
);

impl Store {
    pub async fn evidence(
        &self,
        class_id: &str,
        pathway_id: &str,
        learner: &str,
        widget_id: &str,
    ) -> Result<Evidence, StoreError> {
        let rows: Vec<ResultRow> = sqlx::query_as(
            "SELECT widget_run_id, kind, standard, correct, attempts, hints, score, at_ms, payload \
             FROM results WHERE class_id = ? AND pathway_id = ? AND learner = ? AND widget_id = ? \
             ORDER BY at_ms DESC, widget_run_id",
        )
        .bind(class_id)
        .bind(pathway_id)
        .bind(learner)
        .bind(widget_id)
        .fetch_all(self.pool())
        .await?;
        let results = rows
            .into_iter()
            .map(
                |(
                    widget_run_id,
                    kind,
                    standard,
                    correct,
                    attempts,
                    hints,
                    score,
                    at_ms,
                    payload,
                )| {
                    let (prose, detail) = prose_and_detail(&payload);
                    EvidenceResult {
                        widget_run_id,
                        kind,
                        standard,
                        correct,
                        attempts,
                        hints,
                        score,
                        at_ms,
                        prose,
                        detail,
                    }
                },
            )
            .collect();
        let rows: Vec<(String, i64, i64, i64, String)> = sqlx::query_as(
            "SELECT widget_run_id, failed_checks, hints, at_ms, payload FROM struggles \
             WHERE class_id = ? AND pathway_id = ? AND learner = ? AND widget_id = ? \
             ORDER BY at_ms DESC, widget_run_id",
        )
        .bind(class_id)
        .bind(pathway_id)
        .bind(learner)
        .bind(widget_id)
        .fetch_all(self.pool())
        .await?;
        let struggles = rows
            .into_iter()
            .map(
                |(widget_run_id, failed_checks, hints, at_ms, payload)| EvidenceStruggle {
                    widget_run_id,
                    failed_checks,
                    hints,
                    at_ms,
                    prose: prose_and_detail(&payload).0,
                },
            )
            .collect();
        let open: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM calls WHERE class_id = ? AND pathway_id = ? AND learner = ? \
             AND widget_id = ? AND function = 'assist' AND state = 'open'",
        )
        .bind(class_id)
        .bind(pathway_id)
        .bind(learner)
        .bind(widget_id)
        .fetch_one(self.pool())
        .await?;
        Ok(Evidence {
            results,
            struggles,
            open_requests: u32::try_from(open).unwrap_or(0),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_and_detail_come_from_the_payload_as_text() {
        let (p, d) = prose_and_detail(
            r#"{"prose":"<b>Did it</b>","widget_result":{"detail":{"x":"<script>"}}}"#,
        );
        assert_eq!(p, "<b>Did it</b>");
        assert_eq!(d, r#"{"x":"<script>"}"#);
        assert_eq!(prose_and_detail("not json"), (String::new(), "{}".into()));
    }
}
