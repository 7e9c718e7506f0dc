# The class page: its header, the assignment picker and setup, the tabs, the pager of a big
# class, the room controls, the freshness line, the work shown on the projector, mastery, who
# needs me, the timeline and the evidence pane.

## The class header.

class-join-code = Join code
class-learners = Learners
class-open-help-requests = Open help requests
# Button in the class header; it opens a second window for the classroom's projector.
class-show-on-projector = Show on projector
# Tooltip of that button, with its keyboard shortcut.
class-show-on-projector-title = Show on projector (Ctrl+Shift+O)

## The assignment picker.

# Label of the drop-down that picks which assignment the live grid shows.
class-assignment = Assignment
# The picker's only choice while the class has no assignment.
class-assignment-none = none yet
# A choice of the picker: the pathway's title (the host's words), and how many learners have started it.
class-assignment-option = { $pathway } — { $started } started
class-assignment-option-due = { $pathway } — { $started } started, due { $due }

## Class setup (a menu beside the assignment picker).

class-setup = Class setup
class-assign-read-only = This host is read-only: pathways are assigned where it runs.
class-assign-open = Assign a pathway…
# Label of the drop-down of the host's pathways.
class-assign-pathway = Pathway
# After each step's title in the chosen pathway: its kind of widget (a technical name from the
# host, e.g. "multiple_choice"), its standard code, and "assesses" when the step counts towards mastery.
class-assign-step-kind = ({ $kind })
class-assign-step-kind-standard = ({ $kind }, { $standard })
class-assign-step-kind-assesses = ({ $kind }, assesses)
class-assign-step-kind-standard-assesses = ({ $kind }, { $standard }, assesses)
# Label of the due date and time.
class-assign-due = Due
class-assign-note = Note for the class
class-assign-submit = Assign
class-assign-cancel = Cancel
# Label of a file picker. "anonymous_id" and "display_name" are the column names the CSV file
# must have: keep them as they are.
class-roster-import = Import roster (CSV: anonymous_id, display_name)
class-roster-nothing-imported = Nothing imported: fix these rows.
class-roster-imported = { $count ->
        [one] { $count } name imported.
       *[other] { $count } names imported.
    }
# One problem in the imported file: its line number and what is wrong (the message is the app's own).
class-roster-line-error = Line { $line }: { $message }

## The tabs of the class page.

# What a screen reader calls the row of tabs.
class-views = Class views
class-tab-grid = Live grid
class-tab-mastery = Mastery
class-tab-knowledge = Knowledge map
class-tab-pathways = Pathway map
# Also the heading of the list beside the live grid.
class-tab-needs = Who needs me
class-tab-timeline = Timeline
class-tab-report = Report
class-tab-groups = Groups
class-grid-unassigned = Assign a pathway to see the live grid.

## The pager of a class too big for one page of the grid.

# What a screen reader calls the pager.
class-pager = Pages of learners
class-pager-count = { $shown } of { $count ->
        [one] { $count } learner on this page
       *[other] { $count } learners on this page
    }
class-pager-previous = Previous page
class-pager-next = Next page

## Running the room: pausing the class and pacing a pathway.

# The room's state, strongly marked while the class is paused.
class-room-paused = Paused
# The paused state with the message the teacher wrote for the class; $paused is the word
# "Paused" above, $message the teacher's words.
class-room-paused-message = { $paused } — “{ $message }”
class-room-running = Class running
# After the room's state, one per paced pathway: the pathway's title and the last step learners may open.
class-room-pacing = { $pathway }: up to step { $step }
class-room-pacing-titled = { $pathway }: up to step { $step } ({ $title })
class-room-resume = Resume class
class-room-message = Message for the class (optional)
# Example text in the empty message field.
class-room-message-placeholder = Eyes up here
class-room-pause = Pause class
# A folding menu of the pacing controls.
class-room-pacing-menu = Pacing
# Label of a pathway's pacing control.
class-room-pace = Pace { $pathway }
# Choices of the pacing control.
class-room-no-limit = no limit
class-room-up-to-step = up to step { $step }: { $title }

## The freshness line in the class header: how recent the work shown is.
## $time is a clock time ("10:42:05"); $ago a span ("3 s", "2 min").

class-freshness-current = All work up to { $time } received
class-freshness-current-heard = All work up to { $time } received · { $ago } ago
class-freshness-current-none = No work yet
class-freshness-current-none-heard = No work yet · { $ago } ago
# The warnings: the line shows a warning icon.
class-freshness-behind = Showing work up to { $time } — catching up with the host
class-freshness-behind-none = No work received yet — catching up with the host
class-freshness-unreachable = Showing work up to { $time } — host not answering
class-freshness-unreachable-none = No work received yet — host not answering
class-freshness-token-refused = Showing work up to { $time } — the host refused the token
class-freshness-token-refused-none = No work received yet — the host refused the token
class-freshness-not-followed = Showing work up to { $time } — this class is not being followed
class-freshness-not-followed-none = No work received yet — this class is not being followed

