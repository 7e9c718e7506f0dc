import { Hand, X } from "lucide-react";
import type { EvidenceView } from "../../ipc";

function when(ms: number | null): string {
  if (ms === null) return "—";
  return `${new Date(ms).toISOString().replace("T", " ").slice(0, 19)} UTC`;
}

/** The evidence behind a cell. Prose and detail are the widget's text: rendered as text only. */
export function Evidence({ evidence, onClose }: { evidence: EvidenceView; onClose: () => void }) {
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
      {evidence.open_requests > 0 ? (
        <p className="badge badge-alert">
          <Hand className="icon" size={14} strokeWidth={2.5} aria-hidden="true" focusable="false" />
          {evidence.open_requests} open help request(s)
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
              <dd>{when(r.at_ms)}</dd>
            </div>
          </dl>
          <pre className="detail">{r.detail}</pre>
        </article>
      ))}
      {evidence.struggles.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: struggles carry no id; the list is read-only and replaced whole
        <article key={`s${i}`} className="evidence-struggle">
          <p className="prose">{s.prose}</p>
          <p className="muted">
            Struggle: {s.failed_checks} failed checks, {s.hints} hints, {when(s.at_ms)}
          </p>
        </article>
      ))}
    </section>
  );
}
