import { Hand } from "lucide-react";
import { useState } from "react";
import { num, t } from "../i18n";
import type { ClassSummary, TeacherIpc } from "../ipc";
import { useHostOffers } from "../ipc/offers";

export type View =
  | { kind: "welcome" }
  | { kind: "class"; classId: string }
  | { kind: "settings" }
  | { kind: "diagnostics" }
  | { kind: "desk" }
  /** The export view, opened on the class the teacher was looking at (if any). */
  | { kind: "export"; classId: string | null };

export function Sidebar(props: {
  ipc: TeacherIpc;
  classes: ClassSummary[];
  view: View;
  loading: boolean;
  onView: (view: View) => void;
  onCreated: (c: ClassSummary) => void;
}) {
  const { ipc, classes, view, loading, onView, onCreated } = props;
  const selected = view.kind === "class" ? view.classId : null;
  // A read-only host (the bridge over the upstream's database) cannot make classes.
  const offers = useHostOffers(ipc, classes);
  return (
    <nav className="sidebar" aria-label={t("app-sidebar-classes")}>
      <h2 className="sidebar-title">{t("app-sidebar-classes")}</h2>
      {loading ? (
        <p className="muted">{t("app-sidebar-loading")}</p>
      ) : classes.length === 0 ? (
        <p className="muted" data-testid="no-classes">
          {t("app-sidebar-no-classes")}
        </p>
      ) : (
        <ul className="class-list">
          {classes.map((c) => (
            <li key={c.class_id}>
              <button
                type="button"
                className="class-item"
                data-class-id={c.class_id}
                aria-current={c.class_id === selected ? "page" : undefined}
                onClick={() => onView({ kind: "class", classId: c.class_id })}
              >
                <span className="class-title" translate="no" dir="auto">
                  {c.title}
                </span>
                {c.host ? (
                  <span className="class-host muted" data-testid="class-host" translate="no" dir="auto">
                    {c.host}
                  </span>
                ) : null}
                <span className="class-counts">
                  {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear */}
                  <span aria-label={t("app-sidebar-learners", { count: c.learners })}>
                    {t("app-sidebar-learners", { count: c.learners })}
                  </span>
                  {c.open_requests > 0 ? (
                    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear
                    <span
                      className="badge badge-alert"
                      aria-label={t("app-sidebar-open-requests", { count: c.open_requests })}
                    >
                      <Hand className="icon" size={12} strokeWidth={2.5} aria-hidden="true" focusable="false" />
                      {num(c.open_requests)}
                    </span>
                  ) : null}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="nav-link desk-link"
        aria-current={view.kind === "desk" ? "page" : undefined}
        onClick={() => onView({ kind: "desk" })}
      >
        {t("app-sidebar-help-desk")}
        {waitingTotal(classes) > 0 ? (
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear
          <span className="badge badge-alert" aria-label={t("app-sidebar-waiting", { count: waitingTotal(classes) })}>
            <Hand className="icon" size={12} strokeWidth={2.5} aria-hidden="true" focusable="false" />
            {num(waitingTotal(classes))}
          </span>
        ) : null}
      </button>
      <button
        type="button"
        className="nav-link export-link"
        aria-current={view.kind === "export" ? "page" : undefined}
        onClick={() => onView({ kind: "export", classId: view.kind === "export" ? view.classId : selected })}
      >
        {t("app-sidebar-export")}
      </button>
      {offers.create_class ? (
        <NewClassForm ipc={ipc} onCreated={onCreated} />
      ) : (
        <p className="muted" data-testid="read-only-host">
          {t("app-sidebar-read-only")}
        </p>
      )}
      <div className="sidebar-footer">
        <button
          type="button"
          className="nav-link"
          data-testid="nav-settings"
          aria-current={view.kind === "settings" ? "page" : undefined}
          onClick={() => onView({ kind: "settings" })}
        >
          {t("app-sidebar-settings")}
        </button>
        <button
          type="button"
          className="nav-link"
          data-testid="nav-diagnostics"
          aria-current={view.kind === "diagnostics" ? "page" : undefined}
          onClick={() => onView({ kind: "diagnostics" })}
        >
          {t("app-sidebar-diagnostics")}
        </button>
      </div>
    </nav>
  );
}

function NewClassForm({ ipc, onCreated }: { ipc: TeacherIpc; onCreated: (c: ClassSummary) => void }) {
  const [title, setTitle] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      className="new-class"
      onSubmit={(e) => {
        e.preventDefault();
        if (!title.trim()) {
          setError(t("app-new-class-needs-title"));
          return;
        }
        setBusy(true);
        setError(null);
        ipc
          .createClass(title)
          .then((c) => {
            setTitle("");
            onCreated(c);
          })
          .catch((err) => setError(ipc.toUiError(err).message))
          .finally(() => setBusy(false));
      }}
    >
      <label htmlFor="new-class-title">{t("app-new-class-label")}</label>
      <input
        id="new-class-title"
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "new-class-error" : undefined}
      />
      <button type="submit" disabled={busy}>
        {t("app-new-class-create")}
      </button>
      {error ? (
        <p id="new-class-error" role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </form>
  );
}

function waitingTotal(classes: ClassSummary[]): number {
  return classes.reduce((n, c) => n + c.open_requests, 0);
}
