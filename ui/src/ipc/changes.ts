import type { StoreChanged } from "./bindings";

/** What a StoreChanged event says changed (its flags). */
export type ChangeKind = "results" | "calls" | "learners" | "assignments" | "quarantine" | "room";

const KINDS: readonly ChangeKind[] = ["results", "calls", "learners", "assignments", "quarantine", "room"];

type Counts = Readonly<Record<ChangeKind, number>>;

const ZERO: Counts = { results: 0, calls: 0, learners: 0, assignments: 0, quarantine: 0, room: 0 };

/**
 * Every store change the window has heard of, counted by kind, over all classes and per class.
 * A view's tick is the sum of the counters it depends on ({@link changeTick}), so it moves exactly
 * when one of them does: a view reloads on the changes that touch it, not on every change — the
 * class header does not reread the room on each result, the grid not on another class's result.
 *
 * Counters (not the last event) because React may render once for several events: a change the
 * view cares about followed at once by one it does not must still reload it.
 */
export interface StoreChanges {
  readonly all: Counts;
  readonly byClass: Readonly<Record<string, Counts>>;
}

export const NO_CHANGES: StoreChanges = { all: ZERO, byClass: {} };

/** The counters after one more event. The event's flags are merged over its classes (the core
 * coalesces several classes' changes into one event), so a class listed in it may count a kind
 * another listed class had: a reload too many, never one too few. */
export function countChange(prev: StoreChanges, change: StoreChanged): StoreChanges {
  const add = (counts: Counts): Counts => {
    const next = { ...counts };
    for (const kind of KINDS) if (change[kind]) next[kind] += 1;
    return next;
  };
  const byClass = { ...prev.byClass };
  for (const classId of change.class_ids) byClass[classId] = add(byClass[classId] ?? ZERO);
  return { all: add(prev.all), byClass };
}

/** A number that moves whenever a change of one of `kinds` happened (to `classId`, or to any
 * class when it is absent). */
export function changeTick(changes: StoreChanges, kinds: readonly ChangeKind[], classId?: string): number {
  const counts = classId === undefined ? changes.all : (changes.byClass[classId] ?? ZERO);
  return kinds.reduce((sum, kind) => sum + counts[kind], 0);
}

/** What a view of one learner's or a class's progress shows depends on. */
export const PROGRESS: readonly ChangeKind[] = ["results", "calls", "learners"];
/** The help desk lists requests (calls) of every class. */
export const DESK: readonly ChangeKind[] = ["calls"];
/** Every kind (diagnostics counts everything). */
export const EVERYTHING: readonly ChangeKind[] = KINDS;
