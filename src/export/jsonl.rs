//! `jsonl`: the stored contract payloads, one a line, byte for byte.

use std::io::Write;

use futures_util::TryStreamExt;

use super::common::{Export, Rows, check_serialized, count_results, numbered, scoped};
use crate::store::engine::on_pool;

/// JSON lines: each stored result's contract payload, byte for byte as stored, in time order.
/// An identified export wraps each line: `{"display_name": ..., "payload": <as stored>}`.
pub(super) async fn jsonl(x: Export<'_, '_>, mut out: impl Write + Send) -> Rows {
    let (store, req, pathways, run) = x.parts();
    let n = pathways.len();
    run.total = count_results(store, &req.class_id, pathways).await?;
    let sql = format!(
        "SELECT learner, payload FROM results_with_payload \
         WHERE class_id = $1 AND pathway_id IN ({}) \
         ORDER BY at_ms, widget_run_id",
        numbered(2, n)
    );
    on_pool!(store.engine(), |pool| {
        let mut rows =
            scoped::<Db, (String, String)>(&sql, Some(&req.class_id), pathways).fetch(pool);
        let mut line = 0;
        while let Some((learner, payload)) = rows.try_next().await? {
            if !run.includes(&learner) {
                continue;
            }
            line += 1;
            check_serialized(run, "line", line, "payload", &payload)?;
            match run.name(&learner) {
                Some(name) => {
                    let name = serde_json::to_string(name)?;
                    writeln!(out, "{{\"display_name\":{name},\"payload\":{payload}}}")?;
                }
                None => {
                    out.write_all(payload.as_bytes())?;
                    out.write_all(b"\n")?;
                }
            }
            run.tick()?;
        }
    });
    out.flush()?;
    Ok(run.done)
}
