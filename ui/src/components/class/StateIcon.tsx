import type { CellState } from "../../ipc";
import { CELL } from "./cells";

/** The icon of a cell state, hidden from screen readers (the cell's or the legend's text names it). */
export function StateIcon({ state, size = 16 }: { state: CellState; size?: number }) {
  const meta = CELL[state];
  const Icon = meta.icon;
  return (
    <Icon
      className="icon"
      size={state === "not_started" ? size + 6 : size}
      strokeWidth={meta.loud || state === "completed_correct" ? 3 : 2}
      fill={meta.fill ? "currentColor" : "none"}
      aria-hidden="true"
      focusable="false"
      data-icon={state}
    />
  );
}
