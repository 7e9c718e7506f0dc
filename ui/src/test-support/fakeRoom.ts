import type { ClassViewIpc } from "../ipc";

/** The class page's newer commands at rest: a host without the room tools (a running class, no
 * control), an empty knowledge map and an empty pathway map. */
export const noRoomControls: Pick<
  ClassViewIpc,
  "room" | "pause" | "resume" | "setPacing" | "knowledgeMap" | "knowledgeNode" | "pathwayMap" | "pathwayNode"
> = {
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
  knowledgeMap: async () => ({ nodes: [], edges: [], misconceptions: [], k: null }),
  knowledgeNode: async () => [],
  pathwayMap: async () => ({ pathways: [], learners: 0, k: null }),
  pathwayNode: async () => [],
};
