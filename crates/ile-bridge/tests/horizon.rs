//! The commit horizon against a real PostgreSQL (the test cluster): a row whose id was taken
//! first but committed last is neither skipped nor sent out of order; a rolled-back id is passed
//! over once its transaction ended; and the naive reader (the highest id seen) skips the late row,
//! the negative control that shows the test can fail.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use std::time::{Duration, Instant};

use ile_bridge::horizon::{HOLD, Horizon};
use sqlx::PgPool;
use support::upstream::{OWNER, SESSION, upstream_database};

async fn database(name: &str) -> Option<PgPool> {
    let (pool, _) = upstream_database(name, "Learner", serde_json::json!({"steps": []})).await?;
    Some(pool)
}

const INSERT: &str = "INSERT INTO interactions (session_id, student_id, widget_kind, event_type, elapsed_ms) \
     VALUES ($1::uuid, $2::uuid, 'drag-sort', 'widget_shown', 0) RETURNING id";

/// The naive reader: everything above the highest id seen so far.
async fn naive(pool: &PgPool, after: i64) -> Vec<i64> {
    sqlx::query_scalar("SELECT id FROM interactions WHERE id > $1 ORDER BY id")
        .bind(after)
        .fetch_all(pool)
        .await
        .unwrap()
}

/// Advances until the horizon reaches `target` (it must, within `within`).
async fn advance_to(h: &mut Horizon, pool: &PgPool, target: i64, within: Duration) {
    let started = Instant::now();
    while h.advance(pool, Instant::now()).await.unwrap() < target {
        assert!(started.elapsed() < within, "stuck at {}", h.settled());
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_row_committed_after_a_higher_one_is_neither_skipped_nor_sent_out_of_order() {
    let Some(pool) = database("late_commit").await else {
        return;
    };
    let first: i64 = sqlx::query_scalar(INSERT)
        .bind(SESSION)
        .bind(OWNER)
        .fetch_one(&pool)
        .await
        .unwrap();
    let mut horizon = Horizon::new(0);
    advance_to(&mut horizon, &pool, first, Duration::from_secs(5)).await;

    // The lower id is taken first and committed last.
    let mut low = pool.begin().await.unwrap();
    let low_id: i64 = sqlx::query_scalar(INSERT)
        .bind(SESSION)
        .bind(OWNER)
        .fetch_one(&mut *low)
        .await
        .unwrap();
    let high_id: i64 = sqlx::query_scalar(INSERT)
        .bind(SESSION)
        .bind(OWNER)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(low_id < high_id);

    // The naive reader sends the higher row now, and will never go back for the lower one.
    assert_eq!(naive(&pool, first).await, [high_id]);
    // The horizon holds, however long the lower transaction stays open.
    let started = Instant::now();
    while started.elapsed() < HOLD * 3 {
        let settled = horizon.advance(&pool, Instant::now()).await.unwrap();
        assert_eq!(settled, first, "nothing past the open transaction's id");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    low.commit().await.unwrap();
    advance_to(&mut horizon, &pool, high_id, Duration::from_secs(5)).await;
    assert_eq!(horizon.settled(), high_id);
    // Both rows, in id order, below the horizon: what the feed sends next.
    let sent: Vec<i64> =
        sqlx::query_scalar("SELECT id FROM interactions WHERE id > $1 AND id <= $2 ORDER BY id")
            .bind(first)
            .bind(horizon.settled())
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(sent, [low_id, high_id]);
}

#[tokio::test]
async fn a_rolled_back_id_is_passed_over_once_its_transaction_ended() {
    let Some(pool) = database("rollback").await else {
        return;
    };
    let mut gone = pool.begin().await.unwrap();
    let gone_id: i64 = sqlx::query_scalar(INSERT)
        .bind(SESSION)
        .bind(OWNER)
        .fetch_one(&mut *gone)
        .await
        .unwrap();
    let kept: i64 = sqlx::query_scalar(INSERT)
        .bind(SESSION)
        .bind(OWNER)
        .fetch_one(&pool)
        .await
        .unwrap();
    let mut horizon = Horizon::new(0);
    // The time is passed in: the gap is first seen at `seen`.
    let seen = Instant::now();
    let settled = horizon.advance(&pool, seen).await.unwrap();
    assert_eq!(
        settled,
        gone_id - 1,
        "held before the open transaction's id"
    );
    gone.rollback().await.unwrap();
    // Its transaction has ended, but the hold has not passed (by the time passed in): still held.
    assert_eq!(horizon.advance(&pool, seen).await.unwrap(), gone_id - 1);
    // After the hold, the rolled-back id is dead and the next row is reached.
    advance_to(&mut horizon, &pool, kept, Duration::from_secs(5)).await;
    // A restart resumes from a cursor as the feed's Last-Event-ID gives it: nothing before it.
    let mut restarted = Horizon::new(kept);
    assert_eq!(
        restarted.advance(&pool, Instant::now()).await.unwrap(),
        kept
    );
}
