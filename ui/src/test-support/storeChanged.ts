import type { StoreChanged } from "../ipc";
import type { ChangeKind } from "../ipc/changes";

/** A StoreChanged event for these classes saying these kinds changed (nothing else). */
export function storeChanged(classIds: string[], kinds: ChangeKind[]): StoreChanged {
  const change: StoreChanged = {
    class_ids: classIds,
    results: false,
    calls: false,
    learners: false,
    assignments: false,
    quarantine: false,
    room: false,
    classes: false,
  };
  for (const kind of kinds) change[kind] = true;
  return change;
}
