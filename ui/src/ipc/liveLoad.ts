import { useCallback, useEffect, useRef } from "react";

/** Wraps a setter so that it applies an answer only while the load's key is current. */
export type Keep = <T>(set: (value: T) => void) => (value: T) => void;

/**
 * Loads what a view shows and keeps it live, for a view that refetches on store changes.
 *
 * - `key` lists what the load depends on (the class, the learner, projector-safe mode…). When it
 *   changes, whatever the loads for the old key still return is dropped: an older answer never
 *   overwrites a newer one (a grid with names fetched just before projector-safe mode went on
 *   must not land after it). `load` sets its state through the setters `keep` wraps.
 * - `tick` moves on each (coalesced) store change: the view loads again. **One load at a time**:
 *   a tick during a load asks for one more load when it ends. So each answer lands and is newer
 *   than the last — under a stream of changes faster than a load (every 50 ms on a busy class,
 *   on a loaded machine) the view keeps updating instead of dropping each load for the next, and
 *   the backend is asked once per load, not once per change.
 *
 * Returns `reload`, for after an action the view's data depends on (the same queue: it never
 * races a load already on its way).
 *
 *   const reload = useLiveLoad(
 *     (keep) => ipc.classView.room(classId).then(keep(setRoom), keep(fail)),
 *     [ipc, classId],
 *     changeTick,
 *   );
 */
export function useLiveLoad(load: (keep: Keep) => Promise<unknown>, key: readonly unknown[], tick: number): () => void {
  // The newest render's `load`: a load asked for by a tick uses what the page shows now.
  const latest = useRef(load);
  latest.current = load;
  const run = useRef<{ tick: number; again: () => void } | null>(null);
  const tickNow = useRef(tick);
  tickNow.current = tick;

  useEffect(() => {
    let live = true;
    const keep: Keep = (set) => (value) => {
      if (live) set(value);
    };
    let loading = false;
    let wanted = false;
    const start = () => {
      loading = true;
      wanted = false;
      // A load handles its own failure (it shows it); what escapes it must not stop the queue.
      Promise.resolve()
        .then(() => latest.current(keep))
        .catch(() => {})
        .finally(() => {
          loading = false;
          if (live && wanted) start();
        });
    };
    run.current = {
      tick: tickNow.current,
      again: () => {
        if (!live) return;
        if (loading) wanted = true;
        else start();
      },
    };
    start();
    return () => {
      live = false;
    };
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's key is the dependency list
  }, key);

  useEffect(() => {
    const current = run.current;
    if (!current || current.tick === tick) return;
    current.tick = tick;
    current.again();
  }, [tick]);

  return useCallback(() => run.current?.again(), []);
}
