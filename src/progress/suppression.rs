//! Small-cell suppression: the one rule every aggregate in the app and in every aggregate export
//! goes through, so a group of fewer than `k` learners is never shown as a number and cannot be
//! backed out of the totals printed beside it.
//!
//! # The model
//!
//! A [`Table`] is a grid of cells (rows x columns) and, optionally, the totals published with
//! it: one per row, one per column, and a grand total. Each cell and total carries the number of
//! **distinct learners** its figures are computed over (that number decides whether it may be
//! shown). Totals carry their own learner count because learners overlap across cells (one
//! learner has evidence on several standards), so a total's learners are not the sum of its
//! cells'.
//!
//! What a subtraction attack uses is the *values* (results, correct answers, attempts, hints),
//! which do add up along a published line: the row total's values are the sum of the row's cells'
//! values. So every row with a published total, and every column with a published total, is an
//! equation `cell_1 + ... + cell_n = total`; the row of column totals and the column of row
//! totals are equations too when the grand total is published.
//!
//! # The rule ([`suppress`])
//!
//! 1. **Primary**: a cell or total with `0 < learners < k` is hidden ([`Visibility::Primary`];
//!    the view says "fewer than k"). A member with 0 learners is [`Visibility::Empty`]: it has
//!    no figures to hide (the view says "no evidence"), and it is never used to protect another.
//! 2. **Complementary**: as long as some equation has exactly one hidden member (which the others
//!    would give away by subtraction), hide one more member of that equation: the shown, non-empty
//!    member with the fewest learners (ties: the first cell in column or row order; a total only
//!    when no cell is left). That is [`Visibility::Complementary`]. Repeat until no equation has
//!    exactly one hidden member; each new hiding can start a new round in the crossing line.
//!
//! This defeats exact recovery by subtraction along any row or column. It does not claim more
//! (interval bounds from linear programming over many equations can still narrow a hidden cell);
//! the tables in this app are small and k is a floor, not a privacy proof.
//!
//! # Using it
//!
//! ```
//! use a2learn_teacher::progress::suppression::{Table, Visibility, suppress};
//! // One class (row) x three standards (columns), with the class total published.
//! let mut table = Table::new(1, 3);
//! table.set(0, 0, 12);
//! table.set(0, 1, 3); // fewer than k = 10
//! table.set(0, 2, 15);
//! table.set_row_total(0, 20);
//! let s = suppress(&table, 10);
//! assert_eq!(s.cell(0, 1), Visibility::Primary);
//! // Without this, total - 12 - 15 would give the 3-learner cell away.
//! assert_eq!(s.cell(0, 0), Visibility::Complementary);
//! assert_eq!(s.cell(0, 2), Visibility::Shown);
//! assert_eq!(s.row_total(0), Visibility::Shown);
//! ```

/// The smallest group shown unless the teacher changes it.
pub const DEFAULT_K: u32 = 10;
/// The range a teacher may set k to.
pub const MIN_K: u32 = 5;
pub const MAX_K: u32 = 30;

/// Checks a k a teacher asked for.
pub fn check_k(k: u32) -> Result<u32, KOutOfRange> {
    if (MIN_K..=MAX_K).contains(&k) {
        Ok(k)
    } else {
        Err(KOutOfRange(k))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the smallest group shown must be between {MIN_K} and {MAX_K} learners, not {0}")]
pub struct KOutOfRange(pub u32);

/// What a view or an export may print for one cell or total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Print the figures.
    Shown,
    /// No learners: nothing to hide, nothing to show ("no evidence").
    Empty,
    /// Fewer than k learners: print "fewer than k", never the figures.
    Primary,
    /// At least k learners, hidden so that a primary cell cannot be recovered from the totals.
    /// Print it as hidden too (never the figures).
    Complementary,
}

impl Visibility {
    /// True when the figures must not be printed.
    pub fn is_hidden(self) -> bool {
        matches!(self, Visibility::Primary | Visibility::Complementary)
    }

    /// The text a view or export prints instead of the figures, or `None` when they may be
    /// printed (`Shown`). One wording everywhere.
    pub fn placeholder(self, k: u32) -> Option<String> {
        match self {
            Visibility::Shown => None,
            Visibility::Empty => Some("no evidence".to_string()),
            Visibility::Primary => Some(format!("fewer than {k}")),
            Visibility::Complementary => Some("hidden (protects a small group)".to_string()),
        }
    }
}

/// The learner counts of a table and of the totals published with it. Cells default to 0 (empty);
/// totals default to unpublished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    rows: usize,
    cols: usize,
    cells: Vec<u32>,
    row_totals: Vec<Option<u32>>,
    col_totals: Vec<Option<u32>>,
    grand_total: Option<u32>,
}

