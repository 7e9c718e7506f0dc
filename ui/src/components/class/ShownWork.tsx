import { Presentation, X } from "lucide-react";
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { t } from "../../i18n";
import type { ClassViewIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";

type ShownWorkIpc = Pick<ClassViewIpc, "showWorkPicked" | "showWorkPick" | "showWorkUnpick" | "showWorkClear">;

/** The class page's picks of students' work for the projector, and the ways to change them. */
export type ShownWork = {
  picked: string[];
  toggle: (text: string) => void;
  unpick: (text: string) => void;
  clear: () => void;
};

const ShownWorkContext = createContext<ShownWork | null>(null);

/**
 * Holds the class's picks (the core keeps them, in memory; this mirrors them) for the page's
 * children: the step report's responses and the evidence pane pick from here. A refusal (a
 * response that names someone) goes to `onError` with the core's words, the name among them:
 * it is shown on the teacher's screen only.
 */
export function ShownWorkProvider({
  ipc,
  classId,
  onError,
  children,
}: {
  ipc: ShownWorkIpc;
  classId: string;
  onError: (message: string) => void;
  children: React.ReactNode;
}) {
  const [picked, setPicked] = useState<string[]>([]);
  useEffect(() => {
    let live = true;
    ipc.showWorkPicked(classId).then(
      (p) => {
        if (live) setPicked(p.map((r) => r.text));
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [ipc, classId]);
  const run = useCallback(
    (call: Promise<{ text: string }[] | undefined>) =>
      call.then(
        (p) => setPicked(p ? p.map((r) => r.text) : []),
        (e: unknown) => onError(toUiError(e).message),
      ),
    [onError],
  );
  const value = useMemo<ShownWork>(
    () => ({
      picked,
      toggle: (text) =>
        void run(picked.includes(text) ? ipc.showWorkUnpick(classId, text) : ipc.showWorkPick(classId, text)),
      unpick: (text) => void run(ipc.showWorkUnpick(classId, text)),
      clear: () => void run(ipc.showWorkClear(classId).then(() => undefined)),
    }),
    [picked, run, ipc, classId],
  );
  return <ShownWorkContext.Provider value={value}>{children}</ShownWorkContext.Provider>;
}

/** A response's "Show to class" toggle (none outside a class page, or in projector-safe mode). */
export function ShowWorkToggle({ text }: { text: string }) {
  const shown = useContext(ShownWorkContext);
  const safe = useProjectorSafe();
  if (!shown || safe || text.trim() === "") return null;
  const on = shown.picked.includes(text.trim());
  return (
    <button
      type="button"
      className="link show-work"
      aria-pressed={on}
      data-testid="show-work-toggle"
      title={on ? t("class-shown-work-take-down-title") : t("class-shown-work-show-title")}
      onClick={() => shown.toggle(text.trim())}
    >
      <Presentation className="icon" size={14} aria-hidden="true" focusable="false" />{" "}
      {on ? t("class-shown-work-shown") : t("class-shown-work-show")}
    </button>
  );
}

/** The responses on show, each with "Take down", and "Take all down". */
export function ShownWorkPanel() {
  const shown = useContext(ShownWorkContext);
  const safe = useProjectorSafe();
  if (!shown || safe || shown.picked.length === 0) return null;
  return (
    <section className="shown-work" aria-labelledby="shown-work-title" data-testid="shown-work">
      <h3 id="shown-work-title">{t("class-shown-work-title", { count: shown.picked.length })}</h3>
      <ul>
        {shown.picked.map((text) => (
          <li key={text}>
            <q className="student-words" translate="no" dir="auto">
              {text}
            </q>{" "}
            <button type="button" className="link" onClick={() => shown.unpick(text)}>
              <X className="icon" size={12} aria-hidden="true" focusable="false" /> {t("class-shown-work-take-down")}
            </button>
          </li>
        ))}
      </ul>
      <button type="button" data-testid="shown-work-clear" onClick={shown.clear}>
        {t("class-shown-work-take-all-down")}
      </button>
    </section>
  );
}
