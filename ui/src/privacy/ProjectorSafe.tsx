import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from "react";

/**
 * Projector-safe mode: when on, every view hides names, free text and per-learner detail and
 * shows aggregates and fresh aliases only. One switch for the whole app; every view that can
 * show something about one learner reads it from here.
 */
export const ProjectorSafeContext = createContext<boolean>(false);

export function useProjectorSafe(): boolean {
  return useContext(ProjectorSafeContext);
}

/** The seed aliases are drawn from; a new one each time the mode is switched on. */
const AliasSeedContext = createContext<number>(0);
const ToggleContext = createContext<() => void>(() => {});

export function useAliasSeed(): number {
  return useContext(AliasSeedContext);
}

export function useProjectorSafeToggle(): () => void {
  return useContext(ToggleContext);
}

function freshSeed(): number {
  const a = new Uint32Array(1);
  crypto.getRandomValues(a);
  // An i32 for the IPC.
  return a[0]! & 0x7fffffff;
}

/** Holds the switch for the app, with its keyboard shortcut (Ctrl+Shift+P). */
export function ProjectorSafeProvider({ children }: { children: ReactNode }) {
  const [on, setOn] = useState(false);
  const [seed, setSeed] = useState(0);
  const toggle = useCallback(() => {
    setOn((was) => {
      if (!was) setSeed(freshSeed());
      return !was;
    });
  }, []);
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
      <AliasSeedContext.Provider value={seed}>
        <ProjectorSafeContext.Provider value={on}>{children}</ProjectorSafeContext.Provider>
      </AliasSeedContext.Provider>
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
      title="Projector-safe mode (Ctrl+Shift+P)"
      onClick={toggle}
    >
      {on ? "Projector-safe: on" : "Projector-safe: off"}
    </button>
  );
}
