# The class's two maps: the knowledge map (standards, the learning objectives, with how many
# learners are in each state on them) and the pathway map (a pathway's steps with how many learners
# have done each). Both are drawn as a picture, with the same data as a table. Words inside the
# picture have little room: keep them short.

## Both maps.

# Hidden heading of the switch between the picture and the table (read by screen readers only).
maps-show-as = Show as
# Choice of that switch: the drawn map.
maps-show-map = Map
# Choice of that switch: the same data as a table.
maps-show-table = Table
# Beside the legend when the map is on the projector: counts of fewer than $k learners are hidden
# so that no small group can be picked out.
maps-groups-under-k = Groups under { $k } are not shown.
# Hidden name of the panel listing the learners of a standard or a step. $title is its title.
maps-learners-on = Learners on { $title }
# Button: closes that panel.
maps-close = Close
# Heading in that panel: a state or status ("known", "Done") and how many learners are in it.
maps-group-count = { $group } ({ $count })
# Between the items of a list read out in one line ("known 5, missed 1"). Keep the quotes: they
# keep the space after the comma.
maps-list-separator = {", "}
# Instead of a count of learners too small to show on the projector.
maps-fewer-than = fewer than { $k }
# Instead of a count hidden so that a small group cannot be worked out from the others.
maps-hidden-small-group = hidden (protects a small group)

## The knowledge map.

# Hidden name of the knowledge map.
maps-knowledge-map = Knowledge map
# Instead of the map, when the assigned pathways check no standard.
maps-no-standard = No standard in the assigned pathways yet.
# Hidden name of the list of colours under the map.
maps-states = States
# A learner's state on a standard: they showed they know it.
maps-state-known = known
# A learner's state on a standard: they got it wrong.
maps-state-missed = missed
# A learner's state on a standard: they said they do not know it yet.
maps-state-dont-know = doesn't know yet
# A learner's state on a standard: it was taught to them (a lesson step), not checked yet.
maps-state-taught = taught
# A learner's state on a standard: nothing yet.
maps-state-candidate = not met yet
# Hidden description of the drawn knowledge map.
maps-knowledge-graph-title = Standards and their prerequisites (the table lists the same)
# One state's count on a standard, read out in the node's name: "known 5". $count is a number or
# "fewer than 5".
maps-state-count = { $state } { $count }
# A standard's node, read out: its title and the counts of each state.
maps-standard-summary = { $title }: { $counts }
# Tooltip of a misconception (a typical wrong idea) drawn beside its standard. $name is its name
# (from the lesson), $count the learners who showed it (a number or "fewer than 5").
maps-misconception-title = Misconception: { $name } ({ $count ->
    [one] { $count } learner
   *[other] { $count } learners
})
# A misconception drawn beside its standard: its name and the learners who showed it.
maps-misconception-label = { $name } · { $count }
# Caption of the knowledge map's table.
maps-knowledge-table-caption = Learners in each state, per standard
# Column heading: the standard.
maps-standard = Standard
# Column heading: the standards this one needs first (its prerequisites).
maps-builds-on = Builds on
# Caption of the table of misconceptions.
maps-misconceptions-caption = Misconceptions shown
# Column heading: the misconception's name.
maps-misconception = Misconception
# Column heading: how many learners.
maps-learners = Learners

## The pathway map.

# Hidden name of the pathway map.
maps-pathway-map = Pathway map
# Instead of the map, when the class has no pathway.
maps-assign-a-pathway = Assign a pathway to see its map.
# Beside the legend: how many learners the class has.
maps-class-size = { $count ->
    [one] { $count } learner
   *[other] { $count } learners
}
# After a pathway's title: learners cannot open steps after step $step (the pacing limit).
maps-paced-up-to-step = Paced up to step { $step }
# After a pathway's title: learners can open every step.
maps-not-paced = Not paced
# After "Paced up to step 3": how many learners have done every step.
maps-pathway-finished = · { $count } finished
# After a step's title in the learners' panel: the pathway it belongs to.
maps-in-pathway = ({ $pathway })
# Hidden name of the legend.
maps-statuses = Statuses
# Legend: learners who have done the step.
maps-legend-done = done
# Legend: learners for whom this is the first step they have not done.
maps-legend-current = current (the first step not done)
# Legend: learners who have not got to the step.
maps-legend-upcoming = upcoming
# Legend: the flag on the step the class is paced up to.
maps-legend-pacing-limit = pacing limit
# Column heading and panel heading: learners who have done the step.
maps-status-done = Done
# Column heading and panel heading: learners on the step now.
maps-status-current = Current
# Column heading and panel heading: learners who have not got to the step.
maps-status-upcoming = Upcoming
# On a step (little room): learners who have done it. $count is a number, "<10" or "hidden".
maps-step-done = { $count } done
# On a step (little room): learners on it now. $count is a number, "<10" or "hidden".
maps-step-current = { $count } current
# On a step (little room): learners not there yet. $count is a number, "<10" or "hidden".
maps-step-upcoming = { $count } upcoming
# On a step, instead of a count too small to show on the projector (very little room).
maps-fewer-than-short = <{ $k }
# On a step, instead of a count hidden to protect a small group (very little room).
maps-hidden = hidden
# On the step the class is paced up to, under its counts.
maps-pacing-up-to-here = Pacing: up to here
# On a step after the pacing limit (learners cannot open it yet), under its counts.
maps-after-pacing-limit = After the pacing limit
# In the table's "Pacing" column: a step after the pacing limit.
maps-after-limit = After the limit
# A step's node, read out: its place, its title, then its counts and pacing.
maps-step-summary = { $position }. { $title }: { $details }
# A step's title on its node: its place in the pathway and its title.
maps-step-title = { $position }. { $title }
# Hidden description of the drawn pathway. $title is the pathway's title.
maps-pathway-graph-title = The steps of { $title } in order (the table lists the same)
# Caption of the pathway map's table. $title is the pathway's title.
maps-pathway-table-caption = Learners done, current and upcoming, per step of { $title }
# Column heading: the step.
maps-step = Step
# Column heading: whether the step is at or after the pacing limit.
maps-pacing = Pacing
# Before a step's title in the table: its place in the pathway.
maps-step-number = { $position }.
