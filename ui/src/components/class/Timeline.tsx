import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { clockTime, dateTime } from "../../format";
import { t } from "../../i18n";
import type { TimelineView } from "../../ipc";
import { token, useTheme } from "../../theme/useTheme";

/** Events of the class over time, per bucket, drawn by uPlot. */
export function Timeline({ timeline }: { timeline: TimelineView }) {
  const ref = useRef<HTMLDivElement>(null);
  // The canvas takes its colours from the theme's tokens, so a change of theme redraws it.
  const theme = useTheme();
  // biome-ignore lint/correctness/useExhaustiveDependencies: theme is the trigger to redraw with the new tokens
  useEffect(() => {
    const el = ref.current;
    // jsdom has no canvas; the table below carries the same numbers.
    if (!el || typeof window.matchMedia !== "function" || timeline.starts_ms.length === 0) return;
    let plot: uPlot | null = null;
    let cancelled = false;
    // Imported when drawn: uPlot reads window.matchMedia as it loads.
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return;
      try {
        plot = new UPlot(
          {
            width: Math.max(320, el.clientWidth || 640),
            height: 220,
            series: [
              {},
              {
                label: t("class-timeline-series-completions"),
                stroke: token("--chart-completions", "#1b7f3b"),
                width: 2,
              },
              { label: t("class-timeline-series-struggles"), stroke: token("--chart-struggles", "#b35c00"), width: 2 },
              { label: t("class-timeline-series-help-requests"), stroke: token("--chart-help", "#b00020"), width: 2 },
              { label: t("class-timeline-series-other"), stroke: token("--chart-other", "#555"), width: 2 },
            ],
            axes: [
              { ...axis(), space: 90, values: timeTicks },
              { ...axis(), label: t("class-timeline-axis-events") },
            ],
          },
          [
            timeline.starts_ms.map((t) => (t ?? 0) / 1000),
            timeline.completions,
            timeline.struggles,
            timeline.help_requests,
            timeline.other,
          ],
          el,
        );
      } catch {
        plot = null;
      }
    });
    return () => {
      cancelled = true;
      plot?.destroy();
    };
  }, [timeline, theme]);
  const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  return (
    <figure className="timeline" data-testid="timeline">
      <div ref={ref} />
      <figcaption>
        {t("class-timeline-caption", {
          completions: total(timeline.completions),
          struggles: total(timeline.struggles),
          help: total(timeline.help_requests),
          seconds: Math.round((timeline.bucket_ms ?? 0) / 1000),
        })}
      </figcaption>
    </figure>
  );
}

/**
 * The time axis's labels in the teacher's language and time zone (uPlot's own are English, with
 * am/pm): clock times within a day, dates with times across days.
 */
function timeTicks(_u: uPlot, splits: number[]): string[] {
  const first = splits[0] ?? 0;
  const last = splits.at(-1) ?? first;
  const acrossDays = last - first >= 86_400;
  return splits.map((s) => (acrossDays ? dateTime(s * 1000) : clockTime(s * 1000)));
}

/** An axis drawn in the theme's ink and lines. */
function axis(): uPlot.Axis {
  const ink = token("--color-ink", "#17202b");
  const line = token("--color-line", "#d5dbe3");
  return { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
}
