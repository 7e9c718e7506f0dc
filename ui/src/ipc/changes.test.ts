import { describe, expect, it } from "vitest";
import { storeChanged } from "../test-support/storeChanged";
import { ChangeFeed, changeTick, countChange, MAX_PENDING_ROWS, NO_CHANGES, PROGRESS } from "./changes";

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

describe("rows a change named", () => {
  it("gathers per class until taken, and every row when a change named none", () => {
    const feed = new ChangeFeed();
    const named = (learners: string[]) => ({
      ...storeChanged(["c1", "c2"], ["results"]),
      rows: [{ class_id: "c1", learners }],
    });
    feed.add(named(["anon_a"]));
    feed.add(named(["anon_b", "anon_a"]));
    expect(feed.takeRows("c1")).toEqual(new Set(["anon_a", "anon_b"]));
    expect(feed.takeRows("c1")).toBeUndefined();
    // Class c2 was in the changes but named no rows: all of them.
    expect(feed.takeRows("c2")).toBe("all");
    // A room change is not about rows: nothing to take.
    feed.add(storeChanged(["c1"], ["room"]));
    expect(feed.takeRows("c1")).toBeUndefined();
    // Too many to name: every row.
    feed.add(named(Array.from({ length: MAX_PENDING_ROWS + 1 }, (_, i) => `anon_${i}`)));
    expect(feed.takeRows("c1")).toBe("all");
    // Once "all", a later named change keeps it "all".
    feed.add(storeChanged(["c1"], ["calls"]));
    feed.add(named(["anon_a"]));
    expect(feed.takeRows("c1")).toBe("all");
  });
});
