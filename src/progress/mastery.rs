//! Mastery by standard: for one class, per standard, the evidence counts behind it ("3 of 4
//! correct", attempts, hints), never a bare percentage. A standard with fewer than
//! [`MIN_EVIDENCE`] checked results says "not enough evidence"; every figure computed over fewer
//! than k learners goes through [`super::suppression::suppress`] (with the class total as the
//! published row total, so one hidden standard cannot be recovered by subtraction).

use serde::Serialize;

use super::names::Privacy;
use super::suppression::{Table, Visibility, suppress};
use crate::store::engine::{by_code_point, on_pool};
use crate::store::{Store, StoreError};

/// Fewest checked results (correct true or false) before a standard's verdict counts are shown.
pub const MIN_EVIDENCE: u32 = 3;

/// The stored counts of one standard (or of the whole class for the total).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StandardCounts {
    /// `None` for results of kinds without a standard.
    pub standard: Option<String>,
    pub results: u32,
    pub checked: u32,
    pub correct: u32,
    pub attempts: u32,
    pub hints: u32,
    pub learners: u32,
}

/// What a view may print for one standard (or the total).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MasteryCell {
    pub standard: Option<String>,
    pub visibility: Visibility,
    /// True when the figures are shown but too few results were checked for a verdict.
    pub not_enough_evidence: bool,
    /// The figures: all `None` when hidden.
    pub results: Option<u32>,
    pub checked: Option<u32>,
    pub correct: Option<u32>,
    pub attempts: Option<u32>,
    pub hints: Option<u32>,
    pub learners: Option<u32>,
    /// The sentence a view prints: "3 of 4 correct", "not enough evidence", "fewer than 10".
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mastery {
    /// The threshold applied: `None` on the teacher's own screen, where nothing is suppressed.
    pub k: Option<u32>,
    pub standards: Vec<MasteryCell>,
    pub total: MasteryCell,
}

fn cell(c: &StandardCounts, visibility: Visibility, k: u32) -> MasteryCell {
    if let Some(placeholder) = visibility.placeholder(k) {
        return MasteryCell {
            standard: c.standard.clone(),
            visibility,
            not_enough_evidence: false,
            results: None,
            checked: None,
            correct: None,
            attempts: None,
            hints: None,
            learners: None,
            summary: placeholder,
        };
    }
    let not_enough_evidence = c.checked < MIN_EVIDENCE;
    let summary = if not_enough_evidence {
        format!("not enough evidence ({} checked)", c.checked)
    } else {
        format!("{} of {} correct", c.correct, c.checked)
    };
    MasteryCell {
        standard: c.standard.clone(),
        visibility,
        not_enough_evidence,
        results: Some(c.results),
        checked: Some(c.checked),
        correct: Some(c.correct),
        attempts: Some(c.attempts),
        hints: Some(c.hints),
        learners: Some(c.learners),
        summary,
    }
}

/// Mastery cells from stored counts: pure, so the golden tests need no database.
pub fn mastery(standards: &[StandardCounts], total: &StandardCounts, k: u32) -> Mastery {
    let mut m = mastery_with(standards, total, k);
    m.k = Some(k);
    m
}

/// Every count shown: the teacher's own view of their own class. A group of one is still a
/// group the teacher teaches; only empty groups say "no evidence".
pub fn mastery_unsuppressed(standards: &[StandardCounts], total: &StandardCounts) -> Mastery {
    mastery_with(standards, total, 1)
}

fn mastery_with(standards: &[StandardCounts], total: &StandardCounts, k: u32) -> Mastery {
    let mut table = Table::new(1, standards.len());
    for (i, s) in standards.iter().enumerate() {
        table.set(0, i, s.learners);
    }
    table.set_row_total(0, total.learners);
    let s = suppress(&table, k);
    Mastery {
        k: None,
        standards: standards
            .iter()
            .enumerate()
            .map(|(i, c)| cell(c, s.cell(0, i), k))
            .collect(),
        total: cell(total, s.row_total(0), k),
    }
}

/// A group's counts, in SQL both engines read (`correct` is 0/1 on SQLite, a boolean on
/// PostgreSQL, whose SUM of a BIGINT is a NUMERIC: cast back).
const COUNTS: &str = "COUNT(*), COUNT(correct), SUM(CASE WHEN correct THEN 1 ELSE 0 END), \
     CAST(SUM(attempts) AS BIGINT), CAST(SUM(hints) AS BIGINT), COUNT(DISTINCT learner)";

/// Mastery's two statements (class at `$1`): the counts per standard, standards in code point
/// order and those without one last, then the whole class's.
pub fn standard_counts_sql(pg: bool) -> (String, String) {
    let standard = by_code_point("standard", pg);
    (
        format!(
            "SELECT standard, {COUNTS} FROM results WHERE class_id = $1 \
             GROUP BY standard ORDER BY standard IS NULL, {standard}"
        ),
        format!("SELECT CAST(NULL AS TEXT), {COUNTS} FROM results WHERE class_id = $1"),
    )
}

