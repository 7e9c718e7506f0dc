-- A call id names a call within one class's feed. A host answers `claim` and `respond` by call id
-- alone, so its own ids are unique, but another host's may be the same (a simple host numbers
-- them per class): a second class's request with a reused id was quarantined as a second request.
-- `calls` and the desk's own tables are keyed by class first, as results and struggles are
-- (20261202000001). The tables that had no class column (drafts, follow-ups done) take their
-- call's class; a row whose call is not stored names no call any view can show, and is dropped.

CREATE TABLE calls_scoped (
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
    closed_seq    INTEGER,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO calls_scoped (class_id, call_id, function, pathway_id, widget_id, widget_run_id,
                          learner, kind, standard, request, at_ms, deadline, deadline_ms,
                          opened_seq, state, claimed_by, response, closed_at_ms, closed_seq)
SELECT class_id, call_id, function, pathway_id, widget_id, widget_run_id, learner, kind, standard,
       request, at_ms, deadline, deadline_ms, opened_seq, state, claimed_by, response,
       closed_at_ms, closed_seq
FROM calls ORDER BY rowid;

CREATE TABLE desk_sent_scoped (
    class_id   TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    outcome    TEXT NOT NULL CHECK (outcome IN ('answered', 'declined')),
    -- The response as sent: {"value": ...} or {"error": ...}.
    response   TEXT NOT NULL,
    sent_at_ms INTEGER NOT NULL,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO desk_sent_scoped (class_id, call_id, outcome, response, sent_at_ms)
SELECT class_id, call_id, outcome, response, sent_at_ms FROM desk_sent ORDER BY rowid;
DROP TABLE desk_sent;
ALTER TABLE desk_sent_scoped RENAME TO desk_sent;

CREATE TABLE desk_drafts_scoped (
    class_id      TEXT NOT NULL,
    call_id       TEXT NOT NULL,
    body          TEXT NOT NULL,
    updated_at_ms INTEGER NOT NULL,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO desk_drafts_scoped (class_id, call_id, body, updated_at_ms)
SELECT c.class_id, d.call_id, d.body, d.updated_at_ms
FROM desk_drafts d JOIN calls c ON c.call_id = d.call_id ORDER BY d.rowid;
DROP TABLE desk_drafts;
ALTER TABLE desk_drafts_scoped RENAME TO desk_drafts;

CREATE TABLE desk_followups_done_scoped (
    class_id   TEXT NOT NULL,
    call_id    TEXT NOT NULL,
    done_at_ms INTEGER NOT NULL,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO desk_followups_done_scoped (class_id, call_id, done_at_ms)
SELECT c.class_id, f.call_id, f.done_at_ms
FROM desk_followups_done f JOIN calls c ON c.call_id = f.call_id ORDER BY f.rowid;
DROP TABLE desk_followups_done;
ALTER TABLE desk_followups_done_scoped RENAME TO desk_followups_done;

CREATE TABLE desk_visits_scoped (
    class_id       TEXT NOT NULL,
    call_id        TEXT NOT NULL,
    learner        TEXT NOT NULL,
    pathway_id     TEXT NOT NULL,
    widget_id      TEXT NOT NULL,
    promised_at_ms INTEGER NOT NULL,
    done_at_ms     INTEGER,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO desk_visits_scoped (class_id, call_id, learner, pathway_id, widget_id,
                                promised_at_ms, done_at_ms)
SELECT class_id, call_id, learner, pathway_id, widget_id, promised_at_ms, done_at_ms
FROM desk_visits ORDER BY rowid;
DROP TABLE desk_visits;
ALTER TABLE desk_visits_scoped RENAME TO desk_visits;
CREATE INDEX desk_visits_open ON desk_visits (done_at_ms, class_id, promised_at_ms);

-- `calls` last: the two inserts above read it by its old key.
DROP TABLE calls;
ALTER TABLE calls_scoped RENAME TO calls;
CREATE INDEX calls_class_state ON calls (class_id, state, deadline_ms);
CREATE INDEX calls_grid ON calls (class_id, pathway_id, learner, widget_id, function, state);
