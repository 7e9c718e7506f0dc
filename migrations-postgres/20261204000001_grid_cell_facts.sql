-- The shared store's side of migrations/20261204000001_grid_cell_facts.sql: each rollup cell
-- keeps the facts its state derives from, added to by arithmetic as batches arrive.
ALTER TABLE grid_cells ADD COLUMN last_completed_at BIGINT;
ALTER TABLE grid_cells ADD COLUMN last_correct BOOLEAN;
ALTER TABLE grid_cells ADD COLUMN last_struggle_at BIGINT;
ALTER TABLE grid_cells ADD COLUMN open_assist BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE grid_cells ADD COLUMN follow_up BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE grid_cells ADD COLUMN calls BIGINT NOT NULL DEFAULT 0;

-- A rollup to build from the derived tables when the store next opens (the cell states are
-- computed in Rust, `progress::grid::cell_state`); the first opener builds it, the others wait.
CREATE TABLE rollups_pending (
    name  TEXT COLLATE "C" PRIMARY KEY
);
INSERT INTO rollups_pending (name) VALUES ('grid');
