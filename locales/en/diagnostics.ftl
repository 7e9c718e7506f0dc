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
# $what is the rule in a few words (a diagnostics-check-… message below; the checker's English for a
# rule it does not know), $section where the rule is written
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

## Each rule of the host check in a few words, by the check's id (shown in the "Rule" column
## beside the id, and in the verdict's $what above). The same words as the checker's
## (src/host/check); tool, field and event names (tools/list, list_pathways, RUN_STARTED,
## Last-Event-ID, text/event-stream…) stay as they are. "Feed": the class's live stream of events
## from the host; "frame": one event of it.

diagnostics-check-auth-refused = no token and a wrong token get 401 and nothing else
diagnostics-check-auth-accepted = the token opens an MCP session at /mcp
diagnostics-check-tools-required = tools/list has every required tool, each with an input schema naming its arguments
diagnostics-check-tools-optional = the optional tools (pause_class, resume_class, set_pacing, list_classes) are described
# "requires": a field of a pathway's step (the steps it needs first).
diagnostics-check-catalog-valid = list_pathways entries are valid registry entries, steps unique, requires known
diagnostics-check-feed-unknown-class = the feed of a class that does not exist answers 404
diagnostics-check-writes-room = pause_class and resume_class take effect and are echoed on the feed
diagnostics-check-feed-content-type = the feed answers text/event-stream
# The braces list the snapshot's fields; in this file a brace is written {"{"} or {"}"}.
diagnostics-check-feed-opening = a connection opens with RUN_STARTED then STATE_SNAPSHOT {"{"}class_id, learners, assignments{"}"}
# "id: <seq>": the line of the stream that numbers a frame.
diagnostics-check-feed-ids = every data frame after the opening has an id: <seq>
diagnostics-check-feed-seq-order = seqs are strictly increasing
diagnostics-check-feed-agui = every frame passes the rules of AG-UI's EventSchema
diagnostics-check-feed-contract = every a2learn frame passes the contract
diagnostics-check-feed-utc = every time is written in UTC (Z)
diagnostics-check-feed-ping = the feed is never silent for 15 s: a frame or a ping at least every 15 s
diagnostics-check-feed-resume = reconnecting with Last-Event-ID yields exactly the frames after it
diagnostics-check-results-match-feed = get_pathway_results holds exactly the completions and struggles the feed carried
diagnostics-check-writes-create-class = create_class returns a class id and a join code, and the class's feed opens
diagnostics-check-writes-assign-idempotent = assigning the same pathway to the same class twice returns the same assignment id
diagnostics-check-writes-claim-respond = a help request is claimed and answered, and the feed echoes both
