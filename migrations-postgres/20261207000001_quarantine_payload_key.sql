-- The shared store's side of migrations/20261207000001_quarantine_payload_key.sql: one broken
-- payload, kept aside once, whether the backfill or the feed brought it first.
ALTER TABLE quarantine ADD COLUMN payload_key TEXT COLLATE "C";
CREATE INDEX quarantine_payload ON quarantine (class_id, payload_key) WHERE payload_key IS NOT NULL;
