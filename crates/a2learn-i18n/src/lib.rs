//! The words of a2learn Teacher, in the teacher's language.
//!
//! The catalogs are Project Fluent files in `locales/<lang>/*.ftl` at the repository's root: the
//! UI bundles the same files, so a sentence the window shows and the one the printable report
//! prints are one message, translated once (ARCHITECTURE.md says why Fluent). This crate embeds
//! them (see `build.rs`), picks plural forms by CLDR's rules (through `fluent-bundle`), and writes
//! numbers and dates in the locale with ICU4X's CLDR data, as `Intl` does in the window.
//!
//! Code that writes words takes a [`Words`] (or a [`Lang`]) as an argument, the way it takes a
//! clock: nothing here reads the environment except [`Lang::from_env`], for the command line.

mod pseudo;

use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use icu_datetime::fieldsets::YMDT;
use icu_datetime::{DateTimeFormatter, input::DateTime};
use icu_decimal::DecimalFormatter;
use icu_decimal::input::Decimal;
use icu_locale_core::Locale;

pub use pseudo::pseudo;

mod generated {
    include!(concat!(env!("OUT_DIR"), "/catalogs.rs"));
}

/// Every catalog file: (language folder, file name, text).
pub fn catalog_files() -> &'static [(&'static str, &'static str, &'static str)] {
    generated::FILES
}

/// A language the dashboard speaks. `EnXa` is the pseudo-locale: English with every letter
/// accented and every vowel doubled, for tests that must tell catalog words from the rest.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Default,
    serde::Serialize,
    serde::Deserialize,
    specta::Type,
)]
pub enum Lang {
    #[default]
    #[serde(rename = "en")]
    En,
    #[serde(rename = "es")]
    Es,
    #[serde(rename = "ar")]
    Ar,
    #[serde(rename = "en-XA")]
    EnXa,
}

impl Lang {
    /// The languages a teacher can choose.
    pub const SHIPPED: [Lang; 3] = [Lang::En, Lang::Es, Lang::Ar];

    /// The BCP 47 tag: "en", "es", "ar", "en-XA".
    pub fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Es => "es",
            Lang::Ar => "ar",
            Lang::EnXa => "en-XA",
        }
    }

    /// The folder its catalogs are in (the pseudo-locale is made from English's).
    fn folder(self) -> &'static str {
        match self {
            Lang::EnXa => "en",
            other => other.tag(),
        }
    }

    /// Exactly one of the tags above (any case), as `report --lang` takes it.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        [Lang::En, Lang::Es, Lang::Ar, Lang::EnXa]
            .into_iter()
            .find(|l| l.tag().eq_ignore_ascii_case(tag))
    }

    /// The first of `preferred` (BCP 47 tags or POSIX locales such as `es_MX.UTF-8`) whose
    /// language we ship; English when none is.
    pub fn negotiate<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Lang {
        Lang::first_shipped(preferred).unwrap_or(Lang::En)
    }

    /// The first of `preferred` whose language we ship, if any.
    pub fn first_shipped<'a>(preferred: impl IntoIterator<Item = &'a str>) -> Option<Lang> {
        for tag in preferred {
            let primary = tag
                .split(['-', '_', '.', '@', ':'])
                .next()
                .unwrap_or_default()
                .to_ascii_lowercase();
            if let Some(l) = Lang::SHIPPED.into_iter().find(|l| l.tag() == primary) {
                return Some(l);
            }
        }
        None
    }

    /// The operating system's language, from the POSIX variables in their order of precedence;
    /// English when they name none we ship.
    pub fn from_env() -> Lang {
        Lang::named_by_env().unwrap_or(Lang::En)
    }

    /// The language the POSIX variables name (`LANGUAGE`, then `LC_ALL`, `LC_MESSAGES`, `LANG`),
    /// if they name one we ship. `None` where they are unset (as on Windows and macOS) or "C".
    pub fn named_by_env() -> Option<Lang> {
        let vars: Vec<String> = ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|v| std::env::var(v).ok())
            .filter(|v| !v.is_empty() && v != "C" && v != "POSIX" && !v.starts_with("C."))
            .collect();
        Lang::first_shipped(vars.iter().flat_map(|v| v.split(':')))
    }

    pub fn is_rtl(self) -> bool {
        self == Lang::Ar
    }

    /// "rtl" or "ltr", for an HTML `dir` attribute.
    pub fn dir(self) -> &'static str {
        if self.is_rtl() { "rtl" } else { "ltr" }
    }
}

