import { Hand, X } from "lucide-react";
import { dateTime } from "../../format";
import { num, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
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
          {tx("class-evidence-title", {
            who: <UserText>{evidence.label}</UserText>,
            step: <UserText>{evidence.step_title}</UserText>,
          })}
        </h3>
        <button type="button" onClick={onClose} aria-keyshortcuts="Escape" title={t("class-evidence-close-title")}>
          <X className="icon" size={16} aria-hidden="true" focusable="false" />
          {t("class-evidence-close")}
        </button>
      </header>
      {onStudent && evidence.learner ? (
        <p>
          <button type="button" className="link" data-testid="open-student" onClick={() => onStudent(evidence.learner)}>
            {tx("class-open-student-page", { name: <UserText>{evidence.label}</UserText> })}
          </button>
        </p>
      ) : null}
      {evidence.open_requests > 0 ? (
        <p className="badge badge-alert">
          <Hand className="icon" size={14} strokeWidth={2.5} aria-hidden="true" focusable="false" />
          {t("class-evidence-open-requests", { count: evidence.open_requests })}
        </p>
      ) : null}
      {evidence.results.length === 0 ? <p className="muted">{t("class-evidence-no-completion")}</p> : null}
      {evidence.results.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: results carry no id; the list is read-only and replaced whole
        <article key={i} className="evidence-result">
          <p className="prose" data-testid="evidence-prose" translate="no" dir="auto">
            {r.prose}
          </p>
          <dl className="facts">
            <div>
              <dt>{t("class-evidence-kind")}</dt>
              <dd translate="no" dir="auto">
                {r.kind}
              </dd>
            </div>
            <div>
              <dt>{t("class-evidence-standard")}</dt>
              <dd translate="no" dir="auto">
                {r.standard ?? "—"}
              </dd>
            </div>
            <div>
              <dt>{t("class-evidence-correct")}</dt>
              <dd>
                {r.correct === null
                  ? t("class-evidence-no-check")
                  : r.correct
                    ? t("class-evidence-yes")
                    : t("class-evidence-no")}
              </dd>
            </div>
            <div>
              <dt>{t("class-evidence-attempts")}</dt>
              <dd>{num(r.attempts)}</dd>
            </div>
            <div>
              <dt>{t("class-evidence-hints")}</dt>
              <dd>{num(r.hints)}</dd>
            </div>
            <div>
              <dt>{t("class-evidence-score")}</dt>
              <dd>{r.score === null ? "—" : num(r.score)}</dd>
            </div>
            <div>
              <dt>{t("class-evidence-completed")}</dt>
              <dd>{dateTime(r.at_ms)}</dd>
            </div>
          </dl>
          <DetailTable fields={r.detail} caption={t("class-evidence-details")} />
          {r.detail
            .filter((f) => f.key === "response")
            .map((f) => (
              <p key={f.key} className="evidence-show">
                {tx("class-evidence-response", {
                  response: (
                    <q className="student-words" translate="no" dir="auto">
                      {f.value}
                    </q>
                  ),
                })}{" "}
                <ShowWorkToggle text={f.value} />
              </p>
            ))}
        </article>
      ))}
      {evidence.struggles.map((s, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: struggles carry no id; the list is read-only and replaced whole
        <article key={`s${i}`} className="evidence-struggle">
          <p className="prose" translate="no" dir="auto">
            {s.prose}
          </p>
          <p className="muted">
            {t("class-evidence-struggle", {
              failed: s.failed_checks,
              hints: s.hints,
              at: dateTime(s.at_ms),
            })}
          </p>
        </article>
      ))}
    </section>
  );
}
