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
    const merged = mergeRows(shown, patch, null);
    expect(merged.rows.map((r) => [r.learner, r.cells[0]!.state])).toEqual([
      ["anon_a", "not_started"],
      ["anon_b", "struggling"],
      ["anon_c", "struggling"],
    ]);
    expect(merged.idle_after_minutes).toBe(7);
    // The grid shown is not changed in place (React compares it by reference).
    expect(shown.rows.map((r) => r.cells[0]!.state)).toEqual(["not_started", "not_started"]);
    // An empty patch changes no row.
    expect(mergeRows(shown, view([]), null).rows).toEqual(shown.rows);
  });

  it("keeps a page a page: a new learner goes in only inside its range; the cursor stays, totals follow the patch", () => {
    // The second page of a big class: after anon_b, up to anon_e.
    const shown = {
      ...view([row("anon_c", "not_started"), row("anon_e", "not_started")]),
      paged: true,
      next_after: "anon_e",
    };
    const patch = view([
      row("anon_a", "struggling"), // on the page before
      row("anon_d", "struggling"), // on this page: goes in at its place
      row("anon_e", "struggling"),
      row("anon_f", "struggling"), // on the page after
    ]);
    const merged = mergeRows(shown, patch, "anon_b");
    expect(merged.rows.map((r) => [r.learner, r.cells[0]!.state])).toEqual([
      ["anon_c", "not_started"],
      ["anon_d", "struggling"],
      ["anon_e", "struggling"],
    ]);
    expect(merged.paged).toBe(true);
    expect(merged.next_after).toBe("anon_e");
    expect(merged.totals).toBe(patch.totals);
    // The first page has no lower bound: anon_a belongs there.
    expect(mergeRows(shown, patch, null).rows.map((r) => r.learner)).toEqual(["anon_a", "anon_c", "anon_d", "anon_e"]);
    // The last page has no upper bound: anon_f belongs there.
    expect(mergeRows({ ...shown, next_after: null }, patch, "anon_b").rows.map((r) => r.learner)).toEqual([
      "anon_c",
      "anon_d",
      "anon_e",
      "anon_f",
    ]);
    // Control: the same patch on a whole class adds every learner.
    expect(mergeRows({ ...shown, paged: false }, patch, null).rows).toHaveLength(5);
  });

  it("keeps what the patch did not change by identity, so those rows stay drawn", () => {
    const step = (title: string) => ({ widget_id: "w1", title, kind: "quiz", standard: null, assesses: true });
    const shown = { ...view([row("anon_a", "not_started"), row("anon_c", "not_started")]), steps: [step("Fractions")] };
    const patch = { ...view([row("anon_c", "struggling")]), steps: [step("Fractions")] };
    const merged = mergeRows(shown, patch, null);
    expect(merged.rows[0]).toBe(shown.rows[0]);
    expect(merged.rows[1]).toBe(patch.rows[0]);
    expect(merged.steps).toBe(shown.steps);
    // Control: a renamed step is taken from the patch.
    const renamed = mergeRows(shown, { ...patch, steps: [step("Fractions, part 2")] }, null);
    expect(renamed.steps[0]!.title).toBe("Fractions, part 2");
  });
});
