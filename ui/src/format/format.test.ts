import { describe, expect, it } from "vitest";
import { dateTime, span } from ".";

describe("the window's words for times and counts", () => {
  it("says spans of time in the largest unit that fits", () => {
    expect(span(44_600)).toBe("45 s");
    expect(span(3 * 60_000 + 20_000)).toBe("3 min");
    expect(span(65 * 60_000)).toBe("1 h 5 min");
    expect(span(120 * 60_000)).toBe("2 h");
    expect(span(-5)).toBe("0 s");
  });

  it("shows times in the teacher's zone, never as a UTC stamp", () => {
    const text = dateTime(Date.UTC(2026, 11, 1, 14, 5));
    expect(text).not.toMatch(/UTC|Z$|T\d\d:/);
    expect(text).toMatch(/2026/);
    expect(dateTime(null)).toBe("—");
  });
});
