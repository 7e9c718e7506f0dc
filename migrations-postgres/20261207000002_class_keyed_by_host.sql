-- The shared store's side of migrations/20261207000002_class_keyed_by_host.sql: a class is named
-- by (host_id, host_class_id); class_id stays the store's key.
ALTER TABLE classes ADD COLUMN host_class_id TEXT COLLATE "C";
UPDATE classes SET host_class_id = class_id;
CREATE UNIQUE INDEX classes_host_class ON classes (host_id, host_class_id) WHERE host_id IS NOT NULL;
