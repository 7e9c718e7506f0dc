-- A call's request and response are stored once, as results' and struggles' payloads are
-- (20261205000001): the request is the ledger's row at `opened_seq`, the response the ledger's
-- row at `closed_seq`, byte for byte, so the copies `calls` kept doubled what ingest writes.
-- `request` and `response` now hold a payload only where the ledger does not (an event that came
-- without a seq; a row edited by hand), and the desk reads both through `calls_with_payload`.
--
-- SQLite cannot drop a column's NOT NULL in place: the table is copied (as 20261202000003 did),
-- each copy left out where the ledger holds the same bytes.

CREATE TABLE calls_once (
    class_id      TEXT NOT NULL,
    call_id       TEXT NOT NULL,
    function      TEXT NOT NULL CHECK (function IN ('score', 'assist')),
    pathway_id    TEXT NOT NULL,
    widget_id     TEXT NOT NULL,
    widget_run_id TEXT NOT NULL,
    learner       TEXT NOT NULL,
    kind          TEXT NOT NULL,
    standard      TEXT,
    -- NULL: the ledger's row at opened_seq.
    request       TEXT,
    at_ms         INTEGER NOT NULL,
    deadline      TEXT NOT NULL,
    deadline_ms   INTEGER NOT NULL,
    opened_seq    INTEGER NOT NULL,
    -- open -> answered | declined | expired | failed (another error code)
    state         TEXT NOT NULL DEFAULT 'open'
                  CHECK (state IN ('open', 'answered', 'declined', 'expired', 'failed')),
    claimed_by    TEXT,
    -- NULL: the ledger's row at closed_seq (none while the call is open).
    response      TEXT,
    closed_at_ms  INTEGER,
    closed_seq    INTEGER,
    PRIMARY KEY (class_id, call_id)
);
INSERT INTO calls_once (class_id, call_id, function, pathway_id, widget_id, widget_run_id,
                        learner, kind, standard, request, at_ms, deadline, deadline_ms,
                        opened_seq, state, claimed_by, response, closed_at_ms, closed_seq)
SELECT c.class_id, c.call_id, c.function, c.pathway_id, c.widget_id, c.widget_run_id, c.learner,
       c.kind, c.standard,
       CASE WHEN c.request IS (SELECT l.payload FROM ledger l
                               WHERE l.class_id = c.class_id AND l.seq = c.opened_seq)
            THEN NULL ELSE c.request END,
       c.at_ms, c.deadline, c.deadline_ms, c.opened_seq, c.state, c.claimed_by,
       CASE WHEN c.response IS (SELECT l.payload FROM ledger l
                                WHERE l.class_id = c.class_id AND l.seq = c.closed_seq)
            THEN NULL ELSE c.response END,
       c.closed_at_ms, c.closed_seq
FROM calls c ORDER BY c.rowid;

DROP TABLE calls;
ALTER TABLE calls_once RENAME TO calls;
CREATE INDEX calls_class_state ON calls (class_id, state, deadline_ms);
CREATE INDEX calls_grid ON calls (class_id, pathway_id, learner, widget_id, function, state);

-- A call with its request and response wherever each is kept: its own copy first, else the
-- ledger's row of the seq that opened or closed it.
CREATE VIEW calls_with_payload AS
SELECT c.class_id, c.call_id, c.function, c.pathway_id, c.widget_id, c.widget_run_id, c.learner,
       c.kind, c.standard, COALESCE(c.request, lo.payload) AS request, c.at_ms, c.deadline,
       c.deadline_ms, c.opened_seq, c.state, c.claimed_by,
       COALESCE(c.response, lc.payload) AS response, c.closed_at_ms, c.closed_seq
FROM calls c
LEFT JOIN ledger lo ON lo.class_id = c.class_id AND lo.seq = c.opened_seq
LEFT JOIN ledger lc ON lc.class_id = c.class_id AND lc.seq = c.closed_seq;
