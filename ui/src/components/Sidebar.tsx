import { Hand } from "lucide-react";
import { useState } from "react";
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
    <nav className="sidebar" aria-label="Classes">
      <h2 className="sidebar-title">Classes</h2>
      {loading ? (
        <p className="muted">Loading…</p>
      ) : classes.length === 0 ? (
        <p className="muted" data-testid="no-classes">
          No classes yet
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
                <span className="class-title">{c.title}</span>
                {c.host ? (
                  <span className="class-host muted" data-testid="class-host">
                    {c.host}
                  </span>
                ) : null}
                <span className="class-counts">
                  {/* biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear */}
                  <span aria-label={`${c.learners} learners`}>{c.learners} learners</span>
                  {c.open_requests > 0 ? (
                    // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear
                    <span className="badge badge-alert" aria-label={`${c.open_requests} open help requests`}>
                      <Hand className="icon" size={12} strokeWidth={2.5} aria-hidden="true" focusable="false" />
                      {c.open_requests}
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
        Help desk
        {waitingTotal(classes) > 0 ? (
          // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the label names the count inside the button (tests find it by it); a real fix changes what screen readers hear
          <span className="badge badge-alert" aria-label={`${waitingTotal(classes)} waiting`}>
            <Hand className="icon" size={12} strokeWidth={2.5} aria-hidden="true" focusable="false" />
            {waitingTotal(classes)}
          </span>
        ) : null}
      </button>
      <button
        type="button"
        className="nav-link export-link"
        aria-current={view.kind === "export" ? "page" : undefined}
        onClick={() => onView({ kind: "export", classId: view.kind === "export" ? view.classId : selected })}
      >
        Export
      </button>
      {offers.create_class ? (
        <NewClassForm ipc={ipc} onCreated={onCreated} />
      ) : (
        <p className="muted" data-testid="read-only-host">
          This host is read-only: its classes are made where it runs.
        </p>
      )}
      <div className="sidebar-footer">
        <button
          type="button"
          className="nav-link"
          aria-current={view.kind === "settings" ? "page" : undefined}
          onClick={() => onView({ kind: "settings" })}
        >
          Settings
        </button>
        <button
          type="button"
          className="nav-link"
          aria-current={view.kind === "diagnostics" ? "page" : undefined}
          onClick={() => onView({ kind: "diagnostics" })}
        >
          Diagnostics
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
          setError("A class needs a title.");
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
      <label htmlFor="new-class-title">New class</label>
      <input
        id="new-class-title"
        value={title}
        maxLength={200}
        onChange={(e) => setTitle(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "new-class-error" : undefined}
      />
      <button type="submit" disabled={busy}>
        Create
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
