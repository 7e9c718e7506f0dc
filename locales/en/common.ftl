# Words every part of the window (and the printable report) shares.

app-name = a2learn Teacher

## Spans of time, the way a teacher says them.

span-seconds = { $s } s
span-minutes = { $m } min
span-hours = { $h } h
span-hours-minutes = { $h } h { $m } min
