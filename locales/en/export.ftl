# Export: a class (or one assignment) to a file, anonymous by default, with names only after a
# warning.

export-title = Export
# The sidebar with the classes is on the window's start side (left in English, right in Arabic).
export-no-classes = No classes yet: create one on the left, then export it here.
export-intro = A whole class, or one assignment, in one file. Exports carry anonymous ids only and are checked for names and e-mail addresses before anything is written.
# Label of the list of classes.
export-class = Class
# Label of the list of assignments.
export-assignment = Assignment
export-whole-class = Whole class (every assignment)
# The export's choice of learners: everyone, or one of the teacher's groups (its name follows).
export-group = Learners
export-group-everyone = Everyone in the class
# Legend of the list of file formats.
export-format = Format
export-loading = Loading…

## The formats: a label (shown next to the file extension) and a one-line description each.
## not_completed is a value written in the file: keep it.

export-format-csv = Steps (CSV)
export-format-csv-desc = One row per learner × step, every step in scope; a step not completed yet says not_completed.
export-format-standards-csv = Standards per learner (CSV)
export-format-standards-csv-desc = One row per learner × standard with evidence: steps completed, checked, correct, attempts, hints, mean score.
export-format-standards-summary = Standards summary (CSV)
export-format-standards-summary-desc = One row per standard plus a total: class aggregates, a group smaller than k printed as “fewer than k”.
export-format-jsonl = JSON lines
export-format-jsonl-desc = One line per completed widget run: the stored contract payload, byte for byte.
export-format-xapi = xAPI statements (JSON)
export-format-xapi-desc = One xAPI 1.0.3 statement per completed widget run, as one JSON array to POST to a record store.
export-format-oneroster = OneRoster 1.1 (zip)
export-format-oneroster-desc = OneRoster 1.1 bulk CSVs in a zip: manifest, one line item per step, and results.
export-format-knowledge-map = Knowledge map (JSON)
export-format-knowledge-map-desc = Standards and misconceptions with how many learners are in each state (known, missed, …), a group smaller than k printed as “fewer than k”; prerequisite edges.

## The save dialog.

# File-type filter names in the operating system's save dialog.
export-filter-jsonl = JSON lines
export-filter-zip = Zip archive
# Parts of the proposed file name (Class-4B-csv-with-names-2027-01-15.csv): ASCII letters, digits
# and dashes only. "class" stands in for a class title with no such letters. In a language whose
# script has no ASCII letters, keep the English.
export-file-class = class
export-file-with-names = with-names

## The xAPI home page (only for the xAPI format). homePage is a field name of xAPI: keep it.

export-home-page = xAPI home page
export-home-page-help = The actor accounts' homePage and the root of the activity ids, e.g. https://school.example. Kept for the next export.
export-save = Save
export-saved = Saved.

## The buttons.

export-start = Export…
export-with-names = Export with names…
# Beside "Export with names…", which is disabled.
export-names-note-projector-safe = Not available in projector-safe mode.
export-names-note-no-rows = The summary has no per-learner rows: there are no names to add.
export-names-note = Adds students' names from this computer's roster.

## The warning before an export with names.

export-confirm-title = This file will contain students’ names
export-confirm-body = An export with names joins each anonymous id to the student’s name from the roster kept on this computer. It is not checked for names, because names are its point.
# In bold, followed by export-confirm-keep-how.
export-confirm-keep = Keep it inside the school’s systems.
export-confirm-keep-how = Do not e-mail it outside the school, upload it to another service or put it on a USB stick you take home.
export-confirm-no-roster = No roster has been imported for this class: the file will carry anonymous ids.
export-confirm-roster = { $count ->
    [one] The roster for this class has { $count } name.
   *[other] The roster for this class has { $count } names.
}
export-go-back = Go back
export-confirm-names = I understand: export with names…

## While it runs, and after.

export-choosing = Choose where to save the file…
# The progress bar's name for screen readers.
export-progress-label = Export progress
export-progress-rows = { $total ->
    [one] { $done } of { $total } row
   *[other] { $done } of { $total } rows
}
# What the progress bar says to screen readers before the rows are counted.
export-counting-rows = Counting rows
# The same, shown under the progress bar.
export-counting-rows-busy = Counting rows…
export-cancelling = Cancelling…
export-cancel = Cancel
# $exported is export-done-rows or export-done-exported, in bold; $path the file written.
export-done = { $exported } to { $path }
export-done-rows = { $count ->
    [one] Exported { $count } row
   *[other] Exported { $count } rows
}
# When the number of rows is not known.
export-done-exported = Exported
export-done-names = This file contains students’ names: keep it inside the school’s systems.
export-cancelled = Cancelled — nothing was written.
# Heading of the panel when the privacy check refused the export. Under it, the backend's sentence
# says where it found a name (never the name), then export-blocked-why.
export-blocked-title = Export blocked: it contained a name or an e-mail address
export-blocked-why = Nothing was written. Every export without names is checked for the roster’s names and for e-mail addresses, free text included; this one had one at the row and field above (often a student writing a name in an answer). The message never repeats the name itself.
export-blocked-anyway = To export anyway, choose a format without free text (standards per learner or the standards summary), or, if the file stays inside the school’s systems, use “Export with names…”.
# $message is the backend's reason.
export-failed = The export failed: { $message }
