//! Arbitrary text into the roster CSV parser. An import is all or nothing, so every promise is
//! checked on both sides: what it accepts is a usable roster, what it refuses says why.

#![no_main]

use std::collections::HashSet;

use a2learn_proto::roster::{MAX_NAME_CHARS, MAX_ROWS, parse_roster_csv};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match parse_roster_csv(&text) {
        Ok(entries) => {
            assert!(!entries.is_empty(), "a roster without rows is refused");
            assert!(entries.len() <= MAX_ROWS);
            let mut seen = HashSet::new();
            for e in &entries {
                // Only anonymous ids enter the store, trimmed and once each.
                assert!(
                    a2learn_contract::rules::check_learner(&e.learner).is_ok(),
                    "{e:?}"
                );
                assert!(
                    !e.learner.is_empty() && e.learner.trim() == e.learner,
                    "{e:?}"
                );
                assert!(seen.insert(e.learner.as_str()), "duplicate {e:?}");
                let name = &e.display_name;
                assert!(!name.is_empty() && name.trim() == name, "{e:?}");
                assert!(name.chars().count() <= MAX_NAME_CHARS, "{e:?}");
                assert!(!name.chars().any(char::is_control), "{e:?}");
            }
        }
        Err(errors) => {
            let rows = &errors.0;
            assert!(!rows.is_empty(), "a refusal names at least one problem");
            assert!(rows.iter().all(|r| !r.message.is_empty()), "{rows:?}");
            // Problems come in file order, so a teacher can fix them top to bottom.
            assert!(rows.windows(2).all(|w| w[0].line <= w[1].line), "{rows:?}");
            // Display must not panic (it indexes the first problem).
            let _ = errors.to_string();
        }
    }
});
