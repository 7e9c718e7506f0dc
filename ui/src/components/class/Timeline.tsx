import { useEffect, useRef } from "react";
import type uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import type { TimelineView } from "../../ipc";

/** Events of the class over time, per bucket, drawn by uPlot. */
export function Timeline({ timeline }: { timeline: TimelineView }) {
  const ref = useRef<HTMLDivElement>(null);
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
              { label: "Completions", stroke: "#1b7f3b" },
              { label: "Struggles", stroke: "#b35c00" },
              { label: "Help requests", stroke: "#b00020" },
              { label: "Other", stroke: "#555" },
            ],
            axes: [{}, { label: "events" }],
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
  }, [timeline]);
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
