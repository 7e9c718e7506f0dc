//! Where a teacher's app keeps results: their own file, or a school's shared PostgreSQL store
//! that the file points to (and stays beside, as its home: names, drafts and the teacher's
//! settings never leave it). The file keeps the shared store's URL without its password; the
//! password goes to the credential store, as the host token does ([`crate::host::credentials`]).
//! [`Store::open_teachers`] opens whichever the file says (the app does, at every start).

use std::path::Path;

use super::engine::PgUrl;
use super::{Store, StoreError};
use crate::clock::SharedClock;
use crate::host::credentials::{Credentials, Policy, SecretStorage};

/// The shared store's URL, without a password.
const URL_KEY: &str = "shared_store_url";
/// Where its password is kept ("system" or "file"), when it has one.
const PASSWORD_STORAGE_KEY: &str = "shared_store_password_storage";
/// The credential store's account for it (one shared store per teacher's file).
const PASSWORD_ACCOUNT: &str = "a2learn-shared-store-password";

impl Store {
    /// Opens a teacher's store: the file at `path`, or — when the file names a shared store
    /// ([`Store::save_shared_store`]) — that store paired with the file as its home, connected
    /// with the password from the credential store. The password never prints: a failure to
    /// connect names the store with `***` in its place.
    pub async fn open_teachers(path: &Path, clock: SharedClock) -> Result<Store, StoreError> {
        let file = Store::open(path, clock.clone()).await?;
        let Some(url) = file.shared_store_url().await? else {
            return Ok(file);
        };
        let shared = Store::open_shared(&url, clock).await?;
        shared.with_home(file)
    }

    /// The shared store this teacher's file names, if any: its URL, which holds no password.
    pub async fn shared_store(&self) -> Result<Option<PgUrl>, StoreError> {
        let Some(url) = self.setting(URL_KEY).await?.filter(|u| !u.is_empty()) else {
            return Ok(None);
        };
        Ok(Some(
            PgUrl::parse(&url).map_err(|e| StoreError::Invalid(e.to_string()))?,
        ))
    }

    /// Points this teacher's file at a shared store from the next [`Store::open_teachers`]:
    /// `url` without a password (one in it is refused: it would be kept in plain text), and
    /// `password`, kept in the credential store. The store is opened first (and its schema
    /// brought up to date), so a URL that does not connect is refused and nothing is saved.
    pub async fn save_shared_store(
        &self,
        url: &str,
        password: Option<&str>,
    ) -> Result<PgUrl, StoreError> {
        let url = PgUrl::parse(url.trim()).map_err(|e| StoreError::Invalid(e.to_string()))?;
        if url.has_password() {
            return Err(StoreError::Invalid(
                "give the password in its own field, not in the URL: it is kept in the \
                 credential store, the URL in the teacher's file"
                    .into(),
            ));
        }
        let password = password.filter(|p| !p.is_empty());
        let full = match password {
            Some(p) => url.clone().with_password(p),
            None => url.clone(),
        };
        Store::open_shared(&full, self.clock.clone())
            .await?
            .close()
            .await;
        let credentials = self.shared_store_credentials()?;
        match password {
            Some(p) => {
                let storage = credentials.save(PASSWORD_ACCOUNT, p).await?;
                self.set_setting(PASSWORD_STORAGE_KEY, storage.as_str())
                    .await?;
            }
            None => {
                if let Some(storage) = self.password_storage().await? {
                    credentials.delete_from(PASSWORD_ACCOUNT, storage).await?;
                }
                self.set_setting(PASSWORD_STORAGE_KEY, "").await?;
            }
        }
        self.set_setting(URL_KEY, &url.redacted()).await?;
        Ok(url)
    }

    /// Back to this computer: the file keeps results itself from the next open. The shared
    /// store keeps what it holds. The file stops naming the store first, so a credential store
    /// that does not answer cannot keep a teacher on a store that does not open; its password
    /// is then forgotten where it was kept (a failure there is logged, not fatal).
    pub async fn forget_shared_store(&self) -> Result<(), StoreError> {
        let storage = self.password_storage().await?;
        self.set_setting(URL_KEY, "").await?;
        self.set_setting(PASSWORD_STORAGE_KEY, "").await?;
        if let Some(storage) = storage
            && let Err(e) = self
                .shared_store_credentials()?
                .delete_from(PASSWORD_ACCOUNT, storage)
                .await
        {
            tracing::warn!(error = %e, "cannot forget the shared store's password");
        }
        Ok(())
    }

    async fn password_storage(&self) -> Result<Option<SecretStorage>, StoreError> {
        Ok(self
            .setting(PASSWORD_STORAGE_KEY)
            .await?
            .as_deref()
            .and_then(SecretStorage::parse))
    }

    /// The shared store's URL with its password, as this file names it.
    async fn shared_store_url(&self) -> Result<Option<PgUrl>, StoreError> {
        let Some(url) = self.shared_store().await? else {
            return Ok(None);
        };
        let Some(storage) = self.password_storage().await? else {
            return Ok(Some(url));
        };
        let password = self
            .shared_store_credentials()?
            .load(PASSWORD_ACCOUNT, storage)
            .await?;
        Ok(Some(match password {
            Some(p) => url.with_password(&p),
            None => url,
        }))
    }

    fn shared_store_credentials(&self) -> Result<Credentials, StoreError> {
        let file = self.teachers_file("pointing a teacher's file at a shared store")?;
        Ok(Credentials::beside(file, Policy::from_env()?))
    }
}
