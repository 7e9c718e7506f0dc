import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
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
              { label: "Completions", stroke: token("--chart-completions", "#1b7f3b"), width: 2 },
              { label: "Struggles", stroke: token("--chart-struggles", "#b35c00"), width: 2 },
              { label: "Help requests", stroke: token("--chart-help", "#b00020"), width: 2 },
              { label: "Other", stroke: token("--chart-other", "#555"), width: 2 },
            ],
            axes: [axis(), { ...axis(), label: "events" }],
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
        {total(timeline.completions)} completions, {total(timeline.struggles)} struggles,{" "}
        {total(timeline.help_requests)} help requests ({Math.round((timeline.bucket_ms ?? 0) / 1000)} s buckets)
      </figcaption>
    </figure>
  );
}

/** An axis drawn in the theme's ink and lines. */
function axis(): uPlot.Axis {
  const ink = token("--color-ink", "#17202b");
  const line = token("--color-line", "#d5dbe3");
  return { stroke: ink, grid: { stroke: line, width: 1 }, ticks: { stroke: line, width: 1 } };
}
