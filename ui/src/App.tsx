import { useCallback, useEffect, useState } from "react";
import type { AppStatus, ClassSummary, TeacherIpc, UiError } from "./ipc";
import { Sidebar } from "./components/Sidebar";
import { StatusBar } from "./components/StatusBar";

/** Loaded state of the frame: what the sidebar and the status bar need. */
type FrameState =
  | { kind: "loading" }
  | { kind: "ready"; status: AppStatus; classes: ClassSummary[] }
  | { kind: "failed"; error: UiError };

/**
 * The frame a teacher lives in: classes on the left, the selected view in the middle, the host
 * connection at the bottom. `ipc` is passed in so tests can drive the frame without a window.
 */
export function App({ ipc }: { ipc: TeacherIpc }) {
  const [state, setState] = useState<FrameState>({ kind: "loading" });
  const [selected, setSelected] = useState<string | null>(null);

  const load = useCallback(async () => {
    try {
      const [status, classes] = await Promise.all([ipc.appStatus(), ipc.listClasses()]);
      setState({ kind: "ready", status, classes });
    } catch (error) {
      setState({ kind: "failed", error: ipc.toUiError(error) });
    }
  }, [ipc]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(
    () =>
      ipc.onConnectionChanged((connection, label) =>
        setState((prev) =>
          prev.kind === "ready"
            ? { ...prev, status: { ...prev.status, connection, connection_label: label } }
            : prev,
        ),
      ),
    [ipc],
  );

  const classes = state.kind === "ready" ? state.classes : [];
  const current = classes.find((c) => c.class_id === selected) ?? null;

  return (
    <div className="frame">
      <header className="frame-header">
        <h1 className="app-title">a2learn Teacher</h1>
      </header>
      <Sidebar classes={classes} selected={selected} onSelect={setSelected} loading={state.kind === "loading"} />
      <main className="frame-main" aria-live="polite">
        {state.kind === "failed" ? (
          <div role="alert" className="error-panel" data-code={state.error.code}>
            <h2>Something went wrong</h2>
            <p>{state.error.message}</p>
            <button type="button" onClick={() => void load()}>
              Try again
            </button>
          </div>
        ) : current ? (
          <section aria-labelledby="class-title">
            <h2 id="class-title">{current.title}</h2>
            {current.join_code ? <p>Join code: {current.join_code}</p> : null}
          </section>
        ) : (
          <section className="welcome" aria-labelledby="welcome-title">
            <h2 id="welcome-title">Welcome</h2>
            <p>
              {classes.length === 0
                ? "No classes yet. Once a pathway host is connected, your classes appear on the left."
                : "Choose a class on the left to see its progress."}
            </p>
          </section>
        )}
      </main>
      <StatusBar status={state.kind === "ready" ? state.status : null} />
    </div>
  );
}
