//! Progress views derived from the stored ledger and derived tables: the live grid, evidence,
//! mastery by standard, the step report and where each student is ([`steps`]), who needs the
//! teacher now, the timeline — and the small-cell suppression every aggregate goes through.
//! Names are joined to ids only in [`names`].

pub mod assign;
pub mod attention;
pub mod evidence;
pub mod grid;
pub mod help_after;
pub mod knowledge;
pub mod mastery;
pub mod names;
pub mod steps;
pub mod suppression;
pub mod timeline;

use crate::store::{Store, StoreError};

/// The settings key of the suppression threshold k.
pub const SUPPRESSION_K_KEY: &str = "privacy.suppression_k";
/// The settings key of the idle threshold, in whole minutes.
pub const IDLE_AFTER_KEY: &str = "grid.idle_after_minutes";
/// A learner working on a step and quiet this long is flagged idle, unless the teacher chose.
pub const DEFAULT_IDLE_AFTER_MINUTES: u32 = 5;
/// The idle thresholds a teacher may choose, in minutes: a lesson's scale.
pub const IDLE_AFTER_MINUTES: std::ops::RangeInclusive<u32> = 1..=60;

impl Store {
    /// The teacher's k (smallest group shown), or [`suppression::DEFAULT_K`].
    pub async fn suppression_k(&self) -> Result<u32, StoreError> {
        Ok(self
            .setting(SUPPRESSION_K_KEY)
            .await?
            .and_then(|v| v.parse::<u32>().ok())
            .and_then(|k| suppression::check_k(k).ok())
            .unwrap_or(suppression::DEFAULT_K))
    }

    /// The teacher's idle threshold in minutes, or [`DEFAULT_IDLE_AFTER_MINUTES`].
    pub async fn idle_after_minutes(&self) -> Result<u32, StoreError> {
        Ok(self
            .setting(IDLE_AFTER_KEY)
            .await?
            .and_then(|v| v.parse::<u32>().ok())
            .filter(|m| IDLE_AFTER_MINUTES.contains(m))
            .unwrap_or(DEFAULT_IDLE_AFTER_MINUTES))
    }

    pub async fn set_idle_after_minutes(&self, minutes: u32) -> Result<u32, StoreError> {
        if !IDLE_AFTER_MINUTES.contains(&minutes) {
            return Err(crate::error::Said::refused("error-idle-after-range")
                .count("min", *IDLE_AFTER_MINUTES.start())
                .count("max", *IDLE_AFTER_MINUTES.end())
                .count("got", minutes)
                .into());
        }
        self.set_setting(IDLE_AFTER_KEY, &minutes.to_string())
            .await?;
        Ok(minutes)
    }

    pub async fn set_suppression_k(&self, k: u32) -> Result<u32, StoreError> {
        let k = suppression::check_k(k).map_err(|e| StoreError::Invalid(e.to_string()))?;
        self.set_setting(SUPPRESSION_K_KEY, &k.to_string()).await?;
        Ok(k)
    }
}
