import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { num, setLanguageChoice } from "../../i18n";
import type { ClassViewIpc, PathwayMapView, PathwayNodeView, StepStatus, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { PathwayMap } from "./PathwayMap";

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
});

const LABEL: Record<StepStatus, string> = { done: "Done", current: "Current", upcoming: "Upcoming" };

function node(
  widget_id: string,
  title: string,
  position: number,
  counts: (number | null)[],
  pacing: "limit" | "beyond" | null = null,
): PathwayNodeView {
  const statuses: StepStatus[] = ["done", "current", "upcoming"];
  return {
    widget_id,
    title,
    standard: null,
    position,
    learners: 12,
    pacing_limit: pacing === "limit",
    beyond_pacing: pacing === "beyond",
    counts: statuses.map((status, i) => ({
      status,
      label: LABEL[status],
      count: counts[i] ?? null,
      visibility: counts[i] === null ? ("primary" as const) : ("shown" as const),
      shown: counts[i] === null ? "fewer than 10" : String(counts[i]),
    })),
  };
}

const MAP: PathwayMapView = {
  learners: 12,
  k: null,
  pathways: [
    {
      assignment_id: "as-1",
      pathway_id: "p-1",
      title: "Fractions",
      nodes: [
        node("w1", "Compare fractions", 1, [9, 3, 0]),
        node("w2", "Equivalent <b>fractions</b>", 2, [4, 5, 3], "limit"),
        node("w3", "Reflect", 3, [1, 0, 11], "beyond"),
      ],
      edges: [
        { from: "w1", to: "w2", kind: "sequence" },
        { from: "w2", to: "w3", kind: "sequence" },
      ],
      up_to: "w2",
      up_to_title: "Equivalent <b>fractions</b>",
      up_to_step: 2,
      finished: 1,
    },
  ],
};

function fake(map: PathwayMapView = MAP) {
  const asked: string[][] = [];
  const classView = {
    pathwayMap: async () => map,
    pathwayNode: async (_c: string, assignment: string, widget: string) => {
      asked.push([assignment, widget]);
      return [
        { status: "done" as const, label: "Done", learners: ["Ada <i>Canary</i>", "lrn-b"] },
        { status: "current" as const, label: "Current", learners: ["lrn-c"] },
        { status: "upcoming" as const, label: "Upcoming", learners: [] },
      ];
    },
  } as Partial<ClassViewIpc>;
  return { ipc: { classView, toUiError } as unknown as TeacherIpc, asked };
}

