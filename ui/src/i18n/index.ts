/**
 * The window's words. Every sentence a teacher reads comes from the Fluent catalogs in
 * `locales/<lang>/*.ftl` at the repository's root — the same files the Rust side reads for what it
 * writes (the printable report, errors, notifications). See docs/translating.md.
 *
 * The language is English, Spanish or Arabic: the operating system's first one we ship (the
 * webview reports it in `navigator.languages`), or the override from Settings > Appearance, kept
 * in this page's localStorage like the theme (a preference of this computer, not a class's data).
 * `en-XA`, the pseudo-locale, is only ever chosen by tests.
 */
import { FluentBundle, FluentResource, type FluentVariable } from "@fluent/bundle";
import { pseudo } from "./pseudo";

export type Lang = "en" | "es" | "ar" | "en-XA";
export type LangChoice = "system" | Lang;

/** The languages a teacher can choose, each named in its own language (so anyone finds theirs). */
export const SHIPPED: { value: Lang; endonym: string }[] = [
  { value: "en", endonym: "English" },
  { value: "es", endonym: "Español" },
  { value: "ar", endonym: "العربية" },
];

export const LANG_STORAGE_KEY = "a2learn.lang";
const RTL: ReadonlySet<Lang> = new Set(["ar"]);

const sources = import.meta.glob("../../../locales/*/*.ftl", {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

/** Every catalog file of one language, by file name (for the completeness test). */
export function catalogFiles(lang: "en" | "es" | "ar"): Map<string, string> {
  const files = new Map<string, string>();
  for (const [path, text] of Object.entries(sources)) {
    const m = /locales\/([^/]+)\/([^/]+\.ftl)$/.exec(path);
    if (m?.[1] === lang && m[2]) files.set(m[2], text);
  }
  return files;
}

function buildBundle(lang: Lang): FluentBundle {
  const source = lang === "en-XA" ? "en" : lang;
  const bundle = new FluentBundle(lang === "en-XA" ? "en" : lang, {
    // Isolation marks keep an id or a number in its own direction inside a right-to-left
    // sentence; in a left-to-right one they would only hide text from searches and tests.
    useIsolating: RTL.has(lang),
    transform: lang === "en-XA" ? pseudo : (s: string) => s,
  });
  for (const [name, text] of catalogFiles(source)) {
    const errors = bundle.addResource(new FluentResource(text));
    if (errors.length > 0) throw new Error(`${source}/${name}: ${errors.map(String).join("; ")}`);
  }
  return bundle;
}

const bundles = new Map<Lang, FluentBundle>();
function bundleOf(lang: Lang): FluentBundle {
  let b = bundles.get(lang);
  if (!b) {
    b = buildBundle(lang);
    bundles.set(lang, b);
  }
  return b;
}

function isLang(v: unknown): v is Lang {
  return v === "en" || v === "es" || v === "ar" || v === "en-XA";
}

export function storedLanguageChoice(): LangChoice {
  try {
    const v = window.localStorage.getItem(LANG_STORAGE_KEY);
    return isLang(v) ? v : "system";
  } catch {
    return "system";
  }
}

/**
 * The system's language as the app's Rust side reads it from the environment (it tells the page
 * when the variables name one we ship: a webview reports English when that locale is not
 * installed), then the webview's own list.
 */
function systemPreferences(): readonly string[] {
  const told = (window as { __A2LEARN_SYSTEM_LANGUAGE__?: unknown }).__A2LEARN_SYSTEM_LANGUAGE__;
  const webview = navigator.languages ?? [navigator.language];
  return typeof told === "string" ? [told, ...webview] : webview;
}

/** The first of the system's languages we ship, by its primary subtag; English otherwise. */
export function systemLanguage(preferred: readonly string[] = systemPreferences()): Lang {
  for (const tag of preferred) {
    const primary = tag.toLowerCase().split(/[-_]/)[0];
    const hit = SHIPPED.find((s) => s.value === primary);
    if (hit) return hit.value;
  }
  return "en";
}

let current: Lang = "en";
const listeners = new Set<() => void>();

export function lang(): Lang {
  return current;
}

/** "rtl" for Arabic; the window's `dir` and everything that points a way follow it. */
export function dir(): "ltr" | "rtl" {
  return RTL.has(current) ? "rtl" : "ltr";
}

/** The locale `Intl` formats numbers and dates in (the pseudo-locale formats as English). */
export function intlLocale(): string {
  return current === "en-XA" ? "en" : current;
}

/** Sets the language on <html> (`lang`, `dir`) and tells whoever re-renders on a change. */
export function applyLanguage(choice: LangChoice = storedLanguageChoice()): Lang {
  current = choice === "system" ? systemLanguage() : choice;
  if (typeof document !== "undefined") {
    document.documentElement.lang = current;
    document.documentElement.dir = dir();
  }
  for (const l of listeners) l();
  return current;
}

export function setLanguageChoice(choice: LangChoice): Lang {
  try {
    if (choice === "system") window.localStorage.removeItem(LANG_STORAGE_KEY);
    else window.localStorage.setItem(LANG_STORAGE_KEY, choice);
  } catch {
    // Storage refused: the choice still holds until the window closes.
  }
  return applyLanguage(choice);
}

export function subscribeLanguage(onChange: () => void): () => void {
  listeners.add(onChange);
  return () => listeners.delete(onChange);
}

export type Args = Record<string, string | number | Date | null | undefined>;

/**
 * The message `id` in the current language, with `args` put in. A missing message is a bug the
 * catalog test catches; in the window it shows its id rather than nothing.
 */
export function t(id: string, args?: Args): string {
  const bundle = bundleOf(current);
  const message = bundle.getMessage(id);
  if (!message?.value) {
    if (import.meta.env.MODE === "test") throw new Error(`no message ${id} in ${current}`);
    return id;
  }
  let vars: Record<string, FluentVariable> | undefined;
  if (args) {
    vars = {};
    for (const [k, v] of Object.entries(args)) vars[k] = v ?? "—";
  }
  const errors: Error[] = [];
  const text = bundle.formatPattern(message.value, vars, errors);
  if (errors.length > 0 && import.meta.env.MODE === "test") {
    throw new Error(`${id} in ${current}: ${errors.map(String).join("; ")}`);
  }
  return text;
}

/** A count in the teacher's locale: "1,234", "1.234", "١٬٢٣٤". */
export function num(n: number, options?: Intl.NumberFormatOptions): string {
  return new Intl.NumberFormat(intlLocale(), options).format(n);
}

/**
 * Applies the stored choice now, and follows a change made in another window of the app (the
 * projector's follows the teacher's) or, on "system", in the operating system.
 */
export function followLanguage(): () => void {
  applyLanguage();
  const onStorage = (e: StorageEvent) => {
    if (e.key === LANG_STORAGE_KEY || e.key === null) applyLanguage();
  };
  const onSystem = () => {
    if (storedLanguageChoice() === "system") applyLanguage("system");
  };
  window.addEventListener("storage", onStorage);
  window.addEventListener("languagechange", onSystem);
  return () => {
    window.removeEventListener("storage", onStorage);
    window.removeEventListener("languagechange", onSystem);
  };
}
