/**
 * The window's theme: light, dark or high contrast. By default it follows the operating system
 * (prefers-color-scheme, prefers-contrast); Settings can override that, and the choice is kept in
 * this page's localStorage (a display preference of this computer, not data of a class). The
 * resolved theme is the `data-theme` attribute of <html>, which `tokens.css` reads.
 */
import { t } from "../i18n";

export type Theme = "light" | "dark" | "high-contrast";
export type ThemeChoice = "system" | Theme;

export const THEME_CHOICES: { value: ThemeChoice }[] = [
  { value: "system" },
  { value: "light" },
  { value: "dark" },
  { value: "high-contrast" },
];

/** A choice as Settings names it, in the teacher's language. */
export function themeChoiceLabel(choice: ThemeChoice): string {
  switch (choice) {
    case "system":
      return t("settings-theme-system");
    case "light":
      return t("settings-theme-light");
    case "dark":
      return t("settings-theme-dark");
    case "high-contrast":
      return t("settings-theme-high-contrast");
  }
}

export const THEME_STORAGE_KEY = "a2learn.theme";

function isChoice(v: unknown): v is ThemeChoice {
  return THEME_CHOICES.some((c) => c.value === v);
}

export function storedThemeChoice(): ThemeChoice {
  try {
    const v = window.localStorage.getItem(THEME_STORAGE_KEY);
    return isChoice(v) ? v : "system";
  } catch {
    return "system";
  }
}

function matches(query: string): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia(query).matches;
}

/** What the operating system asks for: more contrast wins over a dark scheme. */
export function systemTheme(): Theme {
  if (matches("(prefers-contrast: more)") || matches("(forced-colors: active)")) return "high-contrast";
  return matches("(prefers-color-scheme: dark)") ? "dark" : "light";
}

export function resolveTheme(choice: ThemeChoice): Theme {
  return choice === "system" ? systemTheme() : choice;
}

/** Sets `data-theme` (the resolved theme) and `data-theme-choice` on <html>. */
export function applyTheme(choice: ThemeChoice = storedThemeChoice()): Theme {
  const theme = resolveTheme(choice);
  const root = document.documentElement;
  root.dataset.theme = theme;
  root.dataset.themeChoice = choice;
  root.style.colorScheme = theme === "light" ? "light" : "dark";
  return theme;
}

/** Stores the choice and applies it at once. */
export function setThemeChoice(choice: ThemeChoice): Theme {
  try {
    if (choice === "system") window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Storage refused (a private profile): the choice still holds until the window closes.
  }
  const theme = applyTheme(choice);
  window.dispatchEvent(new CustomEvent("a2learn-theme", { detail: choice }));
  return theme;
}

/**
 * Applies the stored choice now and keeps following the system while the choice is "system"
 * (and another window's change of the stored choice). Returns a function that stops following.
 */
export function followTheme(): () => void {
  applyTheme();
  const cleanups: (() => void)[] = [];
  if (typeof window.matchMedia === "function") {
    for (const q of ["(prefers-color-scheme: dark)", "(prefers-contrast: more)", "(forced-colors: active)"]) {
      const mq = window.matchMedia(q);
      const onChange = () => {
        if (storedThemeChoice() === "system") applyTheme("system");
      };
      mq.addEventListener?.("change", onChange);
      cleanups.push(() => mq.removeEventListener?.("change", onChange));
    }
  }
  const onStorage = (e: StorageEvent) => {
    if (e.key === THEME_STORAGE_KEY || e.key === null) applyTheme();
  };
  window.addEventListener("storage", onStorage);
  cleanups.push(() => window.removeEventListener("storage", onStorage));
  return () => {
    for (const c of cleanups) c();
  };
}
