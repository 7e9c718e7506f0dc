import { type ReactNode, useState } from "react";
import { t } from "../i18n";
import { tx, UserText } from "../i18n/Tx";
import type { CheckResult, Diagnostics, HostCheckView, TeacherIpc } from "../ipc";
import { useLiveLoad } from "../ipc/liveLoad";

/**
 * Frames that broke the transport or the contract, with the rule that rejected each. A widget
 * that breaks the contract is a bug someone must fix; this is where it shows. Raw frames are
 * untrusted input: React renders them as text.
 */
export function DiagnosticsView({ ipc, changeTick }: { ipc: TeacherIpc; changeTick: number }) {
  const [data, setData] = useState<Diagnostics | null>(null);
  const [error, setError] = useState<string | null>(null);

  useLiveLoad(
    (keep) =>
      ipc.diagnostics().then(
        keep(setData),
        keep((e: unknown) => setError(ipc.toUiError(e).message)),
      ),
    [ipc],
    changeTick,
  );

  return (
    <section aria-labelledby="diagnostics-title">
      <h2 id="diagnostics-title">{t("diagnostics-title")}</h2>
      <HostCheck ipc={ipc} />
      <h3>{t("diagnostics-quarantine-title")}</h3>
      {error ? <p role="alert">{error}</p> : null}
      {data === null ? (
        <p className="muted">{t("diagnostics-loading")}</p>
      ) : data.recent.length === 0 ? (
        <p data-testid="quarantine-empty">{t("diagnostics-quarantine-empty")}</p>
      ) : (
        <>
          <h3>{t("diagnostics-by-rule")}</h3>
          <ul className="rule-counts">
            {data.by_rule.map((r) => (
              <li key={r.rule_id}>
                {tx("diagnostics-rule-count", {
                  rule: <code translate="no">{r.rule_id}</code>,
                  count: r.count,
                })}
              </li>
            ))}
          </ul>
          <h3>{t("diagnostics-recent")}</h3>
          <table className="quarantine" data-testid="quarantine-table">
            <thead>
              <tr>
                <th scope="col">{t("diagnostics-col-seq")}</th>
                <th scope="col">{t("diagnostics-col-rule")}</th>
                <th scope="col">{t("diagnostics-col-why")}</th>
                <th scope="col">{t("diagnostics-col-frame")}</th>
              </tr>
            </thead>
            <tbody>
              {data.recent.map((q) => (
                <tr key={q.id}>
                  <td>{q.seq ?? "—"}</td>
                  <td>
                    <code translate="no">{q.rule_id}</code>
                  </td>
                  {/* The validator's sentence (English, from the backend): it names the frame's fields. */}
                  <td>{q.message}</td>
                  <td>
                    <code className="raw" translate="no" dir="ltr">
                      {q.raw}
                    </code>
                    {q.raw_bytes > q.raw.length ? (
                      <>
                        {" "}
                        <span className="muted">{t("diagnostics-raw-cut", { bytes: q.raw_bytes })}</span>
                      </>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

/**
 * Every rule of the host interface, checked (read-only) on the host the app follows now: what a
 * school's IT or the host's builder needs when the class shows less than it should. The details
 * come from the host: rendered as text.
 */
function HostCheck({ ipc }: { ipc: TeacherIpc }) {
  const [result, setResult] = useState<HostCheckView | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="host-check" data-testid="host-check">
      <h3>{t("diagnostics-host-title")}</h3>
      <button
        type="button"
        disabled={running}
        onClick={() => {
          setRunning(true);
          setError(null);
          ipc
            .checkFollowedHost()
            .then(setResult)
            .catch((e: unknown) => setError(ipc.toUiError(e).message))
            .finally(() => setRunning(false));
        }}
      >
        {t("diagnostics-host-check")}
      </button>
      {running ? (
        <p className="muted" role="status">
          {t("diagnostics-host-checking")}
        </p>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {result ? (
        <>
          <p role="status" data-testid="host-check-verdict" className={result.works ? undefined : "field-error"}>
            {hostVerdict(result)}
          </p>
          <table className="host-checks" data-testid="host-check-table">
            <thead>
              <tr>
                <th scope="col">{t("diagnostics-check-col-result")}</th>
                <th scope="col">{t("diagnostics-check-col-rule")}</th>
                <th scope="col">{t("diagnostics-check-col-where")}</th>
                <th scope="col">{t("diagnostics-check-col-seen")}</th>
              </tr>
            </thead>
            <tbody>
              {result.checks.map((c) => (
                <tr key={c.id} data-status={c.status}>
                  <td>{checkStatus(c)}</td>
                  <td>
                    {/* The rule in a few words, in the teacher's language, beside its stable id. */}
                    {checkWhat(c)} <code translate="no">{c.id}</code>
                  </td>
                  <td>
                    <UserText>{c.section}</UserText>
                  </td>
                  <td>{c.detail ? <UserText>{c.detail}</UserText> : null}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}

/**
 * A check's rule in a few words, in the teacher's language, by its stable id (the checker's
 * `src/host/check`). A check this version does not know keeps the checker's own words (English).
 */
export function checkWhat(c: Pick<CheckResult, "id" | "what">): string {
  switch (c.id) {
    case "auth.refused":
      return t("diagnostics-check-auth-refused");
    case "auth.accepted":
      return t("diagnostics-check-auth-accepted");
    case "tools.required":
      return t("diagnostics-check-tools-required");
    case "tools.optional":
      return t("diagnostics-check-tools-optional");
    case "catalog.valid":
      return t("diagnostics-check-catalog-valid");
    case "feed.unknown-class":
      return t("diagnostics-check-feed-unknown-class");
    case "feed.content-type":
      return t("diagnostics-check-feed-content-type");
    case "feed.opening":
      return t("diagnostics-check-feed-opening");
    case "feed.ids":
      return t("diagnostics-check-feed-ids");
    case "feed.seq-order":
      return t("diagnostics-check-feed-seq-order");
    case "feed.agui":
      return t("diagnostics-check-feed-agui");
    case "feed.contract":
      return t("diagnostics-check-feed-contract");
    case "feed.utc":
      return t("diagnostics-check-feed-utc");
    case "feed.ping":
      return t("diagnostics-check-feed-ping");
    case "feed.resume":
      return t("diagnostics-check-feed-resume");
    case "results.match-feed":
      return t("diagnostics-check-results-match-feed");
    case "writes.create-class":
      return t("diagnostics-check-writes-create-class");
    case "writes.assign-idempotent":
      return t("diagnostics-check-writes-assign-idempotent");
    case "writes.claim-respond":
      return t("diagnostics-check-writes-claim-respond");
    case "writes.room":
      return t("diagnostics-check-writes-room");
    default:
      return c.what;
  }
}

function checkStatus(c: CheckResult): string {
  if (c.status === "PASS") return t("diagnostics-check-passed");
  if (c.status === "SKIP") return t("diagnostics-check-skipped");
  return c.required ? t("diagnostics-check-failed") : t("diagnostics-check-advice");
}

/**
 * The host check's verdict in the teacher's language, built from the checks (the backend's
 * `verdict` is English): it works, or the first required rule it breaks. A host that could not be
 * checked at all has no checks, only the backend's sentence saying why.
 */
export function hostVerdict(view: HostCheckView): ReactNode {
  if (view.checks.length === 0) return view.verdict;
  const failure = view.checks.find((c) => c.required && c.status === "FAIL");
  if (!failure) return hostWorks();
  const section = <UserText>{failure.section}</UserText>;
  return failure.detail
    ? tx("diagnostics-host-breaks-detail", {
        what: checkWhat(failure),
        section,
        detail: <UserText>{failure.detail}</UserText>,
      })
    : tx("diagnostics-host-breaks", { what: checkWhat(failure), section });
}

/** "This host works with a2learn Teacher." */
export function hostWorks(): string {
  return t("diagnostics-host-works");
}
