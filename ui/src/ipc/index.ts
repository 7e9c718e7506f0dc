// The only module of the UI that touches Tauri. Everything else receives a `TeacherIpc`, so the
// views can be tested without a window.
import { Channel } from "@tauri-apps/api/core";
import { getCurrentWindow } from "@tauri-apps/api/window";
import { save } from "@tauri-apps/plugin-dialog";
import type { Lang } from "../i18n";
import type {
  AppStatus,
  CheckResult,
  ClassSummary,
  ConnectionState,
  DeskSettings,
  Diagnostics,
  GroupOutcome,
  HelpRequest,
  HostCheckInput,
  HostCheckView,
  HostClassView,
  HostMode,
  HostOffersView,
  HostSettingsInput,
  HostSettingsView,
  QuarantineEntry,
  RequestState,
  ResultsStoreInput,
  ResultsStoreView,
  Room,
  RoomItem,
  SavedReply,
  StoreChanged,
  UiError,
} from "./bindings";
import { commands, events } from "./bindings";

/** Limits the core enforces, exported from Rust (tauri-specta constants). */
export { MAX_ANSWER_CHARS, MAX_NOTE_CHARS, MAX_PAUSE_MESSAGE_CHARS, MAX_REPLY_TITLE_CHARS } from "./bindings";

export type { DeskSettings, GroupOutcome, HelpRequest, RequestState, Room, RoomItem, SavedReply };

/** The help desk's calls (issue 6). */
export interface DeskIpc {
  queue(classId: string | null): Promise<HelpRequest[]>;
  /** Follow-ups (requests the host closed unanswered) and promised visits, until marked done. */
  room(classId: string | null): Promise<Room>;
  followUpDone(callId: string): Promise<void>;
  visitDone(callId: string): Promise<void>;
  claim(callId: string): Promise<HelpRequest>;
  answer(callId: string, text: string): Promise<HelpRequest>;
  comingOver(callId: string): Promise<HelpRequest>;
  decline(callId: string): Promise<HelpRequest>;
  answerGroup(callIds: string[], text: string): Promise<GroupOutcome[]>;
  replies(): Promise<SavedReply[]>;
  createReply(title: string, body: string): Promise<SavedReply>;
  updateReply(replyId: number, title: string, body: string): Promise<SavedReply>;
  deleteReply(replyId: number): Promise<void>;
  setDraft(callId: string, body: string): Promise<void>;
  settings(): Promise<DeskSettings>;
  setMuted(muted: boolean): Promise<DeskSettings>;
  /** Sets the window's title (the count of waiting requests). */
  setWindowTitle(title: string): Promise<void>;
}

import type {
  AfterHelp,
  AssignInput,
  AssignmentReportView,
  AssignmentView,
  AssignOutcomeView,
  CatalogPathwayView,
  CellState,
  DetailField,
  EvidenceView,
  FollowUpView,
  FreshnessState,
  FreshnessView,
  GridRowView,
  GridView,
  GroupsView,
  GroupView,
  KnowledgeMapView,
  KnowledgeNodeView,
  LearnerOption,
  MasteryCellView,
  MasteryView,
  NeedsMeView,
  NodeLearnersView,
  NodeState,
  Outcome,
  PacingInput,
  PacingView,
  PathwayEdgeView,
  PathwayGraphView,
  PathwayMapView,
  PathwayNodeView,
  PickedResponse,
  ProjectorView,
  RecoveryView,
  ReportView,
  RoomView,
  RosterImportView,
  ShownResponse,
  StandardView,
  StatusCountView,
  StepLearnersView,
  StepReportView,
  StepStatus,
  StudentEventKind,
  StudentHelpView,
  StudentPageView,
  StudentPathwayView,
  StudentRunView,
  StudentStepView,
  SuggestedGroupView,
  TimelineView,
} from "./bindings";

