import { Check, Circle, Contrast, Dot, Flag, Hand, type LucideIcon, TriangleAlert, X } from "lucide-react";
import type { CellState } from "../../ipc";

/**
 * Each state by shape (an icon from the shipped set, so no font can lack it) and colour (a
 * class). `loud` marks the states that need the teacher: the grid draws them filled or outlined,
 * the rest quiet; `rank` orders them by how much they need the teacher. Their names, in the
 * teacher's language, are LiveGrid's `stateLabel()`.
 */
export const CELL: Record<CellState, { icon: LucideIcon; rank: number; loud: boolean; fill?: boolean }> = {
  waiting_for_help: { icon: Hand, rank: 0, loud: true },
  follow_up: { icon: Flag, rank: 1, loud: true },
  struggling: { icon: TriangleAlert, rank: 2, loud: true },
  completed_incorrect: { icon: X, rank: 3, loud: true },
  in_progress: { icon: Contrast, rank: 4, loud: false },
  not_started: { icon: Dot, rank: 5, loud: false },
  completed: { icon: Circle, rank: 6, loud: false, fill: true },
  completed_correct: { icon: Check, rank: 7, loud: false },
};

export const STATES = Object.keys(CELL) as CellState[];
