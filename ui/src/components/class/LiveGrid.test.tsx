import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { ClassViewIpc, GridView, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { ProjectorSafeProvider } from "../../privacy/ProjectorSafe";
import { wholeGrid } from "../../test-support/fakeGrid";
import { writingHost } from "../../test-support/fakeOffers";
import { noRoomControls } from "../../test-support/fakeRoom";
import { ClassPage } from "./ClassPage";
import { LiveGrid } from "./LiveGrid";

afterEach(cleanup);

/** Three steps by `n` learners; learners are null (no drill-down) when `safe`. */
function grid(n: number, safe = false): GridView {
  return wholeGrid({
    assignment_id: "a1",
    pathway_id: "p",
    projector_safe: safe,
    idle_after_minutes: 5,
    steps: [
      { widget_id: "w1", title: "Compare fractions", kind: "fraction_compare", standard: "4.NF", assesses: true },
      { widget_id: "w2", title: "Explain your reasoning", kind: "reflection", standard: null, assesses: false },
      { widget_id: "w3", title: "Order fractions", kind: "order", standard: "4.NF", assesses: true },
    ],
    rows: Array.from({ length: n }, (_, i) => ({
      learner: safe ? null : `anon_${i}`,
      label: safe ? `Learner ${i + 1}` : `anon_${i}`,
      current_step: null,
      quiet_ms: null,
      idle: false,
      cells: [
        { state: "completed_correct", completions: 1, incorrect: 0 },
        { state: "waiting_for_help", completions: 0, incorrect: 0 },
        { state: "not_started", completions: 0, incorrect: 0 },
      ],
    })),
  });
}

const cells = () => [...document.querySelectorAll<HTMLButtonElement>("[role=grid] button.cell")];
const tabStops = () => cells().filter((c) => c.tabIndex === 0);
const focused = () => (document.activeElement as HTMLElement | null)?.getAttribute("aria-label");
const press = (key: string, init: Partial<KeyboardEventInit> = {}) =>
  act(() => {
    fireEvent.keyDown(document.activeElement ?? document.body, { key, ...init });
  });

describe("the live grid's keyboard", () => {
  it("is one tab stop, and arrow keys move the focus and the tab stop between cells", () => {
    render(<LiveGrid grid={grid(5)} onOpen={() => {}} />);
    expect(cells().length).toBe(15);
    expect(tabStops().map((c) => c.getAttribute("aria-label"))).toEqual([
      "anon_0, Compare fractions: completed, correct",
    ]);
    act(() => tabStops()[0]!.focus());
    press("ArrowRight");
    expect(focused()).toBe("anon_0, Explain your reasoning: waiting for help");
    press("ArrowDown");
    press("ArrowDown");
    expect(focused()).toBe("anon_2, Explain your reasoning: waiting for help");
    press("ArrowLeft");
    expect(focused()).toBe("anon_2, Compare fractions: completed, correct");
    press("ArrowUp");
    expect(focused()).toBe("anon_1, Compare fractions: completed, correct");
    // Still exactly one tab stop, and it is the focused cell.
    expect(tabStops()).toEqual([document.activeElement]);
  });

  it("stops at the edges (no wrap, no leaving the grid)", () => {
    render(<LiveGrid grid={grid(3)} onOpen={() => {}} />);
    act(() => tabStops()[0]!.focus());
    press("ArrowLeft");
    press("ArrowUp");
    expect(focused()).toBe("anon_0, Compare fractions: completed, correct");
    press("End");
    press("ArrowRight");
    expect(focused()).toBe("anon_0, Order fractions: not started");
    press("ArrowDown");
    press("ArrowDown");
    press("ArrowDown");
    expect(focused()).toBe("anon_2, Order fractions: not started");
  });

  it("Home / End go along the row; with Ctrl to the first / last cell; PageDown by ten rows", () => {
    render(<LiveGrid grid={grid(30)} onOpen={() => {}} />);
    act(() => tabStops()[0]!.focus());
    press("ArrowDown");
    press("End");
    expect(focused()).toBe("anon_1, Order fractions: not started");
    press("Home");
    expect(focused()).toBe("anon_1, Compare fractions: completed, correct");
    press("PageDown");
    expect(focused()).toBe("anon_11, Compare fractions: completed, correct");
    press("End", { ctrlKey: true });
    expect(focused()).toBe("anon_29, Order fractions: not started");
    press("Home", { ctrlKey: true });
    expect(focused()).toBe("anon_0, Compare fractions: completed, correct");
  });

  it("Enter opens the focused cell; other keys neither move nor open", () => {
    const opened: string[] = [];
    render(<LiveGrid grid={grid(3)} onOpen={(l, w) => opened.push(`${l}/${w}`)} />);
    act(() => tabStops()[0]!.focus());
    press("ArrowDown");
    press("ArrowRight");
    press("Enter");
    expect(opened).toEqual(["anon_1/w2"]);
    // Negative controls: letters, Escape and modified arrows do nothing to the grid.
    press("a");
    press("Escape");
    press("ArrowDown", { altKey: true });
    expect(focused()).toBe("anon_1, Explain your reasoning: waiting for help");
    expect(opened).toEqual(["anon_1/w2"]);
  });

  it("in projector-safe mode the grid is still navigable, but Enter opens nothing", () => {
    const opened: string[] = [];
    render(<LiveGrid grid={grid(3, true)} onOpen={(l, w) => opened.push(`${l}/${w}`)} />);
    expect(tabStops().length).toBe(1);
    act(() => tabStops()[0]!.focus());
    press("ArrowDown");
    expect(focused()).toBe("Learner 2, Compare fractions: completed, correct");
    expect(document.activeElement?.getAttribute("aria-disabled")).toBe("true");
    press("Enter");
    fireEvent.click(document.activeElement as HTMLElement);
    expect(opened).toEqual([]);
  });

  it("truncated column headers carry the full title, shown whole while their column has focus", () => {
    render(<LiveGrid grid={grid(2)} onOpen={() => {}} />);
    const heads = screen.getAllByTestId("column-header");
    expect(heads.map((h) => h.getAttribute("title"))).toEqual([
      "1. Compare fractions (4.NF)",
      "2. Explain your reasoning",
      "3. Order fractions (4.NF)",
    ]);
    expect(heads.some((h) => h.classList.contains("is-focused"))).toBe(false);
    act(() => tabStops()[0]!.focus());
    press("ArrowRight");
    expect(heads.map((h) => h.classList.contains("is-focused"))).toEqual([false, true, false]);
  });
});

describe("the live grid in another language", () => {
  afterEach(() => {
    setLanguageChoice("en");
  });

  it("speaks Spanish: controls, legend, cell names and totals come from the catalog", () => {
    setLanguageChoice("es");
    render(<LiveGrid grid={grid(2)} onOpen={() => {}} />);
    expect(screen.getByRole("grid", { name: "Estudiantes por paso" })).toBeTruthy();
    expect(screen.queryByRole("grid", { name: "Learners by step" })).toBeNull();
    expect(screen.getByRole("list", { name: "Leyenda" }).textContent).toContain("esperando ayuda");
    expect(screen.queryByText("Legend")).toBeNull();
    expect(screen.getByTestId("grid-count").textContent).toBe("2 de 2 estudiantes");
    expect(tabStops()[0]!.getAttribute("aria-label")).toBe("anon_0, Compare fractions: completado, correcto");
    expect(screen.getByTestId("grid-totals").textContent).toContain("Totales (2)");
    expect(document.body.textContent).not.toMatch(/Totals|waiting for help|Sort by needs attention/);
  });

  it("in Arabic (right to left) ArrowLeft goes to the next step and ArrowRight back", () => {
    setLanguageChoice("ar");
    render(<LiveGrid grid={grid(3)} onOpen={() => {}} />);
    const at = () => {
      const el = document.activeElement as HTMLElement;
      return [Number(el.closest<HTMLElement>("[role=row]")?.dataset.row), Number(el.dataset.col)];
    };
    act(() => tabStops()[0]!.focus());
    expect(at()).toEqual([0, 0]);
    press("ArrowLeft");
    expect(at()).toEqual([0, 1]);
    press("ArrowLeft");
    expect(at()).toEqual([0, 2]);
    // The last step is the left edge: no further.
    press("ArrowLeft");
    expect(at()).toEqual([0, 2]);
    press("ArrowRight");
    expect(at()).toEqual([0, 1]);
    // Up and down, Home and End are not about direction.
    press("ArrowDown");
    expect(at()).toEqual([1, 1]);
    press("End");
    expect(at()).toEqual([1, 2]);
    press("Home");
    expect(at()).toEqual([1, 0]);
    // Negative control: at the first step, ArrowRight (backwards in Arabic) stays put.
    press("ArrowRight");
    expect(at()).toEqual([1, 0]);
    // Back in English, ArrowRight goes forward again.
    setLanguageChoice("en");
    press("ArrowRight");
    expect(at()).toEqual([1, 1]);
  });
});

/** A class page over a fake backend; commands this test does not know never answer. */
function classPage() {
  const known: Partial<ClassViewIpc> = {
    grid: async () => grid(3),
    evidence: async () => ({
      label: "anon_1",
      learner: "anon_1",
      step_title: "Explain your reasoning",
      results: [],
      struggles: [],
      open_requests: 1,
    }),
    assignments: async () => [
      {
        assignment_id: "a1",
        pathway_id: "p",
        pathway_title: "Fractions",
        due_at_ms: null,
        note: null,
        created_at_ms: 0,
        started: 3,
      },
    ],
    ...noRoomControls,
  };
  const classView = new Proxy(known, {
    get: (target, prop: string) => target[prop as keyof ClassViewIpc] ?? (() => new Promise(() => {})),
  }) as ClassViewIpc;
  const ipc = { classView, toUiError, hostOffers: writingHost, openProjector: async () => {} } as unknown as TeacherIpc;
  const summary = { class_id: "c1", title: "Period 3", host: null, join_code: "QX7", learners: 3, open_requests: 1 };
  return render(
    <ProjectorSafeProvider setMode={async (on) => on}>
      <ClassPage ipc={ipc} summary={summary} />
    </ProjectorSafeProvider>,
  );
}

describe("the evidence pane and the keyboard", () => {
  it("Enter opens the evidence, Escape closes it and focus stays on the cell", async () => {
    classPage();
    await screen.findByText("anon_0");
    act(() => tabStops()[0]!.focus());
    press("ArrowDown");
    press("ArrowRight");
    press("Enter");
    await screen.findByTestId("evidence");
    // Focus moved into the pane (its Close button): Escape still closes it, back to the cell.
    act(() => screen.getByRole("button", { name: "Close" }).focus());
    press("Escape");
    await waitFor(() => expect(screen.queryByTestId("evidence")).toBeNull());
    expect(focused()).toBe("anon_1, Explain your reasoning: waiting for help");
  });

  it("Escape does nothing when no pane is open, and a key taken by a dialog does not close it", async () => {
    classPage();
    await screen.findByText("anon_0");
    act(() => tabStops()[0]!.focus());
    press("Escape");
    expect(focused()).toBe("anon_0, Compare fractions: completed, correct");
    press("Enter");
    await screen.findByTestId("evidence");
    // Negative control: an Escape something in front already handled (preventDefault) is left alone.
    act(() => {
      const e = new KeyboardEvent("keydown", { key: "Escape", bubbles: true, cancelable: true });
      e.preventDefault();
      window.dispatchEvent(e);
    });
    expect(screen.queryByTestId("evidence")).not.toBeNull();
  });
});