describe("the pathway map", () => {
  it("draws each step with its counts in words, in pathway order, with the pacing limit marked", async () => {
    const { ipc } = fake();
    const { container } = render(<PathwayMap ipc={ipc} classId="c1" changeTick={0} />);
    const first = await screen.findByRole("button", { name: "1. Compare fractions: 9 done, 3 current, 0 upcoming" });
    expect(first.textContent).toContain("9 done");
    expect(first.textContent).toContain("3 current");
    // Never colour alone: each count carries an icon and a word.
    expect(first.querySelectorAll("svg")).toHaveLength(3);
    // A title from the host is text, never markup.
    const limit = screen.getByRole("button", {
      name: /^2\. Equivalent <b>fractions<\/b>: 4 done, .*, Pacing: up to here$/,
    });
    expect(limit.querySelector("b")).toBeNull();
    expect(within(limit).getByTestId("pathway-pacing").textContent?.trim()).toBe("Pacing: up to here");
    expect(screen.getAllByTestId("pathway-pacing")).toHaveLength(1);
    expect(screen.getByRole("button", { name: /^3\. Reflect: .*, After the pacing limit$/ }).textContent).toContain(
      "After the pacing limit",
    );
    expect(screen.getByText(/Paced up to step 2/)).toBeTruthy();
    // One arrow per sequence edge, steps laid out top to bottom.
    expect(container.querySelectorAll(".p-edge")).toHaveLength(2);
    const y = (w: string) =>
      Number(
        /translate\([^,]+,([^)]+)\)/.exec(
          container.querySelector(`[data-widget='${w}']`)?.getAttribute("transform") ?? "",
        )?.[1],
      );
    expect(y("w1")).toBeLessThan(y("w2"));
    expect(y("w2")).toBeLessThan(y("w3"));
  });

  it("follows a step to its learners, by keyboard, as text", async () => {
    const { ipc, asked } = fake();
    render(<PathwayMap ipc={ipc} classId="c1" changeTick={0} />);
    const step = await screen.findByRole("button", { name: /^2\. Equivalent/ });
    fireEvent.keyDown(step, { key: "Enter" });
    const panel = await screen.findByTestId("pathway-learners");
    expect(asked).toEqual([["as-1", "w2"]]);
    expect(panel.textContent).toContain("Ada <i>Canary</i>");
    expect(panel.querySelector("i")).toBeNull();
    expect(panel.textContent).toContain("Done (2)");
    expect(panel.textContent).toContain("Current (1)");
    fireEvent.click(within(panel).getByRole("button", { name: "Close" }));
    await waitFor(() => expect(screen.queryByTestId("pathway-learners")).toBeNull());
  });

  it("shows the same data as a table", async () => {
    const { ipc, asked } = fake();
    render(<PathwayMap ipc={ipc} classId="c1" changeTick={0} />);
    fireEvent.click(await screen.findByTestId("pathway-table-mode"));
    const table = await screen.findByTestId("pathway-table");
    const rows = [...table.querySelectorAll<HTMLElement>("tbody tr")];
    expect(rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent))).toEqual([
      ["9", "3", "0", "—"],
      ["4", "5", "3", "Pacing: up to here"],
      ["1", "0", "11", "After the limit"],
    ]);
    fireEvent.click(within(rows[2]!).getByRole("button", { name: "Reflect" }));
    await screen.findByTestId("pathway-learners");
    expect(asked).toEqual([["as-1", "w3"]]);
  });

  it("prints a suppressed count as hidden, never its number", async () => {
    const safe: PathwayMapView = {
      ...MAP,
      k: 10,
      pathways: [{ ...MAP.pathways[0]!, nodes: [node("w1", "Compare fractions", 1, [null, null, 0])] }],
    };
    const { ipc } = fake(safe);
    render(<PathwayMap ipc={ipc} classId="c1" changeTick={0} />);
    const step = await screen.findByRole("button", {
      name: /^1\. Compare fractions: <10 done, <10 current, 0 upcoming$/,
    });
    expect(step.textContent).toContain("<10 done");
    expect(screen.getByText("Groups under 10 are not shown.")).toBeTruthy();
  });

  it("says so when nothing is assigned", async () => {
    const { ipc } = fake({ pathways: [], learners: 0, k: null });
    render(<PathwayMap ipc={ipc} classId="c1" changeTick={0} />);
    expect(await screen.findByText("Assign a pathway to see its map.")).toBeTruthy();
  });
});

describe("the pathway map in Arabic", () => {
  /** Arabic sentences isolate what they put in (FSI … PDI); the words are what these tests read. */
  const plain = (s: string | null | undefined) => (s ?? "").replace(/[\u2068\u2069]/g, "");

  it("says its words in Arabic and starts each node's text on the right, the layout unchanged", async () => {
    setLanguageChoice("ar");
    const { container } = render(<PathwayMap ipc={fake().ipc} classId="c1" changeTick={0} />);
    const first = await screen.findByRole("button", { name: /Compare fractions/ });
    expect(plain(first.getAttribute("aria-label"))).toBe(
      `1. Compare fractions: أنهوها: ${num(9)}، الحالية: ${num(3)}، القادمة: ${num(0)}`,
    );
    expect(plain(screen.getByTestId("pathway-class-size").textContent)).toBe(`${num(12)} متعلّمًا`);
    expect(plain(screen.getByText(/الإيقاع حتى الخطوة/).textContent)).toContain("الإيقاع حتى الخطوة 2");
    expect(
      plain(within(screen.getByRole("button", { name: /Equivalent/ })).getByTestId("pathway-pacing").textContent),
    ).toBe(" الإيقاع: حتى هنا");
    // The graph keeps its layout; its text runs right to left from the node's right edge.
    const svg = container.querySelector("svg.pathway-graph")!;
    expect(svg.getAttribute("direction")).toBe("rtl");
    expect(first.querySelector(".k-node-title")?.getAttribute("x")).toBe("290");
    expect(first.querySelector("tspan")?.getAttribute("translate")).toBe("no");
    expect(first.querySelector("[data-status='done']")?.getAttribute("transform")).toBe("translate(290,30)");
    expect(first.querySelector("[data-status='done'] text")?.getAttribute("x")).toBe("-20");
    const text = document.body.textContent ?? "";
    for (const english of ["Pacing", "learners", "done", "upcoming", "Map", "Table"]) {
      expect(text).not.toContain(english);
    }
  });
});
