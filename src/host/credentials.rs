//! Where the host token lives: the operating system's credential store (Secret Service on Linux,
//! the Keychain on macOS, the Credential Manager on Windows, through the `keyring` crate), never
//! the database. Where no credential store answers (a server without a desktop session), a file
//! only the user can read (mode 0600, in a 0700 folder beside the database) — and Settings says
//! so.
//!
//! `A2LEARN_CREDENTIALS` chooses: `system` (the credential store or an error), `file` (the file
//! only), unset or `auto` (the credential store, else the file). Calls into the credential store
//! block (D-Bus), so they run on tokio's blocking pool.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The service name the credential store files our secrets under.
pub const SERVICE: &str = "org.a2learn.teacher";
/// The environment variable that chooses the storage.
pub const ENV: &str = "A2LEARN_CREDENTIALS";

/// Where a secret is kept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, specta::Type)]
#[serde(rename_all = "snake_case")]
pub enum SecretStorage {
    /// The operating system's credential store.
    System,
    /// A file only this user can read, beside the database (no credential store answered).
    File,
}

impl SecretStorage {
    pub fn as_str(self) -> &'static str {
        match self {
            SecretStorage::System => "system",
            SecretStorage::File => "file",
        }
    }

    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "system" => Some(SecretStorage::System),
            "file" => Some(SecretStorage::File),
            _ => None,
        }
    }
}

/// Which storages a [`Credentials`] may use.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// The credential store, else the file.
    Auto,
    /// Only the credential store.
    SystemOnly,
    /// Only the file.
    FileOnly,
}

