-- What the teacher still owes the room, kept on this machine (nothing here goes to a host).

-- A help request the host closed unanswered (its deadline passed, or it failed) stays on the
-- teacher's list as "missed — follow up" until the teacher marks it done here. The follow-up
-- itself is derived from `calls` (rebuilt from the ledger); only "done" is the teacher's.
CREATE TABLE desk_followups_done (
    call_id    TEXT PRIMARY KEY NOT NULL,
    done_at_ms INTEGER NOT NULL
);

-- "Coming over": the widget was told, and the teacher promised a visit. Listed in promise order
-- until marked done.
CREATE TABLE desk_visits (
    call_id        TEXT PRIMARY KEY NOT NULL,
    class_id       TEXT NOT NULL,
    learner        TEXT NOT NULL,
    pathway_id     TEXT NOT NULL,
    widget_id      TEXT NOT NULL,
    promised_at_ms INTEGER NOT NULL,
    done_at_ms     INTEGER
);
CREATE INDEX desk_visits_open ON desk_visits (done_at_ms, class_id, promised_at_ms);