export type {
  AfterHelp,
  AssignInput,
  AssignmentReportView,
  AssignmentView,
  AssignOutcomeView,
  CatalogPathwayView,
  CellState,
  DetailField,
  EvidenceView,
  FollowUpView,
  FreshnessState,
  FreshnessView,
  GridRowView,
  GridView,
  GroupsView,
  GroupView,
  KnowledgeMapView,
  KnowledgeNodeView,
  LearnerOption,
  MasteryCellView,
  MasteryView,
  NeedsMeView,
  NodeLearnersView,
  NodeState,
  Outcome,
  PacingInput,
  PacingView,
  PathwayEdgeView,
  PathwayGraphView,
  PathwayMapView,
  PathwayNodeView,
  PickedResponse,
  ProjectorView,
  RecoveryView,
  ReportView,
  RoomView,
  RosterImportView,
  ShownResponse,
  StandardView,
  StatusCountView,
  StepLearnersView,
  StepReportView,
  StepStatus,
  StudentEventKind,
  StudentHelpView,
  StudentPageView,
  StudentPathwayView,
  StudentRunView,
  StudentStepView,
  SuggestedGroupView,
  TimelineView,
};

/** The class view's calls (issue 5). */
export interface ClassViewIpc {
  /** Labels follow the window's projector-safe mode, which the backend holds. */
  /** A class bigger than a page comes a page at a time: `after` is the cursor (`next_after`). */
  grid(classId: string, assignmentId: string, after?: string | null): Promise<GridView>;
  /** The grid's rows of some learners (those a change named); refused in projector-safe mode. */
  gridRows(classId: string, assignmentId: string, learners: string[]): Promise<GridView>;
  evidence(classId: string, assignmentId: string, learner: string, widgetId: string): Promise<EvidenceView>;
  mastery(classId: string): Promise<MasteryView>;
  needsMe(classId: string): Promise<NeedsMeView[]>;
  timeline(classId: string): Promise<TimelineView>;
  catalog(): Promise<CatalogPathwayView[]>;
  assignments(classId: string): Promise<AssignmentView[]>;
  assign(input: AssignInput): Promise<AssignOutcomeView>;
  importRoster(classId: string, csvText: string): Promise<RosterImportView>;
  rosterSize(classId: string): Promise<number>;
  suppressionK(): Promise<number>;
  setSuppressionK(k: number): Promise<number>;
  /** The class header's room state and the controls the host offers (pause, pacing). */
  room(classId: string): Promise<RoomView>;
  /** How fresh the class's data is: the newest work, when the host was last heard. */
  freshness(classId: string): Promise<FreshnessView>;
  /** Students' responses the teacher put on show (this app's memory only). */
  showWorkPicked(classId: string): Promise<PickedResponse[]>;
  /** Puts a response on show, after the name scanner (a response naming someone is refused). */
  showWorkPick(classId: string, text: string): Promise<PickedResponse[]>;
  showWorkUnpick(classId: string, text: string): Promise<PickedResponse[]>;
  showWorkClear(classId: string): Promise<void>;
  /** The class's groups, the suggested ones, the filter in force and the learners to pick. */
  groups(classId: string): Promise<GroupsView>;
  saveGroup(classId: string, name: string, learners: string[]): Promise<GroupsView>;
  deleteGroup(classId: string, name: string): Promise<GroupsView>;
  /** Narrows every view of the class to a group (`null`: the whole class). */
  setGroupFilter(classId: string, group: string | null): Promise<GroupsView>;
  pause(classId: string, message: string | null): Promise<void>;
  resume(classId: string): Promise<void>;
  setPacing(input: PacingInput): Promise<void>;
  /** The class's knowledge map (counts suppressed in projector-safe mode). */
  knowledgeMap(classId: string): Promise<KnowledgeMapView>;
  /** Who is in each state on one standard. */
  knowledgeNode(classId: string, code: string): Promise<NodeLearnersView[]>;
  /** The idle threshold the grid flags learners by, in minutes. */
  idleAfter(): Promise<number>;
  setIdleAfter(minutes: number): Promise<number>;
  /** One student's page (refused in projector-safe mode). */
  studentPage(classId: string, learner: string): Promise<StudentPageView>;
  /** The after-class report (anonymous ids unless `identified`; refused in projector-safe mode). */
  report(classId: string, assignmentId: string | null, identified: boolean): Promise<ReportView>;
  /** Each assigned pathway's steps with who is done / current / upcoming, and the pacing limit
   * (counts suppressed in projector-safe mode). */
  pathwayMap(classId: string): Promise<PathwayMapView>;
  /** Who is done, current and upcoming on one step of an assignment. */
  pathwayNode(classId: string, assignmentId: string, widgetId: string): Promise<StepLearnersView[]>;
}

