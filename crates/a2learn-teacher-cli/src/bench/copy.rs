//! Rows read from one store and written into another, on either engine: the ingest bench's
//! same-rows raw limit (the pipeline's rows written again without the pipeline), and the views
//! bench's PostgreSQL copy of its filled SQLite store. A value is bound as its target column's
//! type (a SQLite flag, an integer, goes into PostgreSQL's `BOOLEAN` as a bool; a NULL is typed
//! by its column), since PostgreSQL casts neither.

use std::collections::HashMap;

use sqlx::{Column, QueryBuilder, Row, TypeInfo, ValueRef};

use a2learn_teacher::store::{ROWS_PER_STATEMENT, RawPool, Store};

/// Runs `$body` with `$p` bound to the store's own pool, `Db` naming its engine and `PG` saying
/// which it is (`$N` placeholders read the same on both).
macro_rules! on_raw {
    ($store:expr, |$p:ident| $body:expr) => {
        match $store.raw_pool() {
            a2learn_teacher::store::RawPool::Sqlite($p) => {
                #[allow(dead_code)]
                type Db = sqlx::Sqlite;
                #[allow(dead_code)]
                const PG: bool = false;
                $body
            }
            a2learn_teacher::store::RawPool::Postgres($p) => {
                #[allow(dead_code)]
                type Db = sqlx::Postgres;
                #[allow(dead_code)]
                const PG: bool = true;
                $body
            }
        }
    };
}
pub(crate) use on_raw;

/// One stored value.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Null,
    Int(i64),
    Bool(bool),
    Real(f64),
    Text(String),
}

/// Rows of one table: its columns and values.
#[derive(Debug, Clone, Default)]
pub struct TableRows {
    pub table: &'static str,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Val>>,
}

/// Every row of `table` in `store`, in `order` (none when empty), without the columns in
/// `skip` (a database's own ids, which the target assigns again).
pub async fn read_table(
    store: &Store,
    table: &'static str,
    order: &str,
    skip: &[&str],
) -> anyhow::Result<TableRows> {
    let sql = if order.is_empty() {
        format!("SELECT * FROM {table}")
    } else {
        format!("SELECT * FROM {table} ORDER BY {order}")
    };
    let mut t = TableRows {
        table,
        ..TableRows::default()
    };
    on_raw!(store, |pool| {
        let rows = sqlx::query::<Db>(&sql).fetch_all(pool).await?;
        let keep: Vec<usize> = match rows.first() {
            Some(row) => row
                .columns()
                .iter()
                .filter(|c| !skip.contains(&c.name()))
                .map(|c| c.ordinal())
                .collect(),
            None => Vec::new(),
        };
        if let Some(row) = rows.first() {
            t.columns = keep
                .iter()
                .map(|&i| row.columns()[i].name().to_string())
                .collect();
        }
        for row in &rows {
            let mut values = Vec::with_capacity(keep.len());
            for &i in &keep {
                let raw = row.try_get_raw(i)?;
                let value = if raw.is_null() {
                    Val::Null
                } else {
                    match raw.type_info().name() {
                        "INTEGER" | "INT8" | "BIGINT" => Val::Int(row.try_get(i)?),
                        "INT4" => Val::Int(i64::from(row.try_get::<i32, _>(i)?)),
                        "BOOL" | "BOOLEAN" => Val::Bool(row.try_get(i)?),
                        "REAL" | "FLOAT8" => Val::Real(row.try_get(i)?),
                        _ => Val::Text(row.try_get(i)?),
                    }
                };
                values.push(value);
            }
            t.rows.push(values);
        }
    });
    Ok(t)
}

/// What a target column holds, as far as binding a value into it goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bool,
    Int,
    Real,
    Text,
}