fn to_u32(n: Option<i64>) -> u32 {
    n.and_then(|n| u32::try_from(n).ok()).unwrap_or(0)
}

pub type CountRow = (
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

fn counts(r: CountRow) -> StandardCounts {
    StandardCounts {
        standard: r.0,
        results: to_u32(r.1),
        checked: to_u32(r.2),
        correct: to_u32(r.3),
        attempts: to_u32(r.4),
        hints: to_u32(r.5),
        learners: to_u32(r.6),
    }
}

impl Store {
    /// Per-standard counts of a class's results, standards in name order (kinds without a
    /// standard last), and the class total.
    pub async fn standard_counts(
        &self,
        class_id: &str,
    ) -> Result<(Vec<StandardCounts>, StandardCounts), StoreError> {
        let (rows, total): (Vec<CountRow>, CountRow) = on_pool!(self.engine(), |pool| {
            let (by_standard, whole_class) = standard_counts_sql(PG);
            let rows = sqlx::query_as(&by_standard)
                .bind(class_id)
                .fetch_all(pool)
                .await?;
            let total = sqlx::query_as(&whole_class)
                .bind(class_id)
                .fetch_one(pool)
                .await?;
            (rows, total)
        });
        Ok((rows.into_iter().map(counts).collect(), counts(total)))
    }

    pub async fn mastery(&self, class_id: &str, k: u32) -> Result<Mastery, StoreError> {
        let (standards, total) = self.standard_counts(class_id).await?;
        Ok(mastery(&standards, &total, k))
    }

    /// Mastery as `privacy` allows: suppression applies where figures leave the teacher's own
    /// screen (projector-safe mode, with the teacher's k), not on it.
    pub async fn class_mastery(
        &self,
        class_id: &str,
        privacy: Privacy,
    ) -> Result<Mastery, StoreError> {
        match privacy {
            Privacy::Projector { .. } => self.mastery(class_id, self.suppression_k().await?).await,
            Privacy::Names => {
                let (standards, total) = self.standard_counts(class_id).await?;
                Ok(mastery_unsuppressed(&standards, &total))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(standard: &str, checked: u32, correct: u32, learners: u32) -> StandardCounts {
        StandardCounts {
            standard: Some(standard.into()),
            results: checked,
            checked,
            correct,
            attempts: checked * 2,
            hints: 1,
            learners,
        }
    }

    #[test]
    fn shows_evidence_counts_not_percentages() {
        let s = vec![counts("A", 4, 3, 12), counts("B", 20, 11, 15)];
        let total = counts("", 24, 14, 15);
        let m = mastery(&s, &total, 10);
        assert_eq!(m.standards[0].summary, "3 of 4 correct");
        assert_eq!(m.standards[0].attempts, Some(8));
        assert_eq!(m.standards[1].summary, "11 of 20 correct");
        assert_eq!(m.total.summary, "14 of 24 correct");
        assert!(!m.standards.iter().any(|c| c.summary.contains('%')));
    }

    #[test]
    fn too_few_checked_results_is_not_enough_evidence() {
        let s = vec![counts("A", 2, 2, 12)];
        let m = mastery(&s, &counts("", 2, 2, 12), 10);
        assert!(m.standards[0].not_enough_evidence);
        assert_eq!(m.standards[0].summary, "not enough evidence (2 checked)");
        // The counts are still there for the teacher to see.
        assert_eq!(m.standards[0].checked, Some(2));
        let m = mastery(&[counts("A", 3, 2, 12)], &counts("", 3, 2, 12), 10);
        assert!(!m.standards[0].not_enough_evidence);
    }

    #[test]
    fn a_small_standard_is_hidden_and_protected_from_the_total() {
        // 3 learners on B: hidden. A and C shown with the total would give B away: A (the
        // smallest shown group) is hidden too.
        let s = vec![
            counts("A", 30, 20, 12),
            counts("B", 6, 1, 3),
            counts("C", 40, 30, 18),
        ];
        let total = counts("", 76, 51, 20);
        let m = mastery(&s, &total, 10);
        assert_eq!(m.standards[1].visibility, Visibility::Primary);
        assert_eq!(m.standards[1].summary, "fewer than 10");
        assert_eq!(m.standards[1].correct, None);
        assert_eq!(m.standards[0].visibility, Visibility::Complementary);
        assert_eq!(m.standards[0].correct, None);
        assert_eq!(m.standards[2].summary, "30 of 40 correct");
        assert_eq!(m.total.summary, "51 of 76 correct");
        // The teacher's own screen: every figure, even of the group of 3.
        let own = mastery_unsuppressed(&s, &total);
        assert_eq!(own.k, None);
        assert_eq!(own.standards[1].summary, "1 of 6 correct");
        assert_eq!(own.standards[1].correct, Some(1));
        assert!(
            own.standards
                .iter()
                .all(|c| c.visibility == Visibility::Shown)
        );
        // With k = 3 nothing is hidden.
        let m = mastery(&s, &total, 3);
        assert!(
            m.standards
                .iter()
                .all(|c| c.visibility == Visibility::Shown)
        );
    }
}