## Students' responses shown on the projector (no name with them).

# Tooltip of a response's toggle while it is on the projector.
class-shown-work-take-down-title = On the projector: take it down
# Tooltip of a response's toggle while it is not.
class-shown-work-show-title = Show this response to the class (no name)
# The toggle's words, after a projector icon.
class-shown-work-shown = Shown
class-shown-work-show = Show to class
# Heading of the list of responses on show.
class-shown-work-title = { $count ->
        [one] On the projector: { $count } response
       *[other] On the projector: { $count } responses
    }
class-shown-work-take-down = Take down
class-shown-work-take-all-down = Take all down

## Mastery: a table of evidence per standard.

class-mastery-caption = Mastery by standard (your own screen: every count shown)
# In projector-safe mode: counts over fewer than $k learners are hidden.
class-mastery-caption-suppressed = { $k ->
        [one] Mastery by standard (groups under { $k } learner are hidden)
       *[other] Mastery by standard (groups under { $k } learners are hidden)
    }
# Column headings.
class-mastery-standard = Standard
class-mastery-evidence = Evidence
class-mastery-attempts = Attempts
class-mastery-hints = Hints
class-mastery-learners = Learners
# The last row, over every standard.
class-mastery-all-standards = All standards
# The row of results of steps without a standard.
class-mastery-no-standard = (no standard)
# The evidence of one standard.
class-mastery-correct = { $correct } of { $checked } correct
class-mastery-not-enough = not enough evidence ({ $checked } checked)
class-mastery-no-evidence = no evidence
# Hidden in projector-safe mode: fewer than $k learners.
class-mastery-fewer-than = fewer than { $k }
class-mastery-hidden = hidden (protects a small group)

## Who needs me: the learners waiting for the teacher, most urgent first.

class-needs-nobody = Nobody is waiting.
# One waiting learner: $who is their name (or alias), $reason one of the reasons below, $step the
# step's title (the host's words), $waited how long ago in brackets ("(3 min ago)").
class-needs-item = { $who } — { $reason } on { $step } { $waited }
# A help request closed without an answer: the teacher owes a follow-up.
class-needs-follow-up = missed — follow up
class-needs-help-request = asked for help
class-needs-struggling = { $count ->
        [one] struggling: { $count } failed check
       *[other] struggling: { $count } failed checks
    }
class-needs-repeated-failures = { $count ->
        [one] { $count } incorrect completion
       *[other] { $count } incorrect completions
    }
class-ago-seconds = { $s } s ago
class-ago-minutes = { $m } min ago
class-ago-hours = { $h } h ago
# A link or tooltip that opens one student's page; $name is their name or anonymous id.
class-open-student-page = Open { $name }'s page

## The timeline: the class's events over time, as a chart.

# The chart's lines.
class-timeline-series-completions = Completions
class-timeline-series-struggles = Struggles
class-timeline-series-help-requests = Help requests
class-timeline-series-other = Other
# The label of the chart's vertical axis.
class-timeline-axis-events = events
# Under the chart: the totals, and how long each point of the chart covers ($seconds, in seconds).
class-timeline-caption = { $completions ->
        [one] { $completions } completion
       *[other] { $completions } completions
    }, { $struggles ->
        [one] { $struggles } struggle
       *[other] { $struggles } struggles
    }, { $help ->
        [one] { $help } help request
       *[other] { $help } help requests
    } ({ $seconds } s buckets)

## The evidence pane: what is behind one cell of the live grid.

# Heading: the learner's name (or anonymous id) and the step's title.
class-evidence-title = { $who } — { $step }
class-evidence-close = Close
class-evidence-close-title = Close (Escape)
class-evidence-open-requests = { $count ->
        [one] { $count } open help request
       *[other] { $count } open help requests
    }
class-evidence-no-completion = No completion yet.
# Labels of one result's facts.
class-evidence-kind = Kind
class-evidence-standard = Standard
class-evidence-correct = Correct
class-evidence-attempts = Attempts
class-evidence-hints = Hints
class-evidence-score = Score
class-evidence-completed = Completed
# Values of "Correct".
class-evidence-yes = yes
class-evidence-no = no
class-evidence-no-check = no check ran
# Caption of the table of what the widget reported.
class-evidence-details = Details the widget reported
# Before the student's response (in quotation marks, the student's words).
class-evidence-response = Response { $response }
# A struggle on the step: its failed checks, hints, and when.
class-evidence-struggle = Struggle: { $failed ->
        [one] { $failed } failed check
       *[other] { $failed } failed checks
    }, { $hints ->
        [one] { $hints } hint
       *[other] { $hints } hints
    }, { $at }
