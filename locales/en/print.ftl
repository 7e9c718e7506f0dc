# The printable report: the HTML page per assignment that `a2learn-teacher report --format html`
# writes (and `--lang` picks the language of). Its tables use the window's report- messages
# (report.ftl) where the words are the same; these are what only the page says. Class, pathway and
# step titles, ids, standard codes and students' responses are put in as they are.

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
print-col-incorrect = Incorrect
# The star points to the footnote print-steps-note.
print-col-median-time = Median time*
# The two stars point to the footnote print-steps-note.
print-col-helped = Helped · then right**
print-not-assessed = (not assessed)
print-steps-note = * Median time on a step: from finishing the step before to finishing this one (the first step has none). ** Help requests answered or declined on the step, and how many of those learners then got it right (their next run of the step, or of the next step when they had finished it before the help).

print-col-results = Results
print-col-attempts = Attempts
print-col-hints = Hints

print-follow-up-title = Who needs follow-up
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
