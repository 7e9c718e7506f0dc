import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassViewIpc, GridView, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { ChangeFeed, ChangeFeedProvider } from "../../ipc/changes";
import { ProjectorSafeProvider } from "../../privacy/ProjectorSafe";
import { wholeGrid } from "../../test-support/fakeGrid";
import { writingHost } from "../../test-support/fakeOffers";
import { noRoomControls } from "../../test-support/fakeRoom";
import { storeChanged } from "../../test-support/storeChanged";
import { ClassPage } from "./ClassPage";
import { LiveGrid } from "./LiveGrid";

afterEach(cleanup);

/** The grid as the backend labels it: names, or (projector-safe, held by the backend) aliases. */
function grid(n: number, privacy?: { projector_safe: boolean }): GridView {
  const states = ["completed_correct", "waiting_for_help", "not_started", "struggling"] as const;
  return wholeGrid({
    assignment_id: "a1",
    pathway_id: "p",
    projector_safe: privacy?.projector_safe ?? false,
    idle_after_minutes: 5,
    steps: [
      { widget_id: "w1", title: "Compare fractions", kind: "fraction_compare", standard: "4.NF", assesses: true },
      { widget_id: "w2", title: "Reflect", kind: "reflection", standard: null, assesses: false },
    ],
    rows: Array.from({ length: n }, (_, i) => ({
      learner: privacy?.projector_safe ? null : `anon_${i}`,
      label: privacy?.projector_safe
        ? `Learner ${String(i + 1).padStart(2, "0")}`
        : i === 0
          ? "Ada Canary"
          : `anon_${i}`,
      current_step: null,
      quiet_ms: null,
      idle: false,
      cells: [
        { state: states[i % 4]!, completions: 1, incorrect: 0 },
        { state: "completed", completions: 1, incorrect: 0 },
      ],
    })),
  });
}

describe("the live grid", () => {
  it("names every cell by learner, step and state, and opens it", () => {
    const opened: string[] = [];
    render(<LiveGrid grid={grid(4)} onOpen={(l, w) => opened.push(`${l}/${w}`)} />);
    const cell = screen.getByRole("button", { name: "Ada Canary, Compare fractions: completed, correct" });
    // The state is an icon from the shipped set (no glyph a font may lack), hidden from screen readers.
    expect(cell.querySelector("svg[data-icon='completed_correct'][aria-hidden='true']")).not.toBeNull();
    expect(cell.textContent).toBe("");
    fireEvent.click(cell);
    expect(opened).toEqual(["anon_0/w1"]);
    const waiting = screen.getByRole("button", { name: "anon_1, Compare fractions: waiting for help" });
    expect(waiting.querySelector("svg[data-icon='waiting_for_help']")).not.toBeNull();
  });

  it("renders only a window of 1,000 rows and filters by state and step", () => {
    render(<LiveGrid grid={grid(1000)} onOpen={() => {}} />);
    const rendered = screen.getAllByRole("row").length;
    expect(rendered).toBeGreaterThan(2);
    expect(rendered).toBeLessThan(100);
    fireEvent.change(screen.getByLabelText(/^State/), { target: { value: "waiting_for_help" } });
    fireEvent.change(screen.getByLabelText(/^Step/), { target: { value: "0" } });
    expect(screen.getByTestId("grid-count").textContent).toBe("250 of 1000 learners");
    // Negative control: on the non-assessing step nobody waits.
    fireEvent.change(screen.getByLabelText(/^Step/), { target: { value: "1" } });
    expect(screen.getByTestId("grid-count").textContent).toBe("0 of 1000 learners");
  });
});

/** The rest of a class page's backend for the projector-safe tests: one assignment, nobody waiting. */
const oneAssignment = {
  needsMe: async () => [],
  assignments: async () => [
    {
      assignment_id: "a1",
      pathway_id: "p",
      pathway_title: "F",
      due_at_ms: null,
      note: null,
      created_at_ms: 0,
      started: 3,
    },
  ],
  ...noRoomControls,
};
const summary = { class_id: "c1", title: "Period 3", host: null, join_code: "QX7", learners: 3, open_requests: 0 };

