import { useEffect, useRef } from "react";
import { t } from "../../i18n";
import type { TeacherIpc } from "../../ipc";
import { COUNTS_EVERY_MS, throttled } from "../../ipc/throttle";
import { beep } from "./beep";

/**
 * The desk's attention signals, for the whole app (the teacher may be on any view): a short beep
 * when the core says a new request arrived (`onHelpRequestArrived`: it decides what is new, and
 * says nothing when the desk is muted, as for the desktop notification it shows from Rust), and
 * the count of waiting requests in the window title, except in projector-safe mode.
 */
export function useDeskAttention(ipc: TeacherIpc, projectorSafe: boolean): void {
  const waiting = useRef(0);
  const safe = useRef(projectorSafe);

  useEffect(() => {
    safe.current = projectorSafe;
    void setTitle(ipc, projectorSafe ? t("app-name") : titleFor(waiting.current));
  }, [ipc, projectorSafe]);

  useEffect(() => ipc.onHelpRequestArrived(beep), [ipc]);

  // The count in the title may lag a second (the beep does not: the core sends it): at
  // classroom rates each change to calls fetched the whole queue, on the page's one thread.
  useEffect(() => {
    let live = true;
    const refresh = throttled(async () => {
      try {
        const queue = await ipc.desk.queue(null);
        if (!live) return;
        const count = queue.filter((r) => r.waiting).length;
        if (count === waiting.current) return;
        waiting.current = count;
        if (!safe.current) await setTitle(ipc, titleFor(count));
      } catch {
        // The desk view shows errors; the attention signals just skip a beat.
      }
    }, COUNTS_EVERY_MS);
    refresh.ask();
    const stop = ipc.onStoreChanged((change) => {
      if (change.calls) refresh.ask();
    });
    return () => {
      live = false;
      refresh.stop();
      stop();
    };
  }, [ipc]);
}

/** "(3) a2learn Teacher" in the current language (the frame renders anew on a change of it). */
export function titleFor(waiting: number): string {
  return waiting > 0 ? t("desk-window-title", { count: waiting }) : t("app-name");
}

/** The native window's title (what the task bar shows). The page's own <title> stays put. */
async function setTitle(ipc: TeacherIpc, title: string) {
  try {
    await ipc.desk.setWindowTitle(title);
  } catch {
    // Outside a window (tests) there is no title to set.
  }
}
