import { useEffect, useRef, useState } from "react";

/**
 * Counts a view refetches only to keep in sight (the sidebar's learners and open requests, the
 * assignments' "started", the waiting requests in the window's title) may lag a change by this
 * much: at classroom rates (100 events a second) each notification asked for them again, and
 * each answer cost the page's one thread a parse and a render that the grid's rows then waited
 * for.
 */
export const COUNTS_EVERY_MS = 1_000;

/**
 * "Who needs me" may lag a change by this much: it is asked for whole on each change, and at
 * classroom rates its answers competed with the grid's rows for the page's one thread. A
 * quarter of a second is well inside the time a teacher takes to look.
 */
export const NEEDS_EVERY_MS = 250;

/**
 * Runs `task` when asked, at most once per `ms` and never two at once: the first ask after a
 * quiet spell runs at once (a lone change shows without waiting), asks during a run or within
 * `ms` of its start are merged into one more run at the window's end. So each answer lands after
 * the one before it. `stop` drops what is waiting.
 */
export function throttled(task: () => Promise<unknown>, ms: number): { ask: () => void; stop: () => void } {
  let running = false;
  let wanted = false;
  let stopped = false;
  let lastStart = Number.NEGATIVE_INFINITY;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const start = () => {
    timer = null;
    if (stopped) return;
    running = true;
    wanted = false;
    lastStart = Date.now();
    Promise.resolve()
      .then(task)
      .catch(() => {})
      .finally(() => {
        running = false;
        if (wanted) schedule();
      });
  };
  const schedule = () => {
    if (stopped || timer !== null) return;
    if (running) {
      wanted = true;
      return;
    }
    const wait = lastStart + ms - Date.now();
    if (wait <= 0) start();
    else timer = setTimeout(start, wait);
  };
  return {
    ask: schedule,
    stop: () => {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
    },
  };
}

/** `tick`, moving at most once per `ms` (the first move after a quiet spell at once, the last
 * one never lost): for a live load whose view may lag a change by `ms`. */
export function useThrottledTick(tick: number, ms: number): number {
  const [shown, setShown] = useState(tick);
  const lastMove = useRef(Number.NEGATIVE_INFINITY);
  useEffect(() => {
    if (tick === shown) return;
    const wait = lastMove.current + ms - Date.now();
    const move = () => {
      lastMove.current = Date.now();
      setShown(tick);
    };
    if (wait <= 0) {
      move();
      return;
    }
    const timer = setTimeout(move, wait);
    return () => clearTimeout(timer);
  }, [tick, shown, ms]);
  return shown;
}
