import { Settings2 } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { date } from "../../format";
import { num, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type {
  AssignmentView,
  CatalogPathwayView,
  ClassSummary,
  EvidenceView,
  GridView,
  GroupsView,
  MasteryView,
  NeedsMeView,
  TeacherIpc,
  TimelineView,
} from "../../ipc";
import { ASSIGNMENTS, PROGRESS, ROOM, useChangeFeed, useChangeTick } from "../../ipc/changes";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useHostOffers } from "../../ipc/offers";
import { COUNTS_EVERY_MS, NEEDS_EVERY_MS, useThrottledTick } from "../../ipc/throttle";
import { ProjectorSafeSwitch, useProjectorSafe } from "../../privacy/ProjectorSafe";
import { GroupFilter, GroupsPanel } from "../groups/Groups";
import { KnowledgeMap } from "../maps/KnowledgeMap";
import { PathwayMap } from "../maps/PathwayMap";
import { Report } from "../report/Report";
import { StudentPage } from "../student/StudentPage";
import { Evidence } from "./Evidence";
import { Freshness } from "./Freshness";
import { mergeRows } from "./gridRows";
import { LiveGrid } from "./LiveGrid";
import { Mastery } from "./Mastery";
import { NeedsMe } from "./NeedsMe";
import { RoomControls } from "./RoomControls";
import { ShownWorkPanel, ShownWorkProvider } from "./ShownWork";
import { Timeline } from "./Timeline";

/** How often the grid reloads whole while it is shown: the time since each learner's last
 * event (and who is idle) moves with the clock. */
export const QUIET_REFRESH_MS = 30_000;

type Tab = "grid" | "mastery" | "knowledge" | "pathways" | "needs" | "timeline" | "report" | "groups";

/** A tab's name (one literal id per tab: the catalog test finds them). */
function tabLabel(tab: Tab): string {
  switch (tab) {
    case "grid":
      return t("class-tab-grid");
    case "mastery":
      return t("class-tab-mastery");
    case "knowledge":
      return t("class-tab-knowledge");
    case "pathways":
      return t("class-tab-pathways");
    case "needs":
      return t("class-tab-needs");
    case "timeline":
      return t("class-tab-timeline");
    case "report":
      return t("class-tab-report");
    case "groups":
      return t("class-tab-groups");
  }
}

/**
 * What a teacher looks at during a lesson. Every figure comes from a command over the store;
 * each part refetches on the (coalesced) store changes that touch it, for this class only.
 */
