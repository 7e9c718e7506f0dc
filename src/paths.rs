//! Where the local database lives.
//!
//! Precedence: an explicit path (the `--db` flag), then the `A2LEARN_TEACHER_DB` environment
//! variable, then the platform's data directory (`$XDG_DATA_HOME/a2learn-teacher/teacher.db` on
//! Linux). Tests and end-to-end runs point the variable (or `XDG_DATA_HOME`) at a fresh folder.
//! The command line also takes a shared store's `postgres://` URL in either place.

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

/// Picks the database path. `env_value` is the value of [`DB_ENV`] and `data_dir` the platform
/// data directory, both passed in so the rule can be tested without touching the process.
pub fn resolve_db_path(
    flag: Option<&Path>,
    env_value: Option<&str>,
    data_dir: Option<&Path>,
) -> Option<PathBuf> {
    if let Some(path) = flag {
        return Some(path.to_path_buf());
    }
    if let Some(value) = env_value.filter(|v| !v.trim().is_empty()) {
        return Some(PathBuf::from(value));
    }
    data_dir.map(|dir| dir.join(APP_DIR).join(DB_FILE))
}

/// [`resolve_db_path`] with the real environment and platform data directory.
pub fn default_db_path(flag: Option<&Path>) -> Option<PathBuf> {
    let env_value = std::env::var(DB_ENV).ok();
    resolve_db_path(flag, env_value.as_deref(), dirs::data_dir().as_deref())
}

/// Where the command line's store is: `--db` (a file path or a `postgres://` URL), else
/// [`DB_ENV`], else the file in the platform data folder. Like [`resolve_db_path`], with its
/// inputs passed in.
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
        assert_eq!(
            resolve_db_path(Some(Path::new("/flag.db")), Some("/env.db"), Some(data)),
            Some(PathBuf::from("/flag.db"))
        );
        assert_eq!(
            resolve_db_path(None, Some("/env.db"), Some(data)),
            Some(PathBuf::from("/env.db"))
        );
        assert_eq!(
            resolve_db_path(None, None, Some(data)),
            Some(PathBuf::from("/data/a2learn-teacher/teacher.db"))
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

    #[test]
    fn blank_env_value_is_ignored() {
        assert_eq!(
            resolve_db_path(None, Some("  "), Some(Path::new("/d"))),
            Some(PathBuf::from("/d/a2learn-teacher/teacher.db"))
        );
        assert_eq!(
            resolve_db_path(None, None, None),
            None,
            "no data dir, no default"
        );
    }
}

/// The value of a `--db PATH` or `--db=PATH` argument, for binaries that take no other flags
/// (the desktop app).
pub fn db_flag(args: impl IntoIterator<Item = String>) -> Option<PathBuf> {
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--db" {
            return args.next().map(PathBuf::from);
        }
        if let Some(value) = arg.strip_prefix("--db=") {
            return Some(PathBuf::from(value));
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
            db_flag(args(&["app", "--db", "/x.db"])),
            Some(PathBuf::from("/x.db"))
        );
        assert_eq!(
            db_flag(args(&["app", "--db=/y.db"])),
            Some(PathBuf::from("/y.db"))
        );
        assert_eq!(db_flag(args(&["app", "--other"])), None);
        assert_eq!(
            db_flag(args(&["app", "--db"])),
            None,
            "a flag without a value is no path"
        );
    }
}
