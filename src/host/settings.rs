//! Which host the app talks to: the embedded demo host (the default) or one the teacher names
//! by URL and token. The mode and URL are kept in the local store; the token in the operating
//! system's credential store ([`super::credentials`]), never in the database. It leaves the
//! machine only as the bearer header to that host.

use serde::{Deserialize, Serialize};

use super::credentials::{Credentials, Policy, SecretStorage};
use crate::store::{DEMO_HOST_ID, Store, StoreError};

const MODE_KEY: &str = "host_mode";
const URL_KEY: &str = "host_url";
/// Where the token is kept ("system" or "file"): not a secret, and it saves probing both.
const TOKEN_STORAGE_KEY: &str = "host_token_storage";
/// The credential store's account name for this database's token (random, not a secret).
const ACCOUNT_KEY: &str = "host_token_account";
/// This teacher's embedded demo host, by name, beside a shared store (random, not a secret).
const DEMO_HOST_KEY: &str = "demo_host_id";
/// Where versions before the credential store kept the token, in plain text.
const LEGACY_TOKEN_KEY: &str = "host_token";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum HostMode {
    /// The reference host, embedded in the app, with a simulated class.
    Demo,
    /// A host at a URL, with a token.
    Custom,
}

/// The stored host settings. `Debug` hides the token.
#[derive(Clone, PartialEq, Eq)]
pub struct HostSettings {
    pub mode: HostMode,
    pub url: Option<String>,
    pub token: Option<String>,
    /// Where the token is kept, when there is one.
    pub token_storage: Option<SecretStorage>,
}

impl std::fmt::Debug for HostSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostSettings")
            .field("mode", &self.mode)
            .field("url", &self.url)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("token_storage", &self.token_storage)
            .finish()
    }
}

