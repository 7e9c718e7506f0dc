//! What the shell keeps for the life of the window.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use a2learn_teacher::Store;
use a2learn_teacher::groups::Scope;
use a2learn_teacher::host::ConnectionState;
use a2learn_teacher::live::Live;
use a2learn_teacher::progress::names::{Privacy, fresh_seed};
use a2learn_teacher::store::Changes;
use a2learn_teacher::views::export::ExportSlot;
use a2learn_teacher::views::shown_work::ShownWork;

use crate::demo::DemoHost;

/// What the projector window shows: one class, with aliases fresh for this projection.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Projection {
    pub class_id: String,
    pub seed: u32,
}

pub struct AppState {
    pub store: Store,
    pub live: Arc<Live>,
    /// The embedded demo host, while the app uses it.
    pub demo: tokio::sync::Mutex<Option<DemoHost>>,
    /// How the teacher's window labels learners and shows free text: names, or projector-safe.
    /// Held here, not in the page, so every command applies it before anything reaches the
    /// webview.
    privacy: Mutex<Privacy>,
    /// The class on the projector window, if one is open.
    projection: Mutex<Option<Projection>>,
    /// The export running now (one at a time).
    pub export: ExportSlot,
    /// Students' responses the teacher put on show, per class: in memory only.
    pub shown_work: ShownWork,
    /// The group each class's views are narrowed to, if any (the class header shows it).
    group_filter: Mutex<HashMap<String, String>>,
}

impl AppState {
    pub fn new(store: Store, live: Arc<Live>) -> Self {
        Self {
            store,
            live,
            demo: tokio::sync::Mutex::new(None),
            privacy: Mutex::new(Privacy::Names),
            projection: Mutex::new(None),
            export: ExportSlot::default(),
            shown_work: ShownWork::default(),
            group_filter: Mutex::new(HashMap::new()),
        }
    }

    pub fn connection(&self) -> ConnectionState {
        self.live.connection()
    }

    /// The teacher window's current privacy.
    pub fn privacy(&self) -> Privacy {
        *self.privacy.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Switches projector-safe mode; switching it on draws fresh aliases.
    pub fn set_projector_safe(&self, on: bool) -> Privacy {
        let mut privacy = self.privacy.lock().unwrap_or_else(PoisonError::into_inner);
        *privacy = match (on, *privacy) {
            (true, Privacy::Projector { seed }) => Privacy::Projector { seed },
            (true, Privacy::Names) => Privacy::Projector { seed: fresh_seed() },
            (false, _) => Privacy::Names,
        };
        *privacy
    }

    /// Starts a projection of `class_id` with fresh aliases.
    pub fn project(&self, class_id: &str) -> Projection {
        let projection = Projection {
            class_id: class_id.to_string(),
            seed: fresh_seed(),
        };
        *self
            .projection
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(projection.clone());
        projection
    }

    /// The group `class_id`'s views are narrowed to.
    pub fn group_filter(&self, class_id: &str) -> Option<String> {
        self.group_filter
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(class_id)
            .cloned()
    }

    pub fn set_group_filter(&self, class_id: &str, group: Option<String>) {
        let mut filters = self
            .group_filter
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match group {
            Some(g) => filters.insert(class_id.to_string(), g),
            None => filters.remove(class_id),
        };
    }

    /// The learners `class_id`'s views show: the filter's group, or the whole class (a group
    /// deleted meanwhile drops the filter).
    pub async fn scope(&self, class_id: &str) -> Result<Scope, a2learn_teacher::StoreError> {
        let group = self.group_filter(class_id);
        match Scope::of(&self.store, class_id, group.as_deref()).await {
            Err(a2learn_teacher::StoreError::NotFound(_)) => {
                self.set_group_filter(class_id, None);
                Ok(Scope::Class)
            }
            other => other,
        }
    }

    /// Tells the projector window (which reloads on store changes) that what it shows of
    /// `class_id` changed; the teacher's window refetches only the room line.
    pub fn projector_changed(&self, class_id: &str) {
        self.live.notify_changed(
            class_id,
            Changes {
                room: true,
                ..Changes::default()
            },
        );
    }

    pub fn projection(&self) -> Option<Projection> {
        self.projection
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}
