import { Flag, Hand, TriangleAlert, X } from "lucide-react";
import { memo } from "react";
import type { NeedsMeView } from "../../ipc";
import { ago } from "./cells";

/** The same icons as the grid's cells (the reason's text says it too). */
const ICON = { follow_up: Flag, help_request: Hand, struggling: TriangleAlert, repeated_failures: X } as const;

/** One ranked list: help requests, then struggles, then repeated failures, oldest first.
 * Memoised as the grid is (redrawn only when its items change). */
export const NeedsMe = memo(NeedsMeList);

function NeedsMeList({ items, onStudent }: { items: NeedsMeView[]; onStudent?: (learner: string) => void }) {
  if (items.length === 0)
    return (
      <p className="muted" data-testid="needs-me-empty">
        Nobody is waiting.
      </p>
    );
  return (
    <ol className="needs-me" data-testid="needs-me">
      {items.map((n, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: items carry no id (learner is null in projector-safe mode); read-only list
        <li key={i} data-reason={n.reason}>
          <ReasonIcon reason={n.reason} />{" "}
          {onStudent && n.learner ? (
            <button
              type="button"
              className="link"
              onClick={() => n.learner && onStudent(n.learner)}
              title={`Open ${n.label}'s page`}
            >
              <strong>{n.label}</strong>
            </button>
          ) : (
            <strong>{n.label}</strong>
          )}{" "}
          — {n.reason_text} on {n.step_title} <span className="muted">({ago(n.waited_ms ?? 0)})</span>
        </li>
      ))}
    </ol>
  );
}

function ReasonIcon({ reason }: { reason: NeedsMeView["reason"] }) {
  const Icon = ICON[reason];
  return <Icon className="icon" size={16} strokeWidth={2.5} aria-hidden="true" focusable="false" />;
}