/// The kind of each column of `table` in `store`.
async fn column_kinds(store: &Store, table: &str) -> anyhow::Result<HashMap<String, Kind>> {
    let columns: Vec<(String, String)> = match store.raw_pool() {
        RawPool::Sqlite(pool) => {
            sqlx::query_as("SELECT name, type FROM pragma_table_info($1)")
                .bind(table)
                .fetch_all(pool)
                .await?
        }
        RawPool::Postgres(pool) => {
            sqlx::query_as(
                "SELECT column_name::TEXT, data_type::TEXT FROM information_schema.columns \
                 WHERE table_schema = current_schema() AND table_name = $1",
            )
            .bind(table)
            .fetch_all(pool)
            .await?
        }
    };
    Ok(columns
        .into_iter()
        .map(|(name, declared)| {
            let declared = declared.to_ascii_lowercase();
            let kind = if declared.contains("bool") {
                Kind::Bool
            } else if declared.contains("int") {
                Kind::Int
            } else if declared.contains("real")
                || declared.contains("double")
                || declared.contains("float")
            {
                Kind::Real
            } else {
                Kind::Text
            };
            (name, kind)
        })
        .collect())
}

/// The kinds of the columns of some tables in a target store, read once before the timed
/// writes.
#[derive(Debug, Clone)]
pub struct Kinds(Vec<Vec<Kind>>);

/// The kinds of `tables`' columns in `store`.
pub async fn kinds_in(store: &Store, tables: &[TableRows]) -> anyhow::Result<Kinds> {
    let mut kinds = Vec::with_capacity(tables.len());
    for table in tables {
        let of = column_kinds(store, table.table).await?;
        kinds.push(
            table
                .columns
                .iter()
                .map(|c| of.get(c).copied().unwrap_or(Kind::Text))
                .collect::<Vec<_>>(),
        );
    }
    Ok(Kinds(kinds))
}

/// Writes, for each table, the rows `share` picks from it, in one transaction (on SQLite with
/// the write lock taken first, as the pipeline takes it), in multi-row statements of as many rows
/// as the pipeline's (fewer for wide tables); `kinds` from [`kinds_in`] for the same tables and store.
pub async fn insert_rows<'t>(
    store: &Store,
    tables: &'t [TableRows],
    kinds: &Kinds,
    share: impl Fn(&'t TableRows) -> &'t [Vec<Val>],
) -> anyhow::Result<()> {
    on_raw!(store, |pool| {
        let mut tx = if PG {
            pool.begin().await?
        } else {
            pool.begin_with("BEGIN IMMEDIATE").await?
        };
        for (table, kinds) in tables.iter().zip(&kinds.0) {
            let rows = share(table);
            if rows.is_empty() {
                continue;
            }
            let per_statement = (30_000 / table.columns.len().max(1)).min(ROWS_PER_STATEMENT);
            for chunk in rows.chunks(per_statement) {
                let mut q = QueryBuilder::<Db>::new(format!(
                    "INSERT INTO {} ({}) ",
                    table.table,
                    table.columns.join(", ")
                ));
                q.push_values(chunk, |mut b, row| {
                    for (v, kind) in row.iter().zip(kinds) {
                        match (v, kind) {
                            (Val::Null, Kind::Bool) => b.push_bind(Option::<bool>::None),
                            (Val::Null, Kind::Int) => b.push_bind(Option::<i64>::None),
                            (Val::Null, Kind::Real) => b.push_bind(Option::<f64>::None),
                            (Val::Null, Kind::Text) => b.push_bind(Option::<String>::None),
                            (Val::Int(i), Kind::Bool) => b.push_bind(*i != 0),
                            (Val::Bool(x), Kind::Int) => b.push_bind(i64::from(*x)),
                            (Val::Int(i), _) => b.push_bind(*i),
                            (Val::Bool(x), _) => b.push_bind(*x),
                            (Val::Real(r), _) => b.push_bind(*r),
                            (Val::Text(s), _) => b.push_bind(s.as_str()),
                        };
                    }
                });
                q.build().execute(&mut *tx).await?;
            }
        }
        tx.commit().await?;
    });
    Ok(())
}
