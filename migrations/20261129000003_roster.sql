-- Names a teacher attaches to anonymous ids. Local only: nothing sent to a host, no log line and
-- no default export reads this table; names are joined to ids at render time in one place
-- (src/roster.rs).
CREATE TABLE roster (
    class_id     TEXT NOT NULL REFERENCES classes (class_id),
    learner      TEXT NOT NULL,
    display_name TEXT NOT NULL CHECK (length(trim(display_name)) > 0),
    imported_at  INTEGER NOT NULL,
    PRIMARY KEY (class_id, learner)
);
