import { useEffect, useMemo, useRef, useState } from "react";
import { num, t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
import type { HelpRequest, Room, RoomItem, SavedReply, TeacherIpc, UiError } from "../../ipc";
import { MAX_ANSWER_CHARS } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";
import { afterHelpLabel } from "../help/afterHelp";

/**
 * Errors about the text itself (empty, too long, a name in it) go next to the field; the core
 * checks the answer before anything is sent, so the page does not repeat its rules.
 */
function isTextError(code: string): boolean {
  return code === "invalid_input" || code === "text_blocked";
}

/**
 * The desk's own refusals are whole sentences the code alone decides (the core's `DeskError`):
 * said here in the teacher's language. Other errors carry details only the core's message has.
 */
function errorText(err: UiError): string {
  switch (err.code) {
    case "expired":
      return t("desk-error-expired");
    case "already_answered":
      return t("desk-error-already-answered");
    case "already_claimed":
      return t("desk-error-already-claimed");
    default:
      return err.message;
  }
}

/** A request's state as its label says it (an unknown one shows as the core names it). */
function stateLabel(state: string): string {
  switch (state) {
    case "open":
      return t("desk-state-open");
    case "claimed_by_me":
      return t("desk-state-claimed-by-me");
    case "claimed_by_other":
      return t("desk-state-claimed-by-other");
    case "answered":
      return t("desk-state-answered");
    case "declined":
      return t("desk-state-declined");
    case "expired":
      return t("desk-state-expired");
    case "failed":
      return t("desk-state-failed");
    default:
      return state;
  }
}

function duration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000));
  const m = Math.floor(s / 60);
  return m > 0 ? t("desk-span-minutes-seconds", { m, s: s % 60 }) : t("span-seconds", { s });
}

