//! How fresh a class's data is, for the class header and the after-class report: the newest
//! work stored, when the host was last heard on the class's feed, and whether the feed is
//! keeping up. One rule, here; the window words it (and ticks the "ago"), the report prints it.

use serde::Serialize;

use super::ViewError;
use crate::dto::ms;
use crate::host::ConnectionState;
use crate::live::Live;
use crate::store::Store;

/// A feed that has heard nothing for this long is behind, whatever its socket says: the host
/// pings at least every 15 s, so three missed pings.
pub const HEARD_WITHIN_MS: i64 = 45_000;

/// Whether the shown work is all the host has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum FreshnessState {
    /// The feed is open and the host was heard within [`HEARD_WITHIN_MS`].
    Current,
    /// The feed is connecting, or heard nothing for too long.
    Behind,
    /// The host does not answer (the feed is offline or retrying).
    Unreachable,
    /// The host refused the token.
    TokenRefused,
    /// No feed follows the class here (another host's class, or the command line).
    NotFollowed,
}

#[derive(Debug, Clone, PartialEq, Serialize, specta::Type)]
pub struct FreshnessView {
    pub state: FreshnessState,
    /// The newest work stored (a result or a struggle), ms since the epoch, the host's time.
    pub newest_work_ms: Option<f64>,
    /// When the host was last heard on the feed (live), else when the feed last stored a frame.
    pub last_heard_ms: Option<f64>,
}

/// The freshness of `class_id`'s data: from the store, and from its feed when `live` follows it.
pub async fn freshness(
    store: &Store,
    live: Option<&Live>,
    class_id: &str,
) -> Result<FreshnessView, ViewError> {
    let (newest, stored_at) = store.newest_work(class_id).await?;
    let feed = match live {
        Some(live) => live.feed(class_id).await,
        None => None,
    };
    let now = store.now_ms();
    let (state, heard) = match feed {
        None => (FreshnessState::NotFollowed, stored_at),
        Some((connection, stats)) => {
            let heard = stats.last_heard_ms.or(stored_at);
            let state = match connection {
                ConnectionState::TokenRefused => FreshnessState::TokenRefused,
                ConnectionState::Offline | ConnectionState::Reconnecting { .. } => {
                    FreshnessState::Unreachable
                }
                ConnectionState::Connected
                    if stats
                        .last_heard_ms
                        .is_some_and(|h| now - h <= HEARD_WITHIN_MS) =>
                {
                    FreshnessState::Current
                }
                _ => FreshnessState::Behind,
            };
            (state, heard)
        }
    };
    Ok(FreshnessView {
        state,
        newest_work_ms: newest.map(ms),
        last_heard_ms: heard.map(ms),
    })
}

/// The line the printed report carries (UTC, as the report's other times): the same facts as
/// the class header's, without the ticking "ago", in the catalog's language.
pub fn report_line(f: &FreshnessView, c: &a2learn_i18n::Words) -> String {
    let time = |t: Option<f64>| t.map(|t| c.date_time_utc(t as i64));
    match (time(f.newest_work_ms), time(f.last_heard_ms)) {
        (None, _) => c.t("print-fresh-none"),
        (Some(newest), Some(heard)) => c.t_args(
            "print-fresh-heard",
            &[("newest", newest.into()), ("heard", heard.into())],
        ),
        (Some(newest), None) => c.t_args("print-fresh", &[("newest", newest.into())]),
    }
}
