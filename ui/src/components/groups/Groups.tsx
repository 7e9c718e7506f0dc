import { Users, X } from "lucide-react";
import { useState } from "react";
import { t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { ClassViewIpc, GroupsView, SuggestedGroupView } from "../../ipc";
import { toUiError } from "../../ipc";

type GroupsIpc = Pick<ClassViewIpc, "saveGroup" | "deleteGroup" | "setGroupFilter">;

/** Learners' names in a row, with the language's comma ("Ada, Bea"; "Ada، Bea"). */
const names = (labels: string[]) => labels.join(t("groups-names-separator"));

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
        <Users className="icon" size={14} aria-hidden="true" focusable="false" /> {t("groups-show")}{" "}
        <select
          data-testid="group-filter"
          value={groups.filter ?? ""}
          onChange={(e) => void choose(e.target.value || null)}
        >
          <option value="">{t("groups-whole-class")}</option>
          {groups.groups.map((g) => (
            <option key={g.name} value={g.name}>
              {t("groups-option", { name: g.name, size: g.size })}
            </option>
          ))}
        </select>
      </label>
      {groups.filter !== null ? (
        <p className="group-filter-on" role="status" data-testid="group-filter-on">
          {size !== undefined
            ? tx("groups-filter-on", { group: filterName(groups.filter), count: size })
            : tx("groups-filter-on-unsized", { group: filterName(groups.filter) })}{" "}
          <button type="button" className="link" onClick={() => void choose(null)}>
            {t("groups-show-whole-class")}
          </button>
        </p>
      ) : null}
    </div>
  );
}

/** A group's name as the teacher typed it, quoted, in its own direction. */
function filterName(name: string) {
  return (
    <q dir="auto" translate="no">
      {name}
    </q>
  );
}

/**
 * Why the evidence suggests a group: "2 learners: <misconception>" or "2 learners missed
 * <standard>". The misconception (the students' widget's words) and the standard's code are
 * not ours; a view with neither falls back to the name the group would get.
 */
function suggestedReason(s: SuggestedGroupView) {
  const count = s.learners.length;
  if (s.misconception !== null)
    return tx("groups-suggested-misconception", { count, misconception: <UserText>{s.misconception}</UserText> });
  if (s.missed_standard !== null)
    return tx("groups-suggested-missed", { count, standard: <UserText>{s.missed_standard}</UserText> });
  return <UserText>{s.name}</UserText>;
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
      <h3 id="groups-title">{t("groups-title")}</h3>
      <p className="muted">{t("groups-intro")}</p>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {groups.groups.length === 0 ? <p>{t("groups-none")}</p> : null}
      <ul className="group-list">
        {groups.groups.map((g) => (
          <li key={g.name} data-testid="group">
            {tx("groups-group", {
              name: (
                <strong dir="auto" translate="no">
                  {g.name}
                </strong>
              ),
              count: g.size,
              members: (
                <span dir="auto" translate="no">
                  {names(g.labels)}
                </span>
              ),
            })}{" "}
            <button
              type="button"
              className="link"
              aria-label={t("groups-delete-label", { name: g.name })}
              onClick={() => void ipc.deleteGroup(classId, g.name).then(done, failed)}
            >
              <X className="icon" size={12} aria-hidden="true" focusable="false" /> {t("groups-delete")}
            </button>
          </li>
        ))}
      </ul>
      {groups.suggested.length > 0 ? (
        <>
          <h4>{t("groups-suggested")}</h4>
          <ul className="group-list">
            {groups.suggested.map((s) => (
              <li key={s.name} data-testid="suggested-group">
                <span>{suggestedReason(s)}</span> —{" "}
                <span dir="auto" translate="no">
                  {names(s.labels)}
                </span>{" "}
                <button
                  type="button"
                  disabled={!groups.can_save || groups.groups.some((g) => g.name === s.name)}
                  onClick={() => void save(s.name, s.learners)}
                >
                  {t("groups-make-suggested")}
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
          <h4>{t("groups-new")}</h4>
          <label>
            {t("groups-name")}{" "}
            <input id="group-name" value={name} maxLength={60} onChange={(e) => setName(e.target.value)} />
          </label>
          <fieldset>
            <legend>{t("groups-learners")}</legend>
            {groups.learners.map((l) => (
              <label key={l.learner} className="group-pick">
                <input
                  type="checkbox"
                  checked={picked.includes(l.learner)}
                  onChange={(e) =>
                    setPicked((cur) => (e.target.checked ? [...cur, l.learner] : cur.filter((x) => x !== l.learner)))
                  }
                />{" "}
                <span dir="auto" translate="no">
                  {l.label}
                </span>
              </label>
            ))}
          </fieldset>
          <button type="submit">{t("groups-make")}</button>
        </form>
      ) : (
        <p className="muted">{t("groups-no-home")}</p>
      )}
    </section>
  );
}
