# The help desk: students' requests for help, the teacher's answers, saved replies.
# Students' questions, names, step titles and the teacher's own texts are put in from outside
# and never translated.

desk-title = Help desk
# Under the heading: how many requests wait for an answer now.
desk-waiting-count = { $count ->
    [one] { $count } request waiting
   *[other] { $count } requests waiting
}
# A checkbox: a beep and a desktop notification when a request arrives.
desk-mute-label = Sound and notification for new requests
desk-loading = Loading…
desk-empty = No one is waiting for help.

## How long a request has waited or has left: "1 min 30 s", "45 s".

desk-span-minutes-seconds = { $m } min { $s } s

## What the teacher still owes. Each line reads "Bea  Compare two fractions · <what>".

desk-follow-up-title = Missed — follow up
# $ago is a span such as "10 min 0 s".
desk-follow-up-what = asked { $ago } ago; nobody answered in time
desk-visits-title = Visits
# The teacher clicked "Coming over" on this request; $ago is a span such as "2 min 5 s".
desk-visit-what = you said you were coming over, { $ago } ago
# A button: the follow-up or visit is done and leaves the list.
desk-done = Done

## The waiting requests, grouped by the step (widget) they were asked on.

# The group's accessible name; $step is the step's title.
desk-group-label = Requests on { $step }
# After the step's title in a group's heading, when several students ask on the same step.
desk-group-students = { $count ->
    [one] { $count } student
   *[other] { $count } students
}
# A section of requests grouped by the teacher's own groups of learners.
desk-learner-groups-title = By your groups
# $group is the name the teacher gave the group.
desk-learner-group-waiting = { $group } · { $count } waiting

## A request's state, a small label beside the student's name.

desk-state-open = waiting
desk-state-claimed-by-me = claimed by you
desk-state-claimed-by-other = claimed by a co-teacher
desk-state-answered = answered
desk-state-declined = declined
desk-state-expired = expired
# Closed by the host for another reason.
desk-state-failed = closed

## A waiting request's card.

# $span is how long the student has waited, e.g. "1 min 30 s".
desk-waiting-for = waiting { $span }
# The countdown to the request's deadline, e.g. "4 min 30 s left".
desk-time-left = { $span } left
desk-question-hidden = Question hidden in projector-safe mode.
# In the opened card, after the step's title, kind and standard: "2 attempts · 1 hint".
desk-attempts = { $count ->
    [one] { $count } attempt
   *[other] { $count } attempts
}
desk-hints = { $count ->
    [one] { $count } hint
   *[other] { $count } hints
}
# A button that opens the card's answer box.
desk-open-answer = Answer
# The same button once the box is open: folds it again (the draft is kept).
desk-hide-answer = Hide answer
# A button: the teacher takes the request, so co-teachers leave it.
desk-claim = Claim
# A button: the teacher will walk over to the student (the request closes).
desk-coming-over = Coming over
desk-decline = Decline
desk-answer-hidden = Writing an answer is hidden in projector-safe mode.
# The label of the answer box.
desk-answer-label = Answer
# A menu's accessible name; picking a saved reply puts its text in the box.
desk-insert-reply = Insert a saved reply
desk-insert-reply-group = Insert a saved reply for the group
# The menu's first, empty choice.
desk-saved-reply-choose = Saved reply…
desk-send-answer = Send answer
# Under a folded card whose box holds a half-written answer; $draft is its first line.
desk-draft-kept = Draft kept: { $draft }
# Under a closed request: the answer it got; $answer is the teacher's text.
desk-answer-sent = Answer: { $answer }
desk-closed-title = Recently closed

## One answer to several students at once ($count is how many, always 2 or more).

desk-group-answer = One answer to all { $count }
desk-group-send = Send to all { $count }
desk-group-hide = Hide
desk-group-sent = { $count ->
    [one] Sent to { $count } student.
   *[other] Sent to { $count } students.
}
# Some answers were refused; $errors are the reasons, joined by "; ".
desk-group-sent-partial = Sent to { $sent } of { $total }; { $errors }

## Why an answer, a claim or a decline did not go.

desk-error-expired = this request's deadline has passed; it can no longer be answered
desk-error-already-answered = this request already has its answer
desk-error-already-claimed = another teacher has claimed this request

## Saved replies: texts the teacher writes once and inserts into answers.

desk-replies-title = Saved replies
desk-replies-empty = No saved replies yet.
desk-reply-edit = Edit
desk-reply-delete = Delete
# The label of the title field when adding a reply.
desk-reply-title-new = New saved reply: title
# The label of the title field when editing a reply.
desk-reply-title = Title
desk-reply-body = Text
desk-reply-save = Save reply
desk-reply-save-changes = Save changes
desk-reply-cancel = Cancel

## The window's title in the task bar, with the number of waiting requests.

desk-window-title = ({ $count }) { app-name }
