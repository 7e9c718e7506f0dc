import type { StoreChanged } from "../ipc";
import type { ChangeKind } from "../ipc/changes";

/** A StoreChanged event for these classes saying these kinds changed (nothing else), naming no
 * rows (so every row of the classes' grids). */
export function storeChanged(classIds: string[], kinds: ChangeKind[]): StoreChanged {
  const change: StoreChanged = {
    class_ids: classIds,
    rows: [],
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
