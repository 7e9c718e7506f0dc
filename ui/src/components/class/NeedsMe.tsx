import type { NeedsMeView } from "../../ipc";
import { ago } from "./cells";

const ICON = { follow_up: "!", help_request: "?", struggling: "▲", repeated_failures: "✗" } as const;

/** One ranked list: help requests, then struggles, then repeated failures, oldest first. */
export function NeedsMe({ items }: { items: NeedsMeView[] }) {
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
          <span aria-hidden="true">{ICON[n.reason]}</span> <strong>{n.label}</strong> — {n.reason_text} on{" "}
          {n.step_title} <span className="muted">({ago(n.waited_ms ?? 0)})</span>
        </li>
      ))}
    </ol>
  );
}
