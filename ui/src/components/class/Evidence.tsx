import { Hand, X } from "lucide-react";
import { dateTime, plural } from "../../format";
import type { EvidenceView } from "../../ipc";
import { DetailTable } from "./DetailTable";
import { ShowWorkToggle } from "./ShownWork";

/** The evidence behind a cell. Prose and detail are the widget's text: rendered as text only. */
export function Evidence({
  evidence,
  onClose,
  onStudent,
}: {
  evidence: EvidenceView;
  onClose: () => void;
  /** Opens the student's page; absent where there is none to open. */
  onStudent?: (learner: string) => void;
}) {
  return (
    <section className="evidence" aria-labelledby="evidence-title" data-testid="evidence">
      <header>
        <h3 id="evidence-title">
          {evidence.label} — {evidence.step_title}
        </h3>
        <button type="button" onClick={onClose} aria-keyshortcuts="Escape" title="Close (Escape)">
          <X className="icon" size={16} aria-hidden="true" focusable="false" />
          Close
        </button>
      </header>
      {onStudent && evidence.learner ? (
        <p>
          <button type="button" className="link" data-testid="open-student" onClick={() => onStudent(evidence.learner)}>
            Open {evidence.label}'s page
          </button>
        </p>
      ) : null}
      {evidence.open_requests > 0 ? (
        <p className="badge badge-alert">
          <Hand className="icon" size={14} strokeWidth={2.5} aria-hidden="true" focusable="false" />
          {plural(evidence.open_requests, "open help request", "open help requests")}
        </p>
      ) : null}
      {evidence.results.length === 0 ? <p className="muted">No completion yet.</p> : null}
      {evidence.results.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: results carry no id; the list is read-only and replaced whole
        <article key={i} className="evidence-result">
          <p className="prose" data-testid="evidence-prose">
            {r.prose}
          </p>
          <dl className="facts">
            <div>
              <dt>Kind</dt>
              <dd>{r.kind}</dd>
            </div>
            <div>
              <dt>Standard</dt>
              <dd>{r.standard ?? "—"}</dd>
            </div>
            <div>
              <dt>Correct</dt>
              <dd>{r.correct === null ? "no check ran" : r.correct ? "yes" : "no"}</dd>
            </div>
            <div>
              <dt>Attempts</dt>
              <dd>{r.attempts}</dd>
            </div>
            <div>
              <dt>Hints</dt>
              <dd>{r.hints}</dd>
            </div>
            <div>
              <dt>Score</dt>
              <dd>{r.score ?? "—"}</dd>
            </div>
            <div>
              <dt>Completed</dt>
              <dd>{dateTime(r.at_ms)}</dd>
            </div>
          </dl>
          <DetailTable fields={r.detail} caption="Details the widget reported" />
          {r.detail
            .filter((f) => f.key === "response")
            .map((f) => (
              <p key={f.key} className="evidence-show">
                Response <q className="student-words">{f.value}</q> <ShowWorkToggle text={f.value} />
              </p>
            ))}
        </article>
      ))}
      {evidence.struggles.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: struggles carry no id; the list is read-only and replaced whole
        <article key={`s${i}`} className="evidence-struggle">
          <p className="prose">{s.prose}</p>
          <p className="muted">
            Struggle: {plural(s.failed_checks, "failed check", "failed checks")}, {plural(s.hints, "hint", "hints")},{" "}
            {dateTime(s.at_ms)}
          </p>
        </article>
      ))}
    </section>
  );
}
