import { createContext, useContext } from "react";

/**
 * Projector-safe mode: when on, every view hides names, free text and per-learner detail and
 * shows aggregates and fresh aliases only. One switch for the whole app; every view that can
 * show something about one learner reads it from here.
 */
export const ProjectorSafeContext = createContext<boolean>(false);

export function useProjectorSafe(): boolean {
  return useContext(ProjectorSafeContext);
}
