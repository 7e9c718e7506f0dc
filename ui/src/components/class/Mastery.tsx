import { num, t } from "../../i18n";
import { UserText } from "../../i18n/Tx";
import type { MasteryCellView, MasteryView } from "../../ipc";

/**
 * What a cell says, from its figures and visibility (the core's `summary` is its English wording
 * of the same facts, kept for a shape this does not know). The projector's mastery table says it
 * the same way.
 */
export function masterySummary(c: MasteryCellView, k: number | null): string {
  switch (c.visibility) {
    case "empty":
      return t("class-mastery-no-evidence");
    case "primary":
      return k === null ? c.summary : t("class-mastery-fewer-than", { k });
    case "complementary":
      return t("class-mastery-hidden");
    case "shown":
      if (c.checked === null || c.correct === null) return c.summary;
      return c.not_enough_evidence
        ? t("class-mastery-not-enough", { checked: c.checked })
        : t("class-mastery-correct", { correct: c.correct, checked: c.checked });
  }
}

const count = (n: number | null) => (n === null ? "—" : num(n));

/**
 * Class x standard, evidence counts only. On the teacher's own screen every count shows; in
 * projector-safe mode (the backend sends `k`) small groups say "fewer than k".
 */
export function Mastery({ mastery }: { mastery: MasteryView }) {
  const rows = [...mastery.standards, mastery.total];
  return (
    <table className="mastery" data-testid="mastery">
      <caption>
        {mastery.k === null ? t("class-mastery-caption") : t("class-mastery-caption-suppressed", { k: mastery.k })}
      </caption>
      <thead>
        <tr>
          <th scope="col">{t("class-mastery-standard")}</th>
          <th scope="col">{t("class-mastery-evidence")}</th>
          <th scope="col">{t("class-mastery-attempts")}</th>
          <th scope="col">{t("class-mastery-hints")}</th>
          <th scope="col">{t("class-mastery-learners")}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: no unique field (standard may be null, as the total's is); read-only rows
          <tr key={i} className={i === rows.length - 1 ? "total" : undefined} data-visibility={c.visibility}>
            <th scope="row">
              {i === rows.length - 1 ? (
                t("class-mastery-all-standards")
              ) : c.standard === null ? (
                t("class-mastery-no-standard")
              ) : (
                <UserText>{c.standard}</UserText>
              )}
            </th>
            <td>{masterySummary(c, mastery.k)}</td>
            <td>{count(c.attempts)}</td>
            <td>{count(c.hints)}</td>
            <td>{count(c.learners)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
