//! `host check` in the app: Settings checks a host before it is saved (read-only, a few seconds)
//! and says in one sentence whether the dashboard can follow it; Diagnostics runs the full list on
//! the host the app follows now.

use serde::{Deserialize, Serialize};

use super::ViewError;
use crate::host::check::{CheckError, CheckOptions, CheckReport, check_host};
use crate::host::settings::validate_host_url;
use crate::live::Live;
use crate::store::{Store, StoreError};

/// How long Settings watches a feed: enough to see the opening and some frames, short enough to
/// wait for before saving.
const SETTINGS_SECONDS: u64 = 3;
/// How long Diagnostics watches: long enough to judge the 15 s ping rule.
const DIAGNOSTICS_SECONDS: u64 = 16;

/// A host typed into Settings. An empty token means the saved one, and only for the saved URL:
/// a saved token is never sent to another address.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct HostCheckInput {
    pub url: String,
    pub token: String,
}

/// The verdict: whether the dashboard can follow this host, in a sentence, and every check.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct HostCheckView {
    pub works: bool,
    pub verdict: String,
    pub checks: Vec<crate::host::check::CheckResult>,
}

impl HostCheckView {
    fn of(result: Result<CheckReport, CheckError>) -> Self {
        match result {
            Ok(report) => {
                let verdict = match report.first_failure() {
                    None => "This host works with a2learn Teacher.".to_string(),
                    Some(c) => format!(
                        "This host breaks a rule the dashboard needs: {} ({}). {}",
                        c.what,
                        c.section,
                        c.detail.as_deref().unwrap_or("")
                    )
                    .trim_end()
                    .to_string(),
                };
                HostCheckView {
                    works: !report.required_failed(),
                    verdict,
                    checks: report.checks,
                }
            }
            Err(e) => {
                use crate::error::Coded as _;
                // With no checks to build it from, the window shows this sentence as it is.
                let w = crate::error::window_words();
                let error = e.localized(w).unwrap_or_else(|| e.to_string());
                HostCheckView {
                    works: false,
                    verdict: w.t_args("view-check-unreachable", &[("error", error.into())]),
                    checks: Vec::new(),
                }
            }
        }
    }
}

/// Settings: the read-only checks on a host before it is saved.
pub async fn check_new_host(
    store: &Store,
    input: &HostCheckInput,
) -> Result<HostCheckView, ViewError> {
    let url = validate_host_url(&input.url).map_err(StoreError::from)?;
    let typed = input.token.trim();
    let token = if typed.is_empty() {
        let saved = store.host_settings().await?;
        match (saved.url, saved.token) {
            (Some(saved_url), Some(token)) if saved_url == url => token,
            _ => {
                return Err(crate::error::Said::refused("error-host-token-missing").into());
            }
        }
    } else {
        typed.to_string()
    };
    Ok(HostCheckView::of(
        check_host(&CheckOptions {
            host: url,
            token,
            class_id: None,
            seconds: SETTINGS_SECONDS,
            allow_writes: false,
        })
        .await,
    ))
}

/// Diagnostics: every read-only check on the host the app follows now (the demo host too).
pub async fn check_followed_host(live: &Live) -> Result<HostCheckView, ViewError> {
    let Some(target) = live.target().await else {
        return Err(crate::error::Said::refused("error-host-none").into());
    };
    Ok(HostCheckView::of(
        check_host(&CheckOptions {
            host: target.url,
            token: target.token,
            class_id: None,
            seconds: DIAGNOSTICS_SECONDS,
            allow_writes: false,
        })
        .await,
    ))
}
