import { useCallback, useEffect, useRef, useState } from "react";
import { ClassPage } from "./components/class/ClassPage";
import { DiagnosticsView } from "./components/DiagnosticsView";
import { HelpDesk } from "./components/desk/HelpDesk";
import { useDeskAttention } from "./components/desk/useDeskAttention";
import { ExportView } from "./components/export/ExportView";
import { SettingsView } from "./components/SettingsView";
import { ShortcutsHelp } from "./components/ShortcutsHelp";
import { Sidebar, type View } from "./components/Sidebar";
import { StatusBar } from "./components/StatusBar";
import { type Lang, t } from "./i18n";
import { useLanguage } from "./i18n/useLanguage";
import type { AppStatus, ClassSummary, ConnectionState, TeacherIpc, UiError } from "./ipc";
import { ChangeFeed, ChangeFeedProvider, DESK, EVERYTHING, useChangeTick } from "./ipc/changes";
import { COUNTS_EVERY_MS, throttled } from "./ipc/throttle";
import { ProjectorSafeProvider, useProjectorSafe } from "./privacy/ProjectorSafe";

/** Loaded state of the frame: what the sidebar and the status bar need. */
type FrameState =
  | { kind: "loading" }
  | { kind: "ready"; status: AppStatus; classes: ClassSummary[] }
  | { kind: "failed"; error: UiError };

/**
 * The frame a teacher lives in: classes at the side, the selected view in the middle, the host
 * connection at the bottom. `ipc` is passed in so tests can drive the frame without a window.
 */
export function App({ ipc }: { ipc: TeacherIpc }) {
  // A change of language renders the frame anew in it; the open view (held here) stays open.
  // The backend hears of the language first, so what it says (errors, the sentences views
  // build) is in the new language when the frame fetches again.
  const lang = useLanguage();
  const [told, setTold] = useState<Lang | null>(ipc.setLanguage ? null : lang);
  useEffect(() => {
    let live = true;
    const tell = ipc.setLanguage?.(lang) ?? Promise.resolve();
    tell
      .catch(() => {
        // An older backend without the command still shows the window, its words in English.
      })
      .finally(() => {
        if (live) setTold(lang);
      });
    return () => {
      live = false;
    };
  }, [ipc, lang]);
  const [view, setView] = useState<View>({ kind: "welcome" });
  const navigated = useRef(false);
  return (
    <ProjectorSafeProvider setMode={ipc.setProjectorSafe}>
      {told === null ? null : <Frame key={told} ipc={ipc} view={view} setView={setView} navigated={navigated} />}
    </ProjectorSafeProvider>
  );
}

