//! What the Rust side says to the window follows the window's language: errors (the teacher's
//! input refused, a request expired, a name in an answer), a failure in a library's own words
//! under a sentence of ours, projector-safe aliases and the recovery page. Its own test binary:
//! the window's language is one per process, and other tests read English.

use std::path::{Path, PathBuf};

use a2learn_teacher::desk::DeskError;
use a2learn_teacher::error::{Said, set_window_language};
use a2learn_teacher::host::mcp::HostError;
use a2learn_teacher::i18n::Lang;
use a2learn_teacher::privacy::HitKind;
use a2learn_teacher::privacy::outgoing::{TextBlocked, TextField};
use a2learn_teacher::progress::names::{Labeler, Privacy};
use a2learn_teacher::roster::Roster;
use a2learn_teacher::views::recovery;
use a2learn_teacher::{ErrorCode, StoreError, UiError};

fn said_now(err: impl Into<UiError>) -> UiError {
    err.into()
}

/// The window's language is the process's: the tests here take turns with it.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn the_window_reads_what_rust_says_in_its_language() {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let blocked = || TextBlocked {
        field: TextField::Answer,
        what: HitKind::RosterName,
        word: "Quillon".into(),
    };
    let cases = || {
        vec![
            said_now(StoreError::from(
                Said::refused("error-group-strangers").count("strangers", 2.0),
            )),
            said_now(DeskError::Expired),
            said_now(DeskError::TextBlocked(blocked())),
            said_now(a2learn_teacher::live::ActionError::Host(
                HostError::TokenRefused,
            )),
            // A database's own words: no catalog holds them, a sentence of ours says what they are.
            said_now(StoreError::Sql(sqlx::Error::PoolTimedOut)),
        ]
    };

    // English first: the positive control for the words, and what logs and the CLI read.
    set_window_language(Lang::En);
    let en: Vec<String> = cases().into_iter().map(|e| e.message).collect();
    assert_eq!(en[0], "2 of the learners are not in this class");
    assert_eq!(
        en[1],
        "this request's deadline has passed; it can no longer be answered"
    );
    assert!(
        en[2].starts_with("Not sent: your answer contains “Quillon”"),
        "{}",
        en[2]
    );
    assert_eq!(en[3], "the host refused the token");
    assert!(en[4].starts_with("database error:"), "{}", en[4]);

    set_window_language(Lang::Es);
    let es = cases();
    assert_eq!(
        es[0].code,
        ErrorCode::InvalidInput,
        "the code does not change with the words"
    );
    assert_eq!(es[0].message, "2 de los estudiantes no están en esta clase");
    assert_eq!(
        es[1].message,
        "el plazo de esta solicitud ha pasado; ya no se puede responder"
    );
    assert!(
        es[2]
            .message
            .starts_with("No enviado: tu respuesta contiene “Quillon”"),
        "the teacher's own word is quoted back: {}",
        es[2].message
    );
    assert_eq!(es[3].message, "el servidor rechazó el token");
    assert!(
        es[4]
            .message
            .starts_with("No se pudo leer ni escribir la base de datos local: database error:"),
        "{}",
        es[4].message
    );

    // The refusal quotes the teacher's word to the window only: its Debug (a log's `{:?}`)
    // names no word, where its Display (the positive control) does.
    let said = blocked().said();
    assert!(said.to_string().contains("Quillon"));
    assert!(!format!("{said:?}").contains("Quillon"), "{said:?}");

    set_window_language(Lang::Ar);
    let ar = cases();
    assert!(ar[1].message.contains("مهلة"), "{}", ar[1].message);
    // The learner's word keeps its own direction inside the Arabic sentence (isolated).
    assert!(
        ar[2].message.contains("\u{2068}Quillon\u{2069}"),
        "{}",
        ar[2].message
    );
    set_window_language(Lang::En);
}

#[test]
fn aliases_and_the_recovery_page_follow_the_window_language() {
    let _turn = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let learners = ["anon_b".to_string(), "anon_a".to_string()];
    let labels = |lang| {
        set_window_language(lang);
        let l = Labeler::new(
            &learners,
            &Roster::default(),
            Privacy::Projector { seed: 7 },
        );
        let mut all: Vec<String> = learners.iter().map(|x| l.label(x)).collect();
        all.sort();
        all
    };
    let damaged = StoreError::Damaged {
        path: PathBuf::from("/school/teacher.db"),
        reason: "file is not a database".into(),
        backups: PathBuf::from("/school/backups"),
    };
    let page = |lang| {
        set_window_language(lang);
        recovery::view(Path::new("/school/teacher.db"), &damaged).message
    };
    assert_eq!(labels(Lang::En), ["Learner 01", "Learner 02"]);
    assert!(page(Lang::En).starts_with("The database file /school/teacher.db is damaged"));
    assert_eq!(labels(Lang::Es), ["Estudiante 01", "Estudiante 02"]);
    let es = page(Lang::Es);
    assert!(
        es.starts_with("El archivo de base de datos /school/teacher.db está dañado"),
        "{es}"
    );
    assert!(
        es.contains("file is not a database"),
        "SQLite's reason is kept as it came: {es}"
    );
    set_window_language(Lang::En);
}
