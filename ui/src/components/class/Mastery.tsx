import type { MasteryView } from "../../ipc";

/**
 * Class x standard, evidence counts only. On the teacher's own screen every count shows; in
 * projector-safe mode (the backend sends `k`) small groups say "fewer than k".
 */
export function Mastery({ mastery }: { mastery: MasteryView }) {
  const rows = [...mastery.standards, mastery.total];
  return (
    <table className="mastery" data-testid="mastery">
      <caption>
        {mastery.k === null
          ? "Mastery by standard (your own screen: every count shown)"
          : `Mastery by standard (groups under ${mastery.k} learners are hidden)`}
      </caption>
      <thead>
        <tr>
          <th scope="col">Standard</th>
          <th scope="col">Evidence</th>
          <th scope="col">Attempts</th>
          <th scope="col">Hints</th>
          <th scope="col">Learners</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: no unique field (standard may be null, as the total's is); read-only rows
          <tr key={i} className={i === rows.length - 1 ? "total" : undefined} data-visibility={c.visibility}>
            <th scope="row">{i === rows.length - 1 ? "All standards" : (c.standard ?? "(no standard)")}</th>
            <td>{c.summary}</td>
            <td>{c.attempts ?? "—"}</td>
            <td>{c.hints ?? "—"}</td>
            <td>{c.learners ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
