-- The shared store's side of migrations/20261207000003_class_versions.sql: each class's
-- version, the fence of the follower that keeps the class's state in memory.
CREATE TABLE class_versions (
    class_id  TEXT COLLATE "C" PRIMARY KEY,
    version   BIGINT NOT NULL
);
