import type { ClassSummary } from "../ipc";

/** A class: its join code and what the store knows of it so far. */
export function ClassView({ summary }: { summary: ClassSummary }) {
  return (
    <section aria-labelledby="class-title" data-testid="class-view">
      <h2 id="class-title">{summary.title}</h2>
      <dl className="facts">
        <div>
          <dt>Join code</dt>
          <dd data-testid="join-code">{summary.join_code ?? "—"}</dd>
        </div>
        <div>
          <dt>Learners</dt>
          <dd data-testid="learner-count">{summary.learners}</dd>
        </div>
        <div>
          <dt>Open help requests</dt>
          <dd>{summary.open_requests}</dd>
        </div>
      </dl>
    </section>
  );
}