impl Policy {
    /// From `A2LEARN_CREDENTIALS` (unknown values are refused rather than guessed).
    pub fn from_env() -> Result<Self, CredentialError> {
        match std::env::var(ENV).ok().as_deref() {
            None | Some("") | Some("auto") => Ok(Policy::Auto),
            Some("system") => Ok(Policy::SystemOnly),
            Some("file") => Ok(Policy::FileOnly),
            Some(other) => Err(CredentialError::BadPolicy(other.to_string())),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum CredentialError {
    #[error("{ENV}={0:?} is not one of auto, system, file")]
    BadPolicy(String),
    /// The message of the credential store's error; it never holds the secret.
    #[error("the system credential store: {0}")]
    System(String),
    #[error("the credentials file {path}: {source}")]
    File {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("the credential store task failed: {0}")]
    Task(String),
}

/// The secrets of one database: named `account`s under [`SERVICE`].
#[derive(Debug, Clone)]
pub struct Credentials {
    /// The folder the file fallback writes to.
    dir: PathBuf,
    policy: Policy,
}

impl Credentials {
    /// Secrets for the database at `db_path`; the file fallback lives in `credentials/` beside it.
    pub fn beside(db_path: &Path, policy: Policy) -> Self {
        let dir = db_path
            .parent()
            .map_or_else(|| PathBuf::from("credentials"), |p| p.join("credentials"));
        Self { dir, policy }
    }

    pub fn policy(&self) -> Policy {
        self.policy
    }

    fn file(&self, account: &str) -> PathBuf {
        // Accounts are ours (a fixed prefix and a UUID): safe as a file name.
        self.dir.join(format!("{account}.secret"))
    }

    /// Stores `secret`; returns where it went.
    pub async fn save(
        &self,
        account: &str,
        secret: &str,
    ) -> Result<SecretStorage, CredentialError> {
        if self.policy != Policy::FileOnly {
            match system::save(account, secret).await {
                Ok(()) => {
                    // A copy left in a file by an earlier fallback is stale now: remove it.
                    remove_file(&self.file(account))?;
                    return Ok(SecretStorage::System);
                }
                Err(e) if self.policy == Policy::SystemOnly => return Err(e),
                Err(e) => {
                    tracing::warn!(error = %e, "no system credential store; using a private file");
                }
            }
        }
        write_private(&self.dir, &self.file(account), secret)?;
        Ok(SecretStorage::File)
    }

    /// The secret kept in `storage`, if any.
    pub async fn load(
        &self,
        account: &str,
        storage: SecretStorage,
    ) -> Result<Option<String>, CredentialError> {
        match storage {
            SecretStorage::System => system::load(account).await,
            SecretStorage::File => match std::fs::read_to_string(self.file(account)) {
                Ok(text) => Ok(Some(text)),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
                Err(source) => Err(CredentialError::File {
                    path: self.file(account),
                    source,
                }),
            },
        }
    }

    /// Forgets the secret kept in `storage` (where a setting says it went), without asking a
    /// system store that never held it.
    pub async fn delete_from(
        &self,
        account: &str,
        storage: SecretStorage,
    ) -> Result<(), CredentialError> {
        match storage {
            SecretStorage::File => remove_file(&self.file(account)),
            SecretStorage::System => system::delete(account).await,
        }
    }

    /// Forgets the secret wherever it is.
    pub async fn delete(&self, account: &str) -> Result<(), CredentialError> {
        remove_file(&self.file(account))?;
        if self.policy != Policy::FileOnly {
            system::delete(account).await?;
        }
        Ok(())
    }
}

fn remove_file(path: &Path) -> Result<(), CredentialError> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(source) => Err(CredentialError::File {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// Writes `secret` to `path`, readable and writable by this user only, in a folder only this
/// user can enter; written to a temporary file and renamed, so no reader sees half a secret.
fn write_private(dir: &Path, path: &Path, secret: &str) -> Result<(), CredentialError> {
    use std::io::Write;
    let fail = |source| CredentialError::File {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(dir).map_err(fail)?;
    let mut file = tempfile::Builder::new()
        .prefix(".secret-")
        .tempfile_in(dir)
        .map_err(fail)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(fail)?;
        // tempfile creates files 0600 already; say so rather than rely on it.
        file.as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
    }
    file.write_all(secret.as_bytes()).map_err(fail)?;
    file.as_file().sync_all().map_err(fail)?;
    file.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// The operating system's credential store, through `keyring` on the blocking pool.
mod system {
    use super::{CredentialError, SERVICE};

    fn entry(account: &str) -> Result<keyring::Entry, CredentialError> {
        keyring::Entry::new(SERVICE, account).map_err(|e| CredentialError::System(e.to_string()))
    }

    async fn blocking<T: Send + 'static>(
        f: impl FnOnce() -> Result<T, CredentialError> + Send + 'static,
    ) -> Result<T, CredentialError> {
        tokio::task::spawn_blocking(f)
            .await
            .map_err(|e| CredentialError::Task(e.to_string()))?
    }

    pub async fn save(account: &str, secret: &str) -> Result<(), CredentialError> {
        let (account, secret) = (account.to_string(), secret.to_string());
        blocking(move || {
            entry(&account)?
                .set_password(&secret)
                .map_err(|e| CredentialError::System(e.to_string()))
        })
        .await
    }

    pub async fn load(account: &str) -> Result<Option<String>, CredentialError> {
        let account = account.to_string();
        blocking(move || match entry(&account)?.get_password() {
            Ok(secret) => Ok(Some(secret)),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(CredentialError::System(e.to_string())),
        })
        .await
    }

    pub async fn delete(account: &str) -> Result<(), CredentialError> {
        let account = account.to_string();
        blocking(move || match entry(&account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(CredentialError::System(e.to_string())),
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]
    use super::*;

    #[tokio::test]
    async fn the_file_fallback_is_private_and_round_trips() {
        let dir = tempfile::tempdir().unwrap();
        let creds = Credentials::beside(&dir.path().join("teacher.db"), Policy::FileOnly);
        assert_eq!(
            creds.save("host-token-x", "tok-secret").await.unwrap(),
            SecretStorage::File
        );
        let loaded = creds
            .load("host-token-x", SecretStorage::File)
            .await
            .unwrap();
        assert_eq!(loaded.as_deref(), Some("tok-secret"));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let file = dir.path().join("credentials/host-token-x.secret");
            let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode, 0o600, "only the user reads the token");
            let folder = std::fs::metadata(dir.path().join("credentials")).unwrap();
            assert_eq!(folder.permissions().mode() & 0o777, 0o700);
        }
        creds.delete("host-token-x").await.unwrap();
        assert_eq!(
            creds
                .load("host-token-x", SecretStorage::File)
                .await
                .unwrap(),
            None
        );
    }
}
