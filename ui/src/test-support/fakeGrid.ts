import type { GridView } from "../ipc";

/**
 * A whole-class grid as the core sends it: `rows` with the class totals the core keeps, which
 * for a whole class are these rows' (done, needing the teacher, not started per step).
 */
export function wholeGrid(
  view: Omit<GridView, "learner_count" | "totals" | "paged" | "next_after" | "group">,
): GridView {
  const totals = view.steps.map((step, i) => {
    let done = 0;
    let needs = 0;
    let notStarted = 0;
    for (const r of view.rows) {
      const state = r.cells[i]?.state ?? "not_started";
      if (state === "completed" || state === "completed_correct" || state === "completed_incorrect") done++;
      if (state === "waiting_for_help" || state === "follow_up" || state === "struggling") needs++;
      if (state === "not_started") notStarted++;
    }
    return { widget_id: step.widget_id, done, needs_teacher: needs, not_started: notStarted };
  });
  return { ...view, learner_count: view.rows.length, totals, paged: false, next_after: null, group: null };
}
