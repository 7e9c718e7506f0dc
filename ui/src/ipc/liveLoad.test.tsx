import { act, cleanup, renderHook, waitFor } from "@testing-library/react";
import { useState } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { useLiveLoad } from "./liveLoad";

afterEach(cleanup);

/** A backend whose answers the test releases by hand, counting loads in flight. */
function slowBackend() {
  const pending: { key: string; n: number; resolve: (v: string) => void }[] = [];
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    pending,
    get calls() {
      return calls;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    fetch(key: string): Promise<string> {
      calls++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const n = calls;
      return new Promise<string>((resolve) => pending.push({ key, n, resolve })).finally(() => {
        inFlight--;
      });
    },
    /** Answers the oldest load with what its key showed at its call. */
    async answerNext() {
      const next = pending.shift();
      if (!next) throw new Error("no load waiting");
      await act(async () => {
        next.resolve(`${next.key}#${next.n}`);
      });
    },
  };
}

function useView(backend: ReturnType<typeof slowBackend>, key: string, tick: number) {
  const [shown, setShown] = useState<string | null>(null);
  useLiveLoad((keep) => backend.fetch(key).then(keep(setShown)), [key], tick);
  return shown;
}

describe("a live load", () => {
  it("keeps landing answers when store changes come faster than a load", async () => {
    const backend = slowBackend();
    const { result, rerender } = renderHook(({ tick }) => useView(backend, "c1", tick), {
      initialProps: { tick: 0 },
    });
    const seen: string[] = [];
    // Every load is overtaken by a change before it answers (a busy class on a loaded machine).
    for (let tick = 1; tick <= 6; tick++) {
      await waitFor(() => expect(backend.pending.length).toBe(1));
      rerender({ tick });
      await backend.answerNext();
      if (result.current) seen.push(result.current);
    }
    // Each answer landed, newer than the last: the view never froze.
    expect(seen).toEqual(["c1#1", "c1#2", "c1#3", "c1#4", "c1#5", "c1#6"]);
    expect(backend.maxInFlight).toBe(1);
  });

  it("asks once more after a load, however many changes came during it", async () => {
    const backend = slowBackend();
    const { result, rerender } = renderHook(({ tick }) => useView(backend, "c1", tick), {
      initialProps: { tick: 0 },
    });
    await waitFor(() => expect(backend.pending.length).toBe(1));
    for (let tick = 1; tick <= 5; tick++) rerender({ tick });
    await backend.answerNext();
    await waitFor(() => expect(backend.pending.length).toBe(1));
    await backend.answerNext();
    expect(result.current).toBe("c1#2");
    // Control: no change since, no load.
    await new Promise((r) => setTimeout(r, 20));
    expect(backend.calls).toBe(2);
    expect(backend.pending.length).toBe(0);
  });

  it("drops what a load for the old key returns, whenever it returns", async () => {
    const backend = slowBackend();
    const { result, rerender } = renderHook(({ key }) => useView(backend, key, 0), {
      initialProps: { key: "names" },
    });
    await waitFor(() => expect(backend.pending.length).toBe(1));
    // The key changes (projector-safe mode went on) while the old load is on its way: the new
    // key's load starts at once, without waiting for the old one.
    rerender({ key: "aliases" });
    await waitFor(() => expect(backend.pending.length).toBe(2));
    // The old answer arrives first: dropped. The new one lands.
    await backend.answerNext();
    expect(result.current).toBeNull();
    await backend.answerNext();
    expect(result.current).toBe("aliases#2");
  });

  it("reloads on demand through the same queue", async () => {
    const backend = slowBackend();
    const { result } = renderHook(() => {
      const [shown, setShown] = useState<string | null>(null);
      const reload = useLiveLoad((keep) => backend.fetch("c1").then(keep(setShown)), ["c1"], 0);
      return { shown, reload };
    });
    await waitFor(() => expect(backend.pending.length).toBe(1));
    act(() => result.current.reload());
    // Asked during a load: it waits for that load.
    expect(backend.pending.length).toBe(1);
    await backend.answerNext();
    await waitFor(() => expect(backend.pending.length).toBe(1));
    await backend.answerNext();
    expect(result.current.shown).toBe("c1#2");
  });
});
