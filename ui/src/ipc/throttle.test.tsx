import { act, renderHook } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { throttled, useThrottledTick } from "./throttle";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

/** Lets the task's promise chain settle under fake timers. */
async function settle() {
  await act(async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  });
}

describe("throttled", () => {
  it("runs a lone ask at once, and a burst as one more run at the window's end", async () => {
    let runs = 0;
    const t = throttled(async () => {
      runs++;
    }, 1000);
    t.ask();
    await settle();
    expect(runs).toBe(1);
    for (let i = 0; i < 50; i++) t.ask();
    await settle();
    expect(runs).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    await settle();
    expect(runs).toBe(2);
    // Nothing asked since: nothing runs (control for the merge above).
    await act(async () => {
      vi.advanceTimersByTime(5000);
    });
    await settle();
    expect(runs).toBe(2);
    // After a quiet spell, at once again.
    t.ask();
    await settle();
    expect(runs).toBe(3);
    t.stop();
  });

  it("never runs two at once: an ask during a slow run waits for it", async () => {
    let inFlight = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const t = throttled(
      () =>
        new Promise<void>((resolve) => {
          inFlight++;
          most = Math.max(most, inFlight);
          releases.push(() => {
            inFlight--;
            resolve();
          });
        }),
      10,
    );
    t.ask();
    await settle();
    await act(async () => {
      vi.advanceTimersByTime(50);
    });
    t.ask();
    t.ask();
    await settle();
    expect(releases).toHaveLength(1);
    releases[0]!();
    await settle();
    expect(releases).toHaveLength(2);
    releases[1]!();
    await settle();
    expect(most).toBe(1);
    t.stop();
  });
});

describe("useThrottledTick", () => {
  it("moves at once after a quiet spell, then at most once per window, ending on the last tick", async () => {
    const { result, rerender } = renderHook(({ tick }) => useThrottledTick(tick, 1000), {
      initialProps: { tick: 0 },
    });
    expect(result.current).toBe(0);
    rerender({ tick: 1 });
    expect(result.current).toBe(1);
    rerender({ tick: 2 });
    rerender({ tick: 3 });
    expect(result.current).toBe(1);
    await act(async () => {
      vi.advanceTimersByTime(1000);
    });
    expect(result.current).toBe(3);
  });
});