export function ClassPage({ ipc, summary }: { ipc: TeacherIpc; summary: ClassSummary }) {
  const cv = ipc.classView;
  const safe = useProjectorSafe();
  const classId = summary.class_id;
  const [tab, setTab] = useState<Tab>("grid");
  const [assignments, setAssignments] = useState<AssignmentView[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [grid, setGrid] = useState<GridView | null>(null);
  const [mastery, setMastery] = useState<MasteryView | null>(null);
  const [needs, setNeeds] = useState<NeedsMeView[]>([]);
  const [timeline, setTimeline] = useState<TimelineView | null>(null);
  const [evidence, setEvidence] = useState<EvidenceView | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The student whose page is open (the teacher's window only), in place of the tabs' panels.
  const [student, setStudent] = useState<string | null>(null);
  // The newest drill-down asked for: only its answer opens the pane (not an older, slower one).
  const newestEvidence = useRef(0);
  const offers = useHostOffers(ipc, classId);

  // Each part reloads on what touches it: the room header not on each result, the grid not on
  // a pause, nothing on another class's change.
  const progressTick = useChangeTick(PROGRESS, classId);
  const roomTick = useChangeTick(ROOM, classId);
  // Progress over the assigned pathways: the assignment list (its "started" counts), the student
  // page, the report, the maps (the pathway map also shows the pacing limit).
  const planTick = progressTick + useChangeTick(ASSIGNMENTS, classId);
  // The assignment list's "started" counts may lag a second behind the stream of results.
  const assignmentsTick = useThrottledTick(planTick, COUNTS_EVERY_MS);

  const fail = (e: unknown) => setError(ipc.toUiError(e).message);

  // The class's groups and the filter in force: every view below is narrowed to the filter's
  // group by the backend, and reloads when it changes (it is in their keys).
  const [groups, setGroups] = useState<GroupsView | null>(null);
  useLiveLoad(
    (keep) => cv.groups(classId).then(keep(setGroups), keep(fail)),
    [cv, ipc, classId, safe],
    assignmentsTick,
  );
  const filter = groups?.filter ?? null;
  useLiveLoad(
    (keep) =>
      cv.assignments(classId).then(
        keep((list: AssignmentView[]) => {
          setAssignments(list);
          setSelected((cur) =>
            cur && list.some((a) => a.assignment_id === cur) ? cur : (list[0]?.assignment_id ?? null),
          );
        }),
        keep(fail),
      ),
    [cv, ipc, classId],
    assignmentsTick,
  );

  // A class bigger than a page comes a page at a time (in id order): the cursor of the page
  // shown and those of the pages before it, kept per key so a new class or mode starts on the
  // first page.
  const pageKey = `${classId}/${selected}/${safe}/${filter}`;
  const [paging, setPaging] = useState<{ key: string; after: string | null; before: (string | null)[] }>({
    key: pageKey,
    after: null,
    before: [],
  });
  const page = paging.key === pageKey ? paging : { key: pageKey, after: null, before: [] };
  const nextPage = (after: string) => setPaging({ key: pageKey, after, before: [...page.before, page.after] });
  const previousPage = () =>
    setPaging({ key: pageKey, after: page.before.at(-1) ?? null, before: page.before.slice(0, -1) });

  // The grid reloads whole on a new key (class, assignment, tab, mode, page), after a failed load, on
  // an action of the teacher's (the idle threshold) and every QUIET_REFRESH_MS (each row's time
  // since its last event moves with the clock, not only with its own events); otherwise it
  // refetches only the rows the changes since the last load named. Set before the loads of a
  // new key start (effect order), taken by the next load.
  const wantWhole = useRef(true);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the views' key is the trigger
  useEffect(() => {
    wantWhole.current = true;
  }, [classId, selected, tab, safe, page.after, filter]);
  const [clockTick, setClockTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => {
      wantWhole.current = true;
      setClockTick((n) => n + 1);
    }, QUIET_REFRESH_MS);
    return () => clearInterval(timer);
  }, []);
  const feed = useChangeFeed();

  // `safe` is in the key: the backend labels (and suppresses) by the mode, so a switch refetches,
  // and an answer from before it (names) or from another class never lands after it.
  const reloadViews = useLiveLoad(
    (keep) => {
      const loads: Promise<unknown>[] = [];
      const failed = (e: unknown) => {
        wantWhole.current = true;
        fail(e);
      };
      if (tab === "grid" && selected) {
        // At classroom rates the changes between two loads name a few learners: their rows
        // cost the same in a class of 30 or 3,000, where a whole reload grows with the class.
        // Nothing pending: a load already took this tick's rows (it started after the change
        // arrived, before its tick did), so the grid has nothing to fetch.
        const pending = feed.takeRows(classId);
        const whole = wantWhole.current || pending === "all" || (safe && pending !== undefined);
        wantWhole.current = false;
        if (whole) {
          loads.push(cv.grid(classId, selected, page.after).then(keep(setGrid), keep(failed)));
        } else if (pending !== undefined && pending.size > 0) {
          loads.push(
            cv.gridRows(classId, selected, [...pending]).then(
              keep((patch: GridView) => setGrid((cur) => cur && mergeRows(cur, patch, page.after))),
              keep(failed),
            ),
          );
        }
      }
      if (tab === "mastery") loads.push(cv.mastery(classId).then(keep(setMastery), keep(fail)));
      if (tab === "timeline") loads.push(cv.timeline(classId).then(keep(setTimeline), keep(fail)));
      return Promise.all(loads);
    },
    [cv, ipc, classId, selected, tab, safe, page.after, filter],
    progressTick + clockTick,
  );

  // "Who needs me" sits beside the grid on a wide window, and has its own tab on a narrow one.
  // Its own queue, at most every NEEDS_EVERY_MS: the grid's rows never wait for its answer.
  const needsTick = useThrottledTick(progressTick + clockTick, NEEDS_EVERY_MS);
  useLiveLoad(
    (keep) =>
      tab === "needs" || tab === "grid" ? cv.needsMe(classId).then(keep(setNeeds), keep(fail)) : Promise.resolve(),
    [cv, ipc, classId, tab, safe, filter],
    needsTick,
  );

  // Escape closes the evidence pane (unless something in front of it, like a dialog, took the
  // key); focus goes back to the grid's cell when it was in the pane.
  useEffect(() => {
    if (!evidence) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape" || e.defaultPrevented) return;
      const pane = document.querySelector("[data-testid='evidence']");
      const inPane = pane?.contains(document.activeElement) ?? false;
      setEvidence(null);
      if (inPane) document.querySelector<HTMLElement>("[data-testid='live-grid'] button.cell[tabindex='0']")?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [evidence]);

  // Projector-safe hides per-learner detail: close any open drill-down and student page, and
  // drop a drill-down still on its way (it would open after the switch).
  useEffect(() => {
    if (safe) {
      newestEvidence.current++;
      setEvidence(null);
      setStudent(null);
    }
  }, [safe]);
  // Another class: its own page, not this one's student.
  // biome-ignore lint/correctness/useExhaustiveDependencies: classId is the trigger
  useEffect(() => setStudent(null), [classId]);

  const openStudent = useCallback(
    (learner: string) => {
      if (safe) return;
      setEvidence(null);
      setStudent(learner);
    },
    [safe],
  );
  const setIdleAfter = useCallback(
    (minutes: number) => {
      cv.setIdleAfter(minutes).then(
        () => {
          wantWhole.current = true;
          reloadViews();
        },
        (e) => setError(ipc.toUiError(e).message),
      );
    },
    [cv, ipc, reloadViews],
  );

  const open = useCallback(
    (learner: string, widgetId: string) => {
      if (!selected || safe) return;
      const mine = ++newestEvidence.current;
      const landing = () => mine === newestEvidence.current;
      cv.evidence(classId, selected, learner, widgetId).then(
        (view) => {
          if (landing()) setEvidence(view);
        },
        (e) => {
          if (landing()) setError(ipc.toUiError(e).message);
        },
      );
    },
    [cv, ipc, classId, selected, safe],
  );

  return (
    <ShownWorkProvider ipc={cv} classId={classId} onError={setError}>
      <section aria-labelledby="class-title" data-testid="class-view" className="class-page">
        <header className="class-header">
          <h2 id="class-title" translate="no" dir="auto">
            {summary.title}
          </h2>
          <dl className="facts">
            <div>
              <dt>{t("class-join-code")}</dt>
              <dd data-testid="join-code" translate="no" dir="auto">
                {summary.join_code ?? "—"}
              </dd>
            </div>
            <div>
              <dt>{t("class-learners")}</dt>
              <dd data-testid="learner-count">{num(summary.learners)}</dd>
            </div>
            <div>
              <dt>{t("class-open-help-requests")}</dt>
              <dd>{num(summary.open_requests)}</dd>
            </div>
          </dl>
          <ProjectorSafeSwitch />
          <ShowOnProjector ipc={ipc} classId={classId} onError={setError} />
          <RoomControls ipc={ipc} classId={classId} changeTick={roomTick} />
          <Freshness ipc={cv} classId={classId} changeTick={progressTick} />
          <GroupFilter ipc={cv} classId={classId} groups={groups} onChange={setGroups} onError={setError} />
          <ShownWorkPanel />
        </header>
        {error ? (
          <p role="alert" className="field-error">
            {error}
          </p>
        ) : null}
        <div className="assignments">
          <label>
            {t("class-assignment")}{" "}
            <select
              data-testid="assignment-select"
              value={selected ?? ""}
              onChange={(e) => setSelected(e.target.value || null)}
            >
              {assignments.length === 0 ? <option value="">{t("class-assignment-none")}</option> : null}
              {assignments.map((a) => (
                <option key={a.assignment_id} value={a.assignment_id}>
                  {a.due_at_ms
                    ? t("class-assignment-option-due", {
                        pathway: a.pathway_title,
                        started: a.started,
                        due: date(a.due_at_ms),
                      })
                    : t("class-assignment-option", { pathway: a.pathway_title, started: a.started })}
                </option>
              ))}
            </select>
          </label>
          {!safe ? (
            // Setup waits behind a menu: during a lesson the grid owns the space.
            <details className="setup-menu" data-testid="setup-menu">
              <summary>
                <Settings2 className="icon" size={16} aria-hidden="true" focusable="false" />
                {t("class-setup")}
              </summary>
              <div className="setup-body">
                {offers.assign_pathway ? (
                  <AssignForm ipc={ipc} classId={classId} onAssigned={(id) => setSelected(id)} />
                ) : (
                  <p className="muted" data-testid="assign-read-only">
                    {t("class-assign-read-only")}
                  </p>
                )}
                <RosterImport ipc={ipc} classId={classId} />
              </div>
            </details>
          ) : null}
        </div>
        <div role="tablist" aria-label={t("class-views")} className="tabs">
          {(
            [
              "grid",
              "mastery",
              "knowledge",
              "pathways",
              "needs",
              "timeline",
              ...(safe ? [] : (["report", "groups"] as const)),
            ] as const
          ).map((view) => (
            <button
              key={view}
              role="tab"
              type="button"
              data-tab={view}
              aria-selected={tab === view && !student}
              onClick={() => {
                setStudent(null);
                setTab(view);
              }}
            >
              {tabLabel(view)}
            </button>
          ))}
        </div>
        <div role="tabpanel">
          {student && !safe ? (
            <StudentPage
              ipc={ipc}
              classId={classId}
              learner={student}
              changeTick={planTick}
              onBack={() => setStudent(null)}
            />
          ) : tab === "grid" ? (
            grid && selected ? (
              <>
                {grid.paged ? (
                  <GridPager
                    grid={grid}
                    first={page.before.length === 0}
                    onPrevious={previousPage}
                    onNext={grid.next_after === null ? undefined : () => nextPage(grid.next_after as string)}
                  />
                ) : null}
                <div className={evidence && !safe ? "grid-and-evidence" : "grid-and-needs"}>
                  <LiveGrid
                    grid={grid}
                    onOpen={open}
                    onStudent={safe ? undefined : openStudent}
                    onIdleAfter={safe ? undefined : setIdleAfter}
                  />
                  {evidence && !safe ? (
                    <Evidence evidence={evidence} onClose={() => setEvidence(null)} onStudent={openStudent} />
                  ) : (
                    <aside className="needs-aside" aria-labelledby="needs-aside-title">
                      <h3 id="needs-aside-title">{t("class-tab-needs")}</h3>
                      <NeedsMe items={needs} onStudent={safe ? undefined : openStudent} />
                    </aside>
                  )}
                </div>
              </>
            ) : (
              <p className="muted">{t("class-grid-unassigned")}</p>
            )
          ) : tab === "mastery" ? (
            mastery ? (
              <Mastery mastery={mastery} />
            ) : null
          ) : tab === "knowledge" ? (
            <KnowledgeMap key={filter ?? ""} ipc={ipc} classId={classId} changeTick={planTick} />
          ) : tab === "pathways" ? (
            <PathwayMap key={filter ?? ""} ipc={ipc} classId={classId} changeTick={planTick + roomTick} />
          ) : tab === "needs" ? (
            <NeedsMe items={needs} onStudent={safe ? undefined : openStudent} />
          ) : tab === "report" && !safe ? (
            <Report
              key={filter ?? ""}
              ipc={ipc}
              classId={classId}
              assignments={assignments}
              changeTick={planTick}
              onStudent={openStudent}
            />
          ) : tab === "timeline" && timeline ? (
            <Timeline timeline={timeline} />
          ) : tab === "groups" && groups && !safe ? (
            <GroupsPanel ipc={cv} classId={classId} groups={groups} onChange={setGroups} />
          ) : null}
        </div>
      </section>
    </ShownWorkProvider>
  );
}

function AssignForm({
  ipc,
  classId,
  onAssigned,
}: {
  ipc: TeacherIpc;
  classId: string;
  onAssigned: (id: string) => void;
}) {
  const [catalog, setCatalog] = useState<CatalogPathwayView[] | null>(null);
  const [pathway, setPathway] = useState("");
  const [due, setDue] = useState("");
  const [note, setNote] = useState("");
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  if (catalog === null) {
    return (
      <button
        type="button"
        data-testid="assign-open"
        onClick={() =>
          ipc.classView.catalog().then(
            (c) => {
              setCatalog(c);
              setPathway(c[0]?.pathway_id ?? "");
            },
            (e) => setErrors({ form: ipc.toUiError(e).message }),
          )
        }
      >
        {t("class-assign-open")}
      </button>
    );
  }
  const chosen = catalog.find((p) => p.pathway_id === pathway);
  const fieldError = (f: string) =>
    errors[f] ? (
      <span id={`assign-${f}-error`} role="alert" className="field-error">
        {errors[f]}
      </span>
    ) : null;
  return (
    <form
      className="assign-form"
      data-testid="assign-form"
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        setErrors({});
        ipc.classView
          .assign({
            class_id: classId,
            pathway_id: pathway,
            due_at_ms: due ? new Date(due).getTime() : null,
            note: note.trim() ? note : null,
          })
          .then((out) => {
            if (out.assignment_id) {
              setCatalog(null);
              onAssigned(out.assignment_id);
            } else {
              setErrors(Object.fromEntries(out.field_errors.map((f) => [f.field, f.message])));
            }
          })
          .catch((err) => setErrors({ form: ipc.toUiError(err).message }))
          .finally(() => setBusy(false));
      }}
    >
      <label>
        {t("class-assign-pathway")}{" "}
        <select data-testid="assign-pathway" value={pathway} onChange={(e) => setPathway(e.target.value)}>
          {catalog.map((p) => (
            <option key={p.pathway_id} value={p.pathway_id} translate="no">
              {p.title}
            </option>
          ))}
        </select>
      </label>
      {fieldError("pathway_id")}
      {chosen ? (
        <ol className="catalog-steps">
          {chosen.steps.map((s) => (
            <li key={s.widget_id}>
              <UserText>{s.title}</UserText> <span className="muted">{stepFacts(s)}</span>
            </li>
          ))}
        </ol>
      ) : null}
      <label>
        {t("class-assign-due")}{" "}
        <input
          type="datetime-local"
          data-testid="assign-due"
          value={due}
          onChange={(e) => setDue(e.target.value)}
          aria-invalid={errors.due_at ? true : undefined}
          aria-describedby={errors.due_at ? "assign-due_at-error" : undefined}
        />
      </label>
      {fieldError("due_at")}
      <label>
        {t("class-assign-note")}{" "}
        <textarea
          data-testid="assign-note"
          value={note}
          onChange={(e) => setNote(e.target.value)}
          aria-invalid={errors.note ? true : undefined}
          aria-describedby={errors.note ? "assign-note-error" : undefined}
        />
      </label>
      {fieldError("note")}
      <button type="submit" disabled={busy} data-testid="assign-submit">
        {t("class-assign-submit")}
      </button>
      <button type="button" onClick={() => setCatalog(null)}>
        {t("class-assign-cancel")}
      </button>
      {fieldError("form")}
    </form>
  );
}

