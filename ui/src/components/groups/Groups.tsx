import { Users, X } from "lucide-react";
import { useState } from "react";
import type { ClassViewIpc, GroupsView } from "../../ipc";
import { toUiError } from "../../ipc";

type GroupsIpc = Pick<ClassViewIpc, "saveGroup" | "deleteGroup" | "setGroupFilter">;

/**
 * The class header's group filter: a choice of the class's groups, and — while one is chosen —
 * a line that says every view shows that group only, with the way back to the whole class.
 */
export function GroupFilter({
  ipc,
  classId,
  groups,
  onChange,
  onError,
}: {
  ipc: GroupsIpc;
  classId: string;
  groups: GroupsView | null;
  onChange: (v: GroupsView) => void;
  onError: (m: string) => void;
}) {
  if (!groups || (groups.groups.length === 0 && groups.filter === null)) return null;
  const choose = (group: string | null) =>
    ipc.setGroupFilter(classId, group).then(onChange, (e) => onError(toUiError(e).message));
  const size = groups.groups.find((g) => g.name === groups.filter)?.size;
  return (
    <div className="group-filter">
      <label>
        <Users className="icon" size={14} aria-hidden="true" focusable="false" /> Show{" "}
        <select
          data-testid="group-filter"
          value={groups.filter ?? ""}
          onChange={(e) => void choose(e.target.value || null)}
        >
          <option value="">the whole class</option>
          {groups.groups.map((g) => (
            <option key={g.name} value={g.name}>
              {g.name} ({g.size})
            </option>
          ))}
        </select>
      </label>
      {groups.filter !== null ? (
        <p className="group-filter-on" role="status" data-testid="group-filter-on">
          Every view shows the group <q dir="auto">{groups.filter}</q> only
          {size !== undefined ? ` (${size === 1 ? "1 learner" : `${size} learners`})` : ""}.{" "}
          <button type="button" className="link" onClick={() => void choose(null)}>
            Show the whole class
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** The Groups tab: the class's groups, the ones the evidence suggests, and a new group. */
export function GroupsPanel({
  ipc,
  classId,
  groups,
  onChange,
}: {
  ipc: GroupsIpc;
  classId: string;
  groups: GroupsView;
  onChange: (v: GroupsView) => void;
}) {
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const done = (v: GroupsView) => {
    setError(null);
    onChange(v);
  };
  const failed = (e: unknown) => setError(toUiError(e).message);
  const save = (n: string, learners: string[]) =>
    ipc.saveGroup(classId, n, learners).then((v) => {
      done(v);
      setName("");
      setPicked([]);
    }, failed);
  return (
    <section className="groups" aria-labelledby="groups-title" data-testid="groups">
      <h3 id="groups-title">Groups</h3>
      <p className="muted">Groups stay on this computer. Choose one above the tabs to narrow every view to it.</p>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {groups.groups.length === 0 ? <p>No groups yet.</p> : null}
      <ul className="group-list">
        {groups.groups.map((g) => (
          <li key={g.name} data-testid="group">
            <strong dir="auto">{g.name}</strong> ({g.size === 1 ? "1 learner" : `${g.size} learners`}):{" "}
            <span dir="auto">{g.labels.join(", ")}</span>{" "}
            <button
              type="button"
              className="link"
              aria-label={`Delete the group ${g.name}`}
              onClick={() => void ipc.deleteGroup(classId, g.name).then(done, failed)}
            >
              <X className="icon" size={12} aria-hidden="true" focusable="false" /> Delete
            </button>
          </li>
        ))}
      </ul>
      {groups.suggested.length > 0 ? (
        <>
          <h4>Suggested by the evidence</h4>
          <ul className="group-list">
            {groups.suggested.map((s) => (
              <li key={s.name} data-testid="suggested-group">
                <span dir="auto">{s.reason}</span> — <span dir="auto">{s.labels.join(", ")}</span>{" "}
                <button
                  type="button"
                  disabled={!groups.can_save || groups.groups.some((g) => g.name === s.name)}
                  onClick={() => void save(s.name, s.learners)}
                >
                  Make this group
                </button>
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {groups.can_save ? (
        <form
          className="group-form"
          onSubmit={(e) => {
            e.preventDefault();
            void save(name, picked);
          }}
        >
          <h4>New group</h4>
          <label>
            Name <input id="group-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
          </label>
          <fieldset>
            <legend>Learners</legend>
            {groups.learners.map((l) => (
              <label key={l.learner} className="group-pick">
                <input
                  type="checkbox"
                  checked={picked.includes(l.learner)}
                  onChange={(e) =>
                    setPicked((cur) => (e.target.checked ? [...cur, l.learner] : cur.filter((x) => x !== l.learner)))
                  }
                />{" "}
                <span dir="auto">{l.label}</span>
              </label>
            ))}
          </fieldset>
          <button type="submit">Make the group</button>
        </form>
      ) : (
        <p className="muted">Groups are kept in a teacher's own file: this shared store has none beside it.</p>
      )}
    </section>
  );
}
