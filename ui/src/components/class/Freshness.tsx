import { TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { clockTime, span } from "../../format";
import type { ClassViewIpc, FreshnessView } from "../../ipc";

/** How often the line asks the core again: the host's pings move "last heard" without a store change. */
export const FRESHNESS_EVERY_MS = 5_000;

/**
 * The class header's line on how fresh its data is: "All work up to 10:42:05 received · 3 s ago"
 * while the feed keeps up, a warning ("Showing work up to 10:31:12 — host not answering") when it
 * does not. The facts and the rule come from the core (`views::freshness`); this words them in the
 * teacher's time zone and ticks the "ago".
 */
export function freshnessLine(v: FreshnessView, now: number): { text: string; warning: boolean } {
  const upTo = v.newest_work_ms === null ? null : clockTime(v.newest_work_ms);
  const showing = upTo === null ? "No work received yet" : `Showing work up to ${upTo}`;
  switch (v.state) {
    case "current": {
      const ago = v.last_heard_ms === null ? "" : ` · ${span(now - v.last_heard_ms)} ago`;
      return { text: `${upTo === null ? "No work yet" : `All work up to ${upTo} received`}${ago}`, warning: false };
    }
    case "behind":
      return { text: `${showing} — catching up with the host`, warning: true };
    case "unreachable":
      return { text: `${showing} — host not answering`, warning: true };
    case "token_refused":
      return { text: `${showing} — the host refused the token`, warning: true };
    case "not_followed":
      return { text: `${showing} — this class is not being followed`, warning: true };
  }
}

export function Freshness({
  ipc,
  classId,
  changeTick,
}: {
  ipc: Pick<ClassViewIpc, "freshness">;
  classId: string;
  changeTick: number;
}) {
  const [view, setView] = useState<FreshnessView | null>(null);
  const [now, setNow] = useState(() => Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: changeTick is the reason to ask again.
  useEffect(() => {
    let live = true;
    const load = () =>
      ipc.freshness(classId).then(
        (v) => {
          if (live) {
            setView(v);
            setNow(Date.now());
          }
        },
        () => {
          // The line is a hint; the page's own errors say what failed.
        },
      );
    void load();
    const every = setInterval(load, FRESHNESS_EVERY_MS);
    return () => {
      live = false;
      clearInterval(every);
    };
  }, [ipc, classId, changeTick]);
  useEffect(() => {
    const tick = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(tick);
  }, []);
  if (view === null) return null;
  const { text, warning } = freshnessLine(view, now);
  return (
    <p
      className={warning ? "freshness freshness-warning" : "freshness"}
      data-testid="freshness"
      data-state={view.state}
      // It ticks every second: read on demand, not announced each time.
      aria-live="off"
    >
      {warning ? <TriangleAlert className="icon" size={14} aria-hidden="true" focusable="false" /> : null} {text}
    </p>
  );
}
