import { useEffect, useRef } from "react";
import type { TeacherIpc } from "../../ipc";
import { beep } from "./beep";

const APP_TITLE = "a2learn Teacher";

/**
 * The desk's attention signals, for the whole app (the teacher may be on any view): a short beep
 * when a request arrives that this window has not seen (unless muted), and the count of waiting
 * requests in the window title, except in projector-safe mode. The desktop notification itself
 * is shown by the shell, from Rust, with fixed text.
 */
export function useDeskAttention(ipc: TeacherIpc, projectorSafe: boolean): void {
  const seen = useRef<Set<string> | null>(null);
  const waiting = useRef(0);
  const safe = useRef(projectorSafe);

  useEffect(() => {
    safe.current = projectorSafe;
    void setTitle(ipc, projectorSafe ? APP_TITLE : titleFor(waiting.current));
  }, [ipc, projectorSafe]);

  useEffect(() => {
    let live = true;
    const refresh = async () => {
      try {
        const queue = await ipc.desk.queue(null);
        if (!live) return;
        const ids = queue.filter((r) => isWaiting(r.state)).map((r) => r.call_id);
        const first = seen.current === null;
        const fresh = first ? [] : ids.filter((id) => !seen.current?.has(id));
        seen.current = new Set([...(seen.current ?? []), ...ids]);
        waiting.current = ids.length;
        void setTitle(ipc, safe.current ? APP_TITLE : titleFor(ids.length));
        if (fresh.length > 0) {
          const settings = await ipc.desk.settings();
          if (!settings.muted) beep();
        }
      } catch {
        // The desk view shows errors; the attention signals just skip a beat.
      }
    };
    void refresh();
    const stop = ipc.onStoreChanged((change) => {
      if (change.calls) void refresh();
    });
    return () => {
      live = false;
      stop();
    };
  }, [ipc]);
}

export function titleFor(waiting: number): string {
  return waiting > 0 ? `(${waiting}) ${APP_TITLE}` : APP_TITLE;
}

export function isWaiting(state: string): boolean {
  return state === "open" || state === "claimed_by_me" || state === "claimed_by_other";
}

/** The native window's title (what the task bar shows). The page's own <title> stays put. */
async function setTitle(ipc: TeacherIpc, title: string) {
  try {
    await ipc.desk.setWindowTitle(title);
  } catch {
    // Outside a window (tests) there is no title to set.
  }
}
