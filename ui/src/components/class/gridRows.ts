import type { GridView } from "../../ipc";

/**
 * `grid` with the rows of `patch` (the rows of the learners a change named) in place: a row
 * of a learner already shown is replaced, a new learner's row goes in at its place in id order
 * (the order the core sends the whole grid in). Steps, settings and the class totals come from
 * the newer answer; the page stays the one shown: on a page of a big class a learner not on it
 * is not added (the next whole reload places them). Only for a grid with ids (not
 * projector-safe mode, whose rows carry none).
 */
export function mergeRows(grid: GridView, patch: GridView): GridView {
  const fresh = new Map(patch.rows.map((r) => [r.learner, r]));
  const rows = grid.rows.map((r) => {
    const row = fresh.get(r.learner);
    if (row === undefined) return r;
    fresh.delete(r.learner);
    return row;
  });
  if (fresh.size > 0 && !grid.paged) {
    rows.push(...fresh.values());
    rows.sort((a, b) => byId(a.learner, b.learner));
  }
  return { ...patch, rows, paged: grid.paged, next_after: grid.next_after };
}

function byId(a: string | null, b: string | null): number {
  const x = a ?? "";
  const y = b ?? "";
  return x < y ? -1 : x > y ? 1 : 0;
}
