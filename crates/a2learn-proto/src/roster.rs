//! The roster CSV a teacher imports: names attached to anonymous learner ids. The core keeps
//! what this parses in the local store only (`a2learn_teacher::roster`).
//!
//! The CSV has a header and two columns, `anonymous_id,display_name` (also accepted:
//! `learner,name`). An import is all or nothing: every bad row is reported with its line
//! number, and nothing is stored unless every row is good.

use std::collections::HashMap;

/// Longest display name accepted.
pub const MAX_NAME_CHARS: usize = 100;
/// Most rows in one roster file (a class, not a district).
pub const MAX_ROWS: usize = 5_000;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RosterEntry {
    pub learner: String,
    pub display_name: String,
}

/// One bad row (or the file itself, line 0 or 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowError {
    pub line: u64,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the roster has {} problem(s); first: line {}: {}", .0.len(), .0[0].line, .0[0].message)]
pub struct RosterErrors(pub Vec<RowError>);

fn column(headers: &csv::StringRecord, names: &[&str]) -> Option<usize> {
    headers.iter().position(|h| {
        let h = h
            .trim()
            .trim_start_matches('\u{feff}')
            .to_ascii_lowercase()
            .replace(' ', "_");
        names.contains(&h.as_str())
    })
}

/// Parses a roster CSV. Errors name the line (1 is the header).
pub fn parse_roster_csv(text: &str) -> Result<Vec<RosterEntry>, RosterErrors> {
    let fail = |line, message: &str| {
        RosterErrors(vec![RowError {
            line,
            message: message.into(),
        }])
    };
    if text.trim().is_empty() {
        return Err(fail(0, "the file is empty"));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader
        .headers()
        .map_err(|e| fail(1, &format!("cannot read the header: {e}")))?
        .clone();
    let (Some(id_col), Some(name_col)) = (
        column(&headers, &["anonymous_id", "learner", "learner_id", "id"]),
        column(&headers, &["display_name", "name"]),
    ) else {
        return Err(fail(
            1,
            "the header needs the columns anonymous_id and display_name",
        ));
    };
    let mut entries = Vec::new();
    let mut errors = Vec::new();
    let mut seen: HashMap<String, u64> = HashMap::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(0, csv::Position::line);
                errors.push(RowError {
                    line,
                    message: format!("unreadable row: {e}"),
                });
                continue;
            }
        };
        let line = record.position().map_or(0, csv::Position::line);
        if record.iter().all(str::is_empty) {
            continue;
        }
        if entries.len() + errors.len() >= MAX_ROWS {
            errors.push(RowError {
                line,
                message: format!("more than {MAX_ROWS} rows"),
            });
            break;
        }
        let learner = record.get(id_col).unwrap_or("").to_string();
        let name = record.get(name_col).unwrap_or("").to_string();
        if let Err(e) = a2learn_contract::rules::check_learner(&learner) {
            // The message says why without repeating the value (it may be a name).
            errors.push(RowError {
                line,
                message: format!("anonymous_id: {e}"),
            });
            continue;
        }
        if name.is_empty() {
            errors.push(RowError {
                line,
                message: "display_name is empty".into(),
            });
            continue;
        }
        if name.chars().count() > MAX_NAME_CHARS {
            errors.push(RowError {
                line,
                message: format!("display_name is longer than {MAX_NAME_CHARS} characters"),
            });
            continue;
        }
        if name.chars().any(char::is_control) {
            errors.push(RowError {
                line,
                message: "display_name has control characters".into(),
            });
            continue;
        }
        if let Some(first) = seen.insert(learner.clone(), line) {
            errors.push(RowError {
                line,
                message: format!("anonymous_id appears again (first on line {first})"),
            });
            continue;
        }
        entries.push(RosterEntry {
            learner,
            display_name: name,
        });
    }
    if !errors.is_empty() {
        return Err(RosterErrors(errors));
    }
    if entries.is_empty() {
        return Err(fail(1, "the file has a header but no rows"));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_good_roster_parses() {
        let csv = "anonymous_id,display_name\nanon_aaaa1111,Ada Lovelace\n\nanon_bbbb2222,\"Grace, Hopper\"\n";
        let entries = parse_roster_csv(csv).unwrap();
        assert_eq!(
            entries,
            vec![
                RosterEntry {
                    learner: "anon_aaaa1111".into(),
                    display_name: "Ada Lovelace".into()
                },
                RosterEntry {
                    learner: "anon_bbbb2222".into(),
                    display_name: "Grace, Hopper".into()
                },
            ]
        );
        // Other header spellings, and a byte-order mark.
        assert_eq!(
            parse_roster_csv("\u{feff}Learner,Name\nanon_aaaa1111,Ada\n")
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn every_bad_row_is_reported_by_line_and_nothing_is_returned() {
        let csv = "anonymous_id,display_name\n\
                   anon_aaaa1111,Ada\n\
                   jane.doe@school.org,Jane\n\
                   anon_cccc3333,\n\
                   anon_aaaa1111,Ada again\n\
                   12345678,Numbers\n";
        let errors = parse_roster_csv(csv).unwrap_err().0;
        let lines: Vec<u64> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, vec![3, 4, 5, 6], "{errors:?}");
        assert!(errors[2].message.contains("first on line 2"));
        assert!(
            !errors[0].message.contains("jane.doe"),
            "the bad value is not echoed"
        );
    }

    #[test]
    fn files_without_the_columns_or_rows_are_refused() {
        assert_eq!(parse_roster_csv("").unwrap_err().0[0].line, 0);
        assert!(
            parse_roster_csv("id,email\nanon_aaaa1111,x@y.z\n")
                .unwrap_err()
                .0[0]
                .message
                .contains("anonymous_id and display_name")
        );
        assert!(parse_roster_csv("anonymous_id,display_name\n").is_err());
        let long = format!(
            "anonymous_id,display_name\nanon_aaaa1111,{}\n",
            "x".repeat(101)
        );
        assert!(parse_roster_csv(&long).is_err());
    }

    #[test]
    fn html_in_a_name_is_kept_as_text() {
        let csv = "anonymous_id,display_name\nanon_aaaa1111,<b>Ada</b>\n";
        assert_eq!(parse_roster_csv(csv).unwrap()[0].display_name, "<b>Ada</b>");
    }
}