/** A catalog step's kind and standard (the host's words) and whether it assesses (ours). */
function stepFacts(s: CatalogPathwayView["steps"][number]) {
  const kind = <UserText>{s.kind}</UserText>;
  if (s.standard) {
    const standard = <UserText>{s.standard}</UserText>;
    return s.assesses
      ? tx("class-assign-step-kind-standard-assesses", { kind, standard })
      : tx("class-assign-step-kind-standard", { kind, standard });
  }
  return s.assesses ? tx("class-assign-step-kind-assesses", { kind }) : tx("class-assign-step-kind", { kind });
}

function RosterImport({ ipc, classId }: { ipc: TeacherIpc; classId: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [rowErrors, setRowErrors] = useState<{ line: number; message: string }[]>([]);
  return (
    <div className="roster-import">
      <label>
        {t("class-roster-import")}{" "}
        <input
          type="file"
          accept=".csv,text/csv"
          data-testid="roster-file"
          onChange={(e) => {
            const file = e.target.files?.[0];
            if (!file) return;
            void file.text().then((text) =>
              ipc.classView.importRoster(classId, text).then(
                (out) => {
                  setRowErrors(out.errors);
                  setMessage(
                    out.errors.length
                      ? t("class-roster-nothing-imported")
                      : t("class-roster-imported", { count: out.imported }),
                  );
                },
                (err) => setMessage(ipc.toUiError(err).message),
              ),
            );
          }}
        />
      </label>
      {message ? (
        <p role="status" data-testid="roster-status">
          {message}
        </p>
      ) : null}
      {rowErrors.length ? (
        <ul className="field-error">
          {rowErrors.map((r, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: one line may have several errors; the list is read-only
            <li key={i}>{t("class-roster-line-error", { line: r.line, message: r.message })}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * Opens the projector window on this class: progress per step, suppressed mastery and the help
 * queue by fresh aliases, never a name, an id or free text. Ctrl+Shift+O does the same.
 */
function ShowOnProjector({
  ipc,
  classId,
  onError,
}: {
  ipc: TeacherIpc;
  classId: string;
  onError: (m: string) => void;
}) {
  const show = useCallback(() => {
    ipc.openProjector(classId).catch((e) => onError(ipc.toUiError(e).message));
  }, [ipc, classId, onError]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey && e.shiftKey && (e.key === "O" || e.key === "o")) {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [show]);
  return (
    <button
      type="button"
      className="projector-open"
      data-testid="show-on-projector"
      title={t("class-show-on-projector-title")}
      onClick={show}
    >
      {t("class-show-on-projector")}
    </button>
  );
}

/** Where a page of a big class sits in it, with the way to the pages beside it. */
function GridPager({
  grid,
  first,
  onPrevious,
  onNext,
}: {
  grid: GridView;
  first: boolean;
  onPrevious: () => void;
  /** Absent on the last page (and in projector-safe mode, which gets no cursor). */
  onNext?: () => void;
}) {
  return (
    <nav className="grid-pager" aria-label={t("class-pager")} data-testid="grid-pager">
      <span>{t("class-pager-count", { shown: grid.rows.length, count: grid.learner_count })}</span>
      <button type="button" onClick={onPrevious} disabled={first}>
        {t("class-pager-previous")}
      </button>
      <button type="button" onClick={onNext} disabled={onNext === undefined}>
        {t("class-pager-next")}
      </button>
    </nav>
  );
}
