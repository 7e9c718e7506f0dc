-- The shared store's side of migrations/20261206000001_call_payloads_once.sql (here the column
-- loses its NOT NULL in place).
--
-- A call's request and response are stored once, as results' and struggles' payloads are
-- (20261205000001): the request is the ledger's row at `opened_seq`, the response the ledger's
-- row at `closed_seq`, byte for byte, so the copies `calls` kept doubled what ingest writes.
-- `request` and `response` now hold a payload only where the ledger does not (an event that came
-- without a seq; a row edited by hand), and the desk reads both through `calls_with_payload`.

ALTER TABLE calls ALTER COLUMN request DROP NOT NULL;

UPDATE calls c SET request = NULL
FROM ledger l
WHERE l.class_id = c.class_id AND l.seq = c.opened_seq AND l.payload = c.request;

UPDATE calls c SET response = NULL
FROM ledger l
WHERE l.class_id = c.class_id AND l.seq = c.closed_seq AND l.payload = c.response;

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
