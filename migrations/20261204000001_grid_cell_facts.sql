-- Each cell of the grid's rollup keeps the facts its state derives from, so a batch folds what
-- it inserted into the cell by arithmetic instead of grouping the cell's results, struggles and
-- calls again (`crate::store::rollup`). The newest completion's time and verdict, the newest
-- struggle, and the calls' facts (read again when a call changes).
ALTER TABLE grid_cells ADD COLUMN last_completed_at INTEGER;
ALTER TABLE grid_cells ADD COLUMN last_correct INTEGER;
ALTER TABLE grid_cells ADD COLUMN last_struggle_at INTEGER;
ALTER TABLE grid_cells ADD COLUMN open_assist INTEGER NOT NULL DEFAULT 0;
ALTER TABLE grid_cells ADD COLUMN follow_up INTEGER NOT NULL DEFAULT 0;
ALTER TABLE grid_cells ADD COLUMN calls INTEGER NOT NULL DEFAULT 0;

-- The facts of existing cells are computed in Rust when the store next opens.
INSERT INTO rollups_pending (name) VALUES ('grid') ON CONFLICT (name) DO NOTHING;