import type { ExportDone, ExportFormatInfo, ExportOptions, ExportProgress, ExportSettings, Format } from "./bindings";

export type { ExportDone, ExportFormatInfo, ExportOptions, ExportProgress, ExportSettings, Format };

/** One entry of the save dialog's file-type filter. */
export interface SaveFilter {
  name: string;
  extensions: string[];
}

/** The export's calls (issue 7). */
export interface ExportIpc {
  /** The remembered folder, the xAPI home page and the formats with their extensions. */
  settings(): Promise<ExportSettings>;
  /** Checks, normalises and stores the xAPI home page; returns what was stored. */
  setHomePage(homePage: string): Promise<string>;
  /** Runs one export; `onProgress` gets each progress report; resolves when the file is in place. */
  run(options: ExportOptions, onProgress: (progress: ExportProgress) => void): Promise<ExportDone>;
  /** Cancels the running export; true when there was one. */
  cancel(): Promise<boolean>;
  /** The native save dialog: the chosen path, or null when the teacher closed it. */
  chooseSavePath(defaultPath: string, filters: SaveFilter[]): Promise<string | null>;
}

export type {
  AppStatus,
  CheckResult,
  ClassSummary,
  ConnectionState,
  Diagnostics,
  HostCheckInput,
  HostCheckView,
  HostClassView,
  HostMode,
  HostOffersView,
  HostSettingsInput,
  HostSettingsView,
  QuarantineEntry,
  ResultsStoreInput,
  ResultsStoreView,
  StoreChanged,
  UiError,
};

/** Where results are kept: this computer, or a school's shared store (Settings). */
export interface ResultsStoreIpc {
  get(): Promise<ResultsStoreView>;
  /** Connects first: a store that does not answer or refuses the password is an error. */
  save(input: ResultsStoreInput): Promise<ResultsStoreView>;
  /** Starts the app again, on the store now named. */
  restart(): Promise<void>;
}

export interface TeacherIpc {
  appStatus(): Promise<AppStatus>;
  listClasses(): Promise<ClassSummary[]>;
  createClass(title: string): Promise<ClassSummary>;
  hostSettings(): Promise<HostSettingsView>;
  saveHostSettings(input: HostSettingsInput): Promise<HostSettingsView>;
  resultsStore: ResultsStoreIpc;
  diagnostics(): Promise<Diagnostics>;
  /** Settings: the read-only checks on a host the teacher typed (a few seconds), before saving. */
  checkNewHost(input: HostCheckInput): Promise<HostCheckView>;
  /** Diagnostics: every read-only check on the host followed now (about 20 seconds). */
  checkFollowedHost(): Promise<HostCheckView>;
  /** Settings: the classes the host lists (its optional `list_classes`), each followed or not. */
  hostClasses(): Promise<HostClassView[]>;
  /** Settings: follows a class the host lists; the sidebar lists it from then on. */
  followHostClass(classId: string): Promise<void>;
  /** Which write controls the host can honour (none on a read-only host). */
  hostOffers(): Promise<HostOffersView>;
  /**
   * Tells the backend the language the window reads, so the words it builds (errors, sentences
   * of views) come in it. Optional: a test's fake may leave it out.
   */
  setLanguage?(lang: Lang): Promise<void>;
  /**
   * Switches projector-safe mode in the backend: while it is on, no command returns a name, an
   * id or free text. Resolves to the mode now in force.
   */
  setProjectorSafe(on: boolean): Promise<boolean>;
  /** Opens the projector window on a class (on a second display when there is one). */
  openProjector(classId: string): Promise<void>;
  classView: ClassViewIpc;
  desk: DeskIpc;
  exports: ExportIpc;
  /** Calls `handler` on each connection change; returns the function that stops listening. */
  onConnectionChanged(handler: (state: ConnectionState, label: string) => void): () => void;
  /** Calls `handler` when stored data changed (coalesced by the backend). */
  onStoreChanged(handler: (change: StoreChanged) => void): () => void;
  /** Calls `handler` when the core says a new help request arrived (not when muted). */
  onHelpRequestArrived(handler: () => void): () => void;
  /** Turns anything thrown by a call into the `{code, message}` the views show. */
  toUiError(error: unknown): UiError;
}

