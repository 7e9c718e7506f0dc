import { useVirtualizer } from "@tanstack/react-virtual";
import { useMemo, useRef, useState } from "react";
import type { CellState, GridView } from "../../ipc";
import { CELL, STATES } from "./cells";

const ROW_HEIGHT = 32;

/**
 * Learners x steps of one assignment. Rows are virtualised (only the visible ones are in the
 * DOM), so 1,000 learners scroll as smoothly as 30. Cells are buttons: Tab reaches the grid,
 * each cell has an accessible name ("Ada, Compare fractions: completed, correct").
 */
export function LiveGrid({ grid, onOpen }: { grid: GridView; onOpen: (learner: string, widgetId: string) => void }) {
  const [filterState, setFilterState] = useState<CellState | "">("");
  const [stepIndex, setStepIndex] = useState<number>(-1);
  const [sortByState, setSortByState] = useState(false);
  const parentRef = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => {
    let rows = grid.rows;
    if (filterState) {
      rows = rows.filter((r) =>
        stepIndex >= 0 ? r.cells[stepIndex]?.state === filterState : r.cells.some((c) => c.state === filterState),
      );
    }
    if (sortByState) {
      const key = (r: (typeof rows)[number]) =>
        stepIndex >= 0
          ? CELL[r.cells[stepIndex]?.state ?? "not_started"].rank
          : Math.min(...r.cells.map((c) => CELL[c.state].rank));
      rows = [...rows].sort((a, b) => key(a) - key(b) || a.label.localeCompare(b.label));
    }
    return rows;
  }, [grid.rows, filterState, stepIndex, sortByState]);

  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    // jsdom has no layout: start with a window so tests see rows.
    initialRect: { width: 800, height: 600 },
  });

  // Before the scroll box is measured (first paint; jsdom never measures) the virtualizer has no
  // window yet: draw the first screenful so the grid is never blank.
  const measured = virtualizer.getVirtualItems();
  const visible =
    measured.length > 0 || rows.length === 0
      ? measured
      : rows.slice(0, 40).map((_, index) => ({ index, start: index * ROW_HEIGHT }));
  const columns = `minmax(10rem, 14rem) repeat(${grid.steps.length}, minmax(3rem, 1fr))`;
  return (
    <div className="live-grid" data-testid="live-grid">
      <div className="grid-controls" role="group" aria-label="Sort and filter">
        <label>
          State{" "}
          <select value={filterState} onChange={(e) => setFilterState(e.target.value as CellState | "")}>
            <option value="">any</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {CELL[s].label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Step{" "}
          <select value={stepIndex} onChange={(e) => setStepIndex(Number(e.target.value))}>
            <option value={-1}>any</option>
            {grid.steps.map((s, i) => (
              <option key={s.widget_id} value={i}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input type="checkbox" checked={sortByState} onChange={(e) => setSortByState(e.target.checked)} /> Sort by
          state (needs attention first)
        </label>
        <span className="muted" data-testid="grid-count">
          {rows.length} of {grid.rows.length} learners
        </span>
      </div>
      <ul className="legend" aria-label="Legend">
        {STATES.map((s) => (
          <li key={s}>
            <span className={`cell-glyph state-${s}`} aria-hidden="true">
              {CELL[s].glyph}
            </span>{" "}
            {CELL[s].label}
          </li>
        ))}
      </ul>
      <div role="grid" aria-label="Learners by step" aria-rowcount={rows.length + 1} className="grid-table">
        <div role="row" className="grid-row grid-head" style={{ gridTemplateColumns: columns }} aria-rowindex={1}>
          <div role="columnheader">Learner</div>
          {grid.steps.map((s) => (
            <div role="columnheader" key={s.widget_id} title={s.standard ?? undefined}>
              {s.title}
            </div>
          ))}
        </div>
        <div ref={parentRef} className="grid-body" style={{ height: "min(60vh, 640px)", overflow: "auto" }}>
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {visible.map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  role="row"
                  key={row.learner ?? row.label}
                  aria-rowindex={v.index + 2}
                  className="grid-row"
                  style={{
                    gridTemplateColumns: columns,
                    position: "absolute",
                    top: 0,
                    left: 0,
                    right: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <div role="rowheader" className="learner-label">
                    {row.label}
                  </div>
                  {row.cells.map((c, i) => {
                    const step = grid.steps[i]!;
                    const meta = CELL[c.state];
                    const name = `${row.label}, ${step.title}: ${meta.label}`;
                    const learner = row.learner;
                    return (
                      <div role="gridcell" key={step.widget_id}>
                        <button
                          type="button"
                          className={`cell state-${c.state}`}
                          data-state={c.state}
                          aria-label={name}
                          title={grid.projector_safe ? meta.label : name}
                          disabled={!learner}
                          onClick={() => learner && onOpen(learner, step.widget_id)}
                        >
                          <span aria-hidden="true">{meta.glyph}</span>
                        </button>
                      </div>
                    );
                  })}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}
