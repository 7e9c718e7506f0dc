import type { GridView } from "../../ipc";

/**
 * `grid` with the rows of `patch` (the rows of the learners a change named) in place: a row
 * of a learner already shown is replaced, a new learner's row goes in at its place in id order
 * (the order the core sends the whole grid in). Steps, settings and the class totals come from
 * the newer answer; the page stays the one shown: on a page of a big class (the one after the
 * cursor `after`, up to its last learner `next_after`) a new learner goes in only when their id
 * falls in that range (the page grows by them until the next whole reload places everyone). Only
 * for a grid with ids (not projector-safe mode, whose rows carry none).
 */
export function mergeRows(grid: GridView, patch: GridView, after: string | null): GridView {
  const fresh = new Map(patch.rows.map((r) => [r.learner, r]));
  const rows = grid.rows.map((r) => {
    const row = fresh.get(r.learner);
    if (row === undefined) return r;
    fresh.delete(r.learner);
    return row;
  });
  const onPage = (learner: string | null) =>
    !grid.paged ||
    (learner !== null &&
      (after === null || byId(learner, after) > 0) &&
      (grid.next_after === null || byId(learner, grid.next_after) <= 0));
  const added = [...fresh.values()].filter((r) => onPage(r.learner));
  if (added.length > 0) {
    rows.push(...added);
    rows.sort((a, b) => byId(a.learner, b.learner));
  }
  // The steps kept as they were when they did not change: the grid's rows are drawn against
  // them, and an equal list kept by identity lets the rows the patch did not touch stay drawn.
  const steps = sameSteps(grid.steps, patch.steps) ? grid.steps : patch.steps;
  return { ...patch, steps, rows, paged: grid.paged, next_after: grid.next_after };
}

function sameSteps(a: GridView["steps"], b: GridView["steps"]): boolean {
  return a.length === b.length && a.every((s, i) => JSON.stringify(s) === JSON.stringify(b[i]));
}

function byId(a: string | null, b: string | null): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}
