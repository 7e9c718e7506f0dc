import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { PickedResponse } from "../../ipc";
import { IpcError } from "../../ipc";
import { ProjectorSafeContext } from "../../privacy/ProjectorSafe";
import { ShownWorkPanel, ShownWorkProvider, ShowWorkToggle } from "./ShownWork";

afterEach(cleanup);

/** The core's picks in small: a response naming "Quillon" is refused with the word. */
function fakeShownWork() {
  let picks: string[] = [];
  const list = (): PickedResponse[] => picks.map((text) => ({ text }));
  return {
    showWorkPicked: async () => list(),
    showWorkPick: async (_c: string, text: string) => {
      if (text.includes("Quillon")) {
        throw new IpcError({
          code: "text_blocked",
          message: "Not shown: this response contains “Quillon”, a name from a class roster.",
        });
      }
      if (!picks.includes(text)) picks = [...picks, text];
      return list();
    },
    showWorkUnpick: async (_c: string, text: string) => {
      picks = picks.filter((t) => t !== text);
      return list();
    },
    showWorkClear: async () => {
      picks = [];
    },
  };
}

function page(errors: string[], safe = false) {
  return (
    <ProjectorSafeContext.Provider value={safe}>
      <ShownWorkProvider ipc={fakeShownWork()} classId="c1" onError={(m) => errors.push(m)}>
        <ShownWorkPanel />
        <ul>
          <li>
            3/4 <ShowWorkToggle text="3/4" />
          </li>
          <li>
            Quillon said 2/3 <ShowWorkToggle text="Quillon said 2/3" />
          </li>
        </ul>
      </ShownWorkProvider>
    </ProjectorSafeContext.Provider>
  );
}

describe("students' work on show", () => {
  it("picks a response, lists it with a way down, and takes everything down in one click", async () => {
    const errors: string[] = [];
    render(page(errors));
    const [first] = await screen.findAllByTestId("show-work-toggle");
    fireEvent.click(first!);
    await waitFor(() => expect(first?.getAttribute("aria-pressed")).toBe("true"));
    expect(screen.getByTestId("shown-work").textContent).toContain("3/4");
    fireEvent.click(screen.getByTestId("shown-work-clear"));
    await waitFor(() => expect(screen.queryByTestId("shown-work")).toBeNull());
    expect(first?.getAttribute("aria-pressed")).toBe("false");
    expect(errors).toEqual([]);
  });

  it("shows the refusal of a response that names a classmate, with the word, and shows nothing", async () => {
    const errors: string[] = [];
    render(page(errors));
    const toggles = await screen.findAllByTestId("show-work-toggle");
    fireEvent.click(toggles[1]!);
    await waitFor(() => expect(errors).toHaveLength(1));
    expect(errors[0]).toContain("“Quillon”");
    expect(screen.queryByTestId("shown-work")).toBeNull();
    expect(toggles[1]?.getAttribute("aria-pressed")).toBe("false");
  });

  it("offers no toggle in projector-safe mode", async () => {
    render(page([], true));
    // The page rendered (its list is there) but without the toggles.
    expect(await screen.findByText(/Quillon said/)).toBeTruthy();
    expect(screen.queryByTestId("show-work-toggle")).toBeNull();
  });
});
