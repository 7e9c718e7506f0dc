-- The class view's queries. The live grid reads, per (learner, step), the newest completion and
-- its verdict: with at_ms and correct in the index, the grouped grid query reads the index alone
-- (no table lookups) in (learner, widget_id) order. It replaces results_grid, which is its prefix
-- (one index to maintain on ingest instead of two).
CREATE INDEX results_grid_cover ON results (class_id, pathway_id, learner, widget_id, at_ms, correct);
DROP INDEX results_grid;

-- Calls per grid cell (open help requests and "in progress"), without reading every call of a
-- class.
CREATE INDEX calls_grid ON calls (class_id, pathway_id, learner, widget_id, function, state);