/** A failed command, carrying the backend's `{code, message}`. */
export class IpcError extends Error {
  constructor(readonly uiError: UiError) {
    super(uiError.message);
    this.name = "IpcError";
  }
}

type CommandResult<T> = { status: "ok"; data: T } | { status: "error"; error: UiError };

export function unwrap<T>(result: CommandResult<T>): T {
  if (result.status === "ok") return result.data;
  throw new IpcError(result.error);
}

export function toUiError(error: unknown): UiError {
  if (error instanceof IpcError) return error.uiError;
  // Framework-level failures (unknown command, ACL denial) reject with a plain string.
  const message = error instanceof Error ? error.message : String(error);
  return { code: "internal", message };
}

/** Subscribes to a Tauri event and returns a synchronous unsubscribe, safe to call early. */
/**
 * `onListening` runs once the listener is registered: an event emitted between a view's first
 * fetch and that moment would otherwise be missed for good (seen: a status bar stuck on
 * "connecting" after the host had connected).
 */
function subscribe<T>(
  listen: (cb: (event: { payload: T }) => void) => Promise<() => void>,
  handler: (payload: T) => void,
  onListening?: () => void,
): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  void listen((event) => handler(event.payload)).then((unlisten) => {
    if (stopped) unlisten();
    else {
      stop = unlisten;
      onListening?.();
    }
  });
  return () => {
    stopped = true;
    stop?.();
  };
}

