-- A school's shared store on PostgreSQL: the schema SQLite's migrations/ reach at
-- 20261202000004, for what a shared store holds. It holds anonymous data only: no roster (names
-- stay in each teacher's local SQLite file) and none of the help desk's drafts or
-- saved replies (text a teacher types). Types are PostgreSQL's for the same values: times and
-- counts BIGINT (integer UTC milliseconds), flags BOOLEAN, scores DOUBLE PRECISION. Text is
-- COLLATE "C" whatever the database's collation: compared and sorted by code point, as SQLite
-- and Rust do, and the indexes serve those orders (a page of learners after a cursor reads the
-- primary key instead of sorting the class).

-- Store-level markers (a class's backfill is done); a teacher's preferences stay local.
CREATE TABLE settings (
    key         TEXT COLLATE "C" PRIMARY KEY,
    value       TEXT COLLATE "C" NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE hosts (
    host_id        TEXT COLLATE "C" PRIMARY KEY CHECK (length(host_id) > 0),
    first_seen_at  BIGINT NOT NULL
);

CREATE TABLE classes (
    class_id    TEXT COLLATE "C" PRIMARY KEY,
    title       TEXT COLLATE "C" NOT NULL CHECK (length(trim(title)) > 0),
    join_code   TEXT COLLATE "C",
    created_at  BIGINT NOT NULL,
    host_id     TEXT COLLATE "C"
);
CREATE INDEX classes_by_host ON classes (host_id);

CREATE TABLE pathways (
    pathway_id  TEXT COLLATE "C" PRIMARY KEY,
    title       TEXT COLLATE "C" NOT NULL,
    version     TEXT COLLATE "C" NOT NULL,
    fetched_at  BIGINT NOT NULL
);

CREATE TABLE pathway_steps (
    pathway_id  TEXT COLLATE "C" NOT NULL REFERENCES pathways (pathway_id) ON DELETE CASCADE,
    position    BIGINT NOT NULL,
    widget_id   TEXT COLLATE "C" NOT NULL,
    kind        TEXT COLLATE "C" NOT NULL,
    title       TEXT COLLATE "C" NOT NULL,
    standard    TEXT COLLATE "C",
    assesses    BOOLEAN NOT NULL,
    entry       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (pathway_id, position)
);

CREATE TABLE catalog_standards (
    code     TEXT COLLATE "C" PRIMARY KEY,
    title    TEXT COLLATE "C" NOT NULL,
    position BIGINT NOT NULL
);

CREATE TABLE catalog_standard_requires (
    code     TEXT COLLATE "C" NOT NULL,
    requires TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (code, requires)
);

CREATE TABLE assignments (
    -- SQLite's implicit rowid, spelled out: assignments made in the same millisecond list in
    -- the order they were made, on both engines, by the same query.
    rowid         BIGINT GENERATED ALWAYS AS IDENTITY,
    assignment_id TEXT COLLATE "C" PRIMARY KEY,
    class_id      TEXT COLLATE "C" NOT NULL REFERENCES classes (class_id),
    pathway_id    TEXT COLLATE "C" NOT NULL,
    due_at        BIGINT,
    teacher_note  TEXT COLLATE "C",
    created_at    BIGINT NOT NULL
);
CREATE INDEX assignments_class ON assignments (class_id);

CREATE TABLE learners (
    class_id      TEXT COLLATE "C" NOT NULL REFERENCES classes (class_id),
    learner       TEXT COLLATE "C" NOT NULL,
    first_seen_at BIGINT NOT NULL,
    PRIMARY KEY (class_id, learner)
);

CREATE TABLE ledger (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    class_id     TEXT COLLATE "C" NOT NULL,
    seq          BIGINT NOT NULL,
    name         TEXT COLLATE "C" NOT NULL,
    payload      TEXT COLLATE "C" NOT NULL,
    received_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX ledger_class_seq ON ledger (class_id, seq);

CREATE TABLE backfill (
    class_id      TEXT COLLATE "C" NOT NULL,
    widget_run_id TEXT COLLATE "C" NOT NULL,
    verb          TEXT COLLATE "C" NOT NULL,
    payload       TEXT COLLATE "C" NOT NULL,
    received_at   BIGINT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id, verb)
);

CREATE TABLE quarantine (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    class_id     TEXT COLLATE "C" NOT NULL,
    seq          BIGINT,
    rule_id      TEXT COLLATE "C" NOT NULL,
    message      TEXT COLLATE "C" NOT NULL,
    raw          TEXT COLLATE "C" NOT NULL,
    raw_bytes    BIGINT NOT NULL,
    received_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX quarantine_class_seq ON quarantine (class_id, seq) WHERE seq IS NOT NULL;
CREATE INDEX quarantine_received ON quarantine (received_at);

CREATE TABLE feed_cursors (
    class_id    TEXT COLLATE "C" PRIMARY KEY REFERENCES classes (class_id),
    last_seq    BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

CREATE TABLE results (
    class_id      TEXT COLLATE "C" NOT NULL,
    widget_run_id TEXT COLLATE "C" NOT NULL,
    pathway_id    TEXT COLLATE "C" NOT NULL,
    widget_id     TEXT COLLATE "C" NOT NULL,
    learner       TEXT COLLATE "C" NOT NULL,
    kind          TEXT COLLATE "C" NOT NULL,
    standard      TEXT COLLATE "C",
    correct       BOOLEAN,
    attempts      BIGINT NOT NULL,
    hints         BIGINT NOT NULL,
    score         DOUBLE PRECISION,
    at_ms         BIGINT NOT NULL,
    seq           BIGINT,
    payload       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
CREATE INDEX results_grid_cover ON results (class_id, pathway_id, learner, widget_id, at_ms, correct);

CREATE TABLE struggles (
    class_id      TEXT COLLATE "C" NOT NULL,
    widget_run_id TEXT COLLATE "C" NOT NULL,
    pathway_id    TEXT COLLATE "C" NOT NULL,
    widget_id     TEXT COLLATE "C" NOT NULL,
    learner       TEXT COLLATE "C" NOT NULL,
    kind          TEXT COLLATE "C" NOT NULL,
    standard      TEXT COLLATE "C",
    failed_checks BIGINT NOT NULL,
    hints         BIGINT NOT NULL,
    at_ms         BIGINT NOT NULL,
    seq           BIGINT,
    payload       TEXT COLLATE "C" NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
CREATE INDEX struggles_class ON struggles (class_id, pathway_id, learner, widget_id);

CREATE TABLE calls (
    class_id      TEXT COLLATE "C" NOT NULL,
    call_id       TEXT COLLATE "C" NOT NULL,
    function      TEXT COLLATE "C" NOT NULL CHECK (function IN ('score', 'assist')),
    pathway_id    TEXT COLLATE "C" NOT NULL,
    widget_id     TEXT COLLATE "C" NOT NULL,
    widget_run_id TEXT COLLATE "C" NOT NULL,
    learner       TEXT COLLATE "C" NOT NULL,
    kind          TEXT COLLATE "C" NOT NULL,
    standard      TEXT COLLATE "C",
    request       TEXT COLLATE "C" NOT NULL,
    at_ms         BIGINT NOT NULL,
    deadline      TEXT COLLATE "C" NOT NULL,
    deadline_ms   BIGINT NOT NULL,
    opened_seq    BIGINT NOT NULL,
    state         TEXT COLLATE "C" NOT NULL DEFAULT 'open'
                  CHECK (state IN ('open', 'answered', 'declined', 'expired', 'failed')),
    claimed_by    TEXT COLLATE "C",
    response      TEXT COLLATE "C",
    closed_at_ms  BIGINT,
    closed_seq    BIGINT,
    PRIMARY KEY (class_id, call_id)
);
CREATE INDEX calls_class_state ON calls (class_id, state, deadline_ms);
CREATE INDEX calls_grid ON calls (class_id, pathway_id, learner, widget_id, function, state);

-- The help desk's outcomes that decide a grid cell (an answer sent, a follow-up done): ids and
-- the response as sent to the host, nothing the host did not see.
CREATE TABLE desk_sent (
    class_id   TEXT COLLATE "C" NOT NULL,
    call_id    TEXT COLLATE "C" NOT NULL,
    outcome    TEXT COLLATE "C" NOT NULL CHECK (outcome IN ('answered', 'declined')),
    response   TEXT COLLATE "C" NOT NULL,
    sent_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, call_id)
);

CREATE TABLE desk_followups_done (
    class_id   TEXT COLLATE "C" NOT NULL,
    call_id    TEXT COLLATE "C" NOT NULL,
    done_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, call_id)
);

CREATE TABLE room_pause (
    class_id      TEXT COLLATE "C" PRIMARY KEY,
    paused        BOOLEAN NOT NULL,
    message       TEXT COLLATE "C",
    updated_at_ms BIGINT NOT NULL
);

CREATE TABLE room_pacing (
    class_id      TEXT COLLATE "C" NOT NULL,
    pathway_id    TEXT COLLATE "C" NOT NULL,
    up_to         TEXT COLLATE "C" NOT NULL,
    updated_at_ms BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id)
);

CREATE TABLE grid_cells (
    class_id     TEXT COLLATE "C" NOT NULL,
    pathway_id   TEXT COLLATE "C" NOT NULL,
    learner      TEXT COLLATE "C" NOT NULL,
    widget_id    TEXT COLLATE "C" NOT NULL,
    state        TEXT COLLATE "C" NOT NULL,
    completions  BIGINT NOT NULL,
    incorrect    BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id, learner, widget_id)
);

CREATE TABLE grid_totals (
    class_id    TEXT COLLATE "C" NOT NULL,
    pathway_id  TEXT COLLATE "C" NOT NULL,
    widget_id   TEXT COLLATE "C" NOT NULL,
    state       TEXT COLLATE "C" NOT NULL,
    learners    BIGINT NOT NULL,
    PRIMARY KEY (class_id, pathway_id, widget_id, state)
);
