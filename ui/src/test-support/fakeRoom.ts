import type { ClassViewIpc, GroupsView } from "../ipc";

/** A class without groups, on a teacher's own file. */
export const noGroups: GroupsView = { groups: [], suggested: [], filter: null, learners: [], can_save: true };

/** The class page's newer commands at rest: a host without the room tools (a running class, no
 * control), empty knowledge and pathway maps, the default idle threshold, an empty student page and
 * report. */
export const noRoomControls: Pick<
  ClassViewIpc,
  | "room"
  | "freshness"
  | "showWorkPicked"
  | "showWorkPick"
  | "showWorkUnpick"
  | "showWorkClear"
  | "groups"
  | "saveGroup"
  | "deleteGroup"
  | "setGroupFilter"
  | "pause"
  | "resume"
  | "setPacing"
  | "knowledgeMap"
  | "knowledgeNode"
  | "idleAfter"
  | "setIdleAfter"
  | "studentPage"
  | "report"
  | "pathwayMap"
  | "pathwayNode"
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
  freshness: async () => ({ state: "current", newest_work_ms: null, last_heard_ms: null }),
  showWorkPicked: async () => [],
  showWorkPick: async (_c, text) => [{ text }],
  showWorkUnpick: async () => [],
  showWorkClear: async () => {},
  groups: async () => noGroups,
  saveGroup: async () => noGroups,
  deleteGroup: async () => noGroups,
  setGroupFilter: async () => noGroups,
  pause: async () => {},
  resume: async () => {},
  setPacing: async () => {},
  knowledgeMap: async () => ({ nodes: [], edges: [], misconceptions: [], k: null }),
  knowledgeNode: async () => [],
  idleAfter: async () => 5,
  setIdleAfter: async (m) => m,
  studentPage: async (_c, learner) => ({ learner, label: learner, pathways: [], help: [], timeline: [] }),
  report: async (classId) => ({
    class_id: classId,
    class_title: "Class",
    assignments: [],
    identified: false,
    generated_at: "2026-12-01T14:00:00Z",
    generated_ms: Date.UTC(2026, 11, 1, 14, 0),
    freshness: { state: "not_followed", newest_work_ms: null, last_heard_ms: null },
    group: null,
  }),
  pathwayMap: async () => ({ pathways: [], learners: 0, k: null }),
  pathwayNode: async () => [],
};
