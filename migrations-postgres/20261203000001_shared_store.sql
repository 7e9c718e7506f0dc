-- A school's shared store on PostgreSQL: the schema SQLite's migrations/ reach at
-- 20261202000004, for what a shared store holds. It holds anonymous data only: no roster (names
-- stay in each teacher's local SQLite file) and none of the help desk's drafts or
-- saved replies (text a teacher types). Types are PostgreSQL's for the same values: times and
-- counts BIGINT (integer UTC milliseconds), flags BOOLEAN, scores DOUBLE PRECISION.

-- Store-level markers (a class's backfill is done); a teacher's preferences stay local.
CREATE TABLE settings (
    key         TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE hosts (
    host_id        TEXT PRIMARY KEY CHECK (length(host_id) > 0),
    first_seen_at  BIGINT NOT NULL
);

CREATE TABLE classes (
    class_id    TEXT PRIMARY KEY,
    title       TEXT NOT NULL CHECK (length(trim(title)) > 0),
    join_code   TEXT,
    created_at  BIGINT NOT NULL,
    host_id     TEXT
);
CREATE INDEX classes_by_host ON classes (host_id);

CREATE TABLE pathways (
    pathway_id  TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    version     TEXT NOT NULL,
    fetched_at  BIGINT NOT NULL
);

CREATE TABLE pathway_steps (
    pathway_id  TEXT NOT NULL REFERENCES pathways (pathway_id) ON DELETE CASCADE,
    position    BIGINT NOT NULL,
    widget_id   TEXT NOT NULL,
    kind        TEXT NOT NULL,
    title       TEXT NOT NULL,
    standard    TEXT,
    assesses    BOOLEAN NOT NULL,
    entry       TEXT NOT NULL,
    PRIMARY KEY (pathway_id, position)
);

CREATE TABLE catalog_standards (
    code     TEXT PRIMARY KEY,
    title    TEXT NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE catalog_standard_requires (
    code     TEXT NOT NULL,
    requires TEXT NOT NULL,
    PRIMARY KEY (code, requires)
);

CREATE TABLE assignments (
    -- SQLite's implicit rowid, spelled out: assignments made in the same millisecond list in
    -- the order they were made, on both engines, by the same query.
    rowid         BIGINT GENERATED ALWAYS AS IDENTITY,
    assignment_id TEXT PRIMARY KEY,
    class_id      TEXT NOT NULL REFERENCES classes (class_id),
    pathway_id    TEXT NOT NULL,
    due_at        BIGINT,
    teacher_note  TEXT,
    created_at    BIGINT NOT NULL
);
CREATE INDEX assignments_class ON assignments (class_id);

CREATE TABLE learners (
    class_id      TEXT NOT NULL REFERENCES classes (class_id),
    learner       TEXT NOT NULL,
    first_seen_at BIGINT NOT NULL,
    PRIMARY KEY (class_id, learner)
);

CREATE TABLE ledger (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    class_id     TEXT NOT NULL,
    seq          BIGINT NOT NULL,
    name         TEXT NOT NULL,
    payload      TEXT NOT NULL,
    received_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX ledger_class_seq ON ledger (class_id, seq);

CREATE TABLE backfill (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    verb          TEXT NOT NULL,
    payload       TEXT NOT NULL,
    received_at   BIGINT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id, verb)
);

CREATE TABLE quarantine (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    class_id     TEXT NOT NULL,
    seq          BIGINT,
    rule_id      TEXT NOT NULL,
    message      TEXT NOT NULL,
    raw          TEXT NOT NULL,
    raw_bytes    BIGINT NOT NULL,
    received_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX quarantine_class_seq ON quarantine (class_id, seq) WHERE seq IS NOT NULL;
CREATE INDEX quarantine_received ON quarantine (received_at);

CREATE TABLE feed_cursors (
    class_id    TEXT PRIMARY KEY REFERENCES classes (class_id),
    last_seq    BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE results (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    correct       BOOLEAN,
    attempts      BIGINT NOT NULL,
    hints         BIGINT NOT NULL,
    score         DOUBLE PRECISION,
    at_ms         BIGINT NOT NULL,
    seq           BIGINT,
    payload       TEXT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
CREATE INDEX results_grid_cover ON results (class_id, pathway_id, learner, widget_id, at_ms, correct);

CREATE TABLE struggles (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    failed_checks BIGINT NOT NULL,
    hints         BIGINT NOT NULL,
    at_ms         BIGINT NOT NULL,
    seq           BIGINT,
    payload       TEXT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
CREATE INDEX struggles_class ON struggles (class_id, pathway_id, learner, widget_id);

CREATE TABLE calls (
    class_id      TEXT NOT NULL,
    call_id       TEXT NOT NULL,
    function      TEXT NOT NULL CHECK (function IN ('score', 'assist')),
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    request       TEXT NOT NULL,
    at_ms         BIGINT NOT NULL,
    deadline      TEXT NOT NULL,
    deadline_ms   BIGINT NOT NULL,
    opened_seq    BIGINT NOT NULL,
    state         TEXT NOT NULL DEFAULT 'open'
                  CHECK (state IN ('open', 'answered', 'declined', 'expired', 'failed')),
    claimed_by    TEXT,
    response      TEXT,
    closed_at_ms  BIGINT,
    closed_seq    BIGINT,
    PRIMARY KEY (class_id, call_id)
);
CREATE INDEX calls_class_state ON calls (class_id, state, deadline_ms);
CREATE INDEX calls_grid ON calls (class_id, pathway_id, learner, widget_id, function, state);

-- The help desk's outcomes that decide a grid cell (an answer sent, a follow-up done): ids and
-- the response as sent to the host, nothing the host did not see.
CREATE TABLE desk_sent (
    class_id   TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('answered', 'declined')),
    response   TEXT NOT NULL,
    sent_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, call_id)
);

CREATE TABLE desk_followups_done (
    class_id   TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    done_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, call_id)
);

CREATE TABLE room_pause (
    class_id      TEXT PRIMARY KEY,
    paused        BOOLEAN NOT NULL,
    message       TEXT,
    updated_at_ms BIGINT NOT NULL
);

CREATE TABLE room_pacing (
    class_id      TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    up_to         TEXT NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id)
);

CREATE TABLE grid_cells (
    class_id     TEXT NOT NULL,
    pathway_id   TEXT NOT NULL,
    learner      TEXT NOT NULL,
    widget_id    TEXT NOT NULL,
    state        TEXT NOT NULL,
    completions  BIGINT NOT NULL,
    incorrect    BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id, learner, widget_id)
);

CREATE TABLE grid_totals (
    class_id    TEXT NOT NULL,
    pathway_id  TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    state       TEXT NOT NULL,
    learners    BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id, widget_id, state)
);
