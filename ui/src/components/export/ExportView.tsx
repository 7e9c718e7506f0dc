import { useEffect, useId, useRef, useState } from "react";
import { t } from "../../i18n";
import { tx } from "../../i18n/Tx";
import type {
  AssignmentView,
  ClassSummary,
  ExportDone,
  ExportSettings,
  Format,
  GroupsView,
  TeacherIpc,
} from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";
import { defaultSavePath, describeFormat, exportFileName, filterName, isCancelled, isPrivacyBlock } from "./naming";

type Phase =
  | { kind: "idle" }
  /** The identified export's warning, waiting for the teacher's explicit confirmation. */
  | { kind: "confirm" }
  | { kind: "choosing"; identified: boolean }
  | { kind: "running"; identified: boolean; done: number | null; total: number | null; cancelling: boolean }
  | { kind: "done"; identified: boolean; result: ExportDone }
  | { kind: "cancelled" }
  | { kind: "blocked"; message: string }
  | { kind: "failed"; message: string };

/**
 * Export a class (or one assignment) to a file. Default exports are anonymous and linted by the
 * backend; the identified export ("with names") is a separate button behind a confirm step and is
 * unavailable in projector-safe mode. `now` is injected so the proposed file name is testable.
 */
export function ExportView(props: {
  ipc: TeacherIpc;
  classes: ClassSummary[];
  initialClassId: string | null;
  now?: () => Date;
}) {
  const { ipc, classes, now = () => new Date() } = props;
  const safe = useProjectorSafe();
  const ids = useId();
  const [classId, setClassId] = useState<string | null>(props.initialClassId ?? classes[0]?.class_id ?? null);
  const [assignments, setAssignments] = useState<AssignmentView[]>([]);
  const [assignmentId, setAssignmentId] = useState<string>("");
  // The class's groups, and the one to export ("" for everyone): the class page's narrowing
  // to start with, so the file holds what the teacher was looking at.
  const [groups, setGroups] = useState<string[]>([]);
  const [group, setGroup] = useState<string>("");
  const [settings, setSettings] = useState<ExportSettings | null>(null);
  const [format, setFormat] = useState<Format>("csv");
  const [homePage, setHomePage] = useState("");
  const [homePageError, setHomePageError] = useState<string | null>(null);
  const [homePageSaved, setHomePageSaved] = useState(false);
  const [rosterSize, setRosterSize] = useState<number | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const cancelRequested = useRef(false);

  // A class picked before the list arrived (or none yet): settle on one that exists.
  useEffect(() => {
    if (classId === null || !classes.some((c) => c.class_id === classId)) {
      const next =
        props.initialClassId && classes.some((c) => c.class_id === props.initialClassId)
          ? props.initialClassId
          : (classes[0]?.class_id ?? null);
      if (next !== classId) setClassId(next);
    }
  }, [classes, classId, props.initialClassId]);

  useEffect(() => {
    ipc.exports.settings().then(
      (s) => {
        setSettings(s);
        setHomePage(s.home_page);
        if (!s.formats.some((f) => f.id === "csv") && s.formats[0]) setFormat(s.formats[0].id);
      },
      (e) => setLoadError(ipc.toUiError(e).message),
    );
  }, [ipc]);

  // Another class: start from nothing, then load its own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: classId is the trigger
  useEffect(() => {
    setAssignments([]);
    setAssignmentId("");
    setGroups([]);
    setGroup("");
    setRosterSize(null);
  }, [classId]);
  // Another class picked before these answered: only its own answers land.
  useLiveLoad(
    (keep) =>
      classId
        ? Promise.all([
            ipc.classView.assignments(classId).then(
              keep(setAssignments),
              keep((e: unknown) => setLoadError(ipc.toUiError(e).message)),
            ),
            ipc.classView.rosterSize(classId).then(
              keep(setRosterSize),
              keep(() => setRosterSize(null)),
            ),
            // Group names are the teacher's own words: none in projector-safe mode.
            safe
              ? Promise.resolve()
              : ipc.classView.groups(classId).then(
                  keep((g: GroupsView) => {
                    setGroups(g.groups.map((x) => x.name));
                    setGroup(g.filter ?? "");
                  }),
                  keep(() => setGroups([])),
                ),
          ])
        : Promise.resolve(),
    [ipc, classId, safe],
    0,
  );

  // Projector-safe mode switched on while the warning was open: close it, start nothing.
  useEffect(() => {
    if (safe) setPhase((p) => (p.kind === "confirm" ? { kind: "idle" } : p));
  }, [safe]);

  const current = classes.find((c) => c.class_id === classId) ?? null;
  const busy = phase.kind === "choosing" || phase.kind === "running";
  const formatInfo = settings?.formats.find((f) => f.id === format) ?? null;
  // The backend says which formats have an export with names (one source of truth).
  const namesPossible = formatInfo?.names_possible ?? false;

  async function saveHomePage(): Promise<boolean> {
    if (!settings) return false;
    try {
      const stored = await ipc.exports.setHomePage(homePage);
      setSettings({ ...settings, home_page: stored });
      setHomePage(stored);
      setHomePageError(null);
      setHomePageSaved(true);
      return true;
    } catch (e) {
      setHomePageError(ipc.toUiError(e).message);
      setHomePageSaved(false);
      return false;
    }
  }

  async function start(identified: boolean) {
    if (!current || !settings || !formatInfo || busy) return;
    if (identified && (safe || !namesPossible)) return;
    if (format === "xapi" && homePage !== settings.home_page && !(await saveHomePage())) {
      setPhase({ kind: "idle" });
      return;
    }
    setPhase({ kind: "choosing", identified });
    const assignment = assignments.find((a) => a.assignment_id === assignmentId) ?? null;
    const fileName = exportFileName({
      classTitle: current.title,
      assignmentTitle: assignment?.pathway_title ?? null,
      format,
      extension: formatInfo.extension,
      identified,
      date: now(),
    });
    let path: string | null;
    try {
      path = await ipc.exports.chooseSavePath(defaultSavePath(settings.last_folder, fileName), [
        { name: filterName(formatInfo.extension), extensions: [formatInfo.extension] },
      ]);
    } catch (e) {
      setPhase({ kind: "failed", message: ipc.toUiError(e).message });
      return;
    }
    if (!path) {
      setPhase({ kind: "idle" });
      return;
    }
    cancelRequested.current = false;
    setPhase({ kind: "running", identified, done: 0, total: null, cancelling: false });
    try {
      const result = await ipc.exports.run(
        {
          class_id: current.class_id,
          assignment_id: assignment?.assignment_id ?? null,
          format,
          identified,
          path,
          group: !safe && group ? group : null,
        },
        (p) =>
          setPhase((prev) => (prev.kind === "running" ? { ...prev, done: p.rows_done, total: p.rows_total } : prev)),
      );
      setPhase({ kind: "done", identified, result });
      // The backend remembered the folder: the next dialog opens there.
      const folder = parentFolder(result.path);
      if (folder) setSettings((s) => (s ? { ...s, last_folder: folder } : s));
    } catch (e) {
      const err = ipc.toUiError(e);
      if (isPrivacyBlock(err)) setPhase({ kind: "blocked", message: err.message });
      else if (cancelRequested.current || isCancelled(err)) setPhase({ kind: "cancelled" });
      else setPhase({ kind: "failed", message: err.message });
    }
  }

  function cancel() {
    cancelRequested.current = true;
    setPhase((prev) => (prev.kind === "running" ? { ...prev, cancelling: true } : prev));
    ipc.exports.cancel().catch(() => {});
  }

  if (classes.length === 0) {
    return (
      <section aria-labelledby="export-title" data-testid="export-view" className="export-view">
        <h2 id="export-title">{t("export-title")}</h2>
        <p className="muted">{t("export-no-classes")}</p>
      </section>
    );
  }

  return (
    <section aria-labelledby="export-title" data-testid="export-view" className="export-view">
      <h2 id="export-title">{t("export-title")}</h2>
      <p className="muted">{t("export-intro")}</p>
      {loadError ? (
        <p role="alert" className="field-error">
          {loadError}
        </p>
      ) : null}
      <div className="export-scope">
        <label>
          {t("export-class")}{" "}
          <select
            data-testid="export-class"
            value={classId ?? ""}
            disabled={busy}
            onChange={(e) => setClassId(e.target.value || null)}
          >
            {classes.map((c) => (
              <option key={c.class_id} value={c.class_id} translate="no" dir="auto">
                {c.title}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t("export-assignment")}{" "}
          <select
            data-testid="export-assignment"
            value={assignmentId}
            disabled={busy}
            onChange={(e) => setAssignmentId(e.target.value)}
          >
            <option value="">{t("export-whole-class")}</option>
            {assignments.map((a) => (
              <option key={a.assignment_id} value={a.assignment_id} translate="no" dir="auto">
                {a.pathway_title}
              </option>
            ))}
          </select>
        </label>
        {!safe && groups.length > 0 ? (
          <label>
            {t("export-group")}{" "}
            <select data-testid="export-group" value={group} disabled={busy} onChange={(e) => setGroup(e.target.value)}>
              <option value="">{t("export-group-everyone")}</option>
              {groups.map((g) => (
                <option key={g} value={g} translate="no" dir="auto">
                  {g}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>

      <fieldset className="export-formats" disabled={busy}>
        <legend>{t("export-format")}</legend>
        {settings === null ? (
          <p className="muted">{t("export-loading")}</p>
        ) : (
          settings.formats.map((f) => {
            const info = describeFormat(f.id);
            const descId = `${ids}-desc-${f.id}`;
            return (
              <div key={f.id} className="export-format" data-format={f.id}>
                <input
                  type="radio"
                  name={`${ids}-format`}
                  id={`${ids}-format-${f.id}`}
                  value={f.id}
                  checked={format === f.id}
                  onChange={() => setFormat(f.id)}
                  aria-describedby={descId}
                />
                <label htmlFor={`${ids}-format-${f.id}`}>
                  {info?.label ?? f.id}{" "}
                  <span className="muted" translate="no">
                    .{f.extension}
                  </span>
                </label>
                <p id={descId} className="export-format-desc">
                  {info?.description ?? ""}
                </p>
              </div>
            );
          })
        )}
      </fieldset>

      {format === "xapi" && settings ? (
        <div className="export-home-page">
          <label htmlFor={`${ids}-home`}>{t("export-home-page")}</label>
          <p id={`${ids}-home-help`} className="muted">
            {t("export-home-page-help")}
          </p>
          <div className="export-home-row">
            <input
              id={`${ids}-home`}
              data-testid="export-home-page"
              type="url"
              value={homePage}
              disabled={busy}
              onChange={(e) => {
                setHomePage(e.target.value);
                setHomePageSaved(false);
              }}
              aria-invalid={homePageError ? true : undefined}
              aria-describedby={homePageError ? `${ids}-home-error` : `${ids}-home-help`}
            />
            <button
              type="button"
              disabled={busy || homePage === settings.home_page}
              onClick={() => void saveHomePage()}
            >
              {t("export-save")}
            </button>
          </div>
          {homePageError ? (
            <p id={`${ids}-home-error`} role="alert" className="field-error">
              {homePageError}
            </p>
          ) : homePageSaved ? (
            <p className="muted" role="status">
              {t("export-saved")}
            </p>
          ) : null}
        </div>
      ) : null}

      <div className="export-actions">
        <button
          type="button"
          className="primary"
          data-testid="export-start"
          disabled={busy || !settings || !current}
          onClick={() => void start(false)}
        >
          {t("export-start")}
        </button>
        <button
          type="button"
          className="danger-outline"
          data-testid="export-identified"
          disabled={busy || !settings || !current || safe || !namesPossible}
          aria-describedby={`${ids}-names-note`}
          onClick={() => setPhase({ kind: "confirm" })}
        >
          {t("export-with-names")}
        </button>
        <span id={`${ids}-names-note`} className="muted export-names-note">
          {safe
            ? t("export-names-note-projector-safe")
            : !namesPossible
              ? t("export-names-note-no-rows")
              : t("export-names-note")}
        </span>
      </div>

      {phase.kind === "confirm" ? (
        <ConfirmNames
          rosterSize={rosterSize}
          onCancel={() => setPhase({ kind: "idle" })}
          onConfirm={() => void start(true)}
        />
      ) : null}

      <ExportStatus phase={phase} onCancel={cancel} />
    </section>
  );
}

/** The warning before an identified export: an in-page step the teacher must confirm. */
function ConfirmNames(props: { rosterSize: number | null; onCancel: () => void; onConfirm: () => void }) {
  const back = useRef<HTMLButtonElement>(null);
  const ids = useId();
  // The safe choice has the focus.
  useEffect(() => back.current?.focus(), []);
  return (
    <div
      role="alertdialog"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-body`}
      className="export-confirm"
      data-testid="export-confirm"
      onKeyDown={(e) => {
        if (e.key === "Escape") props.onCancel();
      }}
    >
      <h3 id={`${ids}-title`}>{t("export-confirm-title")}</h3>
      <div id={`${ids}-body`}>
        <p>{t("export-confirm-body")}</p>
        <p>
          <strong>{t("export-confirm-keep")}</strong> {t("export-confirm-keep-how")}
        </p>
        {props.rosterSize === 0 ? (
          <p className="muted">{t("export-confirm-no-roster")}</p>
        ) : props.rosterSize !== null ? (
          <p className="muted">{t("export-confirm-roster", { count: props.rosterSize })}</p>
        ) : null}
      </div>
      <div className="export-confirm-actions">
        <button type="button" ref={back} onClick={props.onCancel}>
          {t("export-go-back")}
        </button>
        <button type="button" className="danger" data-testid="export-confirm-names" onClick={props.onConfirm}>
          {t("export-confirm-names")}
        </button>
      </div>
    </div>
  );
}

function ExportStatus({ phase, onCancel }: { phase: Phase; onCancel: () => void }) {
  switch (phase.kind) {
    case "idle":
    case "confirm":
      return null;
    case "choosing":
      return (
        <p className="muted" role="status">
          {t("export-choosing")}
        </p>
      );
    case "running": {
      const { done, total } = phase;
      const known = total !== null && done !== null;
      const percent = known ? (total > 0 ? Math.min(100, Math.round((done / total) * 100)) : 100) : null;
      const rows = known ? t("export-progress-rows", { done, total }) : null;
      return (
        <div className="export-progress" data-testid="export-progress">
          <div
            role="progressbar"
            aria-label={t("export-progress-label")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent ?? undefined}
            aria-valuetext={rows ?? t("export-counting-rows")}
            className="progress-track"
          >
            <div className="progress-fill" style={{ width: `${percent ?? 0}%` }} />
          </div>
          <p className="muted">
            {phase.cancelling ? t("export-cancelling") : (rows ?? t("export-counting-rows-busy"))}
          </p>
          <button type="button" onClick={onCancel} disabled={phase.cancelling} data-testid="export-cancel">
            {t("export-cancel")}
          </button>
        </div>
      );
    }
    case "done": {
      const { rows, path } = phase.result;
      return (
        <div role="status" className="export-result export-done" data-testid="export-done">
          <p>
            {tx("export-done", {
              exported: (
                <strong>{rows === null ? t("export-done-exported") : t("export-done-rows", { count: rows })}</strong>
              ),
              path: (
                <code className="export-path" translate="no" dir="auto">
                  {path}
                </code>
              ),
            })}
          </p>
          {phase.identified ? <p className="export-names-reminder">{t("export-done-names")}</p> : null}
        </div>
      );
    }
    case "cancelled":
      return (
        <p role="status" className="export-result" data-testid="export-cancelled">
          {t("export-cancelled")}
        </p>
      );
    case "blocked":
      return (
        <div role="alert" className="error-panel export-blocked" data-testid="export-blocked">
          <h3>{t("export-blocked-title")}</h3>
          {/* The backend's sentence (English): where the linter found the name, never the name. */}
          <p className="export-block-message">{capitalise(phase.message)}.</p>
          <p>{t("export-blocked-why")}</p>
          <p>{t("export-blocked-anyway")}</p>
        </div>
      );
    case "failed":
      return (
        <p role="alert" className="field-error" data-testid="export-failed">
          {t("export-failed", { message: phase.message })}
        </p>
      );
  }
}

function capitalise(s: string): string {
  const t = s.replace(/[.\s]+$/, "");
  return t.charAt(0).toUpperCase() + t.slice(1);
}

function parentFolder(path: string): string | null {
  const i = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  if (i < 0) return null;
  return i === 0 ? path.slice(0, 1) : path.slice(0, i);
}
