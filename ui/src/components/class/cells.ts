import { Check, Circle, Contrast, Dot, Flag, Hand, type LucideIcon, TriangleAlert, X } from "lucide-react";
import type { CellState } from "../../ipc";

/**
 * Each state by shape (an icon from the shipped set, so no font can lack it) and colour (a
 * class), and a name for screen readers. `loud` marks the states that need the teacher: the grid
 * draws them filled or outlined, the rest quiet.
 */
export const CELL: Record<CellState, { icon: LucideIcon; label: string; rank: number; loud: boolean; fill?: boolean }> =
  {
    waiting_for_help: { icon: Hand, label: "waiting for help", rank: 0, loud: true },
    follow_up: { icon: Flag, label: "missed help request: follow up", rank: 1, loud: true },
    struggling: { icon: TriangleAlert, label: "struggling", rank: 2, loud: true },
    completed_incorrect: { icon: X, label: "completed, incorrect", rank: 3, loud: true },
    in_progress: { icon: Contrast, label: "in progress", rank: 4, loud: false },
    not_started: { icon: Dot, label: "not started", rank: 5, loud: false },
    completed: { icon: Circle, label: "completed (no verdict)", rank: 6, loud: false, fill: true },
    completed_correct: { icon: Check, label: "completed, correct", rank: 7, loud: false },
  };

export const STATES = Object.keys(CELL) as CellState[];

export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  const m = Math.round(s / 60);
  if (m < 60) return `${m} min ago`;
  return `${Math.round(m / 60)} h ago`;
}