/// Checks a host URL: http or https, a host name, no credentials, no query. Returns it without a
/// trailing slash.
pub fn validate_host_url(url: &str) -> Result<String, crate::error::Said> {
    use crate::error::Said;
    let trimmed = url.trim();
    if trimmed.is_empty() {
        return Err(Said::refused("error-host-url-empty"));
    }
    let parsed = reqwest::Url::parse(trimmed)
        .map_err(|e| Said::refused("error-host-url-not-web").with("why", e))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(Said::refused("error-host-url-scheme"));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(Said::refused("error-host-url-no-host"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(Said::refused("error-host-url-credentials"));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(Said::refused("error-host-url-query"));
    }
    Ok(trimmed.trim_end_matches('/').to_string())
}

/// A fresh account name: 128 random bits from the standard library's hash keys.
fn new_account() -> String {
    format!("host-token-{}", random_hex())
}

/// 128 random bits in hex (the standard library's per-process random hasher keys).
fn random_hex() -> String {
    use std::hash::{BuildHasher, Hasher};
    let half = || {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u8(0);
        h.finish()
    };
    format!("{:016x}{:016x}", half(), half())
}

impl Store {
    /// This database's secrets, as `A2LEARN_CREDENTIALS` allows.
    pub fn credentials(&self) -> Result<Credentials, StoreError> {
        Ok(Credentials::beside(
            self.teachers_file("keeping the host token")?,
            Policy::from_env()?,
        ))
    }

    async fn token_account(&self) -> Result<String, StoreError> {
        if let Some(account) = self.setting(ACCOUNT_KEY).await? {
            return Ok(account);
        }
        self.setting_or_keep(ACCOUNT_KEY, &new_account()).await
    }

    /// The host Settings names, as its classes are tied to it: the demo host
    /// ([`Store::demo_host_id`]), or the custom host's URL; `None` for a custom host with no URL
    /// yet. Reads no token.
    pub async fn named_host_id(&self) -> Result<Option<String>, StoreError> {
        Ok(match self.setting(MODE_KEY).await?.as_deref() {
            Some("custom") => self.setting(URL_KEY).await?,
            _ => Some(self.demo_host_id().await?),
        })
    }

    /// What names this teacher's embedded demo host, to which its classes are tied. In a
    /// teacher's own file, [`DEMO_HOST_ID`]. Beside a shared store each teacher's app runs a demo
    /// host of its own, with its own classes: one name for all of them would have the second
    /// teacher's app take the first's demo class for its own and ask its own demo host for it
    /// (which does not know it), so each gets its own name, made once and kept in their file.
    pub async fn demo_host_id(&self) -> Result<String, StoreError> {
        if self.path().is_some() {
            return Ok(DEMO_HOST_ID.to_string());
        }
        if let Some(id) = self.setting(DEMO_HOST_KEY).await? {
            return Ok(id);
        }
        let id = format!("{DEMO_HOST_ID}-{}", random_hex());
        self.setting_or_keep(DEMO_HOST_KEY, &id).await
    }

    /// The demo host or a school's, without reading the token.
    pub async fn host_mode(&self) -> Result<HostMode, StoreError> {
        Ok(match self.setting(MODE_KEY).await?.as_deref() {
            Some("custom") => HostMode::Custom,
            _ => HostMode::Demo,
        })
    }

    pub async fn host_settings(&self) -> Result<HostSettings, StoreError> {
        let mode = self.host_mode().await?;
        let storage = self
            .setting(TOKEN_STORAGE_KEY)
            .await?
            .as_deref()
            .and_then(SecretStorage::parse);
        let token = match (storage, self.setting(ACCOUNT_KEY).await?) {
            (Some(storage), Some(account)) => self.credentials()?.load(&account, storage).await?,
            _ => None,
        };
        Ok(HostSettings {
            mode,
            url: self.setting(URL_KEY).await?,
            token_storage: token.as_ref().and(storage),
            token,
        })
    }

    /// Saves the host settings. For a custom host the URL must be valid and a token must be
    /// given now or stored from before (an empty `token` keeps the stored one).
    pub async fn save_host_settings(
        &self,
        mode: HostMode,
        url: Option<&str>,
        token: Option<&str>,
    ) -> Result<HostSettings, StoreError> {
        let token = token.map(str::trim).filter(|t| !t.is_empty());
        if mode == HostMode::Custom {
            let url = validate_host_url(url.unwrap_or(""))?;
            if token.is_none() && self.host_settings().await?.token.is_none() {
                return Err(crate::error::Said::refused("error-host-token-missing").into());
            }
            if token.is_some_and(|t| t.chars().any(char::is_whitespace) || t.len() > 4096) {
                return Err(crate::error::Said::refused("error-host-token-shape").into());
            }
            if let Some(token) = token {
                self.store_token(token).await?;
            }
            self.set_setting(URL_KEY, &url).await?;
        }
        let mode_text = match mode {
            HostMode::Demo => "demo",
            HostMode::Custom => "custom",
        };
        self.set_setting(MODE_KEY, mode_text).await?;
        self.host_settings().await
    }

    /// Puts the token in the credential store (or the private file) and records where.
    async fn store_token(&self, token: &str) -> Result<SecretStorage, StoreError> {
        let account = self.token_account().await?;
        let storage = self.credentials()?.save(&account, token).await?;
        self.set_setting(TOKEN_STORAGE_KEY, storage.as_str())
            .await?;
        Ok(storage)
    }

    /// A token that an earlier version kept in the settings table, in plain text, is moved to
    /// the credential store and wiped from the database: the row deleted with `secure_delete`
    /// (its bytes overwritten, not just unlinked) and the WAL checkpointed and truncated, so no
    /// copy survives in the file. Runs at every open; does nothing once moved.
    pub async fn move_plaintext_token(&self) -> Result<bool, StoreError> {
        let Some(token) = self.setting(LEGACY_TOKEN_KEY).await? else {
            return Ok(false);
        };
        let storage = self.store_token(&token).await?;
        // Where `setting` found it: the teacher's file.
        let mut conn = self.own_pool("keeping the host token")?.acquire().await?;
        sqlx::query("PRAGMA secure_delete = ON")
            .execute(&mut *conn)
            .await?;
        let deleted = sqlx::query("DELETE FROM settings WHERE key = ?")
            .bind(LEGACY_TOKEN_KEY)
            .execute(&mut *conn)
            .await;
        sqlx::query("PRAGMA secure_delete = OFF")
            .execute(&mut *conn)
            .await?;
        deleted?;
        sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
            .execute(&mut *conn)
            .await?;
        tracing::info!(
            storage = storage.as_str(),
            "moved the host token out of the database"
        );
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_urls_are_checked() {
        assert_eq!(
            validate_host_url(" http://127.0.0.1:7878/ "),
            Ok("http://127.0.0.1:7878".into())
        );
        assert_eq!(
            validate_host_url("https://host.example/a2"),
            Ok("https://host.example/a2".into())
        );
        for bad in [
            "",
            "host.example",
            "ftp://host.example",
            "http://u:p@host.example",
            "http://host.example/?token=x",
            "javascript:alert(1)",
        ] {
            assert!(validate_host_url(bad).is_err(), "{bad:?} must be refused");
        }
    }

    #[test]
    fn debug_hides_the_token() {
        let s = HostSettings {
            mode: HostMode::Custom,
            url: None,
            token: Some("tok-123".into()),
            token_storage: Some(SecretStorage::File),
        };
        assert!(!format!("{s:?}").contains("tok-123"));
    }
}
