-- One broken payload, kept aside once. A host's get_pathway_results returns exactly what its
-- feed carried, broken payloads included, so the backfill (no seq) and the feed (its seq) each
-- kept the same rejected event: Diagnostics listed 8 rejections for 4 bad events. Each row now
-- records what it carried (a SHA-256 of the event's name and its value in canonical JSON);
-- ingest gives a backfilled row the feed's seq instead of adding a second, and adds no
-- backfilled row that is already kept. Rows kept before have no key and stay as they are.
ALTER TABLE quarantine ADD COLUMN payload_key TEXT;
CREATE INDEX quarantine_payload ON quarantine (class_id, payload_key) WHERE payload_key IS NOT NULL;