export const tauriIpc: TeacherIpc = {
  appStatus: async () => unwrap(await commands.appStatus()),
  listClasses: async () => unwrap(await commands.listClasses()),
  createClass: async (title) => unwrap(await commands.createClass(title)),
  hostSettings: async () => unwrap(await commands.hostSettings()),
  saveHostSettings: async (input) => unwrap(await commands.saveHostSettings(input)),
  resultsStore: {
    get: async () => unwrap(await commands.resultsStore()),
    save: async (input) => unwrap(await commands.saveResultsStore(input)),
    restart: () => commands.restartApp(),
  },
  diagnostics: async () => unwrap(await commands.diagnostics()),
  checkNewHost: async (input) => unwrap(await commands.checkNewHost(input)),
  checkFollowedHost: async () => unwrap(await commands.checkFollowedHost()),
  hostClasses: async () => unwrap(await commands.hostClasses()),
  hostOffers: async () => unwrap(await commands.hostOffers()),
  followHostClass: async (classId) => {
    unwrap(await commands.followHostClass(classId));
  },
  setLanguage: async (lang) => {
    unwrap(await commands.setLanguage(lang));
  },
  setProjectorSafe: async (on) => unwrap(await commands.setProjectorSafe(on)),
  openProjector: async (classId) => {
    unwrap(await commands.openProjector(classId));
  },
  classView: {
    grid: async (classId, assignmentId, after) =>
      unwrap(await commands.classGrid(classId, assignmentId, after ?? null)),
    gridRows: async (classId, assignmentId, learners) =>
      unwrap(await commands.classGridRows(classId, assignmentId, learners)),
    evidence: async (classId, assignmentId, learner, widgetId) =>
      unwrap(await commands.cellEvidence(classId, assignmentId, learner, widgetId)),
    mastery: async (classId) => unwrap(await commands.classMastery(classId)),
    needsMe: async (classId) => unwrap(await commands.needsMe(classId)),
    timeline: async (classId) => unwrap(await commands.classTimeline(classId)),
    catalog: async () => unwrap(await commands.pathwayCatalog()),
    assignments: async (classId) => unwrap(await commands.classAssignments(classId)),
    assign: async (input) => unwrap(await commands.assignPathway(input)),
    importRoster: async (classId, csvText) => unwrap(await commands.importRoster(classId, csvText)),
    rosterSize: async (classId) => unwrap(await commands.rosterSize(classId)),
    suppressionK: async () => unwrap(await commands.suppressionK()),
    setSuppressionK: async (k) => unwrap(await commands.setSuppressionK(k)),
    room: async (classId) => unwrap(await commands.classRoom(classId)),
    freshness: async (classId) => unwrap(await commands.classFreshness(classId)),
    showWorkPicked: async (classId) => unwrap(await commands.showWorkPicked(classId)),
    showWorkPick: async (classId, text) => unwrap(await commands.showWorkPick(classId, text)),
    showWorkUnpick: async (classId, text) => unwrap(await commands.showWorkUnpick(classId, text)),
    showWorkClear: async (classId) => {
      unwrap(await commands.showWorkClear(classId));
    },
    groups: async (classId) => unwrap(await commands.classGroups(classId)),
    saveGroup: async (classId, name, learners) => unwrap(await commands.saveGroup(classId, name, learners)),
    deleteGroup: async (classId, name) => unwrap(await commands.deleteGroup(classId, name)),
    setGroupFilter: async (classId, group) => unwrap(await commands.setGroupFilter(classId, group)),
    pause: async (classId, message) => {
      unwrap(await commands.pauseClass(classId, message));
    },
    resume: async (classId) => {
      unwrap(await commands.resumeClass(classId));
    },
    setPacing: async (input) => {
      unwrap(await commands.setPacing(input));
    },
    knowledgeMap: async (classId) => unwrap(await commands.knowledgeMap(classId)),
    knowledgeNode: async (classId, code) => unwrap(await commands.knowledgeNode(classId, code)),
    idleAfter: async () => unwrap(await commands.idleAfterMinutes()),
    setIdleAfter: async (minutes) => unwrap(await commands.setIdleAfterMinutes(minutes)),
    studentPage: async (classId, learner) => unwrap(await commands.studentPage(classId, learner)),
    report: async (classId, assignmentId, identified) =>
      unwrap(await commands.classReport(classId, assignmentId, identified)),
    pathwayMap: async (classId) => unwrap(await commands.pathwayMap(classId)),
    pathwayNode: async (classId, assignmentId, widgetId) =>
      unwrap(await commands.pathwayNode(classId, assignmentId, widgetId)),
  },
  desk: {
    queue: async (classId) => unwrap(await commands.deskQueue(classId)),
    room: async (classId) => unwrap(await commands.deskRoom(classId)),
    followUpDone: async (callId) => {
      unwrap(await commands.deskFollowUpDone(callId));
    },
    visitDone: async (callId) => {
      unwrap(await commands.deskVisitDone(callId));
    },
    claim: async (callId) => unwrap(await commands.deskClaim(callId)),
    answer: async (callId, text) => unwrap(await commands.deskAnswer(callId, text)),
    comingOver: async (callId) => unwrap(await commands.deskComingOver(callId)),
    decline: async (callId) => unwrap(await commands.deskDecline(callId)),
    answerGroup: async (callIds, text) => unwrap(await commands.deskAnswerGroup(callIds, text)),
    replies: async () => unwrap(await commands.deskReplies()),
    createReply: async (title, body) => unwrap(await commands.deskCreateReply(title, body)),
    updateReply: async (replyId, title, body) => unwrap(await commands.deskUpdateReply(replyId, title, body)),
    deleteReply: async (replyId) => {
      unwrap(await commands.deskDeleteReply(replyId));
    },
    setDraft: async (callId, body) => {
      unwrap(await commands.deskSetDraft(callId, body));
    },
    settings: async () => unwrap(await commands.deskSettings()),
    setMuted: async (muted) => unwrap(await commands.deskSetMuted(muted)),
    setWindowTitle: (title) => getCurrentWindow().setTitle(title),
  },
  exports: {
    settings: async () => unwrap(await commands.exportSettings()),
    setHomePage: async (homePage) => unwrap(await commands.setExportHomePage(homePage)),
    run: async (options, onProgress) => {
      const channel = new Channel<ExportProgress>();
      channel.onmessage = onProgress;
      return unwrap(await commands.exportClass(options, channel));
    },
    cancel: () => commands.cancelExport(),
    chooseSavePath: (defaultPath, filters) => save({ defaultPath, filters }),
  },
  onConnectionChanged: (handler) => {
    // An event that arrives while the catch-up read below is on its way is as new as that read
    // or newer (every change is emitted), and the read's answer may land after it: once an
    // event has arrived, the catch-up's answer is dropped, or a stale "connecting" would stay on
    // the status bar for good (seen in CI on a first start).
    let heard = false;
    return subscribe(
      events.connectionChanged.listen,
      (p) => {
        heard = true;
        handler(p.connection, p.label);
      },
      // Catch up with a change that happened before the listener was in place.
      () =>
        void commands.appStatus().then((r) => {
          if (r.status === "ok" && !heard) handler(r.data.connection, r.data.connection_label);
        }),
    );
  },
  onStoreChanged: (handler) =>
    subscribe(events.storeChanged.listen, handler, () =>
      handler({
        class_ids: [],
        rows: [],
        results: true,
        calls: true,
        learners: true,
        assignments: true,
        quarantine: true,
        room: true,
        classes: true,
      }),
    ),
  onHelpRequestArrived: (handler) => subscribe(events.helpRequestArrived.listen, () => handler()),
  toUiError,
};

