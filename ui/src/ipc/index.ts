// The only module of the UI that touches Tauri. Everything else receives a `TeacherIpc`, so the
// views can be tested without a window.
import { commands, events } from "./bindings";
import type {
  AppStatus,
  ClassSummary,
  ConnectionState,
  Diagnostics,
  HostMode,
  HostSettingsInput,
  HostSettingsView,
  QuarantineEntry,
  StoreChanged,
  UiError,
} from "./bindings";

export type {
  AppStatus,
  ClassSummary,
  ConnectionState,
  Diagnostics,
  HostMode,
  HostSettingsInput,
  HostSettingsView,
  QuarantineEntry,
  StoreChanged,
  UiError,
};

export interface TeacherIpc {
  appStatus(): Promise<AppStatus>;
  listClasses(): Promise<ClassSummary[]>;
  createClass(title: string): Promise<ClassSummary>;
  hostSettings(): Promise<HostSettingsView>;
  saveHostSettings(input: HostSettingsInput): Promise<HostSettingsView>;
  diagnostics(): Promise<Diagnostics>;
  /** Calls `handler` on each connection change; returns the function that stops listening. */
  onConnectionChanged(handler: (state: ConnectionState, label: string) => void): () => void;
  /** Calls `handler` when stored data changed (coalesced by the backend). */
  onStoreChanged(handler: (change: StoreChanged) => void): () => void;
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
function subscribe<T>(listen: (cb: (event: { payload: T }) => void) => Promise<() => void>, handler: (payload: T) => void): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  void listen((event) => handler(event.payload)).then((unlisten) => {
    if (stopped) unlisten();
    else stop = unlisten;
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
  diagnostics: async () => unwrap(await commands.diagnostics()),
  onConnectionChanged: (handler) =>
    subscribe(events.connectionChanged.listen, (p) => handler(p.connection, p.label)),
  onStoreChanged: (handler) => subscribe(events.storeChanged.listen, handler),
  toUiError,
};
