import { ArrowLeft, Check, Circle, Dot, Flag, Hand, PencilLine, TriangleAlert, X } from "lucide-react";
import { useState } from "react";
import { clockTime, dateTime, span } from "../../format";
import { t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { Outcome, StepStatus, StudentHelpView, StudentPageView, StudentStepView, TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { DetailTable } from "../class/DetailTable";
import { afterHelpLabel } from "../help/afterHelp";

/** An outcome in words, in the teacher's language. */
export function outcomeLabel(outcome: Outcome): string {
  switch (outcome) {
    case "first_try":
      return t("student-outcome-first-try");
    case "after_retries":
      return t("student-outcome-after-retries");
    case "incorrect":
      return t("student-outcome-incorrect");
    case "no_verdict":
      return t("student-outcome-no-verdict");
    case "not_reached":
      return t("student-outcome-not-reached");
  }
}

/** Each outcome's icon (beside its word: never colour alone). */
const OUTCOME_ICON: Record<Outcome, typeof Check> = {
  first_try: Check,
  after_retries: Check,
  incorrect: X,
  no_verdict: Circle,
  not_reached: Dot,
};

function statusLabel(status: StepStatus): string {
  switch (status) {
    case "done":
      return t("student-status-done");
    case "current":
      return t("student-status-current");
    case "upcoming":
      return t("student-status-upcoming");
  }
}

/**
 * What became of a help request, from its state (the core's `help_outcome` words). A missed one
 * says whether it was followed up, which the view does not carry apart: the core's words then.
 */
function helpOutcome(h: StudentHelpView): string {
  switch (h.state) {
    case "open":
    case "claimed_by_other":
      return t("student-help-waiting");
    case "claimed_by_me":
      return t("student-help-waiting-mine");
    case "answered":
      return h.visit_promised_at_ms !== null ? t("student-help-answered-visit") : t("student-help-answered");
    case "declined":
      return t("student-help-declined");
    case "expired":
    case "failed":
      return h.outcome;
  }
}

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
          <ArrowLeft className="icon flip-rtl" size={16} aria-hidden="true" focusable="false" />
          {t("student-back")}
        </button>
        <h3 id="student-title" translate="no" dir="auto">
          {page?.label ?? learner}
        </h3>
        {page && page.label !== page.learner ? (
          <span className="muted">{tx("student-in-parens", { text: <UserText>{page.learner}</UserText> })}</span>
        ) : null}
      </header>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {page ? (
        <>
          {page.pathways.length === 0 ? <p className="muted">{t("student-no-pathway")}</p> : null}
          {page.pathways.map((p) => (
            <section key={p.assignment_id} className="student-pathway" aria-label={p.pathway_title}>
              <h4>
                <UserText>{p.pathway_title}</UserText>{" "}
                <span className="muted">
                  {p.quiet_ms !== null && p.quiet_ms !== undefined
                    ? t("student-progress-last-event", { done: p.done, total: p.steps.length, ago: span(p.quiet_ms) })
                    : t("student-progress-not-started", { done: p.done, total: p.steps.length })}
                </span>
                {p.idle ? <span className="badge badge-idle">{t("student-idle")}</span> : null}
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
            <h4 id="student-help">{t("student-help-history")}</h4>
            {page.help.length === 0 ? <p className="muted">{t("student-no-help")}</p> : null}
            <ul>
              {page.help.map((h) => (
                <li key={h.call_id} data-testid="student-help-item">
                  <p>
                    <Hand className="icon" size={14} aria-hidden="true" focusable="false" />{" "}
                    {tx("student-help-asked", {
                      at: dateTime(h.asked_at_ms),
                      step: <UserText>{h.step_title}</UserText>,
                      question: (
                        <q className="student-words" translate="no" dir="auto">
                          {h.question}
                        </q>
                      ),
                    })}
                  </p>
                  <p className="muted">
                    {helpOutcome(h)}
                    {h.after_help ? (
                      <span data-testid="student-after-help"> · {afterHelpLabel(h.after_help)}</span>
                    ) : null}
                    {h.answer ? (
                      <>
                        {" "}
                        {tx("student-help-answer", {
                          answer: (
                            <q className="student-words" translate="no" dir="auto">
                              {h.answer}
                            </q>
                          ),
                        })}
                      </>
                    ) : null}
                    {h.visit_promised_at_ms !== null ? (
                      <>
                        {" "}
                        {h.visit_done
                          ? t("student-help-visit-done", { time: clockTime(h.visit_promised_at_ms) })
                          : t("student-help-visit-not-done", { time: clockTime(h.visit_promised_at_ms) })}
                      </>
                    ) : null}
                  </p>
                </li>
              ))}
            </ul>
          </section>
          <section aria-labelledby="student-timeline" className="student-timeline">
            <h4 id="student-timeline">{t("student-timeline")}</h4>
            {page.timeline.length === 0 ? <p className="muted">{t("student-timeline-empty")}</p> : null}
            <ol>
              {page.timeline.map((e, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: events carry no id; the list is replaced whole
                <li key={i} className={`event-${e.kind}`}>
                  <time dateTime={e.at_ms === null ? undefined : new Date(e.at_ms).toISOString()}>
                    {clockTime(e.at_ms)}
                  </time>{" "}
                  {tx("student-event", { title: <UserText>{e.step_title}</UserText>, what: e.what })}
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
  const Icon = step.status === "current" ? PencilLine : OUTCOME_ICON[step.outcome];
  const words = step.status === "done" ? outcomeLabel(step.outcome) : statusLabel(step.status);
  return (
    <li className={`strip-step outcome-${step.outcome} status-${step.status}`}>
      <button
        type="button"
        aria-expanded={open}
        title={t("student-step-title", { n: index + 1, title: step.title, words })}
        onClick={onToggle}
        data-outcome={step.outcome}
        data-status={step.status}
      >
        <Icon className="icon" size={16} aria-hidden="true" focusable="false" />
        <span className="strip-title">
          {tx("student-step-numbered", { n: index + 1, title: <UserText>{step.title}</UserText> })}
        </span>
        <span className="visually-hidden">: </span>
        <span className="strip-words">{words}</span>
        {step.struggles ? (
          <span className="visually-hidden">{t("student-struggled", { count: step.struggles })}</span>
        ) : null}
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
    <section
      className="step-evidence"
      data-testid="student-evidence"
      aria-label={t("student-evidence-label", { title: step.title })}
    >
      <h5>
        <UserText>{step.title}</UserText>
        {step.standard ? (
          <span className="muted"> {tx("student-in-parens", { text: <UserText>{step.standard}</UserText> })}</span>
        ) : null}
      </h5>
      {step.runs.length === 0 ? <p className="muted">{t("student-no-completion")}</p> : null}
      {step.time_on_step_ms !== null ? (
        <p data-testid="time-on-step">
          {t("student-took", { span: span(step.time_on_step_ms) })}{" "}
          <span className="muted">{t("student-took-since")}</span>
        </p>
      ) : null}
      {step.runs.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: runs carry no id here; the list is read-only
        <article key={i} className="evidence-result">
          <p className="prose" translate="no" dir="auto">
            {r.prose}
          </p>
          <p>
            <strong>{r.result}</strong>
            {r.score !== null ? ` · ${t("student-score", { score: r.score })}` : ""} · {dateTime(r.at_ms)}
          </p>
          <DetailTable fields={r.detail} caption={t("student-details-caption")} />
        </article>
      ))}
    </section>
  );
}
