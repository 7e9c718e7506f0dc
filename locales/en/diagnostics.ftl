# Diagnostics: frames the app refused (quarantined) and the full check of the host.

diagnostics-title = Diagnostics
diagnostics-loading = Loading…

## Quarantined frames: events from the host that broke the transport or the contract.

diagnostics-quarantine-title = Quarantined frames
diagnostics-quarantine-empty = No quarantined frames: every event so far kept the contract.
diagnostics-by-rule = Rejected, by rule
# One line of the list: $rule is a rule id (shown as code, e.g. contract.payload), $count how many
# frames it rejected.
diagnostics-rule-count = { $rule }: { $count }
diagnostics-recent = Most recent
# Column headers of the table of quarantined frames. "Seq" is the frame's sequence number.
diagnostics-col-seq = Seq
diagnostics-col-rule = Rule
diagnostics-col-why = Why
diagnostics-col-frame = Frame (as received)
# After a frame too long to show whole; $bytes is its full size.
diagnostics-raw-cut = { $bytes ->
    [one] (cut, { $bytes } byte)
   *[other] (cut, { $bytes } bytes)
}

## The host: every rule of the host interface, checked on the host the app follows.

diagnostics-host-title = The host
diagnostics-host-check = Check the host
diagnostics-host-checking = Checking every rule of the host interface (about 20 seconds)…
# The verdict, also shown in Settings before a host is saved.
diagnostics-host-works = This host works with a2learn Teacher.
# $what is the rule in a few words (English, from the checker), $section where the rule is written
# (e.g. pathway-host.md §2), $detail what was seen (often the host's own words).
diagnostics-host-breaks = This host breaks a rule the dashboard needs: { $what } ({ $section }).
diagnostics-host-breaks-detail = This host breaks a rule the dashboard needs: { $what } ({ $section }). { $detail }
# Column headers of the table of checks.
diagnostics-check-col-result = Result
diagnostics-check-col-rule = Rule
diagnostics-check-col-where = Where
diagnostics-check-col-seen = Seen
# A check's result, in the first column.
diagnostics-check-passed = passed
diagnostics-check-failed = failed
# An optional rule the host does not follow: a suggestion, not a failure.
diagnostics-check-advice = advice
diagnostics-check-skipped = skipped