impl Table {
    pub fn new(rows: usize, cols: usize) -> Self {
        Self {
            rows,
            cols,
            cells: vec![0; rows * cols],
            row_totals: vec![None; rows],
            col_totals: vec![None; cols],
            grand_total: None,
        }
    }

    pub fn rows(&self) -> usize {
        self.rows
    }

    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Sets the number of distinct learners behind cell (row, col). Out of range is ignored.
    pub fn set(&mut self, row: usize, col: usize, learners: u32) {
        if row < self.rows && col < self.cols {
            self.cells[row * self.cols + col] = learners;
        }
    }

    /// Publishes the total of `row`, computed over `learners` distinct learners.
    pub fn set_row_total(&mut self, row: usize, learners: u32) {
        if let Some(t) = self.row_totals.get_mut(row) {
            *t = Some(learners);
        }
    }

    /// Publishes the total of `col`, computed over `learners` distinct learners.
    pub fn set_col_total(&mut self, col: usize, learners: u32) {
        if let Some(t) = self.col_totals.get_mut(col) {
            *t = Some(learners);
        }
    }

    /// Publishes the grand total. It is the total of the row totals and of the column totals.
    pub fn set_grand_total(&mut self, learners: u32) {
        self.grand_total = Some(learners);
    }
}

/// The outcome of [`suppress`] for every cell and published total.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suppression {
    cols: usize,
    cells: Vec<Visibility>,
    row_totals: Vec<Option<Visibility>>,
    col_totals: Vec<Option<Visibility>>,
    grand_total: Option<Visibility>,
}

impl Suppression {
    /// The visibility of a cell (`Empty` out of range).
    pub fn cell(&self, row: usize, col: usize) -> Visibility {
        if col >= self.cols {
            return Visibility::Empty;
        }
        self.cells
            .get(row * self.cols + col)
            .copied()
            .unwrap_or(Visibility::Empty)
    }

    /// The visibility of a row's total (`Empty` when it is not published).
    pub fn row_total(&self, row: usize) -> Visibility {
        self.row_totals
            .get(row)
            .copied()
            .flatten()
            .unwrap_or(Visibility::Empty)
    }

    pub fn col_total(&self, col: usize) -> Visibility {
        self.col_totals
            .get(col)
            .copied()
            .flatten()
            .unwrap_or(Visibility::Empty)
    }

    pub fn grand_total(&self) -> Visibility {
        self.grand_total.unwrap_or(Visibility::Empty)
    }

    /// How many cells and totals are hidden (primary or complementary).
    pub fn hidden_count(&self) -> usize {
        self.cells
            .iter()
            .chain(self.row_totals.iter().flatten())
            .chain(self.col_totals.iter().flatten())
            .chain(self.grand_total.iter())
            .filter(|v| v.is_hidden())
            .count()
    }
}

/// Where a member of an equation lives in the extended (rows + 1) x (cols + 1) grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Cell(usize),
    RowTotal(usize),
    ColTotal(usize),
    Grand,
}

