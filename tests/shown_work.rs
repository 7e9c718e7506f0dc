//! Students' work on the projector: a picked response passes the name scanner or is refused
//! with the word shown to the teacher; picks are text only, shown as "Response A, B…" in an
//! order drawn from the projection (not the order of picking), and taken down in one call.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly

mod support;

use a2learn_teacher::roster::parse_roster_csv;
use a2learn_teacher::views::shown_work::{MAX_SHOWN, ShowError, ShownWork};
use a2learn_teacher::{ErrorCode, UiError};
use support::engines::{Engine, TestDb};

const CLASS: &str = "class-1";

async fn class_with_roster() -> TestDb {
    let db = TestDb::open(Engine::Sqlite).await.unwrap();
    db.store.upsert_class(CLASS, "Room 12", None).await.unwrap();
    let roster =
        parse_roster_csv("anonymous_id,display_name\nanon_aaaa1111,Quillon Brasswhistle\n")
            .unwrap();
    db.store.import_roster(CLASS, &roster).await.unwrap();
    db
}

#[tokio::test]
async fn a_response_naming_a_classmate_is_refused_with_the_word_and_never_shown() {
    let db = class_with_roster().await;
    let shown = ShownWork::default();
    // The positive control: a response without a name goes on show.
    let picked = shown
        .pick(&db.store, CLASS, "3/4 is bigger because 9/12 > 8/12")
        .await
        .unwrap();
    assert_eq!(picked.len(), 1);

    let err = shown
        .pick(&db.store, CLASS, "I copied Quillon's answer")
        .await
        .unwrap_err();
    let ui = UiError::from(err);
    assert_eq!(ui.code, ErrorCode::TextBlocked);
    assert!(ui.message.contains("“Quillon”"), "{}", ui.message);
    assert!(ui.message.starts_with("Not shown"), "{}", ui.message);
    let projected = shown.projected(CLASS, 7);
    assert_eq!(projected.len(), 1, "the refused response is not on show");
    assert!(
        projected
            .iter()
            .all(|r| !r.text.to_lowercase().contains("quillon"))
    );
}

#[tokio::test]
async fn picks_are_lettered_in_an_order_of_the_projection_and_taken_down_in_one_call() {
    let db = class_with_roster().await;
    let shown = ShownWork::default();
    let texts: Vec<String> = (1..=8).map(|i| format!("answer {i}/9")).collect();
    for t in &texts {
        shown.pick(&db.store, CLASS, t).await.unwrap();
    }
    // The same response twice is one pick.
    assert_eq!(
        shown
            .pick(&db.store, CLASS, "answer 1/9")
            .await
            .unwrap()
            .len(),
        8
    );
    let a = shown.projected(CLASS, 1);
    let letters: Vec<&str> = a.iter().map(|r| r.letter.as_str()).collect();
    assert_eq!(letters[..3], ["A", "B", "C"]);
    let order = |v: &[a2learn_teacher::views::shown_work::ShownResponse]| {
        v.iter().map(|r| r.text.clone()).collect::<Vec<_>>()
    };
    assert_eq!(
        order(&a),
        order(&shown.projected(CLASS, 1)),
        "one projection, one order"
    );
    assert!(
        (2..10).any(|seed| order(&shown.projected(CLASS, seed)) != order(&a)),
        "another projection draws another order"
    );
    assert!(
        (1..10).any(|seed| order(&shown.projected(CLASS, seed)) != texts),
        "the order is not the order of picking"
    );
    assert!(
        shown.projected("class-2", 1).is_empty(),
        "another class shows none"
    );

    assert_eq!(shown.unpick(CLASS, "answer 3/9").len(), 7);
    shown.clear(CLASS);
    assert!(shown.projected(CLASS, 1).is_empty());
    assert!(shown.picked(CLASS).is_empty());
}

#[tokio::test]
async fn empty_huge_and_too_many_responses_are_refused_clearly() {
    let db = class_with_roster().await;
    let shown = ShownWork::default();
    for bad in ["", "   ", &"x".repeat(501)] {
        let err = shown.pick(&db.store, CLASS, bad).await.unwrap_err();
        assert!(matches!(err, ShowError::Said(_)), "{err:?}");
    }
    for i in 0..MAX_SHOWN {
        shown
            .pick(&db.store, CLASS, &format!("r{i}"))
            .await
            .unwrap();
    }
    let err = shown.pick(&db.store, CLASS, "one more").await.unwrap_err();
    assert!(err.to_string().contains("take one down"), "{err}");
    assert_eq!(shown.projected(CLASS, 3).last().unwrap().letter, "Z");
}
