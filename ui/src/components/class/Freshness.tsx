import { TriangleAlert } from "lucide-react";
import { useEffect, useState } from "react";
import { clockTime, span } from "../../format";
import { t } from "../../i18n";
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
  const time = v.newest_work_ms === null ? null : clockTime(v.newest_work_ms);
  // One whole sentence per state, with and without work (each id a literal: the catalog test finds it).
  switch (v.state) {
    case "current": {
      if (v.last_heard_ms === null) {
        return {
          text: time === null ? t("class-freshness-current-none") : t("class-freshness-current", { time }),
          warning: false,
        };
      }
      const ago = span(now - v.last_heard_ms);
      return {
        text:
          time === null
            ? t("class-freshness-current-none-heard", { ago })
            : t("class-freshness-current-heard", { time, ago }),
        warning: false,
      };
    }
    case "behind":
      return {
        text: time === null ? t("class-freshness-behind-none") : t("class-freshness-behind", { time }),
        warning: true,
      };
    case "unreachable":
      return {
        text: time === null ? t("class-freshness-unreachable-none") : t("class-freshness-unreachable", { time }),
        warning: true,
      };
    case "token_refused":
      return {
        text: time === null ? t("class-freshness-token-refused-none") : t("class-freshness-token-refused", { time }),
        warning: true,
      };
    case "not_followed":
      return {
        text: time === null ? t("class-freshness-not-followed-none") : t("class-freshness-not-followed", { time }),
        warning: true,
      };
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
