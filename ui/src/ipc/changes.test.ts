import { describe, expect, it } from "vitest";
import { storeChanged } from "../test-support/storeChanged";
import { changeTick, countChange, NO_CHANGES, PROGRESS } from "./changes";

describe("store change counters", () => {
  it("move a view's tick only for its kinds and its class", () => {
    let changes = NO_CHANGES;
    const grid = () => changeTick(changes, PROGRESS, "c1");
    const header = () => changeTick(changes, ["room"], "c1");
    const anyClass = () => changeTick(changes, PROGRESS);
    changes = countChange(changes, storeChanged(["c2"], ["results"]));
    expect([grid(), header(), anyClass()]).toEqual([0, 0, 1]);
    changes = countChange(changes, storeChanged(["c1"], ["room"]));
    expect([grid(), header(), anyClass()]).toEqual([0, 1, 1]);
    changes = countChange(changes, storeChanged(["c1"], ["results", "calls"]));
    expect([grid(), header(), anyClass()]).toEqual([2, 1, 3]);
    // The sidebar-only flag counts for nothing here.
    changes = countChange(changes, { ...storeChanged(["c1"], []), classes: true });
    expect([grid(), header(), anyClass()]).toEqual([2, 1, 3]);
  });

  it("count a coalesced event's kinds for every class it lists", () => {
    const changes = countChange(NO_CHANGES, storeChanged(["c1", "c2"], ["results", "room"]));
    expect(changeTick(changes, ["room"], "c1")).toBe(1);
    expect(changeTick(changes, ["room"], "c2")).toBe(1);
    expect(changeTick(changes, ["room"], "c3")).toBe(0);
  });

  it("never change the counters they were given", () => {
    const before = countChange(NO_CHANGES, storeChanged(["c1"], ["results"]));
    countChange(before, storeChanged(["c1"], ["results"]));
    expect(changeTick(before, PROGRESS, "c1")).toBe(1);
    expect(changeTick(NO_CHANGES, PROGRESS)).toBe(0);
  });
});
