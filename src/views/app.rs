//! The frame's views: the status bar, the class list, the host settings (never the token), where
//! results are kept (never the password) and the diagnostics page.

use serde::{Deserialize, Serialize};

use super::ViewError;
use crate::dto::{count_i32 as count, ms};
use crate::host::ConnectionState;
use crate::host::credentials::SecretStorage;
use crate::host::offers::HostOffers;
use crate::host::settings::{HostMode, HostSettings};
use crate::live::Live;
use crate::progress::names::Privacy;
use crate::store::Store;

/// What the frame shows before anything else: which build, which database, which host state.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct AppStatus {
    pub version: String,
    pub db_path: String,
    pub schema_version: i32,
    pub connection: ConnectionState,
    pub connection_label: String,
    /// The embedded demo host or a school's: what the welcome page tells the teacher to do.
    pub host_mode: HostMode,
}

/// A class as the sidebar lists it.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct ClassSummary {
    /// The store's key for the class (its host's id for it, unless another host's class of
    /// that id was here first).
    pub class_id: String,
    pub title: String,
    /// Where the class comes from ("demo", or the host's address; "no host" for a class
    /// followed by id alone), given only when another class listed has the same title: the
    /// sidebar then tells the two apart.
    pub host: Option<String>,
    pub join_code: Option<String>,
    pub learners: i32,
    pub open_requests: i32,
}

/// The host settings as the UI sees them: never the token itself.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct HostSettingsView {
    pub mode: HostMode,
    pub url: String,
    pub token_set: bool,
    /// Where the token is kept: the system's credential store, or (none answered) a private
    /// file. Settings says which.
    pub token_storage: Option<SecretStorage>,
}

impl From<HostSettings> for HostSettingsView {
    fn from(s: HostSettings) -> Self {
        Self {
            mode: s.mode,
            url: s.url.unwrap_or_default(),
            token_set: s.token.is_some(),
            token_storage: s.token_storage,
        }
    }
}

#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct HostSettingsInput {
    pub mode: HostMode,
    pub url: String,
    /// Empty keeps the stored token.
    pub token: String,
}

/// A quarantined frame for the diagnostics page. `raw` is shown as text, never as markup.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct QuarantineEntry {
    pub id: f64,
    pub class_id: String,
    pub seq: Option<f64>,
    pub rule_id: String,
    pub message: String,
    pub raw: String,
    pub raw_bytes: i32,
    pub received_at_ms: f64,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct RuleCount {
    pub rule_id: String,
    pub count: i32,
}

#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct Diagnostics {
    pub by_rule: Vec<RuleCount>,
    pub recent: Vec<QuarantineEntry>,
}

/// The status bar's facts. `version` is the app's (the shell passes its own).
pub async fn status(live: &Live, version: &str) -> Result<AppStatus, ViewError> {
    let store = live.store();
    let schema_version = store.schema_version().await?;
    let connection = live.connection();
    Ok(AppStatus {
        version: version.to_string(),
        db_path: store.location().to_string(),
        // Migration versions are timestamps (YYYYMMDDNNNNNN) and do not fit an i32; the UI
        // shows the date part, which does.
        schema_version: count(schema_version / 1_000_000),
        connection_label: connection.label(),
        connection,
        host_mode: store.host_mode().await?,
    })
}

/// The sidebar's classes with their live counts: those of the host Settings names. Another
/// host's classes are neither followed nor listed (their results stay in the store, for the
/// command line's exports).
pub async fn classes(store: &Store) -> Result<Vec<ClassSummary>, ViewError> {
    let host = store.named_host_id().await?;
    let counts = store.class_counts(host.as_deref()).await?;
    let mut titles: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for c in &counts {
        *titles.entry(c.title.as_str()).or_default() += 1;
    }
    let shared: std::collections::HashSet<String> = titles
        .into_iter()
        .filter(|(_, n)| *n > 1)
        .map(|(t, _)| t.to_string())
        .collect();
    Ok(counts
        .into_iter()
        .map(|c| ClassSummary {
            host: shared.contains(&c.title).then(|| {
                c.host_id
                    .unwrap_or_else(|| crate::error::window_words().t("view-no-host"))
            }),
            class_id: c.class_id,
            title: c.title,
            join_code: c.join_code,
            learners: count(c.learners),
            open_requests: count(c.open_requests),
        })
        .collect())
}

/// Creates a class on the host (its title through the privacy gate) and follows it.
pub async fn create_class(live: &Live, title: &str) -> Result<ClassSummary, ViewError> {
    let class = live.create_class(title).await?;
    Ok(ClassSummary {
        class_id: class.class_id,
        title: class.title,
        host: None,
        join_code: class.join_code,
        learners: 0,
        open_requests: 0,
    })
}

