//! Where the local database lives.
//!
//! Precedence: an explicit path (the `--db` flag), then the `A2LEARN_TEACHER_DB` environment
//! variable, then the platform's data directory (`$XDG_DATA_HOME/a2learn-teacher/teacher.db` on
//! Linux). Tests and end-to-end runs point the variable (or `XDG_DATA_HOME`) at a fresh folder.
//! The command line also takes a shared store's `postgres://` URL in either place; the desktop
//! app refuses one ([`app_db_file`]).

use std::path::{Path, PathBuf};

use crate::store::{Location, LocationError};

/// The environment variable that overrides the database path.
pub const DB_ENV: &str = "A2LEARN_TEACHER_DB";

/// The folder name under the platform data directory.
pub const APP_DIR: &str = "a2learn-teacher";

/// The database file name inside [`APP_DIR`].
pub const DB_FILE: &str = "teacher.db";

/// The folder beside the database file that holds its automatic backups.
pub const BACKUP_DIR: &str = "backups";

/// Where the automatic backups of the database at `db` go: `backups/` beside it.
pub fn backup_dir(db: &Path) -> PathBuf {
    db.parent().unwrap_or(Path::new("")).join(BACKUP_DIR)
}

/// Where `db restore` keeps the file it replaced: `<name>.before-restore` beside it.
pub fn before_restore_path(db: &Path) -> PathBuf {
    let mut name = db.file_name().unwrap_or_default().to_os_string();
    name.push(".before-restore");
    db.with_file_name(name)
}

/// Where the command line's store is: `--db` (a file path or a `postgres://` URL), else
/// [`DB_ENV`], else the file in the platform data folder. The inputs are passed in, so the rule
/// is tested without touching the process.
pub fn resolve_db_location(
    flag: Option<&str>,
    env_value: Option<&str>,
    data_dir: Option<&Path>,
) -> Result<Location, LocationError> {
    if let Some(value) = flag {
        return Location::parse(value);
    }
    if let Some(value) = env_value.filter(|v| !v.trim().is_empty()) {
        return Location::parse(value);
    }
    data_dir
        .map(|dir| Location::Sqlite(dir.join(APP_DIR).join(DB_FILE)))
        .ok_or(LocationError::Empty)
}

/// [`resolve_db_location`] with the real environment and platform data directory.
pub fn default_db_location(flag: Option<&str>) -> Result<Location, LocationError> {
    let env_value = std::env::var(DB_ENV).ok();
    resolve_db_location(flag, env_value.as_deref(), dirs::data_dir().as_deref())
}

/// The desktop app's database: a local SQLite file. A shared store's URL is refused with what
/// to do instead: the window keeps what stays on the teacher's machine (rosters, names, the
/// desk's drafts) in its file, and a school's shared store is followed and read from the
/// command line.
pub fn app_db_file(location: Location) -> Result<PathBuf, LocationError> {
    match location {
        Location::Sqlite(path) => Ok(path),
        Location::Postgres(url) => Err(LocationError::SharedStoreInApp(url)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_location_is_a_path_or_a_postgres_url_flag_first() {
        let data = Path::new("/data");
        let url = "postgres://u:pw@db/a2learn";
        assert!(matches!(
            resolve_db_location(Some(url), Some("/env.db"), Some(data)),
            Ok(Location::Postgres(_))
        ));
        assert_eq!(
            resolve_db_location(None, Some("/env.db"), Some(data)),
            Ok(Location::Sqlite(PathBuf::from("/env.db")))
        );
        assert!(matches!(
            resolve_db_location(None, Some(url), Some(data)),
            Ok(Location::Postgres(_))
        ));
        assert_eq!(
            resolve_db_location(None, Some(" "), Some(data)),
            Ok(Location::Sqlite(data.join(APP_DIR).join(DB_FILE)))
        );
        assert_eq!(
            resolve_db_location(None, None, None),
            Err(LocationError::Empty)
        );
    }

    #[test]
    fn flag_beats_env_beats_data_dir() {
        let data = Path::new("/data");
        let file = |p: &str| Ok(Location::Sqlite(PathBuf::from(p)));
        assert_eq!(
            resolve_db_location(Some("/flag.db"), Some("/env.db"), Some(data)),
            file("/flag.db")
        );
        assert_eq!(
            resolve_db_location(None, Some("/env.db"), Some(data)),
            file("/env.db")
        );
        assert_eq!(
            resolve_db_location(None, None, Some(data)),
            file("/data/a2learn-teacher/teacher.db")
        );
    }

    #[test]
    fn the_app_opens_a_file_and_refuses_a_shared_store_without_its_password() {
        let data = Path::new("/data");
        let url = "postgres://teacher:canary-secret@db.school/a2learn";
        let refused = resolve_db_location(None, Some(url), Some(data)).and_then(app_db_file);
        let Err(err @ LocationError::SharedStoreInApp(_)) = refused else {
            panic!("a postgres:// URL is no file for the app: {refused:?}");
        };
        let message = err.to_string();
        assert!(
            message.contains("a2learn-teacher --db URL sync"),
            "{message}"
        );
        assert!(message.contains("teacher:***@db.school"), "{message}");
        assert!(!message.contains("canary-secret"), "{message}");
        assert!(!format!("{err:?}").contains("canary-secret"));
        // Control: a path, from the flag or the variable, is the app's file.
        assert_eq!(
            resolve_db_location(Some("/flag.db"), Some(url), Some(data)).and_then(app_db_file),
            Ok(PathBuf::from("/flag.db"))
        );
        assert_eq!(
            resolve_db_location(None, Some("/env.db"), Some(data)).and_then(app_db_file),
            Ok(PathBuf::from("/env.db"))
        );
    }

    #[test]
    fn backups_sit_beside_the_database() {
        assert_eq!(
            backup_dir(Path::new("/d/teacher.db")),
            PathBuf::from("/d/backups")
        );
        assert_eq!(backup_dir(Path::new("t.db")), PathBuf::from("backups"));
        assert_eq!(
            before_restore_path(Path::new("/d/teacher.db")),
            PathBuf::from("/d/teacher.db.before-restore")
        );
    }
}

/// The value of a `--db PATH` or `--db=PATH` argument, for binaries that take no other flags
/// (the desktop app).
pub fn db_flag(args: impl IntoIterator<Item = String>) -> Option<String> {
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--db" {
            return args.next();
        }
        if let Some(value) = arg.strip_prefix("--db=") {
            return Some(value.to_string());
        }
    }
    None
}

#[cfg(test)]
mod flag_tests {
    use super::*;

    fn args(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn db_flag_in_both_spellings() {
        assert_eq!(
            db_flag(args(&["app", "--db", "/x.db"])).as_deref(),
            Some("/x.db")
        );
        assert_eq!(
            db_flag(args(&["app", "--db=/y.db"])).as_deref(),
            Some("/y.db")
        );
        assert_eq!(db_flag(args(&["app", "--other"])), None);
        assert_eq!(
            db_flag(args(&["app", "--db"])),
            None,
            "a flag without a value is no path"
        );
    }
}
