import { num, t } from "../../i18n";
import type { KnowledgeNodeView, NodeState, StepStatus } from "../../ipc";

type Visibility = KnowledgeNodeView["counts"][number]["visibility"];

// The maps' words for states, statuses and counts, in a module of their own (no layout, no
// component): the projector's tables say them too, and its page bundles only what it needs.

/**
 * A state in words ("known"); the backend's `label` beside it is English only. The knowledge map's
 * legend and table say it, and so does the projector's knowledge table.
 */
export function stateLabel(state: NodeState): string {
  switch (state) {
    case "known":
      return t("maps-state-known");
    case "missed":
      return t("maps-state-missed");
    case "dont_know":
      return t("maps-state-dont-know");
    case "taught":
      return t("maps-state-taught");
    case "candidate":
      return t("maps-state-candidate");
  }
}

/**
 * A status as a column or list heading ("Done"); the backend's `label` beside it is English only.
 * The pathway map and the projector's say it.
 */
export function statusLabel(status: StepStatus): string {
  switch (status) {
    case "done":
      return t("maps-status-done");
    case "current":
      return t("maps-status-current");
    case "upcoming":
      return t("maps-status-upcoming");
  }
}

/**
 * What a map prints for a count of learners: the number, or why it is not shown (the projector
 * hides groups under k, and counts that would give a small group away). `short` is for the little
 * room on a pathway step ("<10", "hidden").
 */
export function shownCount(
  c: { count: number | null; visibility: Visibility },
  k: number | null,
  short = false,
): string {
  if (c.count !== null) return num(c.count);
  if (c.visibility === "primary" && k !== null)
    return short ? t("maps-fewer-than-short", { k }) : t("maps-fewer-than", { k });
  return short ? t("maps-hidden") : t("maps-hidden-small-group");
}
