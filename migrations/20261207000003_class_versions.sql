-- Each class's version: the fence of the follower that keeps the class's contract state in
-- memory (open runs, open calls, the payload digests the redelivery check needs). Its ingest
-- transaction updates the row first, expecting the version it last wrote
-- (`UPDATE ... SET version = version + 1 WHERE class_id = ? AND version = ?`); zero rows means
-- another writer changed the class since, and the follower reloads its state from the store
-- before it validates the batch. Every writer of what a follower keeps in memory bumps it.
CREATE TABLE class_versions (
    class_id  TEXT PRIMARY KEY NOT NULL,
    version   INTEGER NOT NULL
);
