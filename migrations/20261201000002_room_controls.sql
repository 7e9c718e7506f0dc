-- The host's room controls for a class (pathway-host.md §3) as its feed last told this
-- dashboard: the STATE_SNAPSHOT of each connection, then the echoes after it. Host state
-- mirrored so every view (and a restart without a host) shows it; the echoes are not contract
-- events and are not in the ledger, so `db rebuild` leaves these tables alone.
CREATE TABLE room_pause (
    class_id      TEXT PRIMARY KEY NOT NULL,
    paused        INTEGER NOT NULL,
    -- The message the learners' widgets show (the teacher's text; at most 200 characters).
    message       TEXT,
    updated_at_ms INTEGER NOT NULL
);

-- One row per paced pathway: learners open no step after `up_to`. No row: no limit.
CREATE TABLE room_pacing (
    class_id      TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    up_to         TEXT NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (class_id, pathway_id)
);