function Frame({
  ipc,
  view,
  setView,
  navigated,
}: {
  ipc: TeacherIpc;
  view: View;
  setView: (view: View) => void;
  navigated: React.RefObject<boolean>;
}) {
  const [state, setState] = useState<FrameState>({ kind: "loading" });
  const [feed] = useState(() => new ChangeFeed());
  useDeskAttention(ipc, useProjectorSafe());
  // The page's title in the window's language (the frame renders anew on a change of language).
  useEffect(() => {
    document.title = t("app-name");
  }, []);

  // The newest connection event, kept while the frame is still loading: one that arrives
  // between the first status read and the end of the load would otherwise be dropped, and the
  // status bar would stay on "connecting" until the next change (seen in CI on a first start).
  const lastConnection = useRef<{ connection: ConnectionState; label: string } | null>(null);

  const load = useCallback(async () => {
    try {
      const [status, classes] = await Promise.all([ipc.appStatus(), ipc.listClasses()]);
      const last = lastConnection.current;
      setState({
        kind: "ready",
        status: last ? { ...status, connection: last.connection, connection_label: last.label } : status,
        classes,
      });
    } catch (error) {
      setState({ kind: "failed", error: ipc.toUiError(error) });
    }
  }, [ipc]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(
    () =>
      ipc.onConnectionChanged((connection, label) => {
        lastConnection.current = { connection, label };
        setState((prev) =>
          prev.kind === "ready" ? { ...prev, status: { ...prev.status, connection, connection_label: label } } : prev,
        );
      }),
    [ipc],
  );

  // Stored data changed: the open view refetches what the change touched (already coalesced;
  // each view follows its kinds and class in the feed, and only those views render), and the
  // sidebar when its counts (learners, open requests) or its classes changed — not on every
  // result, and at most once a second (one at a time, so an older list never lands last).
  useEffect(() => {
    const sidebar = throttled(
      () =>
        ipc.listClasses().then((classes) => setState((prev) => (prev.kind === "ready" ? { ...prev, classes } : prev))),
      COUNTS_EVERY_MS,
    );
    const stop = ipc.onStoreChanged((change) => {
      feed.add(change);
      if (change.classes) sidebar.ask();
    });
    return () => {
      stop();
      sidebar.stop();
    };
  }, [ipc, feed]);

  const classes = state.kind === "ready" ? state.classes : [];
  const current = view.kind === "class" ? (classes.find((c) => c.class_id === view.classId) ?? null) : null;

  // Until the teacher picks a view, the only class there is opens by itself: on a first start
  // that is the demo class, a moment after the window (not a welcome page pointing at it).
  const onView = useCallback(
    (next: View) => {
      navigated.current = true;
      setView(next);
    },
    [navigated, setView],
  );
  const onlyClass = classes.length === 1 ? (classes[0]?.class_id ?? null) : null;
  useEffect(() => {
    if (!navigated.current && onlyClass !== null) setView({ kind: "class", classId: onlyClass });
  }, [onlyClass, navigated, setView]);

  return (
    <ChangeFeedProvider value={feed}>
      <div className="frame">
        <header className="frame-header">
          <h1 className="app-title">{t("app-name")}</h1>
          <ShortcutsHelp />
        </header>
        <Sidebar
          ipc={ipc}
          classes={classes}
          view={view}
          onView={onView}
          loading={state.kind === "loading"}
          onCreated={(c) => {
            setState((prev) => (prev.kind === "ready" ? { ...prev, classes: [...prev.classes, c] } : prev));
            onView({ kind: "class", classId: c.class_id });
          }}
        />
        <main className="frame-main" aria-live="polite">
          {state.kind === "failed" ? (
            <div role="alert" className="error-panel" data-code={state.error.code}>
              <h2>{t("app-error-title")}</h2>
              <p>{state.error.message}</p>
              <button type="button" onClick={() => void load()}>
                {t("app-try-again")}
              </button>
            </div>
          ) : view.kind === "settings" ? (
            <SettingsView ipc={ipc} onHostChanged={() => void load()} />
          ) : view.kind === "diagnostics" ? (
            <LiveDiagnostics ipc={ipc} />
          ) : view.kind === "desk" ? (
            <LiveHelpDesk ipc={ipc} />
          ) : view.kind === "export" ? (
            <ExportView ipc={ipc} classes={classes} initialClassId={view.classId} />
          ) : current ? (
            <ClassPage ipc={ipc} summary={current} />
          ) : (
            <section className="welcome" aria-labelledby="welcome-title">
              <h2 id="welcome-title">{t("app-welcome-title")}</h2>
              <p data-testid="welcome-next">
                {state.kind === "ready" ? welcomeNext(state.status, classes.length) : t("app-welcome-loading")}
              </p>
            </section>
          )}
        </main>
        <StatusBar status={state.kind === "ready" ? state.status : null} />
      </div>
    </ChangeFeedProvider>
  );
}

/** What the welcome page tells the teacher to do next, for the host they are on. */
export function welcomeNext(status: AppStatus, classCount: number): string {
  if (classCount > 0) return t("app-welcome-choose-class");
  if (status.host_mode === "demo") return t("app-welcome-demo-coming");
  switch (status.connection.state) {
    case "offline":
    case "reconnecting":
      return t("app-welcome-host-not-answering");
    case "token_refused":
      return t("app-welcome-token-refused");
    default:
      return t("app-welcome-no-classes");
  }
}

/** Diagnostics count everything: they reload on any change. */
function LiveDiagnostics({ ipc }: { ipc: TeacherIpc }) {
  return <DiagnosticsView ipc={ipc} changeTick={useChangeTick(EVERYTHING)} />;
}

/** The desk lists every class's requests: it reloads when calls change. */
function LiveHelpDesk({ ipc }: { ipc: TeacherIpc }) {
  return <HelpDesk ipc={ipc} changeTick={useChangeTick(DESK)} />;
}
