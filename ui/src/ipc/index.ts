// The only module of the UI that touches Tauri. Everything else receives a `TeacherIpc`, so the
// views can be tested without a window.
import { commands, events } from "./bindings";
import type { AppStatus, ClassSummary, ConnectionState, UiError } from "./bindings";

export type { AppStatus, ClassSummary, ConnectionState, UiError };

export interface TeacherIpc {
  appStatus(): Promise<AppStatus>;
  listClasses(): Promise<ClassSummary[]>;
  /** Calls `handler` on each connection change; returns the function that stops listening. */
  onConnectionChanged(handler: (state: ConnectionState, label: string) => void): () => void;
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

export const tauriIpc: TeacherIpc = {
  appStatus: async () => unwrap(await commands.appStatus()),
  listClasses: async () => unwrap(await commands.listClasses()),
  onConnectionChanged(handler) {
    let stop: (() => void) | null = null;
    let stopped = false;
    void events.connectionChanged
      .listen((event) => handler(event.payload.connection, event.payload.label))
      .then((unlisten) => {
        if (stopped) unlisten();
        else stop = unlisten;
      });
    return () => {
      stopped = true;
      stop?.();
    };
  },
  toUiError,
};
