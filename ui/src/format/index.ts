/**
 * How the window writes times and counts. Times are stored as UTC milliseconds and shown in the
 * teacher's own time zone (the system's, as the webview reports it) — the one place that
 * decides, so no view shows a UTC stamp by accident.
 */

const timeFmt = new Intl.DateTimeFormat(undefined, { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const dateTimeFmt = new Intl.DateTimeFormat(undefined, {
  year: "numeric",
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const dateFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric" });

/**
 * "14:05:09" in the teacher's time zone. (The bindings type every f64 as `number | null`: a
 * missing time reads "—".)
 */
export function clockTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : timeFmt.format(ms);
}

/** "1 Dec 2026, 14:05" in the teacher's time zone. */
export function dateTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? "—" : dateTimeFmt.format(ms);
}

/** "1 Dec 2026" in the teacher's time zone. */
export function date(ms: number): string {
  return dateFmt.format(ms);
}

/** "1 attempt", "2 attempts". */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A span of time the way a teacher says it: "45 s", "3 min", "1 h 5 min". */
export function span(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
}
