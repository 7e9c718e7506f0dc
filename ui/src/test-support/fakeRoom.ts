import type { ClassViewIpc } from "../ipc";

/** The room commands of a host without the room tools: a running class, no control. */
export const noRoomControls: Pick<ClassViewIpc, "room" | "pause" | "resume" | "setPacing"> = {
  room: async () => ({
    paused: false,
    message: null,
    since_ms: null,
    pacing: [],
    can_pause: false,
    can_pace: false,
    tools_unknown: null,
  }),
  pause: async () => {},
  resume: async () => {},
  setPacing: async () => {},
};
