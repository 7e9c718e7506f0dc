import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../i18n";
import type { MasteryCellView, ProjectorIpc, ProjectorView } from "../ipc";
import { toUiError } from "../ipc";
import { ProjectorPage } from "./ProjectorPage";

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
});

const view = (shown: ProjectorView["shown_work"]): ProjectorView => ({
  learners: 12,
  pathways: [],
  mastery: [],
  knowledge: [],
  pathway_map: [],
  k: 5,
  waiting_for_help: 0,
  help_queue: [],
  shown_work: shown,
});

const ipc = (v: ProjectorView): ProjectorIpc => ({
  view: async () => v,
  // As the real one: the handler runs once at subscription, then on each change.
  onStoreChanged: (handler) => {
    handler();
    return () => {};
  },
  toUiError,
});

describe("the projector's shown work", () => {
  it("shows each picked response under its letter, as text", async () => {
    render(
      <ProjectorPage
        ipc={ipc(
          view([
            { letter: "A", text: "<img src=x onerror=alert(1)> 3/4" },
            { letter: "B", text: "2/3 < 3/4" },
          ]),
        )}
      />,
    );
    const work = await screen.findByTestId("projector-work");
    expect(work.querySelectorAll("li")).toHaveLength(2);
    expect(work.textContent).toContain("Response A");
    expect(work.textContent).toContain("<img src=x onerror=alert(1)> 3/4");
    expect(document.querySelector("img")).toBeNull();
  });

  it("has no work section when nothing is picked", async () => {
    render(<ProjectorPage ipc={ipc(view([]))} />);
    expect(await screen.findByRole("heading", { name: /Our class: 12 learners/ })).toBeTruthy();
    expect(screen.queryByTestId("projector-work")).toBeNull();
  });
});

const cell = (standard: string | null, over: Partial<MasteryCellView>): MasteryCellView => ({
  standard,
  visibility: "shown",
  not_enough_evidence: false,
  results: null,
  checked: null,
  correct: null,
  attempts: null,
  hints: null,
  learners: null,
  summary: "RUST SUMMARY",
  ...over,
});

/** A room with every table: a standard shown, one too small, the steps without a standard. */
const room: ProjectorView = {
  ...view([{ letter: "A", text: "3/4" }]),
  mastery: [
    cell("4.NF.A.1", { checked: 8, correct: 6, learners: 8 }),
    cell("4.NF.A.2", { visibility: "primary" }),
    cell(null, { visibility: "complementary" }),
  ],
  knowledge: [
    {
      title: "Compare fractions",
      states: [
        { state: "known", label: "RUST LABEL", count: 7, visibility: "shown", shown: "RUST SHOWN" },
        { state: "missed", label: "RUST LABEL", count: null, visibility: "primary", shown: "RUST SHOWN" },
      ],
    },
  ],
  pathway_map: [
    {
      title: "Fractions",
      up_to_step: null,
      steps: [
        {
          title: "Compare",
          pacing_limit: false,
          states: [
            { status: "done", label: "RUST LABEL", count: 9, visibility: "shown", shown: "RUST SHOWN" },
            { status: "current", label: "RUST LABEL", count: null, visibility: "complementary", shown: "RUST SHOWN" },
          ],
        },
      ],
    },
  ],
};

describe("the projector's tables", () => {
  it("says mastery, states and counts in its own words, never the backend's", async () => {
    render(<ProjectorPage ipc={ipc(room)} />);
    const page = await screen.findByTestId("projector");
    const mastery = page.querySelectorAll(".projector-mastery tbody")[0]!;
    expect([...mastery.querySelectorAll("tr")].map((r) => r.textContent)).toEqual([
      "4.NF.A.16 of 8 correct",
      "4.NF.A.2fewer than 5",
      "Other stepshidden (protects a small group)",
    ]);
    const knowledge = screen.getByTestId("projector-knowledge");
    expect(knowledge.querySelector("thead")?.textContent).toBe("Standardknownmissed");
    expect(knowledge.querySelector("tbody")?.textContent).toBe("Compare fractions7fewer than 5");
    const map = screen.getByTestId("projector-pathway-map");
    expect(map.querySelector("thead")?.textContent).toBe("StepDoneCurrent");
    expect(map.querySelector("tbody")?.textContent).toBe("1. Compare9hidden (protects a small group)");
    expect(screen.getByTestId("projector-work").textContent).toContain("Response A");
    expect(page.textContent).not.toMatch(/RUST/);
  });

  it("speaks the teacher's language", async () => {
    setLanguageChoice("es");
    render(<ProjectorPage ipc={ipc(room)} />);
    const page = await screen.findByTestId("projector");
    expect(page.textContent).toContain("Otros pasos");
    expect(page.textContent).toContain("Respuesta A");
    expect(page.textContent).toContain("menos de 5");
    expect(page.textContent).not.toContain("Other steps");
    expect(page.textContent).not.toContain("Response A");
  });
});
