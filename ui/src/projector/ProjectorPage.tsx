import { useCallback, useEffect, useState } from "react";
import type { ProjectorIpc, ProjectorView } from "../ipc";

/**
 * What the class sees on the projector: how far the class has come on each step, mastery by
 * standard (small groups suppressed by the backend), and the help queue by aliases fresh for
 * this projection. The view's types carry no name, id or free text.
 */
export function ProjectorPage({ ipc }: { ipc: ProjectorIpc }) {
  const [view, setView] = useState<ProjectorView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = useCallback(() => {
    ipc.view().then(
      (v) => {
        setView(v);
        setError(null);
      },
      (e) => setError(ipc.toUiError(e).message),
    );
  }, [ipc]);
  useEffect(() => ipc.onStoreChanged(load), [ipc, load]);

  if (error) {
    return (
      <main className="projector" data-testid="projector">
        <p role="alert">{error}</p>
      </main>
    );
  }
  if (!view) {
    return (
      <main className="projector" data-testid="projector">
        <p>Loading…</p>
      </main>
    );
  }
  return (
    <main className="projector" data-testid="projector" aria-labelledby="projector-title">
      <h1 id="projector-title">Our class: {view.learners === 1 ? "1 learner" : `${view.learners} learners`}</h1>
      <section aria-labelledby="projector-help" className="projector-help">
        <h2 id="projector-help">Help</h2>
        <p data-testid="projector-waiting">
          {view.waiting_for_help === 0
            ? "No one is waiting for help."
            : view.waiting_for_help === 1
              ? "1 request waiting."
              : `${view.waiting_for_help} requests waiting.`}
        </p>
        {view.help_queue.length > 0 ? (
          <ol className="projector-queue" aria-label="Help queue, first asked first">
            {view.help_queue.map((alias) => (
              <li key={alias}>{alias}</li>
            ))}
          </ol>
        ) : null}
      </section>
      {view.shown_work.length > 0 ? (
        <section aria-labelledby="projector-work" className="projector-work" data-testid="projector-work">
          <h2 id="projector-work">Our work</h2>
          <ul>
            {view.shown_work.map((r) => (
              <li key={r.label}>
                <strong>{r.label}</strong> <q dir="auto">{r.text}</q>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.pathways.map((p, pi) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
        <section key={pi} className="projector-pathway" aria-label={`Progress: ${p.title}`}>
          <h2>{p.title}</h2>
          <ol className="projector-steps">
            {p.steps.map((s, si) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
              <li key={si} className="projector-step">
                <span className="projector-step-title">{s.title}</span>
                <span className="projector-bar" aria-hidden="true">
                  <span
                    className="projector-bar-done"
                    style={{ width: `${view.learners ? (100 * s.done) / view.learners : 0}%` }}
                  />
                </span>
                <span className="projector-step-count">
                  {s.done} of {view.learners} done{s.working > 0 ? ` · ${s.working} working` : ""}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ))}
      <section aria-labelledby="projector-mastery" className="projector-mastery">
        <h2 id="projector-mastery">Mastery by standard</h2>
        <p className="muted">Groups under {view.k} learners are not shown.</p>
        <table>
          <thead>
            <tr>
              <th scope="col">Standard</th>
              <th scope="col">Evidence</th>
            </tr>
          </thead>
          <tbody>
            {view.mastery.map((m) => (
              <tr key={m.standard} data-visibility={m.visibility}>
                <th scope="row">{m.standard}</th>
                <td>{m.summary}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {view.knowledge.length ? (
        <section aria-labelledby="projector-knowledge" className="projector-mastery">
          <h2 id="projector-knowledge">Where the class stands</h2>
          <table data-testid="projector-knowledge">
            <thead>
              <tr>
                <th scope="col">Standard</th>
                {view.knowledge[0]?.states.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.knowledge.map((k, ki) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
                <tr key={ki}>
                  <th scope="row">{k.title}</th>
                  {k.states.map((s) => (
                    <td key={s.label}>{s.shown}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {view.pathway_map.map((p, pi) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
        <section key={pi} aria-label={`Where everyone is: ${p.title}`} className="projector-mastery">
          <h2>Where everyone is: {p.title}</h2>
          <table data-testid="projector-pathway-map">
            <thead>
              <tr>
                <th scope="col">Step</th>
                {p.steps[0]?.states.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {p.steps.map((step, si) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
                <tr key={si}>
                  <th scope="row">
                    {si + 1}. {step.title}
                    {step.pacing_limit ? <strong> · Pacing: up to here</strong> : null}
                  </th>
                  {step.states.map((s) => (
                    <td key={s.label}>{s.shown}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </main>
  );
}
