import { Printer } from "lucide-react";
import { useState } from "react";
import { dateTime, plural, span } from "../../format";
import type { AssignmentReportView, AssignmentView, Outcome, ReportView, StepReportView, TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { ShowWorkToggle } from "../class/ShownWork";
import { OUTCOME } from "../student/StudentPage";

const COUNTS: { key: Outcome; label: string }[] = [
  { key: "first_try", label: "Right first try" },
  { key: "after_retries", label: "Right after retries" },
  { key: "incorrect", label: "Wrong" },
  { key: "no_verdict", label: "No verdict" },
  { key: "not_reached", label: "Not reached" },
];

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
        <legend className="visually-hidden">Report options</legend>
        <label>
          Assignment{" "}
          <select value={which} onChange={(e) => setWhich(e.target.value)} data-testid="report-choose">
            <option value="">every assignment</option>
            {assignments.map((a) => (
              <option key={a.assignment_id} value={a.assignment_id}>
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
          Names on the report (your own copy: a default report shows anonymous ids)
        </label>
        <button type="button" onClick={() => window.print()} data-testid="report-print">
          <Printer className="icon" size={16} aria-hidden="true" focusable="false" />
          Print or save as PDF
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
            <h3 id="report-title">
              {report.class_title}: after-class report{report.identified ? " (with names)" : ""}
            </h3>
            <p className="muted">Made {dateTime(Date.parse(report.generated_at))}</p>
          </header>
          {report.assignments.length === 0 ? <p className="muted">No pathway assigned yet.</p> : null}
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
      <h4>{a.pathway_title}</h4>
      <p data-testid="report-completion">
        {plural(c.learners, "learner", "learners")}: {c.started} started, {c.finished} finished every step.
      </p>
      <table className="report-steps">
        <caption>Each step, by each learner's newest run</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            {COUNTS.map((k) => (
              <th scope="col" key={k.key}>
                {k.label}
              </th>
            ))}
            <th scope="col">Mean attempts</th>
            <th scope="col">Mean hints</th>
            <th scope="col">
              <abbr title="From finishing the step before to finishing this one (the first step has none)">
                Median time
              </abbr>
            </th>
            <th scope="col">
              <abbr title="Help requests answered or declined on the step, and how many of those learners then got it right">
                Helped · then right
              </abbr>
            </th>
            <th scope="col">Common responses</th>
          </tr>
        </thead>
        <tbody>
          {a.steps.map((s, i) => (
            <tr key={s.widget_id}>
              <th scope="row">
                {i + 1}. {s.title}
                {s.standard ? <span className="muted"> ({s.standard})</span> : null}
              </th>
              {COUNTS.map((k) => (
                <td key={k.key}>
                  <button
                    type="button"
                    className="link count"
                    aria-expanded={who?.step === s.widget_id && who.outcome === k.key}
                    aria-label={`${s.title}, ${k.label}: ${s[k.key]}; list them`}
                    disabled={s[k.key] === 0}
                    onClick={() =>
                      setWho((cur) =>
                        cur?.step === s.widget_id && cur.outcome === k.key
                          ? null
                          : { step: s.widget_id, outcome: k.key },
                      )
                    }
                  >
                    {s[k.key]}
                  </button>
                </td>
              ))}
              <td>{s.mean_attempts === null ? "—" : s.mean_attempts.toFixed(1)}</td>
              <td>{s.mean_hints === null ? "—" : s.mean_hints.toFixed(1)}</td>
              <td data-testid="median-time">{s.median_time_ms === null ? "—" : span(s.median_time_ms)}</td>
              <td data-testid="helped">{s.helped === 0 ? "—" : `helped ${s.helped} · then right ${s.then_right}`}</td>
              <td>
                {s.common_responses.length === 0 ? (
                  "—"
                ) : (
                  <ul className="responses">
                    {s.common_responses.map((r) => (
                      <li key={r.response}>
                        <q className="student-words">{r.response}</q> × {r.count} <ShowWorkToggle text={r.response} />
                      </li>
                    ))}
                  </ul>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {who ? (
        <WhoList step={a.steps.find((s) => s.widget_id === who.step)} outcome={who.outcome} onStudent={onStudent} />
      ) : null}
      <table className="report-mastery">
        <caption>Mastery by standard</caption>
        <thead>
          <tr>
            <th scope="col">Standard</th>
            <th scope="col">Learners</th>
            <th scope="col">Checked</th>
            <th scope="col">Correct</th>
            <th scope="col">Summary</th>
          </tr>
        </thead>
        <tbody>
          {a.mastery.map((m) => (
            <tr key={m.standard ?? "all"}>
              <th scope="row">{m.standard ?? "All standards"}</th>
              <td>{m.learners}</td>
              <td>{m.checked}</td>
              <td>{m.correct}</td>
              <td>{m.summary}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h5>Who needs a follow-up</h5>
      {a.follow_ups.length === 0 ? <p className="muted">Nobody.</p> : null}
      <ul className="report-follow-ups" data-testid="report-follow-ups">
        {a.follow_ups.map((f) => (
          <li key={`${f.learner}/${f.widget_id}/${f.reason}`}>
            {f.learner} — {f.step_title}: {f.reason === "missed_help_request" ? "missed help request" : "wrong answer"}
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
      <h5>
        {step.title}: {OUTCOME[outcome].label} ({learners.length})
      </h5>
      <ul>
        {learners.map((l) => (
          <li key={l}>
            {onStudent ? (
              <button type="button" className="link" onClick={() => onStudent(l)}>
                {l}
              </button>
            ) : (
              l
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
