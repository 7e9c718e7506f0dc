import type { CellState } from "../../ipc";

/** Each state by shape (a glyph) and colour (a class), and a name for screen readers. */
export const CELL: Record<CellState, { glyph: string; label: string; rank: number }> = {
  waiting_for_help: { glyph: "?", label: "waiting for help", rank: 0 },
  follow_up: { glyph: "!", label: "missed help request: follow up", rank: 1 },
  struggling: { glyph: "▲", label: "struggling", rank: 2 },
  completed_incorrect: { glyph: "✗", label: "completed, incorrect", rank: 3 },
  in_progress: { glyph: "◐", label: "in progress", rank: 4 },
  not_started: { glyph: "·", label: "not started", rank: 5 },
  completed: { glyph: "●", label: "completed (no verdict)", rank: 6 },
  completed_correct: { glyph: "✓", label: "completed, correct", rank: 7 },
};

export const STATES = Object.keys(CELL) as CellState[];

export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.round(m / 60)} h ago`;
}
