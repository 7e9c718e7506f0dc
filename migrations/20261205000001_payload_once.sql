-- Each payload is stored once. A result's and a struggle's payload is the ledger's row of the
-- same seq (or the backfill row of the same run, for what came from get_pathway_results), so
-- the copy the derived tables kept doubled what ingest writes. The readers that need a payload
-- (the student page, evidence, the knowledge map, the exports, the redelivery check) read it
-- through the two views below, which find it where it is kept (the step report reads the
-- response column added below).

-- Nothing is lost: a row whose payload the ledger or backfill does not hold byte for byte (none
-- that this program wrote; a file edited by hand might have one) keeps it as a backfill row,
-- which the views read first.
INSERT INTO backfill (class_id, widget_run_id, verb, payload, received_at)
SELECT r.class_id, r.widget_run_id, 'a2learn.widget_completed', r.payload, r.at_ms
FROM results r
WHERE r.payload IS NOT COALESCE(
    (SELECT b.payload FROM backfill b
     WHERE b.class_id = r.class_id AND b.widget_run_id = r.widget_run_id
       AND b.verb = 'a2learn.widget_completed'),
    (SELECT l.payload FROM ledger l WHERE l.class_id = r.class_id AND l.seq = r.seq))
ON CONFLICT (class_id, widget_run_id, verb) DO UPDATE SET payload = excluded.payload;

INSERT INTO backfill (class_id, widget_run_id, verb, payload, received_at)
SELECT s.class_id, s.widget_run_id, 'a2learn.widget_struggle', s.payload, s.at_ms
FROM struggles s
WHERE s.payload IS NOT COALESCE(
    (SELECT b.payload FROM backfill b
     WHERE b.class_id = s.class_id AND b.widget_run_id = s.widget_run_id
       AND b.verb = 'a2learn.widget_struggle'),
    (SELECT l.payload FROM ledger l WHERE l.class_id = s.class_id AND l.seq = s.seq))
ON CONFLICT (class_id, widget_run_id, verb) DO UPDATE SET payload = excluded.payload;

-- The one part of a payload a class view reads for every result: the learner's response, when
-- the widget's detail gives one as text (the step report's common responses). Kept as a fact.
ALTER TABLE results ADD COLUMN response TEXT;
UPDATE results SET response =
    CASE WHEN json_type(payload, '$.widget_result.detail.response') = 'text'
    THEN json_extract(payload, '$.widget_result.detail.response') END;

ALTER TABLE results DROP COLUMN payload;
ALTER TABLE struggles DROP COLUMN payload;

-- A run's payload: its backfill row when it came from backfill, else its ledger row. A run
-- has one of the two (the same event delivered by both is stored from the first).
CREATE VIEW results_with_payload AS
SELECT r.class_id, r.widget_run_id, r.pathway_id, r.widget_id, r.learner, r.kind, r.standard,
       r.correct, r.attempts, r.hints, r.score, r.at_ms, r.seq, r.response,
       COALESCE(b.payload, l.payload) AS payload
FROM results r
LEFT JOIN backfill b ON b.class_id = r.class_id AND b.widget_run_id = r.widget_run_id
                    AND b.verb = 'a2learn.widget_completed'
LEFT JOIN ledger l ON l.class_id = r.class_id AND l.seq = r.seq;

CREATE VIEW struggles_with_payload AS
SELECT s.class_id, s.widget_run_id, s.pathway_id, s.widget_id, s.learner, s.kind, s.standard,
       s.failed_checks, s.hints, s.at_ms, s.seq,
       COALESCE(b.payload, l.payload) AS payload
FROM struggles s
LEFT JOIN backfill b ON b.class_id = s.class_id AND b.widget_run_id = s.widget_run_id
                    AND b.verb = 'a2learn.widget_struggle'
LEFT JOIN ledger l ON l.class_id = s.class_id AND l.seq = s.seq;
