//! The evidence behind one grid cell: every completion (its prose sentence and structured result)
//! and every struggle signal of one learner on one step, newest first. Prose and detail are the
//! widget's untrusted text: views render them as text, never as markup.

use serde::Serialize;

use crate::store::engine::on_pool;
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

/// One row of a widget's `detail` as a key/value table shows it: nested objects flatten to dotted
/// keys (`parts.numerator`), arrays of plain values join with ", ", others index their keys
/// (`steps[1].answer`). The value is the widget's untrusted text: render it as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct DetailField {
    pub key: String,
    pub value: String,
}

/// At most this many rows from one `detail`: a widget that sends a huge object gets a table a
/// teacher can still read, ending with a row that says how many were left out.
pub const MAX_DETAIL_FIELDS: usize = 40;

/// The rows of a `detail` object given as JSON text (as [`EvidenceResult::detail`] holds it).
/// Text that is not a JSON object becomes one row keyed `detail`.
pub fn detail_fields(detail_json: &str) -> Vec<DetailField> {
    use serde_json::Value;
    fn plain(v: &Value) -> Option<String> {
        match v {
            Value::Null => Some("—".to_string()),
            Value::Bool(b) => Some(if *b { "yes" } else { "no" }.to_string()),
            Value::Number(n) => Some(n.to_string()),
            Value::String(s) => Some(s.clone()),
            Value::Array(_) | Value::Object(_) => None,
        }
    }
    fn walk(key: String, v: &Value, out: &mut Vec<DetailField>) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    let key = if key.is_empty() {
                        k.clone()
                    } else {
                        format!("{key}.{k}")
                    };
                    walk(key, v, out);
                }
            }
            Value::Array(items) => match items.iter().map(plain).collect::<Option<Vec<_>>>() {
                Some(values) => out.push(DetailField {
                    key,
                    value: values.join(", "),
                }),
                None => {
                    for (i, v) in items.iter().enumerate() {
                        walk(format!("{key}[{}]", i + 1), v, out);
                    }
                }
            },
            scalar => out.push(DetailField {
                key,
                value: plain(scalar).unwrap_or_default(),
            }),
        }
    }
    let mut out = Vec::new();
    match serde_json::from_str::<Value>(detail_json) {
        Ok(v @ Value::Object(_)) => walk(String::new(), &v, &mut out),
        Ok(v) => walk("detail".to_string(), &v, &mut out),
        Err(_) if detail_json.trim().is_empty() => {}
        Err(_) => out.push(DetailField {
            key: "detail".to_string(),
            value: detail_json.to_string(),
        }),
    }
    if out.len() > MAX_DETAIL_FIELDS {
        let left = out.len() - (MAX_DETAIL_FIELDS - 1);
        out.truncate(MAX_DETAIL_FIELDS - 1);
        out.push(DetailField {
            key: "…".to_string(),
            value: format!("{left} more fields not shown"),
        });
    }
    out
}

/// `prose` and `detail` from a stored payload (the contract module's own serialization).
pub(crate) fn prose_and_detail(payload: &str) -> (String, String) {
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
    /// The evidence behind one cell of the grid, newest first (on both engines).
    pub async fn evidence(
        &self,
        class_id: &str,
        pathway_id: &str,
        learner: &str,
        widget_id: &str,
    ) -> Result<Evidence, StoreError> {
        let rows: Vec<ResultRow> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT widget_run_id, kind, standard, correct, attempts, hints, score, at_ms, \
                 payload FROM results_with_payload \
                 WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 AND widget_id = $4 \
                 ORDER BY at_ms DESC, widget_run_id",
            )
            .bind(class_id)
            .bind(pathway_id)
            .bind(learner)
            .bind(widget_id)
            .fetch_all(pool)
            .await?
        });
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
        let rows: Vec<(String, i64, i64, i64, String)> = on_pool!(self.engine(), |pool| {
            sqlx::query_as(
                "SELECT widget_run_id, failed_checks, hints, at_ms, payload \
                 FROM struggles_with_payload \
                 WHERE class_id = $1 AND pathway_id = $2 AND learner = $3 AND widget_id = $4 \
                 ORDER BY at_ms DESC, widget_run_id",
            )
            .bind(class_id)
            .bind(pathway_id)
            .bind(learner)
            .bind(widget_id)
            .fetch_all(pool)
            .await?
        });
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
        let open: i64 = on_pool!(self.engine(), |pool| {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM calls WHERE class_id = $1 AND pathway_id = $2 \
                 AND learner = $3 AND widget_id = $4 AND function = 'assist' AND state = 'open'",
            )
            .bind(class_id)
            .bind(pathway_id)
            .bind(learner)
            .bind(widget_id)
            .fetch_one(pool)
            .await?
        });
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

    fn rows(json: &str) -> Vec<(String, String)> {
        detail_fields(json)
            .into_iter()
            .map(|f| (f.key, f.value))
            .collect()
    }

    #[test]
    fn detail_becomes_key_value_rows_never_a_json_block() {
        let got = rows(
            r#"{"response":"3/4","parts":{"num":3,"den":4},"tries":["1/2","3/4"],"ok":true,"none":null,
                "steps":[{"answer":"<b>x</b>"},{"answer":"y"}]}"#,
        );
        assert_eq!(
            got,
            vec![
                ("none".into(), "—".into()),
                ("ok".into(), "yes".into()),
                ("parts.den".into(), "4".into()),
                ("parts.num".into(), "3".into()),
                ("response".into(), "3/4".into()),
                ("steps[1].answer".into(), "<b>x</b>".into()),
                ("steps[2].answer".into(), "y".into()),
                ("tries".into(), "1/2, 3/4".into()),
            ]
        );
        assert!(got.iter().all(|(_, v)| !v.starts_with('{')), "{got:?}");
        // Negative controls: an empty object gives no row; text that is not JSON is one row.
        assert!(rows("{}").is_empty());
        assert_eq!(rows("oops"), vec![("detail".into(), "oops".into())]);
        assert_eq!(rows("7"), vec![("detail".into(), "7".into())]);
    }

    #[test]
    fn a_huge_detail_is_cut_with_a_row_that_says_so() {
        let big: serde_json::Map<String, serde_json::Value> = (0..100)
            .map(|i| (format!("k{i:03}"), serde_json::Value::from(i)))
            .collect();
        let got = rows(&serde_json::Value::Object(big).to_string());
        assert_eq!(got.len(), MAX_DETAIL_FIELDS);
        assert_eq!(got[0], ("k000".into(), "0".into()));
        assert_eq!(
            got.last().map(|r| r.1.as_str()),
            Some("61 more fields not shown")
        );
    }
}
