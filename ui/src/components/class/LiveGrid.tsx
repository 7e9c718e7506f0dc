import { useVirtualizer } from "@tanstack/react-virtual";
import { Moon, PencilLine } from "lucide-react";
import { type KeyboardEvent, memo, useEffect, useId, useMemo, useRef, useState } from "react";
import { span } from "../../format";
import { dir, num, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { CellState, GridView } from "../../ipc";
import { CELL, STATES } from "./cells";
import { StateIcon } from "./StateIcon";

const ROW_HEIGHT = 32;
/** Rows PageUp / PageDown move by. */
const PAGE_ROWS = 10;

type Row = GridView["rows"][number];
const rowKey = (r: Row) => r.learner ?? r.label;

/** A cell the learner is on and has not finished: quiet states there read as "working". */
const isWorking = (row: Row, col: number) =>
  row.current_step === col && !CELL[row.cells[col]?.state ?? "not_started"].loud;

/** Each state's name, as the legend, the filter and a cell's accessible name say it. */
export function stateLabel(state: CellState): string {
  switch (state) {
    case "waiting_for_help":
      return t("grid-state-waiting-for-help");
    case "follow_up":
      return t("grid-state-follow-up");
    case "struggling":
      return t("grid-state-struggling");
    case "completed_incorrect":
      return t("grid-state-completed-incorrect");
    case "in_progress":
      return t("grid-state-in-progress");
    case "not_started":
      return t("grid-state-not-started");
    case "completed":
      return t("grid-state-completed");
    case "completed_correct":
      return t("grid-state-completed-correct");
  }
}

/** The (row index, step index) of a grid cell's button; null for anything else. */
function cellAt(target: EventTarget): [number, number] | null {
  if (!(target instanceof HTMLElement) || !target.matches("button.cell")) return null;
  const wrapper = target.closest<HTMLElement>('[role="row"]');
  if (!wrapper) return null;
  return [Number(wrapper.dataset.row), Number(target.dataset.col)];
}

/** An idle learner ranks after the states that ask for the teacher, before wrong answers. */
const IDLE_RANK = 2.5;

/** How much a row needs the teacher (lower first): its loudest cell, or idle. */
function attentionRank(row: Row, stepIndex: number): number {
  const cells = stepIndex >= 0 ? [row.cells[stepIndex]] : row.cells;
  const rank = Math.min(...cells.map((c) => CELL[c?.state ?? "not_started"].rank));
  return row.idle ? Math.min(rank, IDLE_RANK) : rank;
}

/**
 * Per-step totals for the footer row: done and needing the teacher over the whole class (the
 * core's totals, which a page of a big class cannot count), working over the rows shown (it
 * follows each row's place), left out on a page.
 */
function totals(grid: GridView) {
  const byStep = new Map(grid.totals.map((s) => [s.widget_id, s]));
  return grid.steps.map((step, i) => {
    const sum = byStep.get(step.widget_id);
    let working = 0;
    for (const r of grid.rows) if (isWorking(r, i)) working++;
    return { done: sum?.done ?? 0, working: grid.paged ? null : working, needs: sum?.needs_teacher ?? 0 };
  });
}

/**
 * Learners x steps of one assignment. Rows are virtualised (only the visible ones are in the
 * DOM), so 1,000 learners scroll as smoothly as 30. Cells are buttons with an accessible name
 * ("Ada, Compare fractions: completed, correct"). The grid is one tab stop (roving tabindex):
 * arrow keys move between cells, Home / End to the row's first / last step, Ctrl+Home / Ctrl+End
 * to the first / last cell, PageUp / PageDown by ten rows, Enter opens the cell. Left and right
 * follow the reading direction: in a right-to-left language the next step is to the left.
 *
 * Memoised: the class page renders on every store change (its reload counters), and the grid
 * redraws only when its own data or handlers change — the page's main thread stays free for the
 * next notification and the next answer.
 */
export const LiveGrid = memo(LiveGridView);

function LiveGridView({
  grid,
  onOpen,
  onStudent,
  onIdleAfter,
}: {
  grid: GridView;
  onOpen: (learner: string, widgetId: string) => void;
  /** Opens a learner's page (the row's name is then a link); absent in projector-safe mode. */
  onStudent?: (learner: string) => void;
  /** Changes the teacher's idle threshold (minutes); absent where it cannot be set. */
  onIdleAfter?: (minutes: number) => void;
}) {
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
      rows = [...rows].sort(
        (a, b) => attentionRank(a, stepIndex) - attentionRank(b, stepIndex) || a.label.localeCompare(b.label),
      );
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
      `[role="row"][data-row="${activeRow}"] button.cell[data-col="${activeCol}"]`,
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
    const at = cellAt(e.target);
    if (!at) return;
    const [row, col] = at;
    // The columns run the way the language reads: ArrowRight is the next step in English, the
    // step before in Arabic.
    const rtl = dir() === "rtl";
    const moves: Record<string, [number, number] | undefined> = {
      ArrowRight: [row, rtl ? col - 1 : col + 1],
      ArrowLeft: [row, rtl ? col + 1 : col - 1],
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
  const foot = useMemo(() => totals(grid), [grid]);
  return (
    <div className="live-grid" data-testid="live-grid">
      <div className="grid-controls" role="group" aria-label={t("grid-controls")}>
        <label>
          {t("grid-filter-state")}{" "}
          <select value={filterState} onChange={(e) => setFilterState(e.target.value as CellState | "")}>
            <option value="">{t("grid-filter-any")}</option>
            {STATES.map((s) => (
              <option key={s} value={s}>
                {stateLabel(s)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("grid-filter-step")}{" "}
          <select value={stepIndex} onChange={(e) => setStepIndex(Number(e.target.value))}>
            <option value={-1}>{t("grid-filter-any")}</option>
            {grid.steps.map((s, i) => (
              <option key={s.widget_id} value={i}>
                {t("grid-step-numbered", { n: i + 1, title: s.title })}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            data-testid="sort-attention"
            checked={sortByState}
            onChange={(e) => setSortByState(e.target.checked)}
          />{" "}
          {t("grid-sort-attention")}
        </label>
        {onIdleAfter ? <IdleAfter minutes={grid.idle_after_minutes} onChange={onIdleAfter} /> : null}
        <span className="muted" data-testid="grid-count">
          {t("grid-count", { shown: rows.length, total: grid.rows.length })}
        </span>
      </div>
      <ul className="legend" aria-label={t("grid-legend")}>
        {STATES.map((s) => (
          <li key={s}>
            <span className={`cell-glyph state-${s}`}>
              <StateIcon state={s} size={14} />
            </span>
            {stateLabel(s)}
          </li>
        ))}
        <li>
          <span className="cell-glyph working">
            <PencilLine className="icon" size={14} aria-hidden="true" focusable="false" />
          </span>
          {t("grid-working")}
        </li>
        {grid.projector_safe ? null : (
          <li>
            <Moon className="icon" size={14} aria-hidden="true" focusable="false" />
            {t("grid-legend-idle", { minutes: grid.idle_after_minutes })}
          </li>
        )}
      </ul>
      <div
        role="grid"
        aria-label={t("grid-label")}
        aria-rowcount={rows.length + 2}
        aria-colcount={grid.steps.length + 1}
        aria-describedby="grid-keys"
        className="grid-table"
        onKeyDown={onKeyDown}
        onFocus={(e) => {
          setFocusInside(true);
          // A cell took focus (a click, a keyboard move, Tab back in): it is the tab stop now.
          const at = cellAt(e.target);
          const row = at ? rows[at[0]] : undefined;
          if (!at || !row || (rowKey(row) === active.key && at[1] === active.col)) return;
          lastIndex.current = at[0];
          setActive({ key: rowKey(row), col: at[1] });
        }}
        onBlur={(e) => {
          if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocusInside(false);
        }}
      >
        <div role="row" className="grid-row grid-head" style={{ gridTemplateColumns: columns }} aria-rowindex={1}>
          <div role="columnheader" aria-colindex={1} className="learner-label">
            {t("grid-learner")}
          </div>
          {grid.steps.map((s, i) => {
            const full = s.standard
              ? t("grid-step-numbered-standard", { n: i + 1, title: s.title, standard: s.standard })
              : t("grid-step-numbered", { n: i + 1, title: s.title });
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
                  {num(i + 1)}
                </span>
                <span className="col-title" translate="no" dir="auto">
                  {s.title}
                </span>
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
                  data-row={v.index}
                  className="grid-row"
                  style={{
                    gridTemplateColumns: columns,
                    position: "absolute",
                    top: 0,
                    insetInlineStart: 0,
                    insetInlineEnd: 0,
                    height: ROW_HEIGHT,
                    transform: `translateY(${v.start}px)`,
                  }}
                >
                  <RowCells
                    row={row}
                    steps={grid.steps}
                    tabCol={v.index === tabRow ? activeCol : -1}
                    projectorSafe={grid.projector_safe}
                    onOpen={onOpen}
                    onStudent={onStudent}
                  />
                </div>
              );
            })}
          </div>
        </div>
        <div
          role="row"
          className="grid-row grid-foot"
          style={{ gridTemplateColumns: columns }}
          aria-rowindex={rows.length + 2}
          data-testid="grid-totals"
        >
          <div role="rowheader" aria-colindex={1} className="learner-label">
            {t("grid-totals", { count: grid.learner_count })}
          </div>
          {foot.map((total, i) => {
            const step = grid.steps[i]!;
            return (
              // The visible figures are part of the spoken text (no aria-label that could drift from them).
              <div
                role="gridcell"
                key={step.widget_id}
                aria-colindex={i + 2}
                className="step-total"
                title={
                  total.working === null
                    ? t("grid-total-title-paged", { title: step.title, done: total.done, needs: total.needs })
                    : t("grid-total-title", {
                        title: step.title,
                        done: total.done,
                        working: total.working,
                        needs: total.needs,
                      })
                }
              >
                {num(total.done)}
                <span className="visually-hidden">
                  {" "}
                  {total.working === null
                    ? t("grid-total-done", { done: total.done })
                    : t("grid-total-done-working", { done: total.done, working: total.working })}
                </span>
                {total.needs > 0 ? (
                  <span className="step-total-needs">
                    {num(total.needs)}
                    <span className="visually-hidden"> {t("grid-total-needs", { needs: total.needs })}</span>
                  </span>
                ) : null}
              </div>
            );
          })}
        </div>
      </div>
      <p id="grid-keys" className="grid-help muted">
        {t("grid-keys")}
      </p>
    </div>
  );
}

/**
 * One learner's cells (and name). Memoised on what it draws, not on its place: at classroom
 * rates a change names a few learners, and a new learner shifts every row below it, so the
 * rows around it keep their cells and only move (their wrapper's offset and index change). The
 * row index the keyboard needs is read from the wrapper (`data-row`), focus is followed by the
 * grid, and `tabCol` is -1 except on the row that holds the grid's one tab stop.
 */
const RowCells = memo(function RowCells({
  row,
  steps,
  tabCol,
  projectorSafe,
  onOpen,
  onStudent,
}: {
  row: Row;
  steps: GridView["steps"];
  tabCol: number;
  projectorSafe: boolean;
  onOpen: (learner: string, widgetId: string) => void;
  onStudent?: (learner: string) => void;
}) {
  const learner = row.learner;
  return (
    <>
      <div role="rowheader" aria-colindex={1} className="learner-label">
        {onStudent && learner ? (
          <button
            type="button"
            className="link learner-link"
            data-testid="learner-name"
            tabIndex={-1}
            title={t("grid-open-student", { name: row.label })}
            onClick={() => onStudent(learner)}
          >
            <UserText>{row.label}</UserText>
          </button>
        ) : (
          <span className="learner-name" data-testid="learner-name" title={row.label}>
            <UserText>{row.label}</UserText>
          </span>
        )}
        <RowPlace row={row} />
      </div>
      {row.cells.map((c, i) => {
        const step = steps[i]!;
        const working = isWorking(row, i);
        const stateName = working
          ? t("grid-working")
          : row.current_step === i
            ? t("grid-state-current", { state: stateLabel(c.state) })
            : stateLabel(c.state);
        const name = t("grid-cell-name", { learner: row.label, step: step.title, state: stateName });
        return (
          <div role="gridcell" key={step.widget_id} aria-colindex={i + 2}>
            <button
              type="button"
              className={`cell state-${c.state}${working ? " working" : ""}`}
              data-state={c.state}
              data-working={working ? "true" : undefined}
              data-col={i}
              tabIndex={i === tabCol ? 0 : -1}
              aria-label={name}
              title={projectorSafe ? stateName : name}
              aria-disabled={learner ? undefined : true}
              onClick={() => learner && onOpen(learner, step.widget_id)}
            >
              {working ? (
                <PencilLine className="icon" size={16} aria-hidden="true" focusable="false" />
              ) : (
                <StateIcon state={c.state} />
              )}
            </button>
          </div>
        );
      })}
    </>
  );
});

/** Time since the learner's last event, and the idle flag (never colour alone: an icon and a word). */
function RowPlace({ row }: { row: Row }) {
  if (row.quiet_ms === null) return null;
  if (row.idle) {
    return (
      <span className="badge badge-idle" data-testid="idle" title={t("grid-idle-title", { span: span(row.quiet_ms) })}>
        <Moon className="icon" size={12} aria-hidden="true" focusable="false" />
        {t("grid-idle", { span: span(row.quiet_ms) })}
      </span>
    );
  }
  return (
    <span className="quiet muted" title={t("grid-quiet-title")}>
      {span(row.quiet_ms)}
    </span>
  );
}

/** The teacher's idle threshold, in whole minutes; sent when the field is left or Enter pressed. */
function IdleAfter({ minutes, onChange }: { minutes: number; onChange: (m: number) => void }) {
  const [value, setValue] = useState(String(minutes));
  useEffect(() => setValue(String(minutes)), [minutes]);
  const commit = () => {
    const m = Number(value);
    if (Number.isInteger(m) && m !== minutes) onChange(m);
    else setValue(String(minutes));
  };
  const id = useId();
  return (
    // The number box sits inside the sentence ("Idle after [5] min"), where the language puts it.
    <label htmlFor={id}>
      {tx("grid-idle-after", {
        field: (
          <input
            id={id}
            type="number"
            min={1}
            max={60}
            className="idle-after"
            data-testid="idle-after"
            value={value}
            onChange={(e) => setValue(e.target.value)}
            onBlur={commit}
            onKeyDown={(e) => {
              if (e.key === "Enter") commit();
            }}
          />
        ),
      })}
    </label>
  );
}
