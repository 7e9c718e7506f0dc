# Groups of learners the teacher makes (kept on this computer), and the filter that narrows every
# view of a class to one group.

## The filter, in the class's header.

# A drop-down of the class's groups follows: "Show [the whole class]".
groups-show = Show
# The drop-down's first choice.
groups-whole-class = the whole class
# A group in the drop-down: its name as the teacher typed it, and how many learners it has.
groups-option = { $name } ({ $size })
# Shown while a group is chosen; $group is the group's name (in quotes), $count its learners.
groups-filter-on = Every view shows the group { $group } only ({ $count ->
        [one] { $count } learner
       *[other] { $count } learners
    }).
# The same when the group's size is not known.
groups-filter-on-unsized = Every view shows the group { $group } only.
# A link after groups-filter-on.
groups-show-whole-class = Show the whole class

## The Groups tab.

groups-title = Groups
groups-intro = Groups stay on this computer. Choose one above the tabs to narrow every view to it.
groups-none = No groups yet.
# A group of the list: "Table 1 (2 learners): Ada, Dev"; $name is the group's name, $members
# the learners' names (joined with groups-names-separator).
groups-group = { $name } ({ $count ->
        [one] { $count } learner
       *[other] { $count } learners
    }): { $members }
# Between learners' names in a list (a comma and a space).
groups-names-separator = { ", " }
# A link after each group; groups-delete-label is its name for screen readers.
groups-delete = Delete
groups-delete-label = Delete the group { $name }
# A heading over groups the app proposes from the students' work.
groups-suggested = Suggested by the evidence
# A button beside a suggested group.
groups-make-suggested = Make this group
# A suggested group's reason: how many learners showed the same misconception, then the
# misconception in the students' widget's own words ($misconception, not translated):
# "2 learners: bigger denominator means bigger fraction". The learners' names follow.
groups-suggested-misconception = { $count ->
    [one] { $count } learner: { $misconception }
   *[other] { $count } learners: { $misconception }
}
# A suggested group's reason: how many learners the knowledge map calls "missed" on a standard
# ($standard is its code, not translated): "2 learners missed 4.NF.A.2".
groups-suggested-missed = { $count ->
    [one] { $count } learner missed { $standard }
   *[other] { $count } learners missed { $standard }
}
# The form that makes a group.
groups-new = New group
groups-name = Name
groups-learners = Learners
groups-make = Make the group
# Instead of the form, where results are kept in a shared store and the teacher has no file of
# their own beside it.
groups-no-home = Groups are kept in a teacher's own file: this shared store has none beside it.
