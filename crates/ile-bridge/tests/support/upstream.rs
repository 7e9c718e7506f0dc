//! A fresh database with the upstream's tables (fixtures/upstream-schema.sql) on the PostgreSQL
//! test cluster, for the bridge's tests here and in the CLI crate (included by path). Without a
//! cluster the caller's test is skipped, and fails under CI (tests/support/peers.rs).

use sqlx::postgres::PgPoolOptions;
use sqlx::{Connection, PgPool};

/// The shared pathway every test row belongs to, and the student who shared it.
pub const SESSION: &str = "9d2c7a51-3f7e-4c55-8b1a-0c9e8f7d6a5b";
pub const OWNER: &str = "5b0f4c1e-8a2d-4c3b-9e7f-1a2b3c4d5e6f";

/// A database called `ile_<name>_<pid>` with the upstream's tables, the owner's student row and
/// the shared pathway (`plan`); its pool and URL. `None` (the test skipped) without a cluster.
pub async fn upstream_database(
    name: &str,
    owner_name: &str,
    plan: serde_json::Value,
) -> Option<(PgPool, String)> {
    let Some(admin) = std::env::var("A2LEARN_TEST_PG_URL")
        .ok()
        .filter(|u| !u.trim().is_empty())
    else {
        super::peers::missing("PostgreSQL", "A2LEARN_TEST_PG_URL is not set");
        return None;
    };
    let db = format!("ile_{name}_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(&admin).await.unwrap();
    sqlx::query(&format!("DROP DATABASE IF EXISTS {db} WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .unwrap();
    sqlx::query(&format!("CREATE DATABASE {db}"))
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    let (base, _) = admin.rsplit_once('/').unwrap();
    let url = format!("{base}/{db}");
    let pool = PgPoolOptions::new()
        .max_connections(4)
        .connect(&url)
        .await
        .unwrap();
    sqlx::raw_sql(include_str!("../fixtures/upstream-schema.sql"))
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO students (id, display_name) VALUES ($1::uuid, $2)")
        .bind(OWNER)
        .bind(owner_name)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO pathway_sessions (id, student_id, topic, anchor, plan) \
         VALUES ($1::uuid, $2::uuid, 'Equivalent fractions', \
                 '{\"standard\": {\"code\": \"MATH.4.NF.EQUIV\"}}', $3)",
    )
    .bind(SESSION)
    .bind(OWNER)
    .bind(plan)
    .execute(&pool)
    .await
    .unwrap();
    Some((pool, url))
}
