import { useCallback, useEffect, useState } from "react";
import { masterySummary } from "../components/class/Mastery";
import { shownCount, stateLabel, statusLabel } from "../components/maps/words";
import { t } from "../i18n";
import { tx, UserText } from "../i18n/Tx";
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
  // The window's title in its language (the page renders anew on a change of language).
  useEffect(() => {
    document.title = t("projector-window-title");
  }, []);

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
        <p>{t("projector-loading")}</p>
      </main>
    );
  }
  return (
    <main className="projector" data-testid="projector" aria-labelledby="projector-title">
      <h1 id="projector-title">{t("projector-title", { count: view.learners })}</h1>
      <section aria-labelledby="projector-help" className="projector-help">
        <h2 id="projector-help">{t("projector-help-title")}</h2>
        <p data-testid="projector-waiting">{t("projector-waiting", { count: view.waiting_for_help })}</p>
        {view.help_queue.length > 0 ? (
          <ol className="projector-queue" aria-label={t("projector-help-queue")}>
            {view.help_queue.map((alias) => (
              <li key={alias}>{alias}</li>
            ))}
          </ol>
        ) : null}
      </section>
      {view.shown_work.length > 0 ? (
        <section aria-labelledby="projector-work" className="projector-work" data-testid="projector-work">
          <h2 id="projector-work">{t("projector-work-title")}</h2>
          <ul>
            {view.shown_work.map((r) => (
              <li key={r.letter}>
                <strong>{t("projector-response-label", { letter: r.letter })}</strong>{" "}
                <q dir="auto" translate="no">
                  {r.text}
                </q>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {view.pathways.map((p, pi) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
        <section key={pi} className="projector-pathway" aria-label={t("projector-progress", { title: p.title })}>
          <h2 translate="no" dir="auto">
            {p.title}
          </h2>
          <ol className="projector-steps">
            {p.steps.map((s, si) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
              <li key={si} className="projector-step">
                <span className="projector-step-title" translate="no" dir="auto">
                  {s.title}
                </span>
                <span className="projector-bar" aria-hidden="true">
                  <span
                    className="projector-bar-done"
                    style={{ width: `${view.learners ? (100 * s.done) / view.learners : 0}%` }}
                  />
                </span>
                <span className="projector-step-count">
                  {s.working > 0
                    ? t("projector-step-done-working", { done: s.done, learners: view.learners, working: s.working })
                    : t("projector-step-done", { done: s.done, learners: view.learners })}
                </span>
              </li>
            ))}
          </ol>
        </section>
      ))}
      <section aria-labelledby="projector-mastery" className="projector-mastery">
        <h2 id="projector-mastery">{t("projector-mastery-title")}</h2>
        <p className="muted">{t("projector-small-groups", { k: view.k })}</p>
        <table>
          <thead>
            <tr>
              <th scope="col">{t("projector-standard")}</th>
              <th scope="col">{t("projector-evidence")}</th>
            </tr>
          </thead>
          <tbody>
            {view.mastery.map((m) => (
              <tr key={m.standard ?? ""} data-visibility={m.visibility}>
                <th scope="row">
                  {m.standard === null ? t("projector-other-steps") : <UserText>{m.standard}</UserText>}
                </th>
                <td>{masterySummary(m, view.k)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {view.knowledge.length ? (
        <section aria-labelledby="projector-knowledge" className="projector-mastery">
          <h2 id="projector-knowledge">{t("projector-knowledge-title")}</h2>
          <table data-testid="projector-knowledge">
            <thead>
              <tr>
                <th scope="col">{t("projector-standard")}</th>
                {view.knowledge[0]?.states.map((s) => (
                  <th scope="col" key={s.state}>
                    {stateLabel(s.state)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {view.knowledge.map((k, ki) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
                <tr key={ki}>
                  <th scope="row" translate="no" dir="auto">
                    {k.title}
                  </th>
                  {k.states.map((s) => (
                    <td key={s.state}>{shownCount(s, view.k)}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {view.pathway_map.map((p, pi) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
        <section key={pi} aria-label={t("projector-pathway-map", { title: p.title })} className="projector-mastery">
          <h2>{tx("projector-pathway-map", { title: <UserText>{p.title}</UserText> })}</h2>
          <table data-testid="projector-pathway-map">
            <thead>
              <tr>
                <th scope="col">{t("projector-step")}</th>
                {p.steps[0]?.states.map((s) => (
                  <th scope="col" key={s.status}>
                    {statusLabel(s.status)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {p.steps.map((step, si) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: the projector view carries no ids on purpose and titles may repeat
                <tr key={si}>
                  <th scope="row">
                    {tx("projector-step-numbered", { n: si + 1, title: <UserText>{step.title}</UserText> })}
                    {step.pacing_limit ? <strong> {t("projector-pacing-limit")}</strong> : null}
                  </th>
                  {step.states.map((s) => (
                    <td key={s.status}>{shownCount(s, view.k)}</td>
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
