import type { CellState } from "../../ipc";
import { CELL } from "./cells";

/** The icon of a cell state, hidden from screen readers (the cell's or the legend's text names it). */
export function StateIcon({ state, size = 16 }: { state: CellState; size?: number }) {
  const meta = CELL[state];
  const Icon = meta.icon;
  return (
    <Icon
      className="icon"
      // The dot of "not started" is drawn larger (its shape is small); "completed" (no verdict)
      // smaller, so a column of finished work stays quieter than the states that need the teacher.
      size={state === "not_started" ? size + 6 : state === "completed" ? size - 4 : size}
      strokeWidth={meta.loud || state === "completed_correct" ? 3 : 2}
      fill={meta.fill ? "currentColor" : "none"}
      aria-hidden="true"
      focusable="false"
      data-icon={state}
    />
  );
}
