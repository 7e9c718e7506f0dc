import { afterEach, describe, expect, it, vi } from "vitest";
import { applyTheme, followTheme, setThemeChoice, storedThemeChoice, THEME_STORAGE_KEY } from "./theme";

/** A fake OS: which media queries match. */
function os(matching: string[]) {
  const listeners = new Set<() => void>();
  vi.stubGlobal("matchMedia", (q: string) => ({
    matches: matching.includes(q),
    media: q,
    addEventListener: (_: string, f: () => void) => listeners.add(f),
    removeEventListener: (_: string, f: () => void) => listeners.delete(f),
  }));
  return {
    set(next: string[]) {
      matching.splice(0, matching.length, ...next);
      for (const f of listeners) f();
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  delete document.documentElement.dataset.theme;
});

describe("the theme", () => {
  it("follows the OS by default: dark scheme, more contrast, and changes as they change", () => {
    const system = os(["(prefers-color-scheme: dark)"]);
    const stop = followTheme();
    expect(document.documentElement.dataset.theme).toBe("dark");
    system.set(["(prefers-color-scheme: dark)", "(prefers-contrast: more)"]);
    expect(document.documentElement.dataset.theme).toBe("high-contrast");
    system.set([]);
    expect(document.documentElement.dataset.theme).toBe("light");
    stop();
  });

  it("an override in Settings is stored and wins over the OS; 'system' gives control back", () => {
    const system = os([]);
    const stop = followTheme();
    setThemeChoice("dark");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBe("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    // Negative control: the OS asking for more contrast does not override the teacher's choice.
    system.set(["(prefers-contrast: more)"]);
    expect(document.documentElement.dataset.theme).toBe("dark");
    // A restart reads it back.
    expect(storedThemeChoice()).toBe("dark");
    setThemeChoice("system");
    expect(localStorage.getItem(THEME_STORAGE_KEY)).toBeNull();
    expect(document.documentElement.dataset.theme).toBe("high-contrast");
    stop();
  });

  it("ignores a stored value it does not know", () => {
    os([]);
    localStorage.setItem(THEME_STORAGE_KEY, "neon");
    expect(storedThemeChoice()).toBe("system");
    expect(applyTheme()).toBe("light");
  });
});
