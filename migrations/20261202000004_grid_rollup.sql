-- The grid's rollup: what the live grid shows, kept in the transaction that writes what it derives
-- from (`crate::store::rollup`). Grouping a class's results, struggles and calls on every read
-- took 1.6-3.4 s for 100,000 learners; a page of learners now reads its cells by key, and the
-- class totals are one row per step and state.

-- One row per cell with anything stored (a learner with nothing on a step has no row: not started).
CREATE TABLE grid_cells (
    class_id     TEXT NOT NULL,
    pathway_id   TEXT NOT NULL,
    learner      TEXT NOT NULL,
    widget_id    TEXT NOT NULL,
    state        TEXT NOT NULL,
    completions  INTEGER NOT NULL,
    incorrect    INTEGER NOT NULL,
    PRIMARY KEY (class_id, pathway_id, learner, widget_id)
) WITHOUT ROWID;

-- Learners of a class by step and state, over the cells above (not started is the class's
-- learners less the rest).
CREATE TABLE grid_totals (
    class_id    TEXT NOT NULL,
    pathway_id  TEXT NOT NULL,
    widget_id   TEXT NOT NULL,
    state       TEXT NOT NULL,
    learners    INTEGER NOT NULL,
    PRIMARY KEY (class_id, pathway_id, widget_id, state)
) WITHOUT ROWID;

-- A rollup to build from the derived tables when the store next opens: cell states are computed
-- in Rust (`progress::grid::cell_state`, one place), which a migration cannot call.
CREATE TABLE rollups_pending (
    name  TEXT PRIMARY KEY NOT NULL
) WITHOUT ROWID;
INSERT INTO rollups_pending (name) VALUES ('grid');
