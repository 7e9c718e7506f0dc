-- Groups of learners a teacher makes in a class (issue 40): local like the roster, kept in the
-- teacher's own file (beside a shared store, its home), never sent to a host. A learner may be
-- in several groups. The name is the teacher's words; wherever it would leave the machine (a
-- report's heading, an export's file) it goes through the same scan as every text.
CREATE TABLE learner_groups (
    class_id    TEXT NOT NULL,
    name        TEXT NOT NULL CHECK (length(trim(name)) > 0),
    created_at  INTEGER NOT NULL,
    PRIMARY KEY (class_id, name)
);

CREATE TABLE learner_group_members (
    class_id  TEXT NOT NULL,
    name      TEXT NOT NULL,
    learner   TEXT NOT NULL,
    PRIMARY KEY (class_id, name, learner),
    FOREIGN KEY (class_id, name) REFERENCES learner_groups (class_id, name) ON DELETE CASCADE
);
