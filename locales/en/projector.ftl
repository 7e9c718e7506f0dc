# The projector window: what the whole class sees on the wall. It shows counts and fresh aliases
# only, never a name. Large type, read from across the room.

# The window's title (the task bar shows it); the app's name stays as it is.
projector-window-title = a2learn Teacher — projector
projector-loading = Loading…
# The page's heading.
projector-title = { $count ->
    [one] Our class: { $count } learner
   *[other] Our class: { $count } learners
}
projector-help-title = Help
projector-waiting = { $count ->
    [0] No one is waiting for help.
    [one] { $count } request waiting.
   *[other] { $count } requests waiting.
}
# What screen readers call the list of aliases ("Learner 07") in the order they asked for help.
projector-help-queue = Help queue, first asked first
# Students' responses the teacher put on show, each under a letter.
projector-work-title = Our work
# Each response on show, above its text: "Response A". $letter is a letter (A, B, C…), not
# translated.
projector-response-label = Response { $letter }
# What screen readers call a pathway's progress section; $title is the pathway's title.
projector-progress = Progress: { $title }
# Beside each step of a pathway: how many learners finished it, out of the class.
projector-step-done = { $done } of { $learners } done
# The same, with learners still at work on the step.
projector-step-done-working = { $done } of { $learners } done · { $working } working
projector-mastery-title = Mastery by standard
# Small groups are hidden so that no one's results can be told apart; $k is the threshold.
projector-small-groups = Groups under { $k } learners are not shown.
# Column headings: a curriculum standard's code, and what the class's results say about it.
projector-standard = Standard
projector-evidence = Evidence
# The mastery table's row for the steps that check no standard.
projector-other-steps = Other steps
# The knowledge map: how many learners are in each state on each standard.
projector-knowledge-title = Where the class stands
# The pathway map's heading; $title is the pathway's title.
projector-pathway-map = Where everyone is: { $title }
# Column heading of the pathway map's steps.
projector-step = Step
# A row of the pathway map: the step's number and its title.
projector-step-numbered = { $n }. { $title }
# After the step the teacher paced the class up to (the class may not go further yet).
projector-pacing-limit = · Pacing: up to here
