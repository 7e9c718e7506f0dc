-- A widget run id names a run within one class's feed, not across classes or hosts: two classes
-- (of one host, or of two hosts) that reuse a run id must not take each other's results as
-- duplicates — the second class's result was dropped. The tables keyed by the run id alone are
-- keyed by class first. SQLite cannot change a primary key in place: each table is copied into
-- its new shape (every row kept), and its indexes are made again.

CREATE TABLE results_scoped (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
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
    payload       TEXT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
INSERT INTO results_scoped (class_id, widget_run_id, pathway_id, widget_id, learner, kind,
                            standard, correct, attempts, hints, score, at_ms, seq, payload)
SELECT class_id, widget_run_id, pathway_id, widget_id, learner, kind, standard, correct, attempts,
       hints, score, at_ms, seq, payload
FROM results ORDER BY rowid;
DROP TABLE results;
ALTER TABLE results_scoped RENAME TO results;
CREATE INDEX results_grid_cover ON results (class_id, pathway_id, learner, widget_id, at_ms, correct);

CREATE TABLE struggles_scoped (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    failed_checks INTEGER NOT NULL,
    hints         INTEGER NOT NULL,
    at_ms         INTEGER NOT NULL,
    seq           INTEGER,
    payload       TEXT NOT NULL,
    PRIMARY KEY (class_id, widget_run_id)
);
INSERT INTO struggles_scoped (class_id, widget_run_id, pathway_id, widget_id, learner, kind,
                              standard, failed_checks, hints, at_ms, seq, payload)
SELECT class_id, widget_run_id, pathway_id, widget_id, learner, kind, standard, failed_checks,
       hints, at_ms, seq, payload
FROM struggles ORDER BY rowid;
DROP TABLE struggles;
ALTER TABLE struggles_scoped RENAME TO struggles;
CREATE INDEX struggles_class ON struggles (class_id, pathway_id, learner, widget_id);

CREATE TABLE backfill_scoped (
    class_id      TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    verb          TEXT NOT NULL,
    payload       TEXT NOT NULL,
    received_at   INTEGER NOT NULL,
    PRIMARY KEY (class_id, widget_run_id, verb)
);
INSERT INTO backfill_scoped (class_id, widget_run_id, verb, payload, received_at)
SELECT class_id, widget_run_id, verb, payload, received_at FROM backfill ORDER BY rowid;
DROP TABLE backfill;
ALTER TABLE backfill_scoped RENAME TO backfill;