/** The projector window's only calls: its view, and a nudge when stored data changed. */
export interface ProjectorIpc {
  view(): Promise<ProjectorView>;
  onStoreChanged(handler: () => void): () => void;
  toUiError(error: unknown): UiError;
}

export const tauriProjectorIpc: ProjectorIpc = {
  view: async () => unwrap(await commands.projectorView()),
  onStoreChanged: (handler) => subscribe(events.storeChanged.listen, () => handler(), handler),
  toUiError,
};

/** The recovery page's calls (the window shows it when the database cannot be opened). */
export interface RecoveryIpc {
  view(): Promise<RecoveryView>;
  restore(): Promise<void>;
  /** A new, empty database in place of a missing one (its backups stay). */
  startEmpty(): Promise<void>;
  /** Keeps results on this computer from the next start (a shared store that did not open). */
  keepOnThisComputer(): Promise<void>;
  restart(): Promise<void>;
  toUiError(error: unknown): UiError;
}

export const tauriRecoveryIpc: RecoveryIpc = {
  view: () => commands.recoveryView(),
  restore: async () => {
    unwrap(await commands.recoveryRestore());
  },
  startEmpty: async () => {
    unwrap(await commands.recoveryStartEmpty());
  },
  keepOnThisComputer: async () => {
    unwrap(await commands.recoveryUseThisComputer());
  },
  restart: () => commands.recoveryRestart(),
  toUiError,
};
