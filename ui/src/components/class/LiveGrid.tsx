import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, useEffect, useMemo, useRef, useState } from "react";
import type { CellState, GridView } from "../../ipc";
import { CELL, STATES } from "./cells";
import { StateIcon } from "./StateIcon";

const ROW_HEIGHT = 32;
/** Rows PageUp / PageDown move by. */
const PAGE_ROWS = 10;

type Row = GridView["rows"][number];
const rowKey = (r: Row) => r.learner ?? r.label;

/**
 * Learners x steps of one assignment. Rows are virtualised (only the visible ones are in the
 * DOM), so 1,000 learners scroll as smoothly as 30. Cells are buttons with an accessible name
 * ("Ada, Compare fractions: completed, correct"). The grid is one tab stop (roving tabindex):
 * arrow keys move between cells, Home / End to the row's first / last step, Ctrl+Home / Ctrl+End
 * to the first / last cell, PageUp / PageDown by ten rows, Enter opens the cell.
 */
export function LiveGrid({ grid, onOpen }: { grid: GridView; onOpen: (learner: string, widgetId: string) => void }) {
  const [filterState, setFilterState] = useState<CellState | "">("");
  const [stepIndex, setStepIndex] = useState<number>(-1);
  const [sortByState, setSortByState] = useState(false);
  // The roving focus: the learner (by key, so it survives live re-sorting) and the step.
  const [active, setActive] = useState<{ key: string | null; col: number }>({ key: null, col: 0 });
  const [focusInside, setFocusInside] = useState(false);
  const lastIndex = useRef(0);
  const pendingFocus = useRef(false);
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

  const lastCol = Math.max(0, grid.steps.length - 1);
  const found = active.key === null ? -1 : rows.findIndex((r) => rowKey(r) === active.key);
  // The focused learner left the rows (a filter, a new grid): stay at the same height.
  const activeRow = rows.length === 0 ? -1 : found >= 0 ? found : Math.min(lastIndex.current, rows.length - 1);
  const activeCol = Math.min(active.col, lastCol);
  if (activeRow >= 0) lastIndex.current = activeRow;
  // The one tab stop: the active cell, or the first drawn row's when the active row is scrolled away.
  const tabRow = visible.some((v) => v.index === activeRow) ? activeRow : (visible[0]?.index ?? -1);

  // Focus follows a keyboard move once the target row is drawn (it may first need a scroll).
  useEffect(() => {
    if (!pendingFocus.current || activeRow < 0) return;
    const target = parentRef.current?.querySelector<HTMLElement>(
      `button.cell[data-row="${activeRow}"][data-col="${activeCol}"]`,
    );
    if (target) {
      pendingFocus.current = false;
      target.focus();
    }
  });

  const moveTo = (row: number, col: number) => {
    if (rows.length === 0) return;
    const r = Math.max(0, Math.min(rows.length - 1, row));
    const c = Math.max(0, Math.min(lastCol, col));
    pendingFocus.current = true;
    lastIndex.current = r;
    setActive({ key: rowKey(rows[r]!), col: c });
    virtualizer.scrollToIndex(r, { align: "auto" });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const target = e.target as HTMLElement;
    if (!target.matches("button.cell")) return;
    const row = Number(target.dataset.row);
    const col = Number(target.dataset.col);
    const moves: Record<string, [number, number] | undefined> = {
      ArrowRight: [row, col + 1],
      ArrowLeft: [row, col - 1],
      ArrowDown: [row + 1, col],
      ArrowUp: [row - 1, col],
      PageDown: [row + PAGE_ROWS, col],
      PageUp: [row - PAGE_ROWS, col],
      Home: e.ctrlKey ? [0, 0] : [row, 0],
      End: e.ctrlKey ? [rows.length - 1, lastCol] : [row, lastCol],
    };
    const to = e.altKey || e.metaKey ? undefined : moves[e.key];
    if (to) {
      e.preventDefault();
      moveTo(to[0], to[1]);
    } else if (e.key === "Enter" && !e.ctrlKey && !e.altKey && !e.metaKey && !e.shiftKey) {
      e.preventDefault();
      const learner = rows[row]?.learner;
      const step = grid.steps[col];
      if (learner && step) onOpen(learner, step.widget_id);
    }
  };

  const columns = `minmax(10rem, 14rem) repeat(${grid.steps.length}, minmax(2.6rem, 1fr))`;
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
                {i + 1}. {s.title}
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
            <span className={`cell-glyph state-${s}`}>
              <StateIcon state={s} size={14} />
            </span>
            {CELL[s].label}
          </li>
        ))}
      </ul>
      <div
        role="grid"
        aria-label="Learners by step"
        aria-rowcount={rows.length + 1}
        aria-colcount={grid.steps.length + 1}
        aria-describedby="grid-keys"
        className="grid-table"
        onKeyDown={onKeyDown}
        onFocus={() => setFocusInside(true)}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusInside(false);
        }}
      >
        <div role="row" className="grid-row grid-head" style={{ gridTemplateColumns: columns }} aria-rowindex={1}>
          <div role="columnheader" aria-colindex={1} className="learner-label">
            Learner
          </div>
          {grid.steps.map((s, i) => {
            const full = `${i + 1}. ${s.title}${s.standard ? ` (${s.standard})` : ""}`;
            return (
              <div
                role="columnheader"
                key={s.widget_id}
                aria-colindex={i + 2}
                title={full}
                className={focusInside && i === activeCol ? "col-head is-focused" : "col-head"}
                data-testid="column-header"
              >
                <span className="col-num" aria-hidden="true">
                  {i + 1}
                </span>
                <span className="col-title">{s.title}</span>
              </div>
            );
          })}
        </div>
        <div ref={parentRef} className="grid-body" style={{ height: "min(60vh, 640px)", overflow: "auto" }}>
          <div style={{ height: virtualizer.getTotalSize(), position: "relative" }}>
            {visible.map((v) => {
              const row = rows[v.index]!;
              return (
                <div
                  role="row"
                  key={rowKey(row)}
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
                  <div role="rowheader" aria-colindex={1} className="learner-label">
                    {row.label}
                  </div>
                  {row.cells.map((c, i) => {
                    const step = grid.steps[i]!;
                    const meta = CELL[c.state];
                    const name = `${row.label}, ${step.title}: ${meta.label}`;
                    const learner = row.learner;
                    return (
                      <div role="gridcell" key={step.widget_id} aria-colindex={i + 2}>
                        <button
                          type="button"
                          className={`cell state-${c.state}`}
                          data-state={c.state}
                          data-row={v.index}
                          data-col={i}
                          tabIndex={v.index === tabRow && i === activeCol ? 0 : -1}
                          aria-label={name}
                          title={grid.projector_safe ? meta.label : name}
                          aria-disabled={learner ? undefined : true}
                          onFocus={() => {
                            if (rowKey(row) !== active.key || i !== active.col) {
                              lastIndex.current = v.index;
                              setActive({ key: rowKey(row), col: i });
                            }
                          }}
                          onClick={() => learner && onOpen(learner, step.widget_id)}
                        >
                          <StateIcon state={c.state} />
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
      <p id="grid-keys" className="grid-help muted">
        Arrow keys move between cells, Enter opens one, Escape closes it; press ? for all shortcuts.
      </p>
    </div>
  );
}
