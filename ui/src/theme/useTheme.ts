import { useSyncExternalStore } from "react";
import type { Theme } from "./theme";

function subscribe(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
  return () => observer.disconnect();
}

function current(): Theme {
  const t = document.documentElement.dataset.theme;
  return t === "dark" || t === "high-contrast" ? t : "light";
}

/** The theme in force (the `data-theme` of <html>), re-rendering when it changes. */
export function useTheme(): Theme {
  return useSyncExternalStore(subscribe, current, () => "light");
}

/** A token's value as the current theme sets it (for canvas drawing, which CSS cannot reach). */
export function token(name: string, fallback: string): string {
  const v = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  return v || fallback;
}