/// Applies primary and complementary suppression with threshold `k` (see the module docs).
/// Pure and deterministic: the same table and k always give the same answer.
pub fn suppress(table: &Table, k: u32) -> Suppression {
    let primary = |learners: u32| match learners {
        0 => Visibility::Empty,
        n if n < k => Visibility::Primary,
        _ => Visibility::Shown,
    };
    let mut out = Suppression {
        cols: table.cols,
        cells: table.cells.iter().map(|&n| primary(n)).collect(),
        row_totals: table.row_totals.iter().map(|t| t.map(primary)).collect(),
        col_totals: table.col_totals.iter().map(|t| t.map(primary)).collect(),
        grand_total: table.grand_total.map(primary),
    };

    // The equations: each is its members, the total last.
    let mut equations: Vec<Vec<Slot>> = Vec::new();
    for r in 0..table.rows {
        if table.row_totals[r].is_some() {
            let mut eq: Vec<Slot> = (0..table.cols)
                .map(|c| Slot::Cell(r * table.cols + c))
                .collect();
            eq.push(Slot::RowTotal(r));
            equations.push(eq);
        }
    }
    for c in 0..table.cols {
        if table.col_totals[c].is_some() {
            let mut eq: Vec<Slot> = (0..table.rows)
                .map(|r| Slot::Cell(r * table.cols + c))
                .collect();
            eq.push(Slot::ColTotal(c));
            equations.push(eq);
        }
    }
    if table.grand_total.is_some() {
        // The grand total adds up the published row totals only when every row's is published
        // (otherwise it is not an equation an attacker can use); the same for columns.
        if table.rows > 0 && table.row_totals.iter().all(Option::is_some) {
            let mut eq: Vec<Slot> = (0..table.rows).map(Slot::RowTotal).collect();
            eq.push(Slot::Grand);
            equations.push(eq);
        }
        if table.cols > 0 && table.col_totals.iter().all(Option::is_some) {
            let mut eq: Vec<Slot> = (0..table.cols).map(Slot::ColTotal).collect();
            eq.push(Slot::Grand);
            equations.push(eq);
        }
    }

    let learners = |slot: Slot| -> u32 {
        match slot {
            Slot::Cell(i) => table.cells[i],
            Slot::RowTotal(r) => table.row_totals[r].unwrap_or(0),
            Slot::ColTotal(c) => table.col_totals[c].unwrap_or(0),
            Slot::Grand => table.grand_total.unwrap_or(0),
        }
    };

    // Each pass hides at least one more member or stops; there are finitely many members.
    loop {
        let mut changed = false;
        for eq in &equations {
            let hidden = eq.iter().filter(|&&s| get(&out, s).is_hidden()).count();
            if hidden != 1 {
                continue;
            }
            // The shown, non-empty member with the fewest learners; cells come before the total
            // (listed last), and `min_by_key` keeps the first of equal keys.
            let pick = eq
                .iter()
                .copied()
                .filter(|&s| get(&out, s) == Visibility::Shown)
                .min_by_key(|&s| {
                    (
                        matches!(s, Slot::RowTotal(_) | Slot::ColTotal(_) | Slot::Grand),
                        learners(s),
                    )
                });
            if let Some(slot) = pick {
                set(&mut out, slot, Visibility::Complementary);
                changed = true;
            }
            // No candidate: every other member is empty (its figures are zero and known), so the
            // hidden one is alone with nothing to subtract against that is not itself zero.
        }
        if !changed {
            return out;
        }
    }
}

fn get(s: &Suppression, slot: Slot) -> Visibility {
    match slot {
        Slot::Cell(i) => s.cells[i],
        Slot::RowTotal(r) => s.row_totals[r].unwrap_or(Visibility::Empty),
        Slot::ColTotal(c) => s.col_totals[c].unwrap_or(Visibility::Empty),
        Slot::Grand => s.grand_total.unwrap_or(Visibility::Empty),
    }
}