pub async fn host_settings(store: &Store) -> Result<HostSettingsView, ViewError> {
    Ok(store.host_settings().await?.into())
}

/// Where this dashboard keeps results, as Settings shows it: this computer, or a school's
/// shared store (its URL, which never holds the password).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, specta::Type)]
pub struct ResultsStoreView {
    /// The shared store the teacher's file names; empty: this computer.
    pub shared_url: String,
    /// Whether this run keeps results there: a change takes effect when the app starts again.
    pub in_use: bool,
}

/// A new place for results: an empty `shared_url` is this computer.
#[derive(Debug, Clone, Deserialize, specta::Type)]
pub struct ResultsStoreInput {
    pub shared_url: String,
    /// The shared store's password (empty: none), kept in the credential store.
    pub password: String,
}

pub async fn results_store(store: &Store) -> Result<ResultsStoreView, ViewError> {
    Ok(ResultsStoreView {
        shared_url: store
            .shared_store()
            .await?
            .map(|url| url.to_string())
            .unwrap_or_default(),
        in_use: store.path().is_none(),
    })
}

/// Points the teacher's file at a shared store (connecting first: a store that does not
/// answer, or refuses the password, is an error and nothing changes), or back to this computer.
pub async fn save_results_store(
    store: &Store,
    input: &ResultsStoreInput,
) -> Result<ResultsStoreView, ViewError> {
    let url = input.shared_url.trim();
    if url.is_empty() {
        store.forget_shared_store().await?;
    } else {
        let password = (!input.password.is_empty()).then_some(input.password.as_str());
        store.save_shared_store(url, password).await?;
    }
    results_store(store).await
}

/// Saves the host settings; an empty token keeps the stored one.
pub async fn save_host_settings(
    store: &Store,
    input: &HostSettingsInput,
) -> Result<HostSettingsView, ViewError> {
    let token = (!input.token.trim().is_empty()).then_some(input.token.as_str());
    Ok(store
        .save_host_settings(input.mode, Some(&input.url), token)
        .await?
        .into())
}

/// A class the host lists, for Settings' "Classes on this host".
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct HostClassView {
    pub class_id: String,
    /// The host's title (host data, not the teacher's); the id when it has none.
    pub title: String,
    pub followed: bool,
}

/// The classes the followed host lists (empty when it has no `list_classes`).
pub async fn host_classes(live: &Live) -> Result<Vec<HostClassView>, ViewError> {
    Ok(live
        .host_classes()
        .await?
        .into_iter()
        .map(|(c, followed)| HostClassView {
            title: c
                .title
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| c.class_id.clone()),
            class_id: c.class_id,
            followed,
        })
        .collect())
}

/// The write controls the configured host can honour. While it cannot be asked (offline, no
/// host yet) the controls stay, and a refusal explains itself.
#[derive(Debug, Clone, Serialize, specta::Type)]
pub struct HostOffersView {
    pub create_class: bool,
    pub assign_pathway: bool,
    /// Claim and respond: the help desk's answers.
    pub answer: bool,
    /// Why the host could not be asked; none when it answered.
    pub unknown: Option<String>,
}

pub async fn host_offers(live: &Live) -> HostOffersView {
    let (offers, unknown) = match live.offers().await {
        Ok(offers) => (offers, None),
        Err(e) => (HostOffers::unasked(), Some(e.to_string())),
    };
    HostOffersView {
        create_class: offers.create_class,
        assign_pathway: offers.assign_pathway,
        answer: offers.answer,
        unknown,
    }
}

/// Follows a class the host lists; the sidebar lists it from then on.
pub async fn follow_host_class(live: &Live, class_id: &str) -> Result<(), ViewError> {
    Ok(live.follow_host_class(class_id).await?)
}

/// Rejected frames by rule, and the latest 200. A rejected frame is whatever a widget sent,
/// free text included: under projector-safe privacy its raw text is withheld.
pub async fn diagnostics(store: &Store, privacy: Privacy) -> Result<Diagnostics, ViewError> {
    let by_rule = store.quarantine_by_rule().await?;
    let recent = store.quarantined(200).await?;
    let shown = privacy == Privacy::Names;
    Ok(Diagnostics {
        by_rule: by_rule
            .into_iter()
            .map(|(rule_id, n)| RuleCount {
                rule_id,
                count: count(n),
            })
            .collect(),
        recent: recent
            .into_iter()
            .map(|q| QuarantineEntry {
                id: ms(q.id),
                class_id: q.class_id,
                seq: q.seq.map(ms),
                rule_id: q.rule_id,
                message: q.message,
                raw: if shown { q.raw } else { String::new() },
                raw_bytes: count(q.raw_bytes),
                received_at_ms: ms(q.received_at),
            })
            .collect(),
    })
}
