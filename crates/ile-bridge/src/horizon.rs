//! The commit horizon of `interactions`: the highest id up to which every row has either
//! committed (and is visible) or will never exist. A feed whose seq is `interactions.id` sends
//! rows up to the horizon only, so it never sends 106 before a 105 that commits later.
//!
//! Why it is needed: `id` is a `bigserial`, taken from the sequence when a row is formed, but rows
//! become visible when their transaction commits. Two inserting transactions can commit in the
//! other order (105 taken first, committed last), and a reader that resumes from "the highest id
//! sent" would skip 105 forever.
//!
//! How: a missing id below a visible one is a *gap*. A gap is settled when the transaction that
//! took the id has ended; if the row is not visible then, the transaction rolled back (or took the
//! id and inserted nothing) and the id is dead. The transaction is unknown, so the bridge waits
//! for every transaction that could hold it:
//! 1. when a gap is first seen, wait [`HOLD`] (a transaction takes its id from the sequence a
//!    moment before it gets a transaction id; after [`HOLD`] it has one);
//! 2. then note `xmax` of a fresh snapshot: every transaction that exists now has a lower id;
//! 3. the gap is settled once the snapshot's `xmin` reaches that `xmax` (all of them ended).
//!
//! Reads only: `pg_current_snapshot()` and `SELECT id`. The time is passed in.

use std::time::{Duration, Instant};

use sqlx::PgPool;

/// How long a gap is given before its transactions are waited for (step 1 above).
pub const HOLD: Duration = Duration::from_millis(500);

/// How many ids one [`Horizon::advance`] looks at.
const PAGE: i64 = 10_000;

/// The horizon, and the gap it waits on.
#[derive(Debug, Clone)]
pub struct Horizon {
    settled: i64,
    gap: Option<Gap>,
}

#[derive(Debug, Clone, Copy)]
struct Gap {
    /// The first missing id.
    at: i64,
    first_seen: Instant,
    /// `xmax` noted after [`HOLD`]: the gap is settled when `xmin` reaches it.
    wait_for: Option<i64>,
}

impl Horizon {
    /// A horizon with every id up to `settled` known settled (0: none).
    pub fn new(settled: i64) -> Self {
        Horizon { settled, gap: None }
    }

    /// Every id up to this one is settled: visible, or never to be.
    pub fn settled(&self) -> i64 {
        self.settled
    }

    /// Moves the horizon as far as the table allows now; returns it.
    pub async fn advance(&mut self, pool: &PgPool, now: Instant) -> Result<i64, sqlx::Error> {
        loop {
            let mut tx = pool.begin().await?;
            // One snapshot for the ids and the transactions seen with them.
            sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                .execute(&mut *tx)
                .await?;
            let ids: Vec<i64> = sqlx::query_scalar(
                "SELECT id FROM interactions WHERE id > $1 ORDER BY id LIMIT $2",
            )
            .bind(self.settled)
            .bind(PAGE)
            .fetch_all(&mut *tx)
            .await?;
            let (xmin, xmax): (i64, i64) = sqlx::query_as(
                "SELECT pg_snapshot_xmin(pg_current_snapshot())::text::bigint, \
                        pg_snapshot_xmax(pg_current_snapshot())::text::bigint",
            )
            .fetch_one(&mut *tx)
            .await?;
            tx.commit().await?;
            let before = self.settled;
            let full_page = ids.len() as i64 == PAGE;
            self.walk(&ids, xmin, xmax, now);
            if !full_page || self.settled == before {
                return Ok(self.settled);
            }
        }
    }

    /// One page of visible ids (ascending), with the snapshot's `xmin` and `xmax`.
    fn walk(&mut self, ids: &[i64], xmin: i64, xmax: i64, now: Instant) {
        for &id in ids {
            if id == self.settled + 1 {
                self.settled = id;
                self.gap = None;
                continue;
            }
            // `settled + 1 .. id` are missing.
            let gap = match self.gap {
                Some(g) if g.at == self.settled + 1 => g,
                _ => Gap {
                    at: self.settled + 1,
                    first_seen: now,
                    wait_for: None,
                },
            };
            let gap = match gap.wait_for {
                None if now.duration_since(gap.first_seen) >= HOLD => Gap {
                    wait_for: Some(xmax),
                    ..gap
                },
                _ => gap,
            };
            if gap.wait_for.is_some_and(|w| xmin >= w) {
                // Every transaction that could hold the missing ids has ended, and they are
                // still missing: dead. The visible id after them is next.
                self.settled = id;
                self.gap = None;
                continue;
            }
            self.gap = Some(gap);
            return;
        }
    }
}
