import { createContext, useCallback, useContext, useSyncExternalStore } from "react";
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
/** The class header's room state (pause, pacing). */
export const ROOM: readonly ChangeKind[] = ["room"];
/** The class's assignments. */
export const ASSIGNMENTS: readonly ChangeKind[] = ["assignments"];
/** The help desk lists requests (calls) of every class. */
export const DESK: readonly ChangeKind[] = ["calls"];
/** Every kind (diagnostics counts everything). */
export const EVERYTHING: readonly ChangeKind[] = KINDS;

/**
 * The window's store changes, outside React state: a StoreChanged event re-renders only the
 * views whose tick it moves ({@link useChangeTick}), not the whole app. Each notification used
 * to re-render the app frame and the class page; at classroom rates that render held up the
 * webview's next event and the next answer.
 */
export class ChangeFeed {
  private changes: StoreChanges = NO_CHANGES;
  private readonly listeners = new Set<() => void>();
  /** Per class, the grid rows changed since the grid last took them ({@link takeRows}). */
  private readonly rows = new Map<string, RowsPending>();

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  };

  readonly current = (): StoreChanges => this.changes;

  /** Counts one more event and tells the subscribed views. */
  add(change: StoreChanged): void {
    if (PROGRESS.some((kind) => change[kind])) {
      const named = new Map(change.rows.map((r) => [r.class_id, r.learners]));
      for (const classId of change.class_ids) {
        this.rows.set(classId, addRows(this.rows.get(classId), named.get(classId)));
      }
    }
    this.changes = countChange(this.changes, change);
    for (const listener of this.listeners) listener();
  }

  /** The class's grid rows changed since the last call (and forgets them): the learners named,
   * `"all"` when a change named none (or too many), `undefined` when nothing changed. */
  takeRows(classId: string): RowsPending | undefined {
    const pending = this.rows.get(classId);
    this.rows.delete(classId);
    return pending;
  }
}

/** Grid rows to refetch: these learners', or every row. */
export type RowsPending = ReadonlySet<string> | "all";

/** Past this many learners a whole reload is as cheap as naming them (as in the core). */
export const MAX_PENDING_ROWS = 200;

/** `pending` plus one event's rows of the class (`undefined`: the event named none, so all). */
export function addRows(pending: RowsPending | undefined, learners: readonly string[] | undefined): RowsPending {
  if (pending === "all" || learners === undefined) return "all";
  const next = new Set(pending);
  for (const learner of learners) next.add(learner);
  return next.size > MAX_PENDING_ROWS ? "all" : next;
}

/** With no provider (a view rendered alone, in a test) nothing ever changes. */
const ChangeFeedContext = createContext<ChangeFeed>(new ChangeFeed());

export const ChangeFeedProvider = ChangeFeedContext.Provider;

/** The window's change feed (for a view that also takes the rows a change named). */
export function useChangeFeed(): ChangeFeed {
  return useContext(ChangeFeedContext);
}

/** {@link changeTick} of the window's changes; the calling view re-renders only when it moves. */
export function useChangeTick(kinds: readonly ChangeKind[], classId?: string): number {
  const feed = useContext(ChangeFeedContext);
  // A number: React compares snapshots with Object.is, so an unrelated change renders nothing.
  const tick = useCallback(() => changeTick(feed.current(), kinds, classId), [feed, kinds, classId]);
  return useSyncExternalStore(feed.subscribe, tick, tick);
}
