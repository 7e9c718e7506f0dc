import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { clockTime } from "../../format";
import type { FreshnessView } from "../../ipc";
import { Freshness, freshnessLine } from "./Freshness";

afterEach(cleanup);

const at = Date.UTC(2026, 11, 5, 10, 42, 5);

describe("the freshness line", () => {
  it("says all work up to the newest is received, and how long ago the host was heard", () => {
    const v: FreshnessView = { state: "current", newest_work_ms: at, last_heard_ms: at + 1_000 };
    const line = freshnessLine(v, at + 4_000);
    expect(line).toEqual({ text: `All work up to ${clockTime(at)} received · 3 s ago`, warning: false });
  });

  it("turns to a warning when the host does not answer, the token is refused, or the feed is behind", () => {
    const v = (state: FreshnessView["state"]): FreshnessView => ({ state, newest_work_ms: at, last_heard_ms: at });
    expect(freshnessLine(v("unreachable"), at)).toEqual({
      text: `Showing work up to ${clockTime(at)} — host not answering`,
      warning: true,
    });
    expect(freshnessLine(v("token_refused"), at).text).toMatch(/refused the token$/);
    expect(freshnessLine(v("behind"), at).text).toMatch(/catching up/);
    expect(freshnessLine({ state: "unreachable", newest_work_ms: null, last_heard_ms: null }, at).text).toBe(
      "No work received yet — host not answering",
    );
  });

  it("shows the core's view in the header, as a warning when it is one", async () => {
    let state: FreshnessView["state"] = "current";
    const ipc = { freshness: async () => ({ state, newest_work_ms: at, last_heard_ms: Date.now() }) };
    const { rerender } = render(<Freshness ipc={ipc} classId="c1" changeTick={0} />);
    const line = await screen.findByTestId("freshness");
    expect(line.textContent).toContain(`All work up to ${clockTime(at)} received`);
    expect(line.getAttribute("data-state")).toBe("current");
    state = "unreachable";
    rerender(<Freshness ipc={ipc} classId="c1" changeTick={1} />);
    await screen.findByText(/host not answering/);
    expect(screen.getByTestId("freshness").className).toContain("freshness-warning");
  });
});
