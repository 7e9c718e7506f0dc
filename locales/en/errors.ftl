# Errors the Rust side says to the teacher's window (and, in English, to logs and the command line).

## A failure in words no catalog holds (a database's, the network's): a sentence of ours says
## what kind it is, then the detail as it came. In English the detail alone.

error-invalid-input = { $detail }
error-not-found = { $detail }
error-storage = { $detail }
error-host = { $detail }
error-internal = { $detail }
error-expired = { $detail }
error-already-answered = { $detail }
error-already-claimed = { $detail }
error-privacy-blocked = { $detail }
error-cancelled = { $detail }
error-text-blocked = { $detail }

## Text the teacher wrote that names someone: nothing was sent. $word is the teacher's own word,
## quoted back on the teacher's own screen; $field is one of the error-field- messages.

error-field-answer = answer
error-field-teacher-note = note for the class
error-field-class-title = class title
error-field-pause-message = pause message
error-field-response = response
error-text-names-someone = Not sent: your { $field } contains “{ $word }”, a name from a class roster. Names stay on this computer, and the host only knows students by anonymous ids. Rephrase without the name and send again.
error-text-email = Not sent: your { $field } contains “{ $word }”, an e-mail address. Addresses stay on this computer. Rephrase without it and send again.
# A student's response the teacher picked for the projector.
error-shown-names-someone = Not shown: this response contains “{ $word }”, a name from a class roster. A response that names someone stays on your screen and never goes to the projector.
error-shown-email = Not shown: this response contains “{ $word }”, an e-mail address. A response that names someone stays on your screen and never goes to the projector.

## Projector-safe mode hides what names students.

error-hidden-rows = A row by student is hidden in projector-safe mode: turn it off on the teacher's own screen.
error-hidden-groups = Making a group is hidden in projector-safe mode: turn it off on the teacher's own screen.
error-hidden-student = A student's page is hidden in projector-safe mode: turn it off on the teacher's own screen.
error-hidden-report = The after-class report is hidden in projector-safe mode: turn it off on the teacher's own screen.

## The host.

error-host-token-refused = the host refused the token
# $why is the network's own words.
error-host-unreachable = the host cannot be reached: { $why }
error-check-unreachable = the host at { $host } cannot be reached: { $why }
error-host-url-empty = enter the host's address, e.g. https://host.example/
error-host-url-not-web = not a web address ({ $why })
error-host-url-scheme = the address must start with http:// or https://
error-host-url-no-host = the address needs a host name
error-host-url-credentials = put the token in the token field, not in the address
error-host-url-query = the address cannot have a query (?…) or a fragment (#…)
error-host-token-missing = enter the token the host gave you
error-host-token-shape = a token has no spaces and at most 4096 characters
error-host-none = no host is set: choose one in Settings

## The help desk.

error-desk-already-answered = this request already has its answer
error-desk-expired = this request's deadline has passed; it can no longer be answered
error-desk-claimed = another teacher has claimed this request
error-desk-answer-empty = Write an answer before sending.
error-desk-answer-too-long = An answer can be at most { $max } characters; this one has { $chars }.
error-desk-reply-title = A saved reply needs a title of 1 to { $max } characters.
error-desk-draft-too-long = A draft can be at most { $max } characters.

## Students' work on the projector.

error-show-empty = an empty response has nothing to show
error-show-too-long = a response of more than { $max } characters is too long for the projector
error-show-full = { $max } responses are on show already: take one down first

## Groups of learners.

error-group-name-empty = a group needs a name
error-group-name-too-long = a group's name has at most { $max } characters
error-group-name-one-line = a group's name is one line of text
# $name is the group's name as the teacher typed it.
error-group-not-found = no group named “{ $name }” in this class
error-group-empty = a group needs at least one learner
error-group-strangers = { $strangers ->
        [one] { $strangers } of the learners is not in this class
       *[other] { $strangers } of the learners are not in this class
    }

## Classes and assignments.

error-class-title-empty = a class needs a title
error-class-title-too-long = a class title is at most { $max } characters
error-due-out-of-range = the due date is out of range
error-assign-no-pathway = choose a pathway
error-assign-due-past = the due date is in the past
error-assign-note-too-long = the note is { $chars } characters; at most { $max }
error-idle-after-range = Idle after must be between { $min } and { $max } minutes; got { $got }.

## Exports.

error-export-cancelled = the export was cancelled; nothing was written
error-export-running = an export is running already
error-export-full-path = the export needs a full file path

## The database could not be opened (the recovery page, the command line). $path, $backups and
## $newest are file paths; $reason is SQLite's own words; $found and $known are schema versions.

error-store-newer = This database ({ $path }) was written by a newer version of a2learn Teacher (schema { NUMBER($found, useGrouping: "false") }; this app knows up to { NUMBER($known, useGrouping: "false") }). Update the app; the file was not changed.
error-store-newer-shared = The shared store at { $location } was written by a newer version of a2learn Teacher (schema { NUMBER($found, useGrouping: "false") }; this app knows up to { NUMBER($known, useGrouping: "false") }). Update the app; nothing was changed.
error-store-damaged = The database file { $path } is damaged ({ $reason }). Restore a backup with `a2learn-teacher db restore --from FILE` (automatic backups are in { $backups }).
error-store-missing = The database file { $path } is missing, but its automatic backups are in { $backups }; nothing was created in its place. Restore the newest with `a2learn-teacher db restore --from { $newest }`, or start with an empty database.
