import { Flag, Hand, TriangleAlert, X } from "lucide-react";
import { memo } from "react";
import { t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { NeedsMeView } from "../../ipc";

/** The same icons as the grid's cells (the reason's text says it too). */
const ICON = { follow_up: Flag, help_request: Hand, struggling: TriangleAlert, repeated_failures: X } as const;

/** How long someone has waited, the way the list says it: "3 s ago", "2 min ago", "1 h ago". */
export function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return t("class-ago-seconds", { s });
  const m = Math.round(s / 60);
  if (m < 60) return t("class-ago-minutes", { m });
  return t("class-ago-hours", { h: Math.round(m / 60) });
}

/** The reason in words, from its kind and count ("struggling: 3 failed checks"). */
export function reasonText(n: Pick<NeedsMeView, "reason" | "count">): string {
  switch (n.reason) {
    case "follow_up":
      return t("class-needs-follow-up");
    case "help_request":
      return t("class-needs-help-request");
    case "struggling":
      return t("class-needs-struggling", { count: n.count });
    case "repeated_failures":
      return t("class-needs-repeated-failures", { count: n.count });
  }
}

/** One ranked list: help requests, then struggles, then repeated failures, oldest first.
 * Memoised as the grid is (redrawn only when its items change). */
export const NeedsMe = memo(NeedsMeList);

function NeedsMeList({ items, onStudent }: { items: NeedsMeView[]; onStudent?: (learner: string) => void }) {
  if (items.length === 0)
    return (
      <p className="muted" data-testid="needs-me-empty">
        {t("class-needs-nobody")}
      </p>
    );
  return (
    <ol className="needs-me" data-testid="needs-me">
      {items.map((n, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items carry no id (learner is null in projector-safe mode); read-only list
        <li key={i} data-reason={n.reason}>
          <ReasonIcon reason={n.reason} />{" "}
          {tx("class-needs-item", {
            who:
              onStudent && n.learner ? (
                <button
                  type="button"
                  className="link"
                  onClick={() => n.learner && onStudent(n.learner)}
                  title={t("class-open-student-page", { name: n.label })}
                >
                  <strong translate="no" dir="auto">
                    {n.label}
                  </strong>
                </button>
              ) : (
                <strong translate="no" dir="auto">
                  {n.label}
                </strong>
              ),
            reason: reasonText(n),
            step: <UserText>{n.step_title}</UserText>,
            waited: <span className="muted">({ago(n.waited_ms ?? 0)})</span>,
          })}
        </li>
      ))}
    </ol>
  );
}

function ReasonIcon({ reason }: { reason: NeedsMeView["reason"] }) {
  const Icon = ICON[reason];
  return <Icon className="icon" size={16} strokeWidth={2.5} aria-hidden="true" focusable="false" />;
}
