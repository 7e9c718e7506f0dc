use super::*;
use std::collections::{BTreeMap, BTreeSet};

fn ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            let head = l.split('=').next()?.trim_end();
            let ok = !head.is_empty()
                && !l.starts_with([' ', '#', '-', '*', '[', '}'])
                && head
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                && l.contains('=');
            ok.then(|| head.to_string())
        })
        .collect()
}

fn by_language() -> BTreeMap<&'static str, BTreeMap<&'static str, &'static str>> {
    let mut out: BTreeMap<&str, BTreeMap<&str, &str>> = BTreeMap::new();
    for (lang, name, text) in catalog_files() {
        out.entry(lang).or_default().insert(name, text);
    }
    out
}

#[test]
fn every_file_parses_with_fluent_rs_and_no_id_is_defined_twice() {
    for (lang, files) in by_language() {
        let mut seen = BTreeSet::new();
        for (name, text) in files {
            let parsed = FluentResource::try_new(text.to_string());
            assert!(
                parsed.is_ok(),
                "{lang}/{name}: {:?}",
                parsed.err().map(|(_, e)| e)
            );
            for id in ids(text) {
                assert!(
                    seen.insert(id.clone()),
                    "{lang}: {id} defined twice ({name})"
                );
            }
        }
        assert!(seen.len() > 20, "{lang} holds only {} messages", seen.len());
    }
}

#[test]
fn spanish_and_arabic_hold_exactly_the_english_messages() {
    let langs = by_language();
    let all =
        |lang: &str| -> BTreeSet<String> { langs[lang].values().flat_map(|t| ids(t)).collect() };
    let en = all("en");
    for lang in ["es", "ar"] {
        let theirs = all(lang);
        let missing: Vec<_> = en.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&en).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{lang}: missing {missing:?}, extra {extra:?}"
        );
    }
    // The negative control: a message only English has is found.
    let mut short = all("es");
    short.remove("app-name");
    assert!(en.difference(&short).any(|id| id == "app-name"));
}

/// Every message id the Rust code asks a catalog for (`.t("…")`, `.t_args("…"`), found by reading
/// the workspace's sources.
fn ids_the_code_asks_for() -> BTreeSet<String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut dirs = vec![root.join("src"), root.join("src-tauri/src")];
    if let Ok(crates) = std::fs::read_dir(root.join("crates")) {
        dirs.extend(crates.filter_map(Result::ok).map(|c| c.path().join("src")));
    }
    let mut asked = BTreeSet::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && !path.ends_with("a2learn-i18n/src/tests.rs")
            {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                // A call with a literal id, and any literal id of the Rust side's files (an
                // error's `Said`, a table of column headers): these prefixes are the Rust side's and the
                // report's, which the printable page shares with the window.
                for call in [
                    ".t(\"",
                    ".t_args(\"",
                    "\"error-",
                    "\"view-",
                    "\"print-",
                    "\"report-",
                    "\"span-",
                ] {
                    for (at, _) in text.match_indices(call) {
                        let start = at + call.find('"').map_or(0, |q| q + 1);
                        let rest = &text[start..];
                        if let Some(end) = rest.find('"') {
                            let id = &rest[..end];
                            if id
                                .chars()
                                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
                            {
                                asked.insert(id.to_string());
                            }
                        }
                    }
                }
            }
        }
    }
    asked
}

#[test]
fn every_message_the_rust_code_asks_for_is_in_the_catalogs() {
    let asked = ids_the_code_asks_for();
    assert!(asked.len() > 10, "the scan found only {asked:?}");
    let en = words(Lang::En);
    let missing: Vec<_> = asked.iter().filter(|id| !en.has(id)).collect();
    assert!(missing.is_empty(), "not in the catalogs: {missing:?}");
    assert!(!en.has("no-such-message"), "the negative control");
}

#[test]
fn numbers_and_dates_are_written_in_the_locale() {
    assert_eq!(words(Lang::En).number(1_234_567.0), "1,234,567");
    assert_eq!(words(Lang::Es).number(1_234_567.0), "1.234.567");
    assert_eq!(words(Lang::Es).number(73.5), "73,5");
    assert_eq!(words(Lang::En).number(73.5), "73.5");
    // 2026-12-05T10:42:05Z
    let at = 1_796_467_325_000;
    assert_eq!(
        words(Lang::En).date_time_utc(at),
        "Dec 5, 2026, 10:42:05\u{202f}AM"
    );
    assert!(
        words(Lang::Es).date_time_utc(at).contains("dic"),
        "{}",
        words(Lang::Es).date_time_utc(at)
    );
    assert!(
        words(Lang::Ar).date_time_utc(at).contains('ص'),
        "{}",
        words(Lang::Ar).date_time_utc(at)
    );
}

#[test]
fn spans_and_plurals_follow_each_language() {
    let s = |lang| words(lang).t_args("span-hours-minutes", &[("h", 1.into()), ("m", 5.into())]);
    assert_eq!(s(Lang::En), "1 h 5 min");
    assert_eq!(s(Lang::Es), "1 h 5 min");
    // Arabic isolates each placeable, so the numbers keep their direction in the sentence.
    assert_eq!(s(Lang::Ar), "\u{2068}1\u{2069} س \u{2068}5\u{2069} د");
}

#[test]
fn the_pseudo_locale_is_accented_longer_and_the_same_as_the_window_s() {
    assert_eq!(pseudo("Settings"), "Šééţţííñĝš");
    let name = words(Lang::EnXa).t("app-name");
    assert!(
        !name
            .chars()
            .any(|c| c.is_ascii_alphabetic() && name.contains(&format!("{c}{c}")))
    );
    assert!(
        name.chars().count() as f64 >= "a2learn Teacher".len() as f64 * 1.3,
        "{name}"
    );
    assert_eq!(
        words(Lang::EnXa).t_args("span-minutes", &[("m", 3.into())]),
        "3 ɱííñ"
    );
}

#[test]
fn the_language_comes_from_a_tag_or_the_system_s_locale() {
    assert_eq!(Lang::from_tag("ES"), Some(Lang::Es));
    assert_eq!(Lang::from_tag("en-xa"), Some(Lang::EnXa));
    assert_eq!(Lang::from_tag("fr"), None);
    assert_eq!(Lang::negotiate(["es_MX.UTF-8"]), Lang::Es);
    assert_eq!(Lang::negotiate(["fr_FR", "ar_EG"]), Lang::Ar);
    assert_eq!(Lang::negotiate(["de"]), Lang::En);
    assert_eq!(
        Lang::first_shipped(["de_DE.UTF-8", "fr"]),
        None,
        "none shipped: the webview decides"
    );
    assert!(Lang::Ar.is_rtl() && !Lang::Es.is_rtl());
}
