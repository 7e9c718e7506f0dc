# The live grid: learners (rows) by the steps of one pathway (columns), on a class's page.

## Above the grid: sort and filter.

# The group of controls above the grid (read by screen readers).
grid-controls = Sort and filter
# Label of a drop-down that shows only the learners in one state.
grid-filter-state = State
# Label of a drop-down that narrows the state filter to one step.
grid-filter-step = Step
# The first choice of both drop-downs: no filter.
grid-filter-any = any
# A step in the step drop-down and a column's tooltip: "1. Compare fractions". $title is the
# step's title as the pathway names it (not translated).
grid-step-numbered = { $n }. { $title }
# A column's tooltip when the step checks a standard: "1. Compare fractions (4.NF)".
grid-step-numbered-standard = { $n }. { $title } ({ $standard })
# A checkbox.
grid-sort-attention = Sort by needs attention (help, follow-ups, struggling, idle first)
# Beside the controls: learners shown after the filter, of the learners loaded.
# English writes these counts without a thousands separator ("250 of 1000 learners").
grid-count = { $total ->
    [one] { NUMBER($shown, useGrouping: 0) } of { NUMBER($total, useGrouping: 0) } learner
   *[other] { NUMBER($shown, useGrouping: 0) } of { NUMBER($total, useGrouping: 0) } learners
}
# The teacher's idle threshold: "Idle after [5] min"; $field is the number box.
grid-idle-after = Idle after { $field } min

## The legend under the controls.

grid-legend = Legend
# Also the state of a cell on the step the learner is on and has not finished.
grid-working = working (the step they are on)
# A moon icon comes first.
grid-legend-idle = idle { $minutes } min or more

## The states of a cell (legend, filter, and each cell's name for screen readers).

grid-state-waiting-for-help = waiting for help
grid-state-follow-up = missed help request: follow up
grid-state-struggling = struggling
grid-state-completed-incorrect = completed, incorrect
grid-state-in-progress = in progress
grid-state-not-started = not started
grid-state-completed = completed (no verdict)
grid-state-completed-correct = completed, correct
# A cell's state on the step the learner is on: "waiting for help (the step they are on)".
grid-state-current = { $state } (the step they are on)

## The grid itself.

# The grid's name for screen readers.
grid-label = Learners by step
# Header of the first column (the learners' names).
grid-learner = Learner
# A cell's name for screen readers and its tooltip: "Ada, Compare fractions: completed, correct".
# $learner is a name or an anonymous id, $step a step title, $state one of the states above.
grid-cell-name = { $learner }, { $step }: { $state }
# Tooltip of a learner's name, which opens their page.
grid-open-student = Open { $name }'s page
# A badge beside a learner's name: "idle 9 min" ($span is a span of time, already in words).
grid-idle = idle { $span }
grid-idle-title = Idle: nothing for { $span }
# Tooltip of the time since the learner's last event, shown beside their name.
grid-quiet-title = Since their last event

## The totals row at the foot of the grid.

# Its first cell: "Totals (30)", the learners of the class.
grid-totals = Totals ({ $count })
# Read after the count of learners who completed a step (the count is shown, these words are
# only read by screen readers): "3 completed".
grid-total-done = { $done ->
    [one] completed
   *[other] completed
}
# The same with the learners working on the step: "3 completed, 2 working".
grid-total-done-working = { $done ->
    [one] completed, { $working } working
   *[other] completed, { $working } working
}
# Read after the count of learners who need the teacher on the step: "2 need the teacher".
grid-total-needs = { $needs ->
    [one] need the teacher
   *[other] need the teacher
}
# Tooltip of a step's totals: "Compare fractions: 3 completed, 2 working, 1 need the teacher".
grid-total-title = { $title }: { $done } completed, { $working } working, { $needs } need the teacher
# The same on a page of a big class (where the learners working are not counted).
grid-total-title-paged = { $title }: { $done } completed, { $needs } need the teacher

## Under the grid.

grid-keys = Arrow keys move between cells, Enter opens one, Escape closes it; press ? for all shortcuts.