/// An argument of a message.
#[derive(Debug, Clone)]
pub enum Arg<'a> {
    Text(&'a str),
    Owned(String),
    Number(f64),
}

impl<'a> From<&'a str> for Arg<'a> {
    fn from(s: &'a str) -> Self {
        Arg::Text(s)
    }
}
impl<'a> From<&'a String> for Arg<'a> {
    fn from(s: &'a String) -> Self {
        Arg::Text(s)
    }
}
impl From<String> for Arg<'_> {
    fn from(s: String) -> Self {
        Arg::Owned(s)
    }
}
macro_rules! number_arg {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg<'_> {
            #[allow(clippy::cast_precision_loss, clippy::cast_lossless)]
            fn from(n: $t) -> Self {
                Arg::Number(n as f64)
            }
        }
    )*};
}
number_arg!(i32, i64, u32, u64, usize, f64);

/// One language's messages and formatters.
pub struct Words {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
    decimal: DecimalFormatter,
    decimal_plain: DecimalFormatter,
    date_time: DateTimeFormatter<YMDT>,
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Words")
            .field("lang", &self.lang)
            .finish_non_exhaustive()
    }
}

/// The catalog of `lang`, built once per process.
pub fn words(lang: Lang) -> &'static Words {
    static WORDS: [OnceLock<Words>; 4] = [
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
        OnceLock::new(),
    ];
    let slot = match lang {
        Lang::En => &WORDS[0],
        Lang::Es => &WORDS[1],
        Lang::Ar => &WORDS[2],
        Lang::EnXa => &WORDS[3],
    };
    slot.get_or_init(|| Words::build(lang))
}

/// Formats a number placeable in the locale (Fluent's own would write 1234.5 everywhere).
fn number_in<M, const L: u8>(value: &FluentValue, _: &M) -> Option<String> {
    let FluentValue::Number(n) = value else {
        return None;
    };
    let lang = match L {
        1 => Lang::Es,
        2 => Lang::Ar,
        3 => Lang::EnXa,
        _ => Lang::En,
    };
    Some(catalog_decimal(
        lang,
        &n.as_string(),
        n.options.use_grouping,
    ))
}

fn locale_of(lang: Lang) -> Locale {
    lang.folder().parse().unwrap_or(Locale::UNKNOWN)
}

fn decimal_formatter(lang: Lang, grouping: bool) -> DecimalFormatter {
    let mut options = icu_decimal::options::DecimalFormatterOptions::default();
    if !grouping {
        options.grouping_strategy = Some(icu_decimal::options::GroupingStrategy::Never);
    }
    DecimalFormatter::try_new(locale_of(lang).into(), options)
        .or_else(|_| DecimalFormatter::try_new(Locale::UNKNOWN.into(), options))
        .unwrap_or_else(|_| unreachable!("compiled data holds the root locale"))
}

/// `grouping` false for numbers that are names more than amounts (a schema version, a year):
/// `NUMBER($n, useGrouping: "false")` in a message.
fn catalog_decimal(lang: Lang, text: &str, grouping: bool) -> String {
    let words = words(lang);
    let formatter = if grouping {
        &words.decimal
    } else {
        &words.decimal_plain
    };
    match Decimal::try_from_str(text) {
        Ok(d) => formatter.format(&d).to_string(),
        Err(_) => text.to_string(),
    }
}

