-- Hosts kept apart: every class belongs to the host it came from. The app follows, and lists, the
-- classes of the host it is pointed at — switching from the demo host to a school's host must not
-- keep following the demo's classes against the school's host.
--
-- A host is named by what stays the same across starts: 'demo' for the embedded demo host (its
-- loopback port changes each start), else the host's URL as Settings stores it (validated, no
-- trailing slash). A class with no host (NULL) was followed by id alone (the command line's
-- `sync --class`) and is followed with whichever host the app is pointed at, as before.

CREATE TABLE hosts (
    host_id        TEXT PRIMARY KEY NOT NULL CHECK (length(host_id) > 0),
    first_seen_at  INTEGER NOT NULL
);

-- No REFERENCES clause: SQLite can then drop the column again (a test undoes this migration to
-- make a file of the previous release); `Store::bind_class_to_host` records the host and ties
-- the class in one transaction.
ALTER TABLE classes ADD COLUMN host_id TEXT;
CREATE INDEX classes_by_host ON classes (host_id);

-- The classes of a database written before this: the app followed every one of them with the
-- host its settings named, so that host is theirs.
INSERT INTO hosts (host_id, first_seen_at)
SELECT CASE
           WHEN (SELECT value FROM settings WHERE key = 'host_mode') = 'custom'
                AND (SELECT value FROM settings WHERE key = 'host_url') IS NOT NULL
           THEN (SELECT value FROM settings WHERE key = 'host_url')
           ELSE 'demo'
       END,
       MIN(created_at)
FROM classes
HAVING COUNT(*) > 0;

UPDATE classes SET host_id = (SELECT host_id FROM hosts);
