# The after-class report: the window's Report tab, which prints a page per assignment. The app
# writes the same report as HTML too and uses these messages where the words are the same.
# "Learner" is a student of the class; steps are the parts of a pathway (a lesson's sequence).

## Options above the report (the window only; they are not printed).

# Hidden heading of the options group (read by screen readers only).
report-options = Report options
# Label of the menu that picks which assignment the report covers.
report-assignment = Assignment
# First choice of that menu: the report covers every assignment of the class.
report-every-assignment = every assignment
# Checkbox: put learners' names on the report instead of their anonymous ids.
report-names-option = Names on the report (your own copy: a default report shows anonymous ids)
# Button: opens the system's print dialog (which can also save a PDF).
report-print = Print or save as PDF

## The report's head.

# Heading of the report. $class is the class's title.
report-title = { $class }: after-class report
# Heading of a report that shows learners' names. $class is the class's title.
report-title-with-names = { $class }: after-class report (with names)
# Under the heading. $when is a date and time, already written out ("1 Dec 2026, 14:05").
report-made = Made { $when }
# Instead of the assignments, when the class has none.
report-no-pathway = No pathway assigned yet.

## One assignment (a pathway given to the class).

# Under the pathway's title: how many learners the class has, how many started the pathway, and
# how many completed all its steps.
report-completion = { $learners ->
    [one] { $learners } learner
   *[other] { $learners } learners
}: { $started } started, { $finished } finished every step.

## The step table: a row per step, a column per outcome.

# Caption of the step table: each learner is counted by their most recent attempt at the step.
report-steps-caption = Each step, by each learner's newest run
# Column heading: the step.
report-step = Step
# Column heading: learners whose answer was right on the first attempt.
report-right-first-try = Right first try
# Column heading: learners who got it right after one or more wrong attempts.
report-right-after-retries = Right after retries
# Column heading: learners whose answer is wrong.
report-wrong = Wrong
# Column heading: learners who completed a step that is not marked right or wrong.
report-no-verdict = No verdict
# Column heading: learners who have not got to the step.
report-not-reached = Not reached
# Column heading: the mean number of attempts on the step.
report-mean-attempts = Mean attempts
# Column heading: the mean number of hints learners opened on the step.
report-mean-hints = Mean hints
# Column heading: the median time learners took on the step.
report-median-time = Median time
# Tooltip of "Median time": what the time is measured from and to.
report-median-time-explained = From finishing the step before to finishing this one (the first step has none)
# Column heading: help requests the teacher handled, and how many of those learners then got the
# step right. The "·" separates the two numbers of the column's cells.
report-helped-then-right = Helped · then right
# Tooltip of "Helped · then right".
report-helped-then-right-explained = Help requests answered or declined on the step, and how many of those learners then got it right
# Column heading: the answers learners gave most often.
report-common-responses = Common responses
# Row heading: the step's place in the pathway and its title.
report-step-row = { $position }. { $title }
# After the step's title, in grey: the code of the standard it checks ("4.NF.A.1").
report-step-standard = ({ $standard })
# Hidden name of a count's button (it lists the learners behind the count). $step is the step's
# title, $outcome a column heading ("Right first try"), $count the number.
report-count-list = { $step }, { $outcome }: { $count }; list them
# A cell of "Helped · then right": $helped help requests handled, $right of those learners then
# right.
report-helped-then-right-counts = helped { $helped } · then right { $right }
# After a learner's answer in "Common responses": how many learners gave it ("× 3").
report-response-times = × { $count }

## The learners behind a count (opens under the table).

# Heading of the list. $step is the step's title, $count how many learners are listed.
report-who-heading = { $step }: { $outcome ->
    [first_try] right first try
    [after_retries] right after retries
    [incorrect] wrong
    [no_verdict] completed, no verdict
   *[not_reached] not reached
} ({ $count })

## Mastery by standard.

# Caption of the mastery table: how learners did on each standard (a learning objective).
report-mastery-caption = Mastery by standard
# Column heading: the standard's code.
report-standard = Standard
# Column heading: how many learners.
report-learners = Learners
# Column heading: how many answers were checked right or wrong.
report-checked = Checked
# Column heading: how many checked answers were right.
report-correct = Correct
# Column heading: the row in words.
report-summary = Summary
# Row heading of the last row: every standard together.
report-all-standards = All standards
# Summary of a standard: $correct right answers of $checked checked ones.
report-correct-of-checked = { $correct } of { $checked } correct
# Summary of a standard with too few checked answers to say how learners did.
report-not-enough-evidence = not enough evidence ({ $checked } checked)

## Who needs a follow-up.

# Heading of the list of learners the teacher may want to see again.
report-follow-ups = Who needs a follow-up
# The list is empty.
report-nobody = Nobody.
# One line of the list. $learner is a name or an anonymous id, $step the step's title, $reason one
# of the two reasons below.
report-follow-up = { $learner } — { $step }: { $reason }
# Reason: the learner asked for help on the step and nobody answered.
report-reason-missed-help = missed help request
# Reason: the learner's answer on the step is wrong.
report-reason-wrong-answer = wrong answer
