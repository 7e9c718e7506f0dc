import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassViewIpc, KnowledgeMapView, NodeState, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { layoutGraph } from "./graphLayout";
import { KnowledgeMap } from "./KnowledgeMap";

afterEach(cleanup);

const LABEL: Record<NodeState, string> = {
  known: "known",
  missed: "missed",
  dont_know: "doesn't know yet",
  taught: "taught",
  candidate: "not met yet",
};

function node(code: string, title: string, counts: number[]) {
  const states: NodeState[] = ["known", "missed", "dont_know", "taught", "candidate"];
  return {
    code,
    title,
    learners: counts.reduce((a, b) => a + b, 0),
    counts: states.map((state, i) => ({
      state,
      label: LABEL[state],
      count: counts[i]!,
      visibility: "shown" as const,
      shown: String(counts[i]),
    })),
  };
}

const MAP: KnowledgeMapView = {
  nodes: [
    node("S.A", "Fractions on a line", [5, 1, 2, 0, 2]),
    node("S.B", "Equivalent <b>fractions</b>", [1, 1, 1, 1, 6]),
  ],
  edges: [{ from: "S.A", to: "S.B" }],
  misconceptions: [{ id: "S.B::adds-same", standard: "S.B", name: "adds-same", learners: 2, shown: "2" }],
  k: null,
};

function fake() {
  const asked: string[] = [];
  const classView = {
    knowledgeMap: async () => MAP,
    knowledgeNode: async (_c: string, code: string) => {
      asked.push(code);
      return [
        { state: "known" as const, label: "known", learners: ["Ada Canary", "lrn-b"] },
        { state: "missed" as const, label: "missed", learners: [] },
      ];
    },
  } as Partial<ClassViewIpc>;
  return { ipc: { classView, toUiError } as unknown as TeacherIpc, asked };
}

describe("the knowledge map", () => {
  it("lays prerequisites above what builds on them", () => {
    const layout = layoutGraph(
      [
        { id: "a", width: 100, height: 40 },
        { id: "b", width: 100, height: 40 },
        { id: "c", width: 100, height: 40 },
      ],
      [
        { from: "a", to: "b" },
        { from: "b", to: "c" },
        { from: "a", to: "nowhere" },
      ],
    );
    const y = Object.fromEntries(layout.nodes.map((n) => [n.id, n.y]));
    expect(y.a!).toBeLessThan(y.b!);
    expect(y.b!).toBeLessThan(y.c!);
    expect(layout.edges).toHaveLength(2); // the edge to an unknown node is dropped
  });

  it("draws each standard with its counts, names a node by them, and lists its learners", async () => {
    const { ipc, asked } = fake();
    render(<KnowledgeMap ipc={ipc} classId="c1" changeTick={0} />);
    const a = await screen.findByRole("button", { name: /^Fractions on a line: known 5, missed 1/ });
    // A title from the host is text, never markup.
    expect(screen.getByRole("button", { name: /^Equivalent <b>fractions<\/b>:/ })).toBeTruthy();
    fireEvent.keyDown(a, { key: "Enter" });
    const panel = await screen.findByTestId("knowledge-learners");
    expect(panel.textContent).toContain("Ada Canary");
    expect(asked).toEqual(["S.A"]);
  });

  it("shows the same data as a table", async () => {
    const { ipc } = fake();
    render(<KnowledgeMap ipc={ipc} classId="c1" changeTick={0} />);
    fireEvent.click(await screen.findByTestId("knowledge-table-mode"));
    const table = await screen.findByTestId("knowledge-table");
    await waitFor(() => expect(table.querySelectorAll("tbody tr")).toHaveLength(2));
    const row = [...table.querySelectorAll("tbody tr")][1]!;
    expect(row.textContent).toContain("Fractions on a line"); // builds on
    expect(row.textContent).toContain("6");
    expect(screen.getByText("adds-same")).toBeTruthy();
  });
});
