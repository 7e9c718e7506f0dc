//! What the shell keeps for the life of the window.

use std::sync::Arc;

use a2learn_teacher::Store;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::live::Live;

use crate::demo::DemoHost;

pub struct AppState {
    pub store: Store,
    pub live: Arc<Live>,
    /// The embedded demo host, while the app uses it.
    pub demo: tokio::sync::Mutex<Option<DemoHost>>,
}

impl AppState {
    pub fn new(store: Store, live: Arc<Live>) -> Self {
        Self {
            store,
            live,
            demo: tokio::sync::Mutex::new(None),
        }
    }

    pub fn connection(&self) -> ConnectionState {
        self.live.connection()
    }
}
