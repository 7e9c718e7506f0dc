import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { t } from "../i18n";

/**
 * Projector-safe mode: when on, every view hides names, free text and per-learner detail and
 * shows aggregates and fresh aliases only. One switch for the whole app, held by the backend;
 * views read it from here to show placeholders instead of what the backend withheld.
 */
export const ProjectorSafeContext = createContext<boolean>(false);

export function useProjectorSafe(): boolean {
  return useContext(ProjectorSafeContext);
}

const ToggleContext = createContext<() => void>(() => {});

export function useProjectorSafeToggle(): () => void {
  return useContext(ToggleContext);
}

/**
 * Holds the switch for the app, with its keyboard shortcut (Ctrl+Shift+P). The mode itself lives
 * in the backend (`setMode`), which applies it to every command before anything reaches this
 * page and draws fresh aliases each time it is switched on; this context mirrors what it says.
 */
export function ProjectorSafeProvider({
  children,
  setMode,
}: {
  children: ReactNode;
  setMode: (on: boolean) => Promise<boolean>;
}) {
  const [on, setOn] = useState(false);
  const toggle = useCallback(() => {
    setOn((was) => {
      // Views refetch when `on` changes; the backend is switched first, so no view asks for
      // names while the page already shows "on", and a failed switch leaves the mode as it was.
      void setMode(!was).then(setOn, () => setOn(was));
      return was;
    });
  }, [setMode]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.shiftKey && (e.key === "P" || e.key === "p")) {
        e.preventDefault();
        toggle();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [toggle]);
  return (
    <ToggleContext.Provider value={toggle}>
      <ProjectorSafeContext.Provider value={on}>{children}</ProjectorSafeContext.Provider>
    </ToggleContext.Provider>
  );
}

/** The button that switches the mode (the shortcut does the same). */
export function ProjectorSafeSwitch() {
  const on = useProjectorSafe();
  const toggle = useProjectorSafeToggle();
  return (
    <button
      type="button"
      className={on ? "projector-switch on" : "projector-switch"}
      aria-pressed={on}
      data-testid="projector-safe"
      title={t("app-projector-safe-tooltip", { keys: `${t("app-key-ctrl")}+${t("app-key-shift")}+P` })}
      onClick={toggle}
    >
      {on ? t("app-projector-safe-on") : t("app-projector-safe-off")}
    </button>
  );
}
