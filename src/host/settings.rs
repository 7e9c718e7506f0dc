//! Which host the app talks to: the embedded demo host (the default) or one the teacher names
//! by URL and token. Kept in the local store; the token never leaves it except as the bearer
//! header to that host.

use serde::{Deserialize, Serialize};

use crate::store::{Store, StoreError};

const MODE_KEY: &str = "host_mode";
const URL_KEY: &str = "host_url";
const TOKEN_KEY: &str = "host_token";

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
}

impl std::fmt::Debug for HostSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HostSettings")
            .field("mode", &self.mode)
            .field("url", &self.url)
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .finish()
    }
}

/// Checks a host URL: http or https, a host name, no credentials, no query. Returns it without a
/// trailing slash.
pub fn validate_host_url(url: &str) -> Result<String, String> {
    let trimmed = url.trim();
    if trimmed.is_empty() {
        return Err("enter the host's address, e.g. https://host.example/".into());
    }
    let parsed = reqwest::Url::parse(trimmed).map_err(|e| format!("not a web address ({e})"))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err("the address must start with http:// or https://".into());
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err("the address needs a host name".into());
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err("put the token in the token field, not in the address".into());
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err("the address cannot have a query (?…) or a fragment (#…)".into());
    }
    Ok(trimmed.trim_end_matches('/').to_string())
}

impl Store {
    pub async fn host_settings(&self) -> Result<HostSettings, StoreError> {
        let mode = match self.setting(MODE_KEY).await?.as_deref() {
            Some("custom") => HostMode::Custom,
            _ => HostMode::Demo,
        };
        Ok(HostSettings {
            mode,
            url: self.setting(URL_KEY).await?,
            token: self.setting(TOKEN_KEY).await?,
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
            let url = validate_host_url(url.unwrap_or("")).map_err(StoreError::Invalid)?;
            let stored = self.setting(TOKEN_KEY).await?;
            if token.is_none() && stored.is_none() {
                return Err(StoreError::Invalid(
                    "enter the token the host gave you".into(),
                ));
            }
            if token.is_some_and(|t| t.chars().any(char::is_whitespace) || t.len() > 4096) {
                return Err(StoreError::Invalid(
                    "a token has no spaces and at most 4096 characters".into(),
                ));
            }
            self.set_setting(URL_KEY, &url).await?;
            if let Some(token) = token {
                self.set_setting(TOKEN_KEY, token).await?;
            }
        }
        let mode_text = match mode {
            HostMode::Demo => "demo",
            HostMode::Custom => "custom",
        };
        self.set_setting(MODE_KEY, mode_text).await?;
        self.host_settings().await
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
        };
        assert!(!format!("{s:?}").contains("tok-123"));
    }
}