/** The core's clock when the queue was read, moved on by the local clock since then. */
function useNow(baseMs: number | null): number {
  const [tick, setTick] = useState(() => Date.now());
  const fetchedAt = useRef(Date.now());
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new baseMs (a fresh read) restarts the local clock
  useEffect(() => {
    fetchedAt.current = Date.now();
    setTick(Date.now());
  }, [baseMs]);
  useEffect(() => {
    const id = setInterval(() => setTick(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  return baseMs === null ? tick : baseMs + (tick - fetchedAt.current);
}

/**
 * The help desk: students' requests, oldest first, grouped by widget; claim, answer (typed or
 * a saved reply), "coming over", decline; then what became of each. Questions are untrusted
 * text and are only ever rendered as text.
 */
export function HelpDesk({ ipc, changeTick }: { ipc: TeacherIpc; changeTick: number }) {
  const safe = useProjectorSafe();
  const [queue, setQueue] = useState<HelpRequest[] | null>(null);
  const [room, setRoom] = useState<Room>({ follow_ups: [], visits: [] });
  const [replies, setReplies] = useState<SavedReply[]>([]);
  const [muted, setMuted] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // What the last group answer came to: shown here, since the group itself closes.
  const [notice, setNotice] = useState<string | null>(null);

  // Loads on every store change and after each action, one at a time (each answer newer than the
  // last); `safe` is in the key: the core labels by the mode, and an answer from before a switch
  // to projector-safe mode (the students' questions) never lands after it.
  const load = useLiveLoad(
    (keep) =>
      Promise.all([ipc.desk.queue(null), ipc.desk.replies(), ipc.desk.room(null)]).then(
        keep(([q, r, owed]: [HelpRequest[], SavedReply[], Room]) => {
          setQueue(q);
          setReplies(r);
          setRoom(owed);
          setError(null);
        }),
        keep((e: unknown) => setError(errorText(ipc.toUiError(e)))),
      ),
    [ipc, safe],
    changeTick,
  );

  useEffect(() => {
    void ipc.desk
      .settings()
      .then((s) => setMuted(s.muted))
      .catch(() => {});
  }, [ipc]);

  const now = useNow(queue?.[0]?.now_ms ?? null);
  const waiting = (queue ?? []).filter((r) => r.waiting && (r.deadline_ms ?? 0) > now);
  const closed = (queue ?? []).filter((r) => !waiting.includes(r));
  const groups = useMemo(() => {
    const map = new Map<string, HelpRequest[]>();
    for (const r of waiting) {
      const key = `${r.class_id}\u0000${r.widget_id}`;
      map.set(key, [...(map.get(key) ?? []), r]);
    }
    return [...map.values()];
  }, [waiting]);

  // The teacher's groups of learners with more than one waiting request: one answer to each.
  const learnerGroups = useMemo(() => {
    const map = new Map<string, HelpRequest[]>();
    for (const r of waiting) {
      for (const g of r.groups) {
        const key = `${r.class_id}\u0000${g}`;
        map.set(key, [...(map.get(key) ?? []), r]);
      }
    }
    return [...map.entries()]
      .filter(([, rs]) => rs.length > 1)
      .map(([key, rs]) => ({ name: key.split("\u0000")[1] ?? "", requests: rs }));
  }, [waiting]);

  const replace = (r: HelpRequest) => setQueue((q) => (q ?? []).map((x) => (x.call_id === r.call_id ? r : x)));

  return (
    <section className="help-desk" aria-labelledby="desk-title">
      <header className="desk-header">
        <h2 id="desk-title">{t("desk-title")}</h2>
        <p className="muted" data-testid="desk-waiting-count">
          {t("desk-waiting-count", { count: waiting.length })}
        </p>
        <label className="desk-mute">
          <input
            type="checkbox"
            checked={!muted}
            onChange={(e) => {
              const next = !e.target.checked;
              setMuted(next);
              void ipc.desk.setMuted(next).catch((err) => setError(errorText(ipc.toUiError(err))));
            }}
          />
          {t("desk-mute-label")}
        </label>
      </header>
      {error ? (
        <p role="alert" className="field-error">
          {error}
        </p>
      ) : null}
      {notice ? (
        <p role="status" className="muted" data-testid="desk-notice">
          {notice}
        </p>
      ) : null}
      <OwedList
        title={t("desk-follow-up-title")}
        testId="desk-follow-up"
        items={room.follow_ups}
        what={(it) => t("desk-follow-up-what", { ago: duration(now - (it.since_ms ?? now)) })}
        onDone={(it) => ipc.desk.followUpDone(it.call_id).then(load)}
        onError={(m) => setError(m)}
      />
      <OwedList
        title={t("desk-visits-title")}
        testId="desk-visit"
        items={room.visits}
        what={(it) => t("desk-visit-what", { ago: duration(now - (it.since_ms ?? now)) })}
        onDone={(it) => ipc.desk.visitDone(it.call_id).then(load)}
        onError={(m) => setError(m)}
      />
      {queue === null ? (
        <p className="muted">{t("desk-loading")}</p>
      ) : waiting.length === 0 ? (
        <p className="muted" data-testid="desk-empty">
          {t("desk-empty")}
        </p>
      ) : (
        groups.map((group) => (
          <RequestGroup
            key={group[0]?.call_id}
            ipc={ipc}
            group={group}
            replies={replies}
            now={now}
            onChanged={replace}
            onReload={load}
            onNotice={setNotice}
          />
        ))
      )}
      {!safe && learnerGroups.length > 0 ? (
        <section className="desk-learner-groups" aria-labelledby="desk-learner-groups-title">
          <h3 id="desk-learner-groups-title">{t("desk-learner-groups-title")}</h3>
          {learnerGroups.map((g) => (
            <div key={g.name} className="desk-group" data-testid="desk-learner-group">
              <p>
                {tx("desk-learner-group-waiting", {
                  group: (
                    <strong>
                      <UserText>{g.name}</UserText>
                    </strong>
                  ),
                  count: g.requests.length,
                })}
              </p>
              <GroupAnswer ipc={ipc} group={g.requests} replies={replies} onReload={load} onNotice={setNotice} />
            </div>
          ))}
        </section>
      ) : null}
      {closed.length > 0 ? (
        <section className="desk-closed" aria-labelledby="desk-closed-title">
          <h3 id="desk-closed-title">{t("desk-closed-title")}</h3>
          <ul className="desk-list">
            {closed.map((r) => (
              <li key={r.call_id} data-testid="desk-closed" data-call-id={r.call_id}>
                <RequestSummary request={r} now={now} />
                {r.answer !== null && !safe ? (
                  <p className="desk-answer-sent">
                    {tx("desk-answer-sent", { answer: <UserText>{r.answer}</UserText> })}
                  </p>
                ) : null}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {safe ? null : <SavedReplies ipc={ipc} replies={replies} onChanged={setReplies} />}
    </section>
  );
}

function RequestGroup(props: {
  ipc: TeacherIpc;
  group: HelpRequest[];
  replies: SavedReply[];
  now: number;
  onChanged: (r: HelpRequest) => void;
  onReload: () => void;
  onNotice: (message: string) => void;
}) {
  const { ipc, group, replies, now, onChanged, onReload, onNotice } = props;
  const safe = useProjectorSafe();
  const first = group[0];
  if (!first) return null;
  return (
    <section
      className="desk-group"
      aria-label={t("desk-group-label", { step: first.step_title })}
      data-testid="desk-group"
    >
      <h3 className="desk-group-title">
        <UserText>{first.step_title}</UserText>{" "}
        <span className="muted">
          <UserText>{first.kind}</UserText>
        </span>
        {first.standard ? (
          <span className="badge">
            <UserText>{first.standard}</UserText>
          </span>
        ) : null}
        {group.length > 1 ? (
          <span className="muted">
            {" · "}
            {t("desk-group-students", { count: group.length })}
          </span>
        ) : null}
      </h3>
      {group.length > 1 && !safe ? (
        <GroupAnswer ipc={ipc} group={group} replies={replies} onReload={onReload} onNotice={onNotice} />
      ) : null}
      <ul className="desk-list">
        {group.map((r) => (
          <li key={r.call_id}>
            <RequestCard ipc={ipc} request={r} replies={replies} now={now} onChanged={onChanged} onReload={onReload} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The question's first line (a card's compact view); the whole question shows once opened. */
function firstLine(question: string): string {
  const trimmed = question.trim();
  const end = trimmed.search(/\r?\n/);
  return end < 0 ? trimmed : `${trimmed.slice(0, end)} …`;
}

function RequestSummary({ request: r, now, full = true }: { request: HelpRequest; now: number; full?: boolean }) {
  const safe = useProjectorSafe();
  // In projector-safe mode the backend sends an alias as `learner`, and no name.
  const who = safe ? r.learner : (r.display_name ?? r.learner);
  const remaining = (r.deadline_ms ?? 0) - now;
  const expired = r.waiting && remaining <= 0;
  const state = expired ? "expired" : r.state;
  return (
    <div className={full ? "desk-summary" : "desk-summary desk-summary-compact"}>
      <p className="desk-who">
        <strong>
          <UserText>{who}</UserText>
        </strong>{" "}
        <span className={`desk-state desk-state-${state}`} data-testid="desk-state">
          {stateLabel(state)}
        </span>
        {r.after_help ? (
          <span className="desk-after muted" data-testid="desk-after-help">
            {" "}
            · {afterHelpLabel(r.after_help)}
          </span>
        ) : null}
        {r.waiting && !expired ? (
          <span className="desk-times muted">
            {" "}
            {t("desk-waiting-for", { span: duration(now - (r.asked_at_ms ?? now)) })}
            {" · "}
            <span data-testid="desk-countdown">{t("desk-time-left", { span: duration(remaining) })}</span>
          </span>
        ) : null}
      </p>
      {safe ? (
        <p className="desk-question muted">{t("desk-question-hidden")}</p>
      ) : (
        // Untrusted text: a React text child, never markup.
        <p className={full ? "desk-question" : "desk-question desk-question-line"} data-testid="desk-question">
          <UserText>{full ? r.question : firstLine(r.question)}</UserText>
        </p>
      )}
      {full ? (
        <p className="desk-meta muted">
          <UserText>{r.step_title}</UserText>
          {" · "}
          <UserText>{r.kind}</UserText>
          {r.standard ? (
            <>
              {" · "}
              <UserText>{r.standard}</UserText>
            </>
          ) : null}
          {" · "}
          {t("desk-attempts", { count: r.attempts })}
          {" · "}
          {t("desk-hints", { count: r.hints })}
        </p>
      ) : null}
    </div>
  );
}

/**
 * One waiting request: compact (who, the question's first line, how long it waits, the
 * actions) until the teacher opens its answer box ("Answer", a button, so Enter or Space opens
 * it); opened, the whole question, attempts and hints, and the box, focused. A card with a
 * saved draft starts open; Escape in the box or "Hide answer" folds it again, the draft kept.
 */
function RequestCard(props: {
  ipc: TeacherIpc;
  request: HelpRequest;
  replies: SavedReply[];
  now: number;
  onChanged: (r: HelpRequest) => void;
  onReload: () => void;
}) {
  const { ipc, request: r, replies, now, onChanged, onReload } = props;
  const safe = useProjectorSafe();
  const [text, setText] = useState(r.draft ?? "");
  const [open, setOpen] = useState(() => (r.draft ?? "").trim().length > 0);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [hostError, setHostError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const draftTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const focusBox = useRef(false);
  const expired = (r.deadline_ms ?? 0) - now <= 0;
  const blocked = r.state === "claimed_by_other" || expired;
  const fieldId = `answer-${r.call_id}`;
  const panelId = `answer-panel-${r.call_id}`;
  const shown = open && !safe;

  useEffect(
    () => () => {
      if (draftTimer.current) clearTimeout(draftTimer.current);
    },
    [],
  );

  // Opening from the button moves focus into the box (after it is drawn).
  useEffect(() => {
    if (shown && focusBox.current) {
      focusBox.current = false;
      boxRef.current?.focus();
    }
  }, [shown]);

  const act = async (what: () => Promise<HelpRequest>) => {
    setBusy(true);
    setHostError(null);
    try {
      onChanged(await what());
    } catch (e) {
      const err = ipc.toUiError(e);
      // A problem with the text (a name in it, empty, too long): shown at the field, the text
      // kept so the teacher can rephrase.
      if (isTextError(err.code)) setFieldError(errorText(err));
      else setHostError(errorText(err));
      if (err.code === "expired" || err.code === "already_answered" || err.code === "already_claimed") onReload();
    } finally {
      setBusy(false);
    }
  };

  return (
    <article
      className={shown ? "desk-card is-open" : "desk-card"}
      data-testid="desk-request"
      data-call-id={r.call_id}
      data-asked-at={r.asked_at_ms ?? ""}
      data-open={shown ? "true" : "false"}
    >
      <RequestSummary request={r} now={now} full={shown} />
      <div className="desk-actions">
        {safe ? null : (
          <button
            type="button"
            ref={toggleRef}
            className="desk-toggle"
            data-testid="desk-open"
            aria-expanded={shown}
            aria-controls={shown ? panelId : undefined}
            disabled={!shown && blocked}
            onClick={() => {
              focusBox.current = !shown;
              setOpen(!shown);
            }}
          >
            {shown ? t("desk-hide-answer") : t("desk-open-answer")}
          </button>
        )}
        <button
          type="button"
          disabled={busy || blocked || r.state === "claimed_by_me"}
          onClick={() => void act(() => ipc.desk.claim(r.call_id))}
        >
          {t("desk-claim")}
        </button>
        <button type="button" disabled={busy || blocked} onClick={() => void act(() => ipc.desk.comingOver(r.call_id))}>
          {t("desk-coming-over")}
        </button>
        <button type="button" disabled={busy || blocked} onClick={() => void act(() => ipc.desk.decline(r.call_id))}>
          {t("desk-decline")}
        </button>
      </div>
      {safe ? (
        <p className="muted desk-note" data-testid="desk-answer-hidden">
          {t("desk-answer-hidden")}
        </p>
      ) : shown ? (
        <form
          id={panelId}
          className="desk-answer"
          onSubmit={(e) => {
            e.preventDefault();
            setFieldError(null);
            void act(() => ipc.desk.answer(r.call_id, text));
          }}
        >
          <label htmlFor={fieldId}>{t("desk-answer-label")}</label>
          <SavedReplyPicker replies={replies} label={t("desk-insert-reply")} onPick={setText} />
          <textarea
            id={fieldId}
            ref={boxRef}
            value={text}
            rows={3}
            disabled={blocked}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${fieldId}-error` : undefined}
            onKeyDown={(e) => {
              // Folds the card again (the draft is kept) and gives focus back to its button.
              if (e.key === "Escape") {
                e.preventDefault();
                setOpen(false);
                requestAnimationFrame(() => toggleRef.current?.focus());
              }
            }}
            onChange={(e) => {
              const body = e.target.value;
              setText(body);
              // The field's message was about the old text.
              if (fieldError) setFieldError(null);
              if (draftTimer.current) clearTimeout(draftTimer.current);
              draftTimer.current = setTimeout(() => void ipc.desk.setDraft(r.call_id, body).catch(() => {}), 400);
            }}
          />
          <span className="muted desk-count">
            {num([...text.trim()].length, { useGrouping: false })} / {num(MAX_ANSWER_CHARS, { useGrouping: false })}
          </span>
          {fieldError ? (
            <p id={`${fieldId}-error`} role="alert" className="field-error">
              {fieldError}
            </p>
          ) : null}
          <button type="submit" disabled={busy || blocked}>
            {t("desk-send-answer")}
          </button>
        </form>
      ) : text.trim().length > 0 ? (
        <p className="muted desk-note" data-testid="desk-draft-note">
          {tx("desk-draft-kept", { draft: <UserText>{firstLine(text)}</UserText> })}
        </p>
      ) : null}
      {hostError ? (
        <p role="alert" className="field-error" data-testid="desk-host-error">
          {hostError}
        </p>
      ) : null}
    </article>
  );
}

function GroupAnswer(props: {
  ipc: TeacherIpc;
  group: HelpRequest[];
  replies: SavedReply[];
  onReload: () => void;
  onNotice: (message: string) => void;
}) {
  const { ipc, group, replies, onReload, onNotice } = props;
  const [text, setText] = useState("");
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const boxRef = useRef<HTMLTextAreaElement>(null);
  const id = `group-${group[0]?.call_id ?? ""}`;
  // Opening moves focus into the box.
  useEffect(() => {
    if (open) boxRef.current?.focus();
  }, [open]);
  if (!open) {
    return (
      <div className="desk-actions desk-group-open">
        <button type="button" aria-expanded={false} data-testid="desk-group-open" onClick={() => setOpen(true)}>
          {t("desk-group-answer", { count: group.length })}
        </button>
      </div>
    );
  }
  return (
    <form
      className="desk-answer desk-group-answer"
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        setBusy(true);
        ipc.desk
          .answerGroup(
            group.map((r) => r.call_id),
            text,
          )
          .then((out) => {
            const failed = out.filter((o) => o.error !== null);
            onNotice(
              failed.length === 0
                ? t("desk-group-sent", { count: out.length })
                : t("desk-group-sent-partial", {
                    sent: out.length - failed.length,
                    total: out.length,
                    errors: failed.map((f) => (f.error ? errorText(f.error) : "")).join("; "),
                  }),
            );
            setText("");
            onReload();
          })
          .catch((err2) => setMessage(errorText(ipc.toUiError(err2))))
          .finally(() => setBusy(false));
      }}
    >
      <label htmlFor={id}>{t("desk-group-answer", { count: group.length })}</label>
      <SavedReplyPicker replies={replies} label={t("desk-insert-reply-group")} onPick={setText} />
      <textarea
        id={id}
        ref={boxRef}
        rows={2}
        value={text}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.preventDefault();
            setOpen(false);
          }
        }}
        onChange={(e) => setText(e.target.value)}
        aria-describedby={message ? `${id}-msg` : undefined}
      />
      {message ? (
        <p id={`${id}-msg`} role="status" className="muted">
          {message}
        </p>
      ) : null}
      <div className="desk-actions">
        <button type="submit" disabled={busy}>
          {t("desk-group-send", { count: group.length })}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          {t("desk-group-hide")}
        </button>
      </div>
    </form>
  );
}

/**
 * What the teacher still owes: missed requests to follow up, visits promised. Each stays until
 * the teacher marks it done (kept in the local store, across restarts; nothing goes to the host).
 */
function OwedList(props: {
  title: string;
  testId: string;
  items: RoomItem[];
  what: (it: RoomItem) => string;
  onDone: (it: RoomItem) => Promise<void>;
  onError: (message: string) => void;
}) {
  const { title, testId, items, what, onDone, onError } = props;
  const safe = useProjectorSafe();
  if (items.length === 0) return null;
  return (
    <section className="desk-owed" aria-label={title}>
      <h3>
        {title} <span className="badge">{num(items.length)}</span>
      </h3>
      <ul className="desk-list">
        {items.map((it) => (
          <li key={it.call_id} data-testid={testId} data-call-id={it.call_id}>
            <strong>
              <UserText>{safe ? it.learner : (it.display_name ?? it.learner)}</UserText>
            </strong>{" "}
            <span className="muted">
              <UserText>{it.step_title}</UserText>
              {" · "}
              {what(it)}
            </span>{" "}
            <button type="button" onClick={() => void onDone(it).catch((e) => onError(String(e?.message ?? e)))}>
              {t("desk-done")}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Puts a saved reply's text in an answer box (nothing when there are none). */
function SavedReplyPicker(props: { replies: SavedReply[]; label: string; onPick: (body: string) => void }) {
  const { replies, label, onPick } = props;
  if (replies.length === 0) return null;
  return (
    <select
      aria-label={label}
      value=""
      onChange={(e) => {
        const reply = replies.find((x) => String(x.reply_id) === e.target.value);
        if (reply) onPick(reply.body);
      }}
    >
      <option value="">{t("desk-saved-reply-choose")}</option>
      {replies.map((x) => (
        // The teacher's own title: an option holds text only, so it is marked here, not wrapped.
        <option key={x.reply_id} value={x.reply_id} translate="no" dir="auto">
          {x.title}
        </option>
      ))}
    </select>
  );
}

function SavedReplies({
  ipc,
  replies,
  onChanged,
}: {
  ipc: TeacherIpc;
  replies: SavedReply[];
  onChanged: (r: SavedReply[]) => void;
}) {
  const [editing, setEditing] = useState<number | null>(null);
  const [title, setTitle] = useState("");
  const [body, setBody] = useState("");
  const [error, setError] = useState<string | null>(null);
  const reset = () => {
    setEditing(null);
    setTitle("");
    setBody("");
    setError(null);
  };
  const reload = async () => onChanged(await ipc.desk.replies());
  return (
    <section className="desk-replies" aria-labelledby="desk-replies-title">
      <h3 id="desk-replies-title">{t("desk-replies-title")}</h3>
      {replies.length === 0 ? <p className="muted">{t("desk-replies-empty")}</p> : null}
      <ul className="desk-list">
        {replies.map((r) => (
          <li key={r.reply_id} className="desk-reply">
            <strong>
              <UserText>{r.title}</UserText>
            </strong>{" "}
            <span className="muted">
              <UserText>{r.body}</UserText>
            </span>{" "}
            <button
              type="button"
              onClick={() => {
                setEditing(r.reply_id);
                setTitle(r.title);
                setBody(r.body);
              }}
            >
              {t("desk-reply-edit")}
            </button>{" "}
            <button
              type="button"
              onClick={() =>
                void ipc.desk
                  .deleteReply(r.reply_id)
                  .then(reload)
                  .catch((e) => setError(errorText(ipc.toUiError(e))))
              }
            >
              {t("desk-reply-delete")}
            </button>
          </li>
        ))}
      </ul>
      <form
        className="desk-reply-form"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          const save =
            editing === null ? ipc.desk.createReply(title, body) : ipc.desk.updateReply(editing, title, body);
          void save
            .then(reload)
            .then(reset)
            .catch((e2) => setError(errorText(ipc.toUiError(e2))));
        }}
      >
        <label htmlFor="reply-title">{editing === null ? t("desk-reply-title-new") : t("desk-reply-title")}</label>
        <input id="reply-title" value={title} maxLength={80} onChange={(e) => setTitle(e.target.value)} />
        <label htmlFor="reply-body">{t("desk-reply-body")}</label>
        <textarea
          id="reply-body"
          rows={2}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          aria-describedby={error ? "reply-error" : undefined}
        />
        {error ? (
          <p id="reply-error" role="alert" className="field-error">
            {error}
          </p>
        ) : null}
        <button type="submit">{editing === null ? t("desk-reply-save") : t("desk-reply-save-changes")}</button>
        {editing !== null ? (
          <button type="button" onClick={reset}>
            {t("desk-reply-cancel")}
          </button>
        ) : null}
      </form>
    </section>
  );
}
