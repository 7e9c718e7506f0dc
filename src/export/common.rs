//! What the formats share: the SQL of the export's scope (the IN list of its pathways, binding
//! the class and the pathways, counts, the newest run of each cell), the CSV header's id and name
//! columns, and the scan of serialised JSON.

use serde_json::Value;
use sqlx::{Database, Encode, FromRow, IntoArguments, Type};

use super::{ExportError, ExportRequest, Run};
use crate::store::Store;
use crate::store::engine::{json_list, on_pool};

/// The export being written: the store, the request, the pathways it covers, and its running
/// state. Each format takes one and streams its rows into a writer.
pub(super) struct Export<'a, 'r> {
    pub store: &'a Store,
    pub req: &'a ExportRequest,
    pub pathways: &'a [String],
    pub run: &'a mut Run<'r>,
}

/// What a format returns: the rows written.
pub(super) type Rows = Result<u64, ExportError>;

impl<'a, 'r> Export<'a, 'r> {
    pub fn parts(self) -> (&'a Store, &'a ExportRequest, &'a [String], &'a mut Run<'r>) {
        (self.store, self.req, self.pathways, self.run)
    }
}

/// `$first, $first+1, …` for an IN list of `n` (`NULL` for an empty one, which matches
/// nothing): numbered placeholders, which both engines read.
pub(super) fn numbered(first: usize, n: usize) -> String {
    if n == 0 {
        "NULL".to_string()
    } else {
        (first..first + n)
            .map(|i| format!("${i}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// A query over the export's scope, on either engine: binds the class (when given, the SQL's
/// first parameter), then each pathway of the IN list ([`numbered`]).
pub(super) fn scoped<'q, DB, T>(
    sql: &'q str,
    class_id: Option<&'q str>,
    pathways: &'q [String],
) -> sqlx::query::QueryAs<'q, DB, T, <DB as Database>::Arguments<'q>>
where
    DB: Database,
    T: for<'r> FromRow<'r, DB::Row>,
    &'q str: Encode<'q, DB> + Type<DB>,
    &'q String: Encode<'q, DB> + Type<DB>,
    <DB as Database>::Arguments<'q>: IntoArguments<'q, DB>,
{
    let mut q = sqlx::query_as::<DB, T>(sql);
    if let Some(class_id) = class_id {
        q = q.bind(class_id);
    }
    for p in pathways {
        q = q.bind(p);
    }
    q
}

/// [`scoped`], binding after the pathways the JSON array of learners a group's export is
/// narrowed to (when there is one: the SQL then holds [`learner_clause`] at that place).
pub(super) fn scoped_for<'q, DB, T>(
    sql: &'q str,
    class_id: &'q str,
    pathways: &'q [String],
    learners: Option<&'q str>,
) -> sqlx::query::QueryAs<'q, DB, T, <DB as Database>::Arguments<'q>>
where
    DB: Database,
    T: for<'r> FromRow<'r, DB::Row>,
    &'q str: Encode<'q, DB> + Type<DB>,
    &'q String: Encode<'q, DB> + Type<DB>,
    <DB as Database>::Arguments<'q>: IntoArguments<'q, DB>,
{
    let q = scoped(sql, Some(class_id), pathways);
    match learners {
        Some(json) => q.bind(json),
        None => q,
    }
}

/// ` AND learner IN (…the JSON array at $param…)` for a group's export, nothing for a class's.
pub(super) fn learner_clause(on: bool, param: usize, pg: bool) -> String {
    if on {
        format!(" AND learner IN ({})", json_list(&format!("${param}"), pg))
    } else {
        String::new()
    }
}

/// A `COUNT` over the scope on either engine: the class, then the pathways.
pub(super) async fn count(
    store: &Store,
    sql: &str,
    class_id: &str,
    pathways: &[String],
) -> Result<u64, ExportError> {
    let (n,): (i64,) = on_pool!(store.engine(), |pool| {
        scoped::<Db, (i64,)>(sql, Some(class_id), pathways)
            .fetch_one(pool)
            .await?
    });
    Ok(u64::try_from(n).unwrap_or(0))
}

/// How many stored results the export will write (one per completed run): the progress total.
pub(super) async fn count_results(
    store: &Store,
    class_id: &str,
    pathways: &[String],
) -> Result<u64, ExportError> {
    let sql = format!(
        "SELECT COUNT(*) FROM results WHERE class_id = $1 AND pathway_id IN ({})",
        numbered(2, pathways.len())
    );
    count(store, &sql, class_id, pathways).await
}

/// The latest completed run of each learner x step (a learner may redo a step; the grid and the
/// gradebook show the newest result, as the class view does).
pub(super) fn latest_cte(n_pathways: usize, extra: &str) -> String {
    format!(
        "WITH latest AS (SELECT *, ROW_NUMBER() OVER (PARTITION BY learner, pathway_id, widget_id \
         ORDER BY at_ms DESC, widget_run_id DESC) AS rn FROM results \
         WHERE class_id = $1 AND pathway_id IN ({}){extra})",
        numbered(2, n_pathways)
    )
}

/// A CSV header of one row per learner: `anonymous_id`, `display_name` in an identified export,
/// then `rest`.
pub(super) fn learner_header<'h>(run: &Run<'_>, rest: &[&'h str]) -> Vec<&'h str> {
    let mut header = vec!["anonymous_id"];
    if run.roster.is_some() {
        header.push("display_name");
    }
    header.extend_from_slice(rest);
    header
}

/// Scans a serialised JSON text; on a hit, walks the value to name the field (a match that spans
/// JSON syntax is reported against the whole line).
pub(super) fn check_serialized(
    run: &Run<'_>,
    place: &'static str,
    row: u64,
    prefix: &str,
    text: &str,
) -> Result<(), ExportError> {
    let Some(scanner) = &run.scanner else {
        return Ok(());
    };
    let Some(what) = scanner.scan(text) else {
        return Ok(());
    };
    let value: Value = serde_json::from_str(text)?;
    run.check_json(place, row, prefix, &value)?;
    Err(crate::privacy::PrivacyHit {
        what,
        place,
        row,
        field: prefix.to_string(),
    }
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbered_placeholders_cover_the_empty_list() {
        assert_eq!(numbered(2, 0), "NULL");
        assert_eq!(numbered(2, 3), "$2, $3, $4");
    }
}
