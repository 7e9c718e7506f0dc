# The teacher's window around the views: the header, the sidebar, the welcome page, the status
# bar at the bottom, the projector-safe switch and the keyboard shortcuts overlay.
# (The app's name is `app-name`, in common.ftl.)

## The frame and its welcome page.

app-error-title = Something went wrong
app-try-again = Try again
app-welcome-title = Welcome
app-welcome-loading = Loading your classes…
# The class list is in the sidebar (at the left of a left-to-right window).
app-welcome-choose-class = Choose a class on the left to see its progress.
# The built-in demo host makes a class of simulated learners on a first start.
app-welcome-demo-coming = The demo class is being made: its simulated learners start in a moment, and it opens here.
app-welcome-host-not-answering = Your school's host is not answering. Check its address in Settings, or try again when the network is back.
# "Token": the access key the school's host gave the teacher.
app-welcome-token-refused = Your school's host refused the token. Enter the token it gave you in Settings.
app-welcome-no-classes = No classes on your school's host yet. Create one on the left, or follow one the host already has.

## The sidebar.

# The sidebar's heading, and what screen readers call it.
app-sidebar-classes = Classes
app-sidebar-loading = Loading…
app-sidebar-no-classes = No classes yet
# Under each class's title.
app-sidebar-learners = { $count ->
    [one] { $count } learner
   *[other] { $count } learners
}
# What screen readers say for the red badge beside a class (the badge shows only the number).
app-sidebar-open-requests = { $count ->
    [one] { $count } open help request
   *[other] { $count } open help requests
}
app-sidebar-help-desk = Help desk
# What screen readers say for the badge beside "Help desk": requests waiting in every class.
app-sidebar-waiting = { $count ->
    [one] { $count } waiting
   *[other] { $count } waiting
}
app-sidebar-export = Export
app-sidebar-read-only = This host is read-only: its classes are made where it runs.
app-sidebar-settings = Settings
app-sidebar-diagnostics = Diagnostics
# The form under the class list that makes a new class on the host.
app-new-class-label = New class
app-new-class-create = Create
app-new-class-needs-title = A class needs a title.

## The status bar at the bottom of the window: the host connection and the app's version.

# What screen readers call the connection's status.
app-status-connection = Host connection
# Shown while the frame is still loading.
app-status-host-unknown = Host: …
app-status-host-not-configured = Host: no host configured
app-status-host-connecting = Host: connecting
app-status-host-connected = Host: connected
# The feed dropped; $seconds is when the next try is, in seconds ("s" as in common.ftl's span-seconds).
app-status-host-reconnecting-in = Host: reconnecting in { $seconds } s
# The feed dropped, with no time for the next try.
app-status-host-reconnecting = Host: reconnecting
app-status-host-offline = Host: offline
# "Token": the access key the school's host gave the teacher.
app-status-host-token-refused = Host: token refused
# The app's version, e.g. "v0.1.0".
app-status-version = v{ $version }

## Projector-safe mode: a switch in the class header that hides names, free text and per-learner
## detail while the screen is projected.

# The switch's tooltip; $keys is its keyboard shortcut, "Ctrl+Shift+P".
app-projector-safe-tooltip = Projector-safe mode ({ $keys })
app-projector-safe-on = Projector-safe: on
app-projector-safe-off = Projector-safe: off

## The keyboard shortcuts overlay (opened with "?" or the header's button). Key names such as
## Ctrl, Shift, Home, End, Page Up, Enter and Escape are shown as printed on the keys, untranslated.

app-shortcuts-open = Shortcuts
app-shortcuts-title = Keyboard shortcuts
app-shortcuts-close = Close
# Stands for the four arrow keys, in place of a key name.
app-shortcut-key-arrows = Arrow keys
app-shortcut-projector-safe = Projector-safe mode on or off
app-shortcut-projector = Show the class on the projector
# "Live grid": the class view's table of learners by steps.
app-shortcut-grid-move = Live grid: move between cells
app-shortcut-grid-row-ends = Live grid: first or last step of the row (with Ctrl: first or last cell)
app-shortcut-grid-page = Live grid: ten learners up or down
# "Evidence": a learner's answers and results on one step.
app-shortcut-grid-open = Live grid: open the cell's evidence
app-shortcut-close = Close the evidence pane (or this list)
app-shortcut-help = Show this list of shortcuts

## Key names, as the keyboards of the language print them.

app-key-ctrl = Ctrl
app-key-shift = Shift
app-key-home = Home
app-key-end = End
app-key-page-up = Page Up
app-key-page-down = Page Down
app-key-enter = Enter
app-key-escape = Escape