impl Words {
    fn build(lang: Lang) -> Words {
        let id: unic_langid::LanguageIdentifier = lang.folder().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Isolation marks keep an id or a number in its own direction inside a right-to-left
        // sentence; in a left-to-right one they would only hide text from searches (as in the UI).
        bundle.set_use_isolating(lang.is_rtl());
        if lang == Lang::EnXa {
            bundle.set_transform(Some(|s: &str| std::borrow::Cow::Owned(pseudo(s))));
        }
        // NUMBER(), for its options (useGrouping); the formatter below honours them.
        // (It fails only when a function of that name exists; this bundle has none yet.)
        let _ = bundle.add_builtins();
        bundle.set_formatter(Some(match lang {
            Lang::En => number_in::<_, 0>,
            Lang::Es => number_in::<_, 1>,
            Lang::Ar => number_in::<_, 2>,
            Lang::EnXa => number_in::<_, 3>,
        }));
        for (folder, _, text) in catalog_files() {
            if *folder != lang.folder() {
                continue;
            }
            // A file that does not parse is caught by the catalog tests; what parses is used.
            let resource = FluentResource::try_new((*text).to_string()).unwrap_or_else(|(r, _)| r);
            // Overriding cannot happen: ids are unique across files (tested).
            bundle.add_resource_overriding(resource);
        }
        let date_time = DateTimeFormatter::try_new(locale_of(lang).into(), YMDT::medium())
            .or_else(|_| DateTimeFormatter::try_new(Locale::UNKNOWN.into(), YMDT::medium()))
            .unwrap_or_else(|_| unreachable!("compiled data holds the root locale"));
        Words {
            lang,
            bundle,
            decimal: decimal_formatter(lang, true),
            decimal_plain: decimal_formatter(lang, false),
            date_time,
        }
    }

    pub fn lang(&self) -> Lang {
        self.lang
    }

    /// Whether the catalog defines `id`.
    pub fn has(&self, id: &str) -> bool {
        self.bundle.has_message(id)
    }

    /// The message `id`, with no arguments.
    pub fn t(&self, id: &str) -> String {
        self.t_args(id, &[])
    }

    /// The message `id` with its arguments. A missing message (a bug the catalog tests catch)
    /// shows its id rather than nothing.
    pub fn t_args(&self, id: &str, args: &[(&str, Arg<'_>)]) -> String {
        let Some(pattern) = self.bundle.get_message(id).and_then(|m| m.value()) else {
            return id.to_string();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            match value {
                Arg::Text(s) => fluent_args.set(*name, FluentValue::from(*s)),
                Arg::Owned(s) => fluent_args.set(*name, FluentValue::from(s.clone())),
                Arg::Number(n) => fluent_args.set(*name, FluentValue::from(*n)),
            }
        }
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// A number in the locale: "1,234.5", "1234,5" (Spanish groups from 5 digits), "1,234.5".
    pub fn number(&self, n: f64) -> String {
        let text = if n.fract() == 0.0 && n.abs() < 1e15 {
            format!("{n:.0}")
        } else {
            format!("{n}")
        };
        catalog_decimal(self.lang, &text, true)
    }

    /// A UTC instant (epoch milliseconds) as a date and time in the locale, in UTC.
    pub fn date_time_utc(&self, epoch_ms: i64) -> String {
        let secs = epoch_ms.div_euclid(1000);
        let (y, m, d) = civil_from_days(secs.div_euclid(86_400));
        let rem = secs.rem_euclid(86_400);
        let date = icu_calendar::Date::try_new_iso(y, m, d);
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let time = icu_time::Time::try_new(
            (rem / 3600) as u8,
            ((rem % 3600) / 60) as u8,
            (rem % 60) as u8,
            0,
        );
        match (date, time) {
            (Ok(date), Ok(time)) => {
                let text = self.date_time.format(&DateTime { date, time }).to_string();
                // CLDR's month names and "AM" are words too: the pseudo-locale marks them as
                // it marks the catalogs', so a test can tell them from untranslated text.
                if self.lang == Lang::EnXa {
                    pseudo(&text)
                } else {
                    text
                }
            }
            _ => epoch_ms.to_string(),
        }
    }
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar.
fn civil_from_days(days: i64) -> (i32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    (y as i32, m as u8, d as u8)
}

#[cfg(test)]
mod tests;
