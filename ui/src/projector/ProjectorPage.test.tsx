import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ProjectorIpc, ProjectorView } from "../ipc";
import { toUiError } from "../ipc";
import { ProjectorPage } from "./ProjectorPage";

afterEach(cleanup);

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
            { label: "Response A", text: "<img src=x onerror=alert(1)> 3/4" },
            { label: "Response B", text: "2/3 < 3/4" },
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