/** Releases a held answer and gives the page time to (not) draw it. */
async function settleAfter(release: (() => void) | null) {
  await act(async () => {
    release?.();
    await Promise.resolve();
  });
  await new Promise((r) => setTimeout(r, 20));
}

describe("projector-safe mode", () => {
  it("switches the backend first, refetches, and shows no name", async () => {
    // The fake backend's mode: what `set_projector_safe` set, and each grid fetch's mode.
    let mode = false;
    const switched: boolean[] = [];
    const seen: boolean[] = [];
    const setMode = async (on: boolean) => {
      switched.push(on);
      mode = on;
      return on;
    };
    const classView: ClassViewIpc = {
      grid: async () => {
        seen.push(mode);
        return grid(3, { projector_safe: mode });
      },
      gridRows: async () => {
        throw new Error("projector-safe mode names no rows");
      },
      evidence: async () => ({
        label: "Ada Canary",
        learner: "anon_0",
        step_title: "Compare",
        results: [],
        struggles: [],
        open_requests: 0,
      }),
      mastery: async () => {
        throw new Error("unused");
      },
      needsMe: async () => [],
      timeline: async () => ({
        bucket_ms: 10000,
        starts_ms: [],
        completions: [],
        struggles: [],
        help_requests: [],
        other: [],
      }),
      catalog: async () => [],
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
      assign: async () => ({ assignment_id: null, field_errors: [] }),
      importRoster: async () => ({ imported: 0, errors: [] }),
      rosterSize: async () => 1,
      suppressionK: async () => 10,
      setSuppressionK: async (k) => k,
      ...noRoomControls,
    };
    const ipc = { classView, toUiError, hostOffers: writingHost } as unknown as TeacherIpc;
    const { container } = render(
      <ProjectorSafeProvider setMode={setMode}>
        <ClassPage ipc={ipc} summary={summary} />
      </ProjectorSafeProvider>,
    );
    await screen.findByText("Ada Canary");
    act(() => screen.getByTestId("projector-safe").click());
    await waitFor(() => expect(screen.queryByText("Ada Canary")).toBeNull());
    expect(container.innerHTML).not.toContain("Ada Canary");
    expect(container.innerHTML).not.toContain("anon_");
    expect(screen.getByText("Learner 01")).toBeTruthy();
    // The backend was switched before the grid was asked again.
    expect(switched).toEqual([true]);
    expect(seen.at(-1)).toBe(true);
    // Off and on again (the shortcut): names come back, then go again.
    act(() => {
      fireEvent.keyDown(window, { key: "P", ctrlKey: true, shiftKey: true });
    });
    await screen.findByText("Ada Canary");
    act(() => {
      fireEvent.keyDown(window, { key: "P", ctrlKey: true, shiftKey: true });
    });
    await waitFor(() => expect(screen.queryByText("Ada Canary")).toBeNull());
    expect(switched).toEqual([true, false, true]);
    expect(seen.filter((on) => on).length).toBeGreaterThanOrEqual(2);
  });

  it("never lets a slow answer from before the switch land after it", async () => {
    let mode = false;
    // The grid fetch started by a store change just before the switch: held until released.
    let release: (() => void) | null = null;
    let hold = false;
    const classView = {
      grid: async () => {
        const at = mode;
        if (hold) {
          hold = false;
          return new Promise<GridView>((resolve) => {
            release = () => resolve(grid(3, { projector_safe: at }));
          });
        }
        return grid(3, { projector_safe: at });
      },
      ...oneAssignment,
    } as unknown as ClassViewIpc;
    const ipc = { classView, toUiError, hostOffers: writingHost } as unknown as TeacherIpc;
    const setMode = async (on: boolean) => {
      mode = on;
      return on;
    };
    const feed = new ChangeFeed();
    const { container } = render(
      <ChangeFeedProvider value={feed}>
        <ProjectorSafeProvider setMode={setMode}>
          <ClassPage ipc={ipc} summary={summary} />
        </ProjectorSafeProvider>
      </ChangeFeedProvider>,
    );
    await screen.findByText("Ada Canary");
    // A store change starts a fetch (names) that is slow to answer...
    hold = true;
    act(() => feed.add(storeChanged([summary.class_id], ["results"])));
    await waitFor(() => expect(release).not.toBeNull());
    // ...the teacher switches to projector-safe mode, whose fetch answers first...
    act(() => screen.getByTestId("projector-safe").click());
    await screen.findByText("Learner 01");
    // ...and the slow answer, names and all, arrives last: it is dropped.
    await settleAfter(release);
    expect(container.innerHTML).not.toContain("Ada Canary");
    expect(screen.getByText("Learner 01")).toBeTruthy();
  });

  it("never opens a drill-down that was on its way when the switch came, then or after", async () => {
    let mode = false;
    let release: (() => void) | null = null;
    const classView = {
      grid: async () => grid(3, { projector_safe: mode }),
      evidence: async () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              label: "Ada Canary",
              learner: "anon_0",
              step_title: "Compare fractions",
              results: [],
              struggles: [],
              open_requests: 0,
            });
        }),
      ...oneAssignment,
    } as unknown as ClassViewIpc;
    const ipc = { classView, toUiError, hostOffers: writingHost } as unknown as TeacherIpc;
    const setMode = async (on: boolean) => {
      mode = on;
      return on;
    };
    const { container } = render(
      <ProjectorSafeProvider setMode={setMode}>
        <ClassPage ipc={ipc} summary={summary} />
      </ProjectorSafeProvider>,
    );
    // The teacher opens a cell; its detail (a name) is slow to come...
    fireEvent.click(await screen.findByRole("button", { name: "Ada Canary, Compare fractions: completed, correct" }));
    await waitFor(() => expect(release).not.toBeNull());
    // ...the projector goes on before it arrives...
    act(() => screen.getByTestId("projector-safe").click());
    await screen.findByText("Learner 01");
    // ...and when it does, no pane opens on the projected screen.
    await settleAfter(release);
    expect(screen.queryByTestId("evidence")).toBeNull();
    expect(container.innerHTML).not.toContain("Ada Canary");
    // Nor when the projector goes off: the teacher opens the cell again if they still want it.
    act(() => screen.getByTestId("projector-safe").click());
    await screen.findByText("Ada Canary");
    expect(screen.queryByTestId("evidence")).toBeNull();
  });
});

