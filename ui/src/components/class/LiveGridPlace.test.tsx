import { cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { GridRowView, GridView } from "../../ipc";
import { wholeGrid } from "../../test-support/fakeGrid";
import { LiveGrid } from "./LiveGrid";

afterEach(cleanup);

const row = (label: string, over: Partial<GridRowView>, states: GridRowView["cells"][number]["state"][]) => ({
  learner: label,
  label,
  current_step: null,
  quiet_ms: null,
  idle: false,
  cells: states.map((state) => ({ state, completions: 0, incorrect: 0 })),
  ...over,
});

/** Four learners: one working on step 2, one idle on step 1, one waiting for help, one done. */
function grid(safe = false): GridView {
  return wholeGrid({
    assignment_id: "a1",
    pathway_id: "p",
    projector_safe: safe,
    idle_after_minutes: 5,
    steps: [
      { widget_id: "w1", title: "Compare fractions", kind: "k", standard: null, assesses: true },
      { widget_id: "w2", title: "Order fractions", kind: "k", standard: null, assesses: true },
    ],
    rows: [
      row("Ada", { current_step: 1, quiet_ms: 30_000 }, ["completed_correct", "not_started"]),
      row("Ben", { current_step: 0, quiet_ms: 9 * 60_000, idle: true }, ["not_started", "not_started"]),
      row("Cy", { current_step: 0, quiet_ms: 5_000 }, ["waiting_for_help", "not_started"]),
      row("Dee", { current_step: null, quiet_ms: 60_000 }, ["completed_correct", "completed_incorrect"]),
    ],
  });
}

const cell = (name: RegExp) => screen.getByRole("button", { name });

describe("where each student is, on the grid", () => {
  it("marks the step a learner is on as working, and keeps loud states loud there", () => {
    render(<LiveGrid grid={grid()} onOpen={() => {}} />);
    expect(cell(/^Ada, Order fractions: working/).dataset.working).toBe("true");
    expect(cell(/^Ben, Compare fractions: working/).dataset.working).toBe("true");
    // Negative controls: a step not being worked on, and a help request on the current step.
    expect(cell(/^Ada, Compare fractions: completed, correct$/).dataset.working).toBeUndefined();
    const cy = cell(/^Cy, Compare fractions: waiting for help \(the step they are on\)$/);
    expect(cy.dataset.working).toBeUndefined();
    expect(cy.dataset.state).toBe("waiting_for_help");
  });

  it("shows the time since the last event, and flags idle with a word and an icon", () => {
    render(<LiveGrid grid={grid()} onOpen={() => {}} />);
    const idle = screen.getAllByTestId("idle");
    expect(idle).toHaveLength(1);
    expect(idle[0]!.textContent).toBe("idle 9 min");
    expect(idle[0]!.querySelector("svg")).not.toBeNull();
    const ada = screen.getByRole("rowheader", { name: /Ada/ });
    expect(ada.textContent).toContain("30 s");
  });

  it("sorts by needs attention: help first, then idle, then wrong answers", () => {
    render(<LiveGrid grid={grid()} onOpen={() => {}} />);
    fireEvent.click(screen.getByTestId("sort-attention"));
    const order = screen
      .getAllByRole("rowheader")
      .map((h) => h.textContent ?? "")
      .filter((t) => !t.startsWith("Totals"))
      .map((t) =>
        t
          .replace(/\d.*$/, "")
          .replace(/idle.*/, "")
          .trim(),
      );
    expect(order).toEqual(["Cy", "Ben", "Dee", "Ada"]);
  });

  it("totals each step in a footer row", () => {
    render(<LiveGrid grid={grid()} onOpen={() => {}} />);
    const totals = within(screen.getByTestId("grid-totals")).getAllByRole("gridcell");
    expect(totals.map((t) => t.textContent)).toEqual([
      "2 completed, 1 working1 need the teacher",
      "1 completed, 1 working",
    ]);
    expect(totals[0]!.getAttribute("title")).toBe("Compare fractions: 2 completed, 1 working, 1 need the teacher");
  });

  it("sets the idle threshold, and links a learner's name to their page", () => {
    const minutes: number[] = [];
    const opened: string[] = [];
    render(
      <LiveGrid
        grid={grid()}
        onOpen={() => {}}
        onStudent={(l) => opened.push(l)}
        onIdleAfter={(m) => minutes.push(m)}
      />,
    );
    const input = screen.getByTestId("idle-after");
    fireEvent.change(input, { target: { value: "12" } });
    fireEvent.keyDown(input, { key: "Enter" });
    expect(minutes).toEqual([12]);
    fireEvent.click(screen.getByRole("button", { name: "Ada" }));
    expect(opened).toEqual(["Ada"]);
  });

  it("in projector-safe mode: no idle flag, no link, no threshold", () => {
    render(
      <LiveGrid
        grid={{
          ...grid(true),
          rows: grid(true).rows.map((r) => ({ ...r, learner: null, idle: false, quiet_ms: null })),
        }}
        onOpen={() => {}}
      />,
    );
    expect(screen.queryAllByTestId("idle")).toHaveLength(0);
    expect(screen.queryByTestId("idle-after")).toBeNull();
    expect(screen.queryByRole("button", { name: "Ada" })).toBeNull();
  });
});
