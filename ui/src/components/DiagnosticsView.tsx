import { useState } from "react";
import type { Diagnostics, HostCheckView, TeacherIpc } from "../ipc";
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
      <h2 id="diagnostics-title">Diagnostics</h2>
      <HostCheck ipc={ipc} />
      <h3>Quarantined frames</h3>
      {error ? <p role="alert">{error}</p> : null}
      {data === null ? (
        <p className="muted">Loading…</p>
      ) : data.recent.length === 0 ? (
        <p data-testid="quarantine-empty">No quarantined frames: every event so far kept the contract.</p>
      ) : (
        <>
          <h3>Rejected, by rule</h3>
          <ul className="rule-counts">
            {data.by_rule.map((r) => (
              <li key={r.rule_id}>
                <code>{r.rule_id}</code>: {r.count}
              </li>
            ))}
          </ul>
          <h3>Most recent</h3>
          <table className="quarantine" data-testid="quarantine-table">
            <thead>
              <tr>
                <th scope="col">Seq</th>
                <th scope="col">Rule</th>
                <th scope="col">Why</th>
                <th scope="col">Frame (as received)</th>
              </tr>
            </thead>
            <tbody>
              {data.recent.map((q) => (
                <tr key={q.id}>
                  <td>{q.seq ?? "—"}</td>
                  <td>
                    <code>{q.rule_id}</code>
                  </td>
                  <td>{q.message}</td>
                  <td>
                    <code className="raw">{q.raw}</code>
                    {q.raw_bytes > q.raw.length ? <span className="muted"> (cut, {q.raw_bytes} bytes)</span> : null}
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
      <h3>The host</h3>
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
        Check the host
      </button>
      {running ? (
        <p className="muted" role="status">
          Checking every rule of the host interface (about 20 seconds)…
        </p>
      ) : null}
      {error ? <p role="alert">{error}</p> : null}
      {result ? (
        <>
          <p role="status" data-testid="host-check-verdict" className={result.works ? undefined : "field-error"}>
            {result.verdict}
          </p>
          <table className="host-checks" data-testid="host-check-table">
            <thead>
              <tr>
                <th scope="col">Result</th>
                <th scope="col">Rule</th>
                <th scope="col">Where</th>
                <th scope="col">Seen</th>
              </tr>
            </thead>
            <tbody>
              {result.checks.map((c) => (
                <tr key={c.id} data-status={c.status}>
                  <td>
                    {c.status === "PASS"
                      ? "passed"
                      : c.status === "FAIL"
                        ? c.required
                          ? "failed"
                          : "advice"
                        : "skipped"}
                  </td>
                  <td>
                    {c.what} <code>{c.id}</code>
                  </td>
                  <td>{c.section}</td>
                  <td>{c.detail ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      ) : null}
    </div>
  );
}