describe("live rows", () => {
  /** A class page over a fake backend that counts whole grids and row fetches. */
  function page() {
    let whole = grid(3);
    const asked: string[][] = [];
    let grids = 0;
    const classView = {
      grid: async () => {
        grids++;
        return whole;
      },
      gridRows: async (_c: string, _a: string, learners: string[]) => {
        asked.push(learners);
        return { ...whole, rows: whole.rows.filter((r) => learners.includes(r.learner ?? "")) };
      },
      ...oneAssignment,
    } as unknown as ClassViewIpc;
    const ipc = { classView, toUiError, hostOffers: writingHost } as unknown as TeacherIpc;
    const feed = new ChangeFeed();
    render(
      <ChangeFeedProvider value={feed}>
        <ProjectorSafeProvider setMode={async (on) => on}>
          <ClassPage ipc={ipc} summary={summary} />
        </ProjectorSafeProvider>
      </ChangeFeedProvider>,
    );
    const setRow = (i: number, state: GridView["rows"][number]["cells"][number]["state"]) => {
      whole = {
        ...whole,
        rows: whole.rows.map((r, j) =>
          j === i ? { ...r, cells: [{ state, completions: 0, incorrect: 0 }, r.cells[1]!] } : r,
        ),
      };
    };
    return { feed, asked, grids: () => grids, setRow };
  }

  it("refetches only the rows a change names, and draws them in place", async () => {
    const p = page();
    await screen.findByRole("button", { name: "anon_2, Compare fractions: not started" });
    expect(p.grids()).toBe(1);
    p.setRow(2, "struggling");
    p.setRow(1, "completed_incorrect");
    act(() =>
      p.feed.add({
        ...storeChanged([summary.class_id], ["results"]),
        rows: [{ class_id: "c1", learners: ["anon_2"] }],
      }),
    );
    await screen.findByRole("button", { name: "anon_2, Compare fractions: struggling" });
    expect(p.asked).toEqual([["anon_2"]]);
    expect(p.grids()).toBe(1);
    // The row not named keeps what was drawn (the backend changed it, the change did not say so).
    expect(screen.getByRole("button", { name: "anon_1, Compare fractions: waiting for help" })).toBeTruthy();
    // Negative control: a change that names no rows reloads the whole grid, which shows it.
    act(() => p.feed.add(storeChanged([summary.class_id], ["results"])));
    await screen.findByRole("button", { name: "anon_1, Compare fractions: completed, incorrect" });
    expect(p.grids()).toBe(2);
    expect(p.asked).toHaveLength(1);
  });

  it("counts a change with no rows of this class as nothing to refetch for it", async () => {
    const p = page();
    await screen.findByRole("button", { name: "anon_2, Compare fractions: not started" });
    act(() =>
      p.feed.add({ ...storeChanged([summary.class_id], ["results"]), rows: [{ class_id: "c1", learners: [] }] }),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(p.grids()).toBe(1);
    expect(p.asked).toEqual([]);
  });
});

describe("a class bigger than a page", () => {
  it("pages through it by cursor, with the class totals, and back", async () => {
    // Six learners in pages of two: the fake backend pages as the core does (id order, cursor).
    const all = grid(6);
    const asked: (string | null)[] = [];
    const classView = {
      grid: async (_c: string, _a: string, after: string | null) => {
        asked.push(after);
        const start = after === null ? 0 : all.rows.findIndex((r) => r.learner === after) + 1;
        const rows = all.rows.slice(start, start + 2);
        const more = start + 2 < all.rows.length;
        return { ...all, rows, paged: true, next_after: more ? (rows.at(-1)?.learner ?? null) : null };
      },
      gridRows: async () => {
        throw new Error("no rows are named in this test");
      },
      ...oneAssignment,
    } as unknown as ClassViewIpc;
    const ipc = { classView, toUiError, hostOffers: writingHost } as unknown as TeacherIpc;
    render(
      <ProjectorSafeProvider setMode={async (on) => on}>
        <ClassPage ipc={ipc} summary={summary} />
      </ProjectorSafeProvider>,
    );
    const pager = await screen.findByTestId("grid-pager");
    expect(pager.textContent).toContain("2 of 6 learners on this page");
    // The footer counts the class, not the page: 6 learners, of whom the first step's totals.
    expect(screen.getByTestId("grid-totals").textContent).toContain("Totals (6)");
    expect(screen.getByRole("button", { name: "Previous page" })).toHaveProperty("disabled", true);
    act(() => screen.getByRole("button", { name: "Next page" }).click());
    await screen.findByRole("button", { name: "anon_2, Compare fractions: not started" });
    expect(screen.queryByRole("button", { name: /^Ada Canary,/ })).toBeNull();
    act(() => screen.getByRole("button", { name: "Next page" }).click());
    await screen.findByRole("button", { name: /^anon_5, Compare fractions/ });
    // The last page: no next.
    expect(screen.getByRole("button", { name: "Next page" })).toHaveProperty("disabled", true);
    act(() => screen.getByRole("button", { name: "Previous page" }).click());
    await screen.findByRole("button", { name: "anon_2, Compare fractions: not started" });
    expect(asked).toEqual([null, "anon_1", "anon_3", "anon_1"]);
  });
});
