import type { DeskIpc, HelpRequest, Room, SavedReply } from "../ipc";
import { IpcError, MAX_ANSWER_CHARS } from "../ipc";

/** A help request as the backend would send it, for tests. */
export function request(over: Partial<HelpRequest> = {}): HelpRequest {
  const now = 1_800_000_000_000;
  return {
    call_id: "call-1",
    class_id: "class-1",
    learner: "anon_aaaa1111",
    display_name: null,
    pathway_id: "p-1",
    widget_id: "frc-w4-fraction-compare",
    step_title: "Compare two fractions",
    kind: "fraction_compare",
    standard: "CCSS.MATH.CONTENT.4.NF.A.2",
    question: "How do I compare these?",
    attempts: 2,
    hints: 1,
    asked_at_ms: now - 30_000,
    deadline_ms: now + 270_000,
    now_ms: now,
    state: "open",
    draft: null,
    answer: null,
    closed_at_ms: null,
    after_help: null,
    groups: [],
    ...over,
    // As the core derives it (RequestState::is_waiting).
    waiting: over.waiting ?? ["open", "claimed_by_me", "claimed_by_other"].includes(over.state ?? "open"),
  };
}

/** An in-memory desk backend for tests: answers close requests, as the real one does. */
export function fakeDeskIpc(initial: HelpRequest[] = [], opts: { rosterNames?: string[]; room?: Room } = {}) {
  let queue = [...initial];
  let room: Room = opts.room ?? { follow_ups: [], visits: [] };
  // The backend's privacy gate, in small: a roster name in an answer is refused before sending.
  const gate = (text: string) => {
    // The core's own bounds (desk::validate_answer), as it words them.
    const n = [...text.trim()].length;
    if (n === 0) throw new IpcError({ code: "invalid_input", message: "Write an answer before sending." });
    if (n > MAX_ANSWER_CHARS) {
      throw new IpcError({
        code: "invalid_input",
        message: `An answer can be at most ${MAX_ANSWER_CHARS} characters; this one has ${n}.`,
      });
    }
    const hit = (opts.rosterNames ?? []).find((n) => text.includes(n));
    if (hit) {
      throw new IpcError({
        code: "text_blocked",
        message: `Not sent: your answer contains “${hit}”, a name from a class roster.`,
      });
    }
  };
  let replies: SavedReply[] = [];
  const sent: { callId: string; text: string }[] = [];
  const close = (callId: string, state: HelpRequest["state"], answer: string | null) => {
    const r = queue.find((x) => x.call_id === callId);
    if (!r) throw new IpcError({ code: "not_found", message: "no such request" });
    if (r.state === "answered" || r.state === "declined") {
      throw new IpcError({ code: "already_answered", message: "this request already has its answer" });
    }
    const next = { ...r, state, answer, waiting: false };
    queue = queue.map((x) => (x.call_id === callId ? next : x));
    return next;
  };
  const desk: DeskIpc = {
    queue: async () => queue,
    room: async () => room,
    followUpDone: async (callId) => {
      room = { ...room, follow_ups: room.follow_ups.filter((f) => f.call_id !== callId) };
    },
    visitDone: async (callId) => {
      room = { ...room, visits: room.visits.filter((v) => v.call_id !== callId) };
    },
    claim: async (callId) => {
      const r = queue.find((x) => x.call_id === callId);
      if (!r) throw new IpcError({ code: "not_found", message: "no such request" });
      const next: HelpRequest = { ...r, state: "claimed_by_me" };
      queue = queue.map((x) => (x.call_id === callId ? next : x));
      return next;
    },
    answer: async (callId, text) => {
      gate(text);
      sent.push({ callId, text });
      return close(callId, "answered", text.trim());
    },
    comingOver: async (callId) => close(callId, "answered", "Your teacher is coming over to help you."),
    decline: async (callId) => close(callId, "declined", null),
    answerGroup: async (callIds, text) =>
      callIds.map((callId) => {
        try {
          close(callId, "answered", text);
          return { call_id: callId, error: null };
        } catch (e) {
          return { call_id: callId, error: (e as IpcError).uiError };
        }
      }),
    replies: async () => replies,
    createReply: async (title, body) => {
      const r = { reply_id: replies.length + 1, title, body };
      replies = [...replies, r];
      return r;
    },
    updateReply: async (replyId, title, body) => {
      replies = replies.map((r) => (r.reply_id === replyId ? { reply_id: replyId, title, body } : r));
      return { reply_id: replyId, title, body };
    },
    deleteReply: async (replyId) => {
      replies = replies.filter((r) => r.reply_id !== replyId);
    },
    setDraft: async () => {},
    settings: async () => ({ muted: false }),
    setMuted: async (muted) => ({ muted }),
    setWindowTitle: async () => {},
  };
  return Object.assign(desk, { sent });
}
