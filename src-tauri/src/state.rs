//! What the shell keeps for the life of the window.

use std::sync::Mutex;

use a2learn_teacher::Store;
use a2learn_teacher::host::ConnectionState;

pub struct AppState {
    pub store: Store,
    connection: Mutex<ConnectionState>,
}

impl AppState {
    pub fn new(store: Store) -> Self {
        Self {
            store,
            connection: Mutex::new(ConnectionState::NotConfigured),
        }
    }

    pub fn connection(&self) -> ConnectionState {
        // A poisoned lock only means a panic elsewhere mid-update; the value is still a state.
        match self.connection.lock() {
            Ok(guard) => guard.clone(),
            Err(poisoned) => poisoned.into_inner().clone(),
        }
    }
}
