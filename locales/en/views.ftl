# Sentences the Rust side builds for the window's views (in the window's language), and the two
# canned answers the help desk sends to a student's widget.

## Projector-safe mode's aliases for learners. $n is a number with leading zeros ("07").

view-learner-alias = Learner { $n }
view-learner = Learner

# The name a suggested group gets; $standard is a standard's code.
view-missed-group-name = Missed { $standard }

## A completed step's result, on a student's page.

view-result-first-try = correct on the first try
view-result-correct-after = correct after { $attempts ->
        [one] { $attempts } attempt
       *[other] { $attempts } attempts
    }
view-result-incorrect-after = incorrect after { $attempts ->
        [one] { $attempts } attempt
       *[other] { $attempts } attempts
    }
view-result-no-check = completed (no check ran)
# $verdict is one of the view-result- messages above.
view-result-with-hints = { $verdict }, { $hints ->
        [one] { $hints } hint
       *[other] { $hints } hints
    }

## A student's timeline (each line follows the step's title).

view-event-struggling = struggling
view-event-asked = asked for help
# $outcome is one of the view-help- messages below.
view-event-help-closed = help request { $outcome }

## What became of a help request.

view-help-waiting = waiting
view-help-claimed = waiting (you claimed it)
view-help-coming-over = answered: coming over
view-help-answered = answered
view-help-declined = declined
view-help-missed-followed-up = missed, followed up
view-help-missed = missed — follow up

# Where a class comes from, when it has no host.
view-no-host = no host

# Settings' verdict when the host could not be checked at all; $error says why.
view-check-unreachable = { $error }. Check the address, and that the host is running.

## Sent to the student's widget: the teacher's canned answers, in the teacher's language.

view-to-student-coming-over = Your teacher is coming over to help you.
view-to-student-declined = Your teacher can't answer this one here. Keep going, or ask again in a moment.

# The desktop notification: it shows on a shared screen, so never a question or a name.
view-notify-new-request = { $waiting ->
        [one] New help request
       *[other] New help request ({ $waiting } waiting)
    }

# The projector window's title bar.
view-projector-window-title = a2learn Teacher — projector
