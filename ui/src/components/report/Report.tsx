import { Printer } from "lucide-react";
import { useState } from "react";
import { dateTime, span } from "../../format";
import { num, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type {
  AssignmentReportView,
  AssignmentView,
  Outcome,
  ReportView,
  StandardView,
  StepReportView,
  TeacherIpc,
} from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { ShowWorkToggle } from "../class/ShownWork";

type FollowUpReason = AssignmentReportView["follow_ups"][number]["reason"];

/** The step table's outcome columns, in order. */
const COUNTS: Outcome[] = ["first_try", "after_retries", "incorrect", "no_verdict", "not_reached"];

/** An outcome column's heading. */
function countLabel(outcome: Outcome): string {
  switch (outcome) {
    case "first_try":
      return t("report-right-first-try");
    case "after_retries":
      return t("report-right-after-retries");
    case "incorrect":
      return t("report-wrong");
    case "no_verdict":
      return t("report-no-verdict");
    case "not_reached":
      return t("report-not-reached");
  }
}

function reasonText(reason: FollowUpReason): string {
  return reason === "missed_help_request" ? t("report-reason-missed-help") : t("report-reason-wrong-answer");
}

/**
 * Rust's `progress::mastery::MIN_EVIDENCE`: a standard with fewer checked results says "not enough
 * evidence". The report's mastery is never suppressed, so its `summary` is one of the two sentences
 * below, built here from the counts beside it (the bindings carry no `not_enough_evidence` on a
 * `StandardView`).
 */
const MIN_EVIDENCE = 3;

function masterySummary(m: StandardView): string {
  return m.checked < MIN_EVIDENCE
    ? t("report-not-enough-evidence", { checked: m.checked })
    : t("report-correct-of-checked", { correct: m.correct, checked: m.checked });
}

/** A mean to one decimal, in the teacher's locale ("1.5", "1,5"). */
function mean(v: number | null): string {
  return v === null ? "—" : num(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
}

/**
 * The after-class report as the window shows and prints it: one page per assignment with the
 * completion, the step report (a count opens its learners), mastery by standard and who needs a
 * follow-up. Anonymous ids unless the teacher asks for names. Print uses the window's own print
 * (the print stylesheet keeps only the report, a page per assignment).
 */
export function Report({
  ipc,
  classId,
  assignments,
  changeTick,
  onStudent,
}: {
  ipc: TeacherIpc;
  classId: string;
  assignments: AssignmentView[];
  changeTick: number;
  onStudent?: (learner: string) => void;
}) {
  const [which, setWhich] = useState<string>("");
  const [identified, setIdentified] = useState(false);
  const [report, setReport] = useState<ReportView | null>(null);
  const [error, setError] = useState<string | null>(null);

  // `identified` is in the key: a report with names asked for before the teacher turned them off
  // never lands after the one without.
  useLiveLoad(
    (keep) =>
      ipc.classView.report(classId, which || null, identified).then(
        keep((r: ReportView) => {
          setReport(r);
          setError(null);
        }),
        keep((e: unknown) => {
          setReport(null);
          setError(ipc.toUiError(e).message);
        }),
      ),
    [ipc, classId, which, identified],
    changeTick,
  );

  return (
    <section className="report" aria-labelledby="report-title" data-testid="report">
      <fieldset className="report-controls no-print">
        <legend className="visually-hidden">{t("report-options")}</legend>
        <label>
          {t("report-assignment")}{" "}
          <select value={which} onChange={(e) => setWhich(e.target.value)} data-testid="report-choose">
            <option value="">{t("report-every-assignment")}</option>
            {assignments.map((a) => (
              <option key={a.assignment_id} value={a.assignment_id} translate="no" dir="auto">
                {a.pathway_title}
              </option>
            ))}
          </select>
        </label>
        <label>
          <input
            type="checkbox"
            checked={identified}
            onChange={(e) => setIdentified(e.target.checked)}
            data-testid="report-names"
          />{" "}
          {t("report-names-option")}
        </label>
        <button type="button" onClick={() => window.print()} data-testid="report-print">
          <Printer className="icon" size={16} aria-hidden="true" focusable="false" />
          {t("report-print")}
        </button>
      </fieldset>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {report ? (
        <>
          <header className="report-head">
            {/* The name as one string too: the class's title is the host's (marked so), and a
                heading read out should not break before the colon. */}
            <h3
              id="report-title"
              aria-label={
                report.identified
                  ? t("report-title-with-names", { class: report.class_title })
                  : t("report-title", { class: report.class_title })
              }
            >
              {report.identified
                ? tx("report-title-with-names", { class: <UserText>{report.class_title}</UserText> })
                : tx("report-title", { class: <UserText>{report.class_title}</UserText> })}
            </h3>
            <p className="muted">{t("report-made", { when: dateTime(Date.parse(report.generated_at)) })}</p>
          </header>
          {report.assignments.length === 0 ? <p className="muted">{t("report-no-pathway")}</p> : null}
          {report.assignments.map((a) => (
            <AssignmentReport key={a.assignment_id} a={a} onStudent={report.identified ? undefined : onStudent} />
          ))}
        </>
      ) : null}
    </section>
  );
}

function AssignmentReport({ a, onStudent }: { a: AssignmentReportView; onStudent?: (learner: string) => void }) {
  const [who, setWho] = useState<{ step: string; outcome: Outcome } | null>(null);
  const c = a.completion;
  return (
    <article className="report-assignment" aria-label={a.pathway_title} data-testid="report-assignment">
      <h4>
        <UserText>{a.pathway_title}</UserText>
      </h4>
      <p data-testid="report-completion">
        {t("report-completion", { learners: c.learners, started: c.started, finished: c.finished })}
      </p>
      {/* A wide table scrolls in its own box, not the page (longer languages widen it). */}
      <div className="table-scroll">
        <table className="report-steps">
          <caption>{t("report-steps-caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("report-step")}</th>
              {COUNTS.map((k) => (
                <th scope="col" key={k}>
                  {countLabel(k)}
                </th>
              ))}
              <th scope="col">{t("report-mean-attempts")}</th>
              <th scope="col">{t("report-mean-hints")}</th>
              <th scope="col">
                <abbr title={t("report-median-time-explained")}>{t("report-median-time")}</abbr>
              </th>
              <th scope="col">
                <abbr title={t("report-helped-then-right-explained")}>{t("report-helped-then-right")}</abbr>
              </th>
              <th scope="col">{t("report-common-responses")}</th>
            </tr>
          </thead>
          <tbody>
            {a.steps.map((s, i) => (
              <tr key={s.widget_id}>
                <th scope="row">
                  {tx("report-step-row", { position: i + 1, title: <UserText>{s.title}</UserText> })}
                  {s.standard ? (
                    <span className="muted">
                      {" "}
                      {tx("report-step-standard", { standard: <UserText>{s.standard}</UserText> })}
                    </span>
                  ) : null}
                </th>
                {COUNTS.map((k) => (
                  <td key={k}>
                    <button
                      type="button"
                      className="link count"
                      aria-expanded={who?.step === s.widget_id && who.outcome === k}
                      aria-label={t("report-count-list", { step: s.title, outcome: countLabel(k), count: s[k] })}
                      disabled={s[k] === 0}
                      onClick={() =>
                        setWho((cur) =>
                          cur?.step === s.widget_id && cur.outcome === k ? null : { step: s.widget_id, outcome: k },
                        )
                      }
                    >
                      {num(s[k])}
                    </button>
                  </td>
                ))}
                <td>{mean(s.mean_attempts)}</td>
                <td>{mean(s.mean_hints)}</td>
                <td data-testid="median-time">{s.median_time_ms === null ? "—" : span(s.median_time_ms)}</td>
                <td data-testid="helped">
                  {s.helped === 0
                    ? "—"
                    : t("report-helped-then-right-counts", { helped: s.helped, right: s.then_right })}
                </td>
                <td>
                  {s.common_responses.length === 0 ? (
                    "—"
                  ) : (
                    <ul className="responses">
                      {s.common_responses.map((r) => (
                        <li key={r.response}>
                          <q className="student-words" translate="no" dir="auto">
                            {r.response}
                          </q>{" "}
                          {t("report-response-times", { count: r.count })} <ShowWorkToggle text={r.response} />
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {who ? (
        <WhoList step={a.steps.find((s) => s.widget_id === who.step)} outcome={who.outcome} onStudent={onStudent} />
      ) : null}
      <div className="table-scroll">
        <table className="report-mastery">
          <caption>{t("report-mastery-caption")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("report-standard")}</th>
              <th scope="col">{t("report-learners")}</th>
              <th scope="col">{t("report-checked")}</th>
              <th scope="col">{t("report-correct")}</th>
              <th scope="col">{t("report-summary")}</th>
            </tr>
          </thead>
          <tbody>
            {a.mastery.map((m) => (
              <tr key={m.standard ?? "all"}>
                <th scope="row">
                  {m.standard === null ? t("report-all-standards") : <UserText>{m.standard}</UserText>}
                </th>
                <td>{num(m.learners)}</td>
                <td>{num(m.checked)}</td>
                <td>{num(m.correct)}</td>
                <td>{masterySummary(m)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h5>{t("report-follow-ups")}</h5>
      {a.follow_ups.length === 0 ? <p className="muted">{t("report-nobody")}</p> : null}
      <ul className="report-follow-ups" data-testid="report-follow-ups">
        {a.follow_ups.map((f) => (
          <li key={`${f.learner}/${f.widget_id}/${f.reason}`}>
            {tx("report-follow-up", {
              learner: <UserText>{f.learner}</UserText>,
              step: <UserText>{f.step_title}</UserText>,
              reason: reasonText(f.reason),
            })}
          </li>
        ))}
      </ul>
    </article>
  );
}

function WhoList({
  step,
  outcome,
  onStudent,
}: {
  step: StepReportView | undefined;
  outcome: Outcome;
  onStudent?: (learner: string) => void;
}) {
  if (!step) return null;
  const learners = step.who[outcome];
  return (
    <section className="who-list" aria-live="polite" data-testid="report-who">
      <h5>{tx("report-who-heading", { step: <UserText>{step.title}</UserText>, outcome, count: learners.length })}</h5>
      <ul>
        {learners.map((l) => (
          <li key={l}>
            {onStudent ? (
              <button type="button" className="link" onClick={() => onStudent(l)}>
                <UserText>{l}</UserText>
              </button>
            ) : (
              <UserText>{l}</UserText>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
