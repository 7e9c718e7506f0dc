import { describe, expect, it } from "vitest";
import type { GridView } from "../../ipc";
import { wholeGrid } from "../../test-support/fakeGrid";
import { mergeRows } from "./gridRows";

function row(learner: string, state: "not_started" | "struggling") {
  return {
    learner,
    label: learner,
    current_step: null,
    quiet_ms: null,
    idle: false,
    cells: [{ state, completions: 0, incorrect: 0 }],
  };
}

function view(rows: GridView["rows"], idle = 5): GridView {
  return wholeGrid({
    assignment_id: "a1",
    pathway_id: "p",
    steps: [],
    rows,
    projector_safe: false,
    idle_after_minutes: idle,
  });
}

describe("mergeRows", () => {
  it("replaces the rows named, puts new learners in id order, keeps the rest", () => {
    const shown = view([row("anon_a", "not_started"), row("anon_c", "not_started")]);
    const patch = view([row("anon_b", "struggling"), row("anon_c", "struggling")], 7);
    const merged = mergeRows(shown, patch);
    expect(merged.rows.map((r) => [r.learner, r.cells[0]!.state])).toEqual([
      ["anon_a", "not_started"],
      ["anon_b", "struggling"],
      ["anon_c", "struggling"],
    ]);
    expect(merged.idle_after_minutes).toBe(7);
    // The grid shown is not changed in place (React compares it by reference).
    expect(shown.rows.map((r) => r.cells[0]!.state)).toEqual(["not_started", "not_started"]);
    // An empty patch changes no row.
    expect(mergeRows(shown, view([])).rows).toEqual(shown.rows);
  });

  it("keeps a page a page: a learner not on it is not added, the cursor stays, totals follow the patch", () => {
    const shown = {
      ...view([row("anon_a", "not_started"), row("anon_c", "not_started")]),
      paged: true,
      next_after: "anon_c",
    };
    const patch = view([row("anon_b", "struggling"), row("anon_c", "struggling")]);
    const merged = mergeRows(shown, patch);
    expect(merged.rows.map((r) => [r.learner, r.cells[0]!.state])).toEqual([
      ["anon_a", "not_started"],
      ["anon_c", "struggling"],
    ]);
    expect(merged.paged).toBe(true);
    expect(merged.next_after).toBe("anon_c");
    expect(merged.totals).toBe(patch.totals);
    // Control: the same patch on a whole class adds the learner.
    expect(mergeRows({ ...shown, paged: false }, patch).rows).toHaveLength(3);
  });
});
