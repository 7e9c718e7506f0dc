# One student's page (opened from a name on the live grid): their steps, help history, timeline.

# A button at the top, with an arrow pointing back.
student-back = Back to the class
# After the student's name when the teacher knows them by a name: their anonymous id, or after
# a step's title: the standard it checks ("(4.NF)").
student-in-parens = ({ $text })
student-no-pathway = No pathway assigned yet.

## One pathway: a heading with its title, then a strip of its steps.

# Beside the pathway's title: "1 of 5 steps done · last event 2 min ago" ($ago is a span of
# time, already in words).
student-progress-last-event = { $total ->
    [one] { $done } of { $total } step done · last event { $ago } ago
   *[other] { $done } of { $total } steps done · last event { $ago } ago
}
# The same before the student's first event.
student-progress-not-started = { $total ->
    [one] { $done } of { $total } step done · not started
   *[other] { $done } of { $total } steps done · not started
}
# A badge: nothing from the student for the teacher's idle threshold.
student-idle = idle

# How a finished step went (the strip shows it after the step's title).
student-outcome-first-try = right first try
student-outcome-after-retries = right after retries
student-outcome-incorrect = wrong
student-outcome-no-verdict = completed, no verdict
student-outcome-not-reached = not reached
# A step not finished: the one the student is on, or one after it.
student-status-done = done
student-status-current = working on it
student-status-upcoming = upcoming

# A step of the strip: "1. Compare fractions" ($title is the step's title, not translated).
student-step-numbered = { $n }. { $title }
# Its tooltip: "1. Compare fractions: right after retries" ($words is an outcome or status above).
student-step-title = { $n }. { $title }: { $words }
# Read by screen readers after the step's outcome when the student struggled: ", struggled 2×".
student-struggled = , struggled { $count }×

## A step opened from the strip: its runs, newest first.

# The section's name for screen readers: "Compare fractions: evidence".
student-evidence-label = { $title }: evidence
student-no-completion = No completion yet.
# "Took 3 min" ($span is a span of time, already in words), then student-took-since, greyed.
student-took = Took { $span }
student-took-since = (from finishing the step before)
# After a run's result: "score 0.8".
student-score = score { $score }
# Caption of the table of what the widget reported.
student-details-caption = Details the widget reported

## Help history: each help request the student sent.

student-help-history = Help history
student-no-help = No help request.
# "1 Dec 2026, 08:59, Compare fractions: (the student's question)"; $at is a date and time,
# $step a step title, $question the student's own words.
student-help-asked = { $at }, { $step }: { $question }
# What became of the request.
student-help-waiting = waiting
student-help-waiting-mine = waiting (you claimed it)
student-help-answered = answered
student-help-answered-visit = answered: coming over
student-help-declined = declined
# After "answered": the teacher's answer ($answer, not translated).
student-help-answer = — answer: { $answer }
# When the teacher promised to come over; $time is a clock time.
student-help-visit-done = — visit promised at { $time }, done
student-help-visit-not-done = — visit promised at { $time }, not done yet
# After the request's fate: how the student did on the step after the help. Also shown on the
# help desk after a closed request (ui/src/components/help/afterHelp.ts).
student-after-help-right-first-try = then right first try
student-after-help-right-after-retries = then right after retries
student-after-help-wrong = then wrong
student-after-help-no-verdict = then finished (no verdict)
student-after-help-not-yet = not reached since

## Timeline: the student's events, oldest first.

student-timeline = Timeline
student-timeline-empty = Nothing yet.
# An event of the timeline, after its clock time: "Compare fractions: correct after 2 attempts".
# $title is the step's title (not translated); $what says what happened, already in the
# teacher's language.
student-event = { $title }: { $what }
