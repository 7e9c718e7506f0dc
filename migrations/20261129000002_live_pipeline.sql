-- The live pipeline: the catalog snapshot, assignments, learners (anonymous ids only), the ledger
-- of accepted feed events, the tables derived from it, quarantine and the resume cursor.
--
-- The ledger (and the backfill table) are the truth; results, struggles and calls are derived
-- and can be rebuilt from them (`a2learn-teacher db rebuild`). Times are UTC milliseconds.

-- What list_pathways said, the last time it was asked.
CREATE TABLE pathways (
    pathway_id  TEXT PRIMARY KEY NOT NULL,
    title       TEXT NOT NULL,
    version     TEXT NOT NULL,
    fetched_at  INTEGER NOT NULL
);

CREATE TABLE pathway_steps (
    pathway_id  TEXT NOT NULL REFERENCES pathways (pathway_id) ON DELETE CASCADE,
    position    INTEGER NOT NULL,
    widget_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    title       TEXT NOT NULL,
    standard    TEXT,
    assesses    INTEGER NOT NULL,
    -- The registry entry (contract §2) as JSON.
    entry       TEXT NOT NULL,
    PRIMARY KEY (pathway_id, position)
);

CREATE TABLE assignments (
    assignment_id TEXT PRIMARY KEY NOT NULL,
    class_id      TEXT NOT NULL REFERENCES classes (class_id),
    pathway_id    TEXT NOT NULL,
    due_at        INTEGER,
    teacher_note  TEXT,
    created_at    INTEGER NOT NULL
);
CREATE INDEX assignments_class ON assignments (class_id);

-- Anonymous ids only. Names a teacher attaches live elsewhere (the roster), joined at render time.
CREATE TABLE learners (
    class_id      TEXT NOT NULL REFERENCES classes (class_id),
    learner       TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    PRIMARY KEY (class_id, learner)
);

-- Every accepted feed event, once: idempotent on (class_id, seq). The key grows with the feed's
-- seq, so inserts append.
CREATE TABLE ledger (
    id           INTEGER PRIMARY KEY,
    class_id     TEXT NOT NULL,
    seq          INTEGER NOT NULL,
    -- The CUSTOM event name (a2learn.widget_completed, a2learn.host.call_claimed, ...).
    name         TEXT NOT NULL,
    -- The payload as the contract module serializes it (unknown fields dropped).
    payload      TEXT NOT NULL,
    received_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX ledger_class_seq ON ledger (class_id, seq);

-- What get_pathway_results returned when a class was first followed (events from before the
-- dashboard listened); reconciled with the feed by widget run.
CREATE TABLE backfill (
    widget_run_id TEXT NOT NULL,
    verb          TEXT NOT NULL,
    class_id      TEXT NOT NULL,
    payload       TEXT NOT NULL,
    received_at   INTEGER NOT NULL,
    PRIMARY KEY (widget_run_id, verb)
);

-- Derived: one row per completed widget run (idempotent on widget_run_id).
CREATE TABLE results (
    widget_run_id TEXT PRIMARY KEY NOT NULL,
    class_id      TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    correct       INTEGER,
    attempts      INTEGER NOT NULL,
    hints         INTEGER NOT NULL,
    score         REAL,
    at_ms         INTEGER NOT NULL,
    -- NULL when the result came from backfill.
    seq           INTEGER,
    payload       TEXT NOT NULL
);
CREATE INDEX results_grid ON results (class_id, pathway_id, learner, widget_id);

-- Derived: one row per struggling widget run.
CREATE TABLE struggles (
    widget_run_id TEXT PRIMARY KEY NOT NULL,
    class_id      TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    failed_checks INTEGER NOT NULL,
    hints         INTEGER NOT NULL,
    at_ms         INTEGER NOT NULL,
    seq           INTEGER,
    payload       TEXT NOT NULL
);
CREATE INDEX struggles_class ON struggles (class_id, pathway_id, learner, widget_id);

-- Derived: score and assist calls and what became of them.
CREATE TABLE calls (
    call_id       TEXT PRIMARY KEY NOT NULL,
    class_id      TEXT NOT NULL,
    function      TEXT NOT NULL CHECK (function IN ('score', 'assist')),
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    request       TEXT NOT NULL,
    at_ms         INTEGER NOT NULL,
    deadline      TEXT NOT NULL,
    deadline_ms   INTEGER NOT NULL,
    opened_seq    INTEGER NOT NULL,
    -- open -> answered | declined | expired | failed (another error code)
    state         TEXT NOT NULL DEFAULT 'open'
                  CHECK (state IN ('open', 'answered', 'declined', 'expired', 'failed')),
    claimed_by    TEXT,
    response      TEXT,
    closed_at_ms  INTEGER,
    closed_seq    INTEGER
);
CREATE INDEX calls_class_state ON calls (class_id, state, deadline_ms);

-- Frames that broke the transport or the contract: kept aside with the rule that rejected them.
CREATE TABLE quarantine (
    id           INTEGER PRIMARY KEY,
    class_id     TEXT NOT NULL,
    seq          INTEGER,
    rule_id      TEXT NOT NULL,
    message      TEXT NOT NULL,
    -- The frame as received, cut to a bounded length (raw_bytes is its full size).
    raw          TEXT NOT NULL,
    raw_bytes    INTEGER NOT NULL,
    received_at  INTEGER NOT NULL
);
CREATE UNIQUE INDEX quarantine_class_seq ON quarantine (class_id, seq) WHERE seq IS NOT NULL;
CREATE INDEX quarantine_received ON quarantine (received_at);

-- Where each class's feed resumes: the highest seq stored (accepted, quarantined or ignored).
CREATE TABLE feed_cursors (
    class_id    TEXT PRIMARY KEY NOT NULL REFERENCES classes (class_id),
    last_seq    INTEGER NOT NULL,
    updated_at  INTEGER NOT NULL
);
