import { useState } from "react";
import type { Diagnostics, TeacherIpc } from "../ipc";
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
