//! Progress views derived from the stored ledger and derived tables: the live grid, evidence,
//! mastery by standard, who needs the teacher now, the timeline — and the small-cell suppression
//! every aggregate goes through.

pub mod suppression;
