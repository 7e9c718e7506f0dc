/**
 * How the window writes times, spans and counts. Times are stored as UTC milliseconds and shown
 * in the teacher's own time zone (the system's, as the webview reports it) and in the teacher's
 * language — the one place that decides, so no view shows a UTC stamp or an English month by
 * accident.
 */
import { intlLocale, lang, t } from "../i18n";
import { pseudo } from "../i18n/pseudo";

const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: "time" | "dateTime" | "date"): Intl.DateTimeFormat {
  const key = `${intlLocale()}/${kind}`;
  let f = cache.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === "time"
        ? { hour: "2-digit", minute: "2-digit", second: "2-digit" }
        : kind === "dateTime"
          ? { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }
          : { year: "numeric", month: "short", day: "numeric" };
    f = new Intl.DateTimeFormat(intlLocale(), options);
    cache.set(key, f);
  }
  return f;
}

/**
 * "14:05:09" in the teacher's time zone. (The bindings type every f64 as `number | null`: a
 * missing time reads "—".)
 */
export function clockTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : marked(formatter("time").format(ms));
}

/**
 * CLDR's month names and "AM" are words too: the pseudo-locale marks them as it marks the
 * catalogs', so the walk that looks for untranslated text does not stop on them.
 */
function marked(text: string): string {
  return lang() === "en-XA" ? pseudo(text) : text;
}

/** "1 Dec 2026, 14:05" in the teacher's time zone. */
export function dateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : marked(formatter("dateTime").format(ms));
}

/** "1 Dec 2026" in the teacher's time zone. */
export function date(ms: number): string {
  return marked(formatter("date").format(ms));
}

/** A span of time the way a teacher says it: "45 s", "3 min", "1 h 5 min". */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return t("span-seconds", { s });
  const m = Math.floor(s / 60);
  if (m < 60) return t("span-minutes", { m });
  const h = Math.floor(m / 60);
  return m % 60 ? t("span-hours-minutes", { h, m: m % 60 }) : t("span-hours", { h });
}
