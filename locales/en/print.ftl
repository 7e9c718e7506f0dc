# The printable report: the HTML page per assignment that `a2learn-teacher report --format html`
# writes (and `--lang` picks the language of). Class, pathway and step titles, ids, standard codes
# and students' responses are put in as they are.

print-title = { $class } — class report
print-no-assignments = No assignments.
# The page's heading: the class's title, then the pathway's.
print-heading = { $class } — { $pathway }
print-meta = Class { $class } · assignment { $assignment } · made { $made } (UTC)
print-meta-group = group “{ $group }” only
print-identified = names students: keep inside the school
print-anonymous = anonymous ids

print-completion-title = Completion
print-completion = { $finished } of { $learners ->
        [one] { $learners } learner
       *[other] { $learners } learners
    } finished every step; { $started } started.

print-steps-title = Steps
print-col-step = Step
print-col-standard = Standard
print-col-first-try = Right first try
print-col-after-retries = Right after retries
print-col-incorrect = Incorrect
print-col-no-verdict = No verdict
print-col-not-reached = Not reached
print-col-mean-attempts = Mean attempts
print-col-mean-hints = Mean hints
# The star points to the footnote print-steps-note.
print-col-median-time = Median time*
# The two stars point to the footnote print-steps-note.
print-col-helped = Helped · then right**
print-col-responses = Common responses
print-not-assessed = (not assessed)
print-steps-note = * Median time on a step: from finishing the step before to finishing this one (the first step has none). ** Help requests answered or declined on the step, and how many of those learners then got it right (their next run of the step, or of the next step when they had finished it before the help).

print-mastery-title = Mastery by standard
print-col-learners = Learners
print-col-results = Results
print-col-checked = Checked
print-col-correct = Correct
print-col-attempts = Attempts
print-col-hints = Hints
print-col-summary = Summary
print-all-standards = All standards
print-mastery-correct = { $correct } of { $checked } correct
print-mastery-not-enough = not enough evidence ({ $checked } checked)

print-follow-up-title = Who needs follow-up
print-nobody = Nobody.
print-col-learner = Learner
print-col-why = Why
print-why-missed-help = asked for help; the request closed unanswered
print-why-incorrect = incorrect

print-students-title = Students
print-outcome-first-try = right first try
print-outcome-after-retries = right after retries
print-outcome-incorrect = incorrect
print-outcome-no-verdict = completed, no verdict
print-outcome-not-reached = not reached

## The line on how fresh the report's data is (times in UTC, as the report's other times).

print-fresh-none = No work received yet.
print-fresh-heard = All work up to { $newest } (UTC) received; the host was last heard { $heard }.
print-fresh = All work up to { $newest } (UTC) received.
