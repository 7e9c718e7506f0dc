import { ArrowLeft, Check, Circle, Dot, Flag, Hand, PencilLine, TriangleAlert, X } from "lucide-react";
import { useState } from "react";
import { clockTime, dateTime, span } from "../../format";
import type { Outcome, StepStatus, StudentPageView, StudentStepView, TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { DetailTable } from "../class/DetailTable";
import { AFTER_HELP } from "../help/afterHelp";

/** Each outcome by icon and word (never colour alone). */
export const OUTCOME: Record<Outcome, { label: string; icon: typeof Check }> = {
  first_try: { label: "right first try", icon: Check },
  after_retries: { label: "right after retries", icon: Check },
  incorrect: { label: "wrong", icon: X },
  no_verdict: { label: "completed, no verdict", icon: Circle },
  not_reached: { label: "not reached", icon: Dot },
};

const STATUS: Record<StepStatus, string> = { done: "done", current: "working on it", upcoming: "upcoming" };

/**
 * One student's page (the teacher's window only): a strip per assigned pathway, each step's
 * evidence as readable fields, their help history and a timeline. All the student's words
 * (answers, questions) are text, never markup. Refetches on every store change.
 */
export function StudentPage({
  ipc,
  classId,
  learner,
  changeTick,
  onBack,
}: {
  ipc: TeacherIpc;
  classId: string;
  learner: string;
  changeTick: number;
  onBack: () => void;
}) {
  const [page, setPage] = useState<StudentPageView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);

  useLiveLoad(
    (keep) =>
      ipc.classView.studentPage(classId, learner).then(
        keep((p: StudentPageView) => {
          setPage(p);
          setError(null);
        }),
        keep((e: unknown) => setError(ipc.toUiError(e).message)),
      ),
    [ipc, classId, learner],
    changeTick,
  );

  return (
    <section className="student-page" aria-labelledby="student-title" data-testid="student-page">
      <header className="student-head">
        <button type="button" onClick={onBack} data-testid="student-back">
          <ArrowLeft className="icon" size={16} aria-hidden="true" focusable="false" />
          Back to the class
        </button>
        <h3 id="student-title">{page?.label ?? learner}</h3>
        {page && page.label !== page.learner ? <span className="muted">({page.learner})</span> : null}
      </header>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {page ? (
        <>
          {page.pathways.length === 0 ? <p className="muted">No pathway assigned yet.</p> : null}
          {page.pathways.map((p) => (
            <section key={p.assignment_id} className="student-pathway" aria-label={p.pathway_title}>
              <h4>
                {p.pathway_title}{" "}
                <span className="muted">
                  {p.done} of {p.steps.length} steps done
                  {p.quiet_ms !== null && p.quiet_ms !== undefined
                    ? ` · last event ${span(p.quiet_ms)} ago`
                    : " · not started"}
                </span>
                {p.idle ? <span className="badge badge-idle">idle</span> : null}
              </h4>
              <ol className="strip" data-testid="student-strip">
                {p.steps.map((s, i) => (
                  <StripStep
                    key={s.widget_id}
                    index={i}
                    step={s}
                    open={open === `${p.assignment_id}/${s.widget_id}`}
                    onToggle={() =>
                      setOpen((cur) =>
                        cur === `${p.assignment_id}/${s.widget_id}` ? null : `${p.assignment_id}/${s.widget_id}`,
                      )
                    }
                  />
                ))}
              </ol>
              {p.steps
                .filter((s) => open === `${p.assignment_id}/${s.widget_id}`)
                .map((s) => (
                  <StepEvidence key={s.widget_id} step={s} />
                ))}
            </section>
          ))}
          <section aria-labelledby="student-help" className="student-help">
            <h4 id="student-help">Help history</h4>
            {page.help.length === 0 ? <p className="muted">No help request.</p> : null}
            <ul>
              {page.help.map((h) => (
                <li key={h.call_id} data-testid="student-help-item">
                  <p>
                    <Hand className="icon" size={14} aria-hidden="true" focusable="false" /> {dateTime(h.asked_at_ms)},{" "}
                    {h.step_title}: <q className="student-words">{h.question}</q>
                  </p>
                  <p className="muted">
                    {h.outcome}
                    {h.after_help ? <span data-testid="student-after-help"> · {AFTER_HELP[h.after_help]}</span> : null}
                    {h.answer ? (
                      <>
                        {" "}
                        — answer: <q className="student-words">{h.answer}</q>
                      </>
                    ) : null}
                    {h.visit_promised_at_ms !== null
                      ? ` — visit promised at ${clockTime(h.visit_promised_at_ms)}${h.visit_done ? ", done" : ", not done yet"}`
                      : ""}
                  </p>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="student-timeline" className="student-timeline">
            <h4 id="student-timeline">Timeline</h4>
            {page.timeline.length === 0 ? <p className="muted">Nothing yet.</p> : null}
            <ol>
              {page.timeline.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: events carry no id; the list is replaced whole
                <li key={i} className={`event-${e.kind}`}>
                  <time dateTime={e.at_ms === null ? undefined : new Date(e.at_ms).toISOString()}>
                    {clockTime(e.at_ms)}
                  </time>{" "}
                  {e.text}
                </li>
              ))}
            </ol>
          </section>
        </>
      ) : null}
    </section>
  );
}

function StripStep({
  index,
  step,
  open,
  onToggle,
}: {
  index: number;
  step: StudentStepView;
  open: boolean;
  onToggle: () => void;
}) {
  const outcome = OUTCOME[step.outcome];
  const Icon = step.status === "current" ? PencilLine : outcome.icon;
  const words = step.status === "done" ? outcome.label : STATUS[step.status];
  return (
    <li className={`strip-step outcome-${step.outcome} status-${step.status}`}>
      <button
        type="button"
        aria-expanded={open}
        title={`${index + 1}. ${step.title}: ${words}`}
        onClick={onToggle}
        data-outcome={step.outcome}
        data-status={step.status}
      >
        <Icon className="icon" size={16} aria-hidden="true" focusable="false" />
        <span className="strip-title">
          {index + 1}. {step.title}
        </span>
        <span className="visually-hidden">: </span>
        <span className="strip-words">{words}</span>
        {step.struggles ? <span className="visually-hidden">, struggled {step.struggles}×</span> : null}
        {step.struggles ? (
          <TriangleAlert className="icon" size={12} aria-hidden="true" focusable="false" />
        ) : step.outcome === "incorrect" ? (
          <Flag className="icon" size={12} aria-hidden="true" focusable="false" />
        ) : null}
      </button>
    </li>
  );
}

/** The runs of one step, newest first: the widget's sentence, the result in words, the detail. */
function StepEvidence({ step }: { step: StudentStepView }) {
  return (
    <section className="step-evidence" data-testid="student-evidence" aria-label={`${step.title}: evidence`}>
      <h5>
        {step.title}
        {step.standard ? <span className="muted"> ({step.standard})</span> : null}
      </h5>
      {step.runs.length === 0 ? <p className="muted">No completion yet.</p> : null}
      {step.time_on_step_ms !== null ? (
        <p data-testid="time-on-step">
          Took {span(step.time_on_step_ms)} <span className="muted">(from finishing the step before)</span>
        </p>
      ) : null}
      {step.runs.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: runs carry no id here; the list is read-only
        <article key={i} className="evidence-result">
          <p className="prose">{r.prose}</p>
          <p>
            <strong>{r.result}</strong>
            {r.score !== null ? ` · score ${r.score}` : ""} · {dateTime(r.at_ms)}
          </p>
          <DetailTable fields={r.detail} caption="Details the widget reported" />
        </article>
      ))}
    </section>
  );
}