fn set(s: &mut Suppression, slot: Slot, v: Visibility) {
    match slot {
        Slot::Cell(i) => s.cells[i] = v,
        Slot::RowTotal(r) => s.row_totals[r] = Some(v),
        Slot::ColTotal(c) => s.col_totals[c] = Some(v),
        Slot::Grand => s.grand_total = Some(v),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Visibility::{Complementary, Empty, Primary, Shown};

    fn row(cells: &[u32], total: Option<u32>) -> Table {
        let mut t = Table::new(1, cells.len());
        for (c, &n) in cells.iter().enumerate() {
            t.set(0, c, n);
        }
        if let Some(n) = total {
            t.set_row_total(0, n);
        }
        t
    }

    fn cells(s: &Suppression, t: &Table) -> Vec<Vec<Visibility>> {
        (0..t.rows())
            .map(|r| (0..t.cols()).map(|c| s.cell(r, c)).collect())
            .collect()
    }

    #[test]
    fn groups_of_k_or_more_are_shown_and_smaller_ones_hidden() {
        let t = row(&[10, 9, 0, 30], None);
        let s = suppress(&t, 10);
        assert_eq!(cells(&s, &t), vec![vec![Shown, Primary, Empty, Shown]]);
        // The threshold is k itself: with k = 9 the 9-learner cell is shown.
        assert_eq!(suppress(&t, 9).cell(0, 1), Shown);
        // Without a published total there is nothing to subtract from: no complement.
        assert_eq!(s.hidden_count(), 1);
    }

    #[test]
    fn a_lone_small_cell_next_to_a_total_gets_a_complement() {
        // total - 12 - 15 would give the 3-learner cell away.
        let t = row(&[12, 3, 15], Some(20));
        let s = suppress(&t, 10);
        assert_eq!(cells(&s, &t), vec![vec![Complementary, Primary, Shown]]);
        assert_eq!(s.row_total(0), Shown);
        // Negative control: no small cell, nothing hidden.
        let s = suppress(&row(&[12, 13, 15], Some(20)), 10);
        assert_eq!(s.hidden_count(), 0);
    }

    #[test]
    fn two_small_cells_in_a_line_protect_each_other() {
        let t = row(&[12, 3, 4, 15], Some(25));
        let s = suppress(&t, 10);
        assert_eq!(cells(&s, &t), vec![vec![Shown, Primary, Primary, Shown]]);
    }

    #[test]
    fn a_line_with_one_non_empty_cell_hides_its_total() {
        // The total equals the only cell: hiding the cell alone would be pointless.
        let t = row(&[0, 12, 0], Some(12));
        assert_eq!(suppress(&t, 10).hidden_count(), 0);
        let t = row(&[0, 3, 0], Some(3));
        let s = suppress(&t, 10);
        assert_eq!(s.cell(0, 1), Primary);
        assert_eq!(s.row_total(0), Primary);
        // A total over enough learners but whose only non-hidden partner is empty.
        let t = row(&[0, 3], Some(11));
        let s = suppress(&t, 10);
        assert_eq!(s.row_total(0), Complementary);
    }

    #[test]
    fn complements_cascade_across_rows_and_columns() {
        // classes (rows) x standards (columns), every margin published.
        //        s0  s1  s2 | total
        // c0     20   4  25 |  30
        // c1     18  22  26 |  30
        // -------------------
        // total  38  26  51 |  60
        let mut t = Table::new(2, 3);
        for (r, row) in [[20, 4, 25], [18, 22, 26]].iter().enumerate() {
            for (c, &n) in row.iter().enumerate() {
                t.set(r, c, n);
            }
            t.set_row_total(r, 30);
        }
        for (c, n) in [38, 26, 51].into_iter().enumerate() {
            t.set_col_total(c, n);
        }
        t.set_grand_total(60);
        let s = suppress(&t, 10);
        // Primary: (0,1). Row 0 complement: the smallest shown cell, (0,0) = 20. Column 0 now has
        // one hidden: complement (1,0) = 18. Column 1 complement: (1,1) = 22. Row 1 then has two
        // hidden: done. Every row and column has 0 or >= 2 hidden members.
        assert_eq!(
            cells(&s, &t),
            vec![
                vec![Complementary, Primary, Shown],
                vec![Complementary, Complementary, Shown]
            ]
        );
        for r in 0..2 {
            let hidden = (0..3).filter(|&c| s.cell(r, c).is_hidden()).count();
            assert_ne!(hidden, 1, "row {r}");
        }
        for c in 0..3 {
            let hidden = (0..2).filter(|&r| s.cell(r, c).is_hidden()).count();
            assert_ne!(hidden, 1, "column {c}");
        }
        assert_eq!(s.grand_total(), Shown);
    }

    #[test]
    fn small_totals_are_hidden_and_protected_in_the_margin() {
        // Row totals and the grand total form one more equation.
        let mut t = Table::new(2, 1);
        t.set(0, 0, 4);
        t.set(1, 0, 20);
        t.set_row_total(0, 4);
        t.set_row_total(1, 20);
        t.set_grand_total(24);
        let s = suppress(&t, 10);
        assert_eq!(s.cell(0, 0), Primary);
        assert_eq!(s.row_total(0), Primary);
        // grand - row_total(1) would give row 0 away.
        assert!(s.row_total(1).is_hidden() || s.grand_total().is_hidden());
    }

    #[test]
    fn placeholders_never_carry_figures() {
        assert_eq!(Shown.placeholder(10), None);
        assert_eq!(Primary.placeholder(10).as_deref(), Some("fewer than 10"));
        assert_eq!(Empty.placeholder(10).as_deref(), Some("no evidence"));
        assert!(Complementary.placeholder(10).is_some());
        assert!(Primary.is_hidden() && Complementary.is_hidden());
        assert!(!Shown.is_hidden() && !Empty.is_hidden());
    }

    #[test]
    fn k_is_checked_against_its_range() {
        assert_eq!(check_k(DEFAULT_K), Ok(10));
        assert_eq!(check_k(5), Ok(5));
        assert_eq!(check_k(30), Ok(30));
        assert!(check_k(4).is_err());
        assert!(check_k(31).is_err());
    }
}
