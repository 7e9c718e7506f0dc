-- A class is its host's: (host_id, host_class_id) names it. Two hosts that both call a class
-- `c-1` (class ids are a host's names, not global ones) were one class here, and the second was
-- refused. `class_id` stays the store's key for a class — every table refers to it — and
-- `host_class_id` is the id its host knows it by, which the feed's URL and every tool call use.
-- A class already here keeps its key, which is its host's id; a second host's class of the same
-- id gets a key of its own (`Store::bind_class_to_host`).
ALTER TABLE classes ADD COLUMN host_class_id TEXT;
UPDATE classes SET host_class_id = class_id;
CREATE UNIQUE INDEX classes_host_class ON classes (host_id, host_class_id) WHERE host_id IS NOT NULL;
