import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { TeacherIpc } from "../../ipc";
import { IpcError, toUiError } from "../../ipc";
import { ProjectorSafeContext } from "../../privacy/ProjectorSafe";
import { fakeDeskIpc, request } from "../../test-support/fakeDeskIpc";
import { HelpDesk } from "./HelpDesk";
import { titleFor } from "./useDeskAttention";

/** Only what the desk uses; cast so that other areas' additions to TeacherIpc need no stub here. */
function ipcWith(desk: ReturnType<typeof fakeDeskIpc>): TeacherIpc {
  const never = async () => {
    throw new Error("not used");
  };
  const ipc = {
    appStatus: never,
    listClasses: async () => [],
    createClass: never,
    hostSettings: never,
    saveHostSettings: never,
    diagnostics: never,
    desk,
    onConnectionChanged: () => () => {},
    onStoreChanged: () => () => {},
    toUiError,
  };
  return ipc as unknown as TeacherIpc;
}

afterEach(cleanup);

/** Opens a compact card's answer box, as the teacher does with its "Answer" button. */
async function openAnswer(
  card?: HTMLElement,
  words: { button: string; box: string } = { button: "Answer", box: "Answer" },
): Promise<HTMLTextAreaElement> {
  const scope = card ? within(card) : screen;
  fireEvent.click(await scope.findByRole("button", { name: words.button }));
  return (await scope.findByLabelText(words.box)) as HTMLTextAreaElement;
}

describe("HelpDesk", () => {
  it("shows a hostile question as literal text and runs nothing", async () => {
    const hostile = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>`;
    const { container } = render(
      <HelpDesk ipc={ipcWith(fakeDeskIpc([request({ question: hostile })]))} changeTick={0} />,
    );
    const q = await screen.findByTestId("desk-question");
    expect(q.textContent).toBe(hostile);
    // Negative controls: no element was made from the text.
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("script")).toBeNull();
    expect((window as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("lists waiting requests oldest first with the local name, attempts, hints and a countdown", async () => {
    const desk = fakeDeskIpc([
      request({ call_id: "a", display_name: "Ada", asked_at_ms: 1_800_000_000_000 - 90_000 }),
      request({ call_id: "b", widget_id: "other-widget", question: "second" }),
    ]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const cards = await screen.findAllByTestId("desk-request");
    expect(cards.map((c) => c.getAttribute("data-call-id"))).toEqual(["a", "b"]);
    expect(within(cards[0]!).getByText("Ada")).toBeTruthy();
    // The clocks run on from the read (a second's tick under a busy run turns 4 min 30 s into
    // 4 min 29 s): a few seconds either way, the format exact.
    expect(within(cards[0]!).getByText(/waiting 1 min 3\d s/)).toBeTruthy();
    expect(within(cards[0]!).getByTestId("desk-countdown").textContent).toMatch(/^4 min [23]\d s left$/);
    expect(screen.getByTestId("desk-waiting-count").textContent).toBe("2 requests waiting");
    // Attempts and hints show once the card is opened.
    expect(within(cards[0]!).queryByText(/2 attempts · 1 hint/)).toBeNull();
    await openAnswer(cards[0]);
    expect(within(cards[0]!).getByText(/2 attempts · 1 hint/)).toBeTruthy();
  });

  it("hides names and questions in projector-safe mode", async () => {
    render(
      <ProjectorSafeContext.Provider value={true}>
        <HelpDesk
          ipc={ipcWith(fakeDeskIpc([request({ display_name: "Ada", question: "private words" })]))}
          changeTick={0}
        />
      </ProjectorSafeContext.Provider>,
    );
    await screen.findByTestId("desk-request");
    expect(screen.queryByText("Ada")).toBeNull();
    expect(screen.queryByText("private words")).toBeNull();
  });

  it("hides the teacher's answers, the answer box and saved-reply bodies in projector-safe mode", async () => {
    // What the backend sends in projector-safe mode: no answer text; here the page must also
    // not offer to write one on a projected screen.
    const desk = fakeDeskIpc([
      request({ call_id: "open-1" }),
      request({
        call_id: "done-1",
        state: "answered",
        answer: "private answer words",
        closed_at_ms: 1_800_000_000_000,
      }),
    ]);
    await desk.createReply("Halves", "private reply body");
    const { container } = render(
      <ProjectorSafeContext.Provider value={true}>
        <HelpDesk ipc={ipcWith(desk)} changeTick={0} />
      </ProjectorSafeContext.Provider>,
    );
    await screen.findByTestId("desk-closed");
    expect(container.innerHTML).not.toContain("private answer words");
    expect(container.innerHTML).not.toContain("private reply body");
    expect(container.querySelector("textarea")).toBeNull();
    expect(screen.getByTestId("desk-answer-hidden")).toBeTruthy();
    // The actions that carry no text stay.
    expect(screen.getByText("Coming over")).toBeTruthy();
  });

  it("lists missed requests and promised visits until the teacher marks them done", async () => {
    const item = (call_id: string, over = {}) => ({
      call_id,
      class_id: "class-1",
      learner: "anon_bbbb2222",
      display_name: "Bea",
      pathway_id: "p-1",
      widget_id: "frc-w4-fraction-compare",
      step_title: "Compare two fractions",
      since_ms: 1_800_000_000_000 - 600_000,
      closed_at_ms: null,
      ...over,
    });
    const desk = fakeDeskIpc([], { room: { follow_ups: [item("missed-1")], visits: [item("visit-1")] } });
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const missed = await screen.findByTestId("desk-follow-up");
    expect(missed.textContent).toContain("Bea");
    expect(screen.getByTestId("desk-visit").textContent).toContain("coming over");
    fireEvent.click(within(missed).getByText("Done"));
    await waitFor(() => expect(screen.queryByTestId("desk-follow-up")).toBeNull());
    // The visit stays until it is marked done itself.
    expect(screen.getByTestId("desk-visit")).toBeTruthy();
  });

  it("shows a refused name at the field and keeps the text to rephrase", async () => {
    const desk = fakeDeskIpc([request()], { rosterNames: ["Quillon"] });
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const box = await openAnswer();
    fireEvent.change(box, { target: { value: "Quillon, count three halves from zero." } });
    fireEvent.click(screen.getByText("Send answer"));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toContain("“Quillon”"));
    expect(box.value).toBe("Quillon, count three halves from zero.");
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(desk.sent).toEqual([]);
    // Rephrased, it goes.
    fireEvent.change(box, { target: { value: "Count three halves from zero." } });
    fireEvent.click(screen.getByText("Send answer"));
    await waitFor(() => expect(desk.sent).toEqual([{ callId: "call-1", text: "Count three halves from zero." }]));
  });

  it("shows the core's refusal of an empty or too long answer next to the field", async () => {
    const desk = fakeDeskIpc([request()]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    await openAnswer();
    fireEvent.click(await screen.findByText("Send answer"));
    expect((await screen.findByRole("alert")).textContent).toBe("Write an answer before sending.");
    fireEvent.change(screen.getByLabelText("Answer"), { target: { value: "x".repeat(4001) } });
    fireEvent.click(screen.getByText("Send answer"));
    await waitFor(() => expect(screen.getByRole("alert").textContent).toMatch(/at most 4000/));
    expect(desk.sent).toEqual([]);
    // The counter shows the core's limit (a constant exported from Rust).
    expect(screen.getByText(/\/ 4000$/)).toBeTruthy();
  });

  it("sends an answer and shows the request as answered", async () => {
    const desk = fakeDeskIpc([request()]);
    const { container } = render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    fireEvent.change(await openAnswer(), { target: { value: "Compare the numerators." } });
    fireEvent.click(screen.getByText("Send answer"));
    await waitFor(() => expect(desk.sent).toEqual([{ callId: "call-1", text: "Compare the numerators." }]));
    await screen.findByText("Recently closed");
    expect(screen.getByTestId("desk-state").textContent).toBe("answered");
    // The teacher's words sit in their own element (not ours to translate) inside the sentence.
    expect(container.querySelector(".desk-answer-sent")?.textContent).toBe("Answer: Compare the numerators.");
    expect(container.querySelector(".desk-answer-sent bdi[translate='no']")?.textContent).toBe(
      "Compare the numerators.",
    );
  });

  it("offers one answer to a group on the same widget", async () => {
    const desk = fakeDeskIpc([request({ call_id: "a" }), request({ call_id: "b" })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    // Compact until opened, like the cards.
    expect(screen.queryByLabelText("One answer to all 2")).toBeNull();
    fireEvent.click(await screen.findByRole("button", { name: "One answer to all 2" }));
    fireEvent.change(await screen.findByLabelText("One answer to all 2"), { target: { value: "Same for all" } });
    fireEvent.click(screen.getByText("Send to all 2"));
    expect((await screen.findByTestId("desk-notice")).textContent).toBe("Sent to 2 students.");
    expect(desk.sent).toEqual([]); // the group went through answerGroup, not one by one
    expect(screen.getAllByTestId("desk-state").map((s) => s.textContent)).toEqual(["answered", "answered"]);
  });

  it("offers one answer to the waiting requests of one of the teacher's groups, across widgets", async () => {
    const desk = fakeDeskIpc([
      request({ call_id: "a", widget_id: "w1", groups: ["Table 1"] }),
      request({ call_id: "b", widget_id: "w2", groups: ["Table 1", "Reading"] }),
      request({ call_id: "c", widget_id: "w3", groups: [] }),
    ]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    // One block per group with two or more waiting: "Reading" has one, so none.
    const blocks = await screen.findAllByTestId("desk-learner-group");
    expect(blocks.map((b) => b.querySelector("p")?.textContent)).toEqual(["Table 1 · 2 waiting"]);
    fireEvent.click(within(blocks[0]!).getByRole("button", { name: "One answer to all 2" }));
    fireEvent.change(await screen.findByLabelText("One answer to all 2"), {
      target: { value: "Table 1: halves first" },
    });
    fireEvent.click(screen.getByText("Send to all 2"));
    expect((await screen.findByTestId("desk-notice")).textContent).toBe("Sent to 2 students.");
    const states = Object.fromEntries(
      screen.getAllByTestId("desk-closed").map((c) => [c.getAttribute("data-call-id"), true]),
    );
    expect(states).toEqual({ a: true, b: true });
  });

  it("shows an expired request as expired with no way to answer", async () => {
    const desk = fakeDeskIpc([request({ deadline_ms: 1_800_000_000_000 - 1 })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    await screen.findByText("Recently closed");
    expect(screen.getByTestId("desk-state").textContent).toBe("expired");
    expect(screen.queryByText("Send answer")).toBeNull();
  });

  it("keeps a card compact until its answer box is opened, then focuses the box", async () => {
    const desk = fakeDeskIpc([request({ question: "Why is 3/2 more than 1?\nI counted the halves twice." })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const card = await screen.findByTestId("desk-request");
    // Compact: who, the question's first line, the waiting time and the actions; no box.
    expect(card.getAttribute("data-open")).toBe("false");
    expect(within(card).getByTestId("desk-question").textContent).toBe("Why is 3/2 more than 1? …");
    expect(within(card).getByTestId("desk-countdown")).toBeTruthy();
    expect(card.querySelector("textarea")).toBeNull();
    const toggle = within(card).getByRole("button", { name: "Answer" });
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
    // A button: Enter and Space activate it as a click, so one handler serves all three.
    fireEvent.click(toggle);
    const box = (await within(card).findByLabelText("Answer")) as HTMLTextAreaElement;
    await waitFor(() => expect(document.activeElement).toBe(box));
    expect(card.getAttribute("data-open")).toBe("true");
    const hide = within(card).getByRole("button", { name: "Hide answer" });
    expect(hide.getAttribute("aria-expanded")).toBe("true");
    expect(hide.getAttribute("aria-controls")).toBe(box.closest("form")?.id);
    // Opened: the whole question.
    expect(within(card).getByTestId("desk-question").textContent).toBe(
      "Why is 3/2 more than 1?\nI counted the halves twice.",
    );
  });

  it("folds the box on Escape, keeps the draft, and opens a card with a saved draft", async () => {
    const desk = fakeDeskIpc([request({ call_id: "a" }), request({ call_id: "b", draft: "Saved draft text" })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const [a, b] = await screen.findAllByTestId("desk-request");
    // The card with a draft starts open, its text in the box.
    expect(b!.getAttribute("data-open")).toBe("true");
    expect((within(b!).getByLabelText("Answer") as HTMLTextAreaElement).value).toBe("Saved draft text");
    const box = await openAnswer(a);
    fireEvent.change(box, { target: { value: "Half-written" } });
    fireEvent.keyDown(box, { key: "Escape" });
    await waitFor(() => expect(a!.getAttribute("data-open")).toBe("false"));
    expect(within(a!).getByTestId("desk-draft-note").textContent).toBe("Draft kept: Half-written");
    expect((await openAnswer(a)).value).toBe("Half-written");
  });

  it("claims, promises a visit and declines from the compact card", async () => {
    const desk = fakeDeskIpc([
      request({ call_id: "a" }),
      request({ call_id: "b", widget_id: "w2" }),
      request({ call_id: "c", widget_id: "w3" }),
    ]);
    const { container } = render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const card = (id: string) =>
      container.querySelector(`[data-testid='desk-request'][data-call-id='${id}']`) as HTMLElement;
    await screen.findAllByTestId("desk-request");
    fireEvent.click(within(card("a")).getByRole("button", { name: "Claim" }));
    await waitFor(() => expect(within(card("a")).getByTestId("desk-state").textContent).toBe("claimed by you"));
    expect(card("a").getAttribute("data-open")).toBe("false");
    fireEvent.click(within(card("b")).getByRole("button", { name: "Coming over" }));
    fireEvent.click(within(card("c")).getByRole("button", { name: "Decline" }));
    await waitFor(() =>
      expect(
        screen
          .getAllByTestId("desk-closed")
          .map((c) => c.getAttribute("data-call-id"))
          .sort(),
      ).toEqual(["b", "c"]),
    );
  });

  it("says in the history whether the help worked, and only of requests the core judged", async () => {
    const desk = fakeDeskIpc([
      request({ call_id: "done-1", state: "answered", closed_at_ms: 1_800_000_000_000, after_help: "right_first_try" }),
      request({ call_id: "done-2", state: "declined", closed_at_ms: 1_800_000_000_100, after_help: null }),
    ]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    await waitFor(() => expect(screen.getAllByTestId("desk-closed")).toHaveLength(2));
    const lines = screen.getAllByTestId("desk-after-help").map((e) => e.textContent);
    expect(lines).toEqual([" · then right first try"]);
  });

  it("drops a slow queue answered after a newer one (the newest load wins)", async () => {
    const desk = fakeDeskIpc([request({ question: "first words" })]);
    // The second load (a store change) is slow and still holds the old request; the third (the
    // next change) answers first with the queue as it is now.
    let release: (() => void) | null = null;
    let calls = 0;
    desk.queue = async () => {
      calls++;
      if (calls === 2) {
        return new Promise((resolve) => {
          release = () => resolve([request({ question: "stale words" })]);
        });
      }
      return [request({ question: calls === 1 ? "first words" : "newest words" })];
    };
    const { container, rerender } = render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    await screen.findByText("first words");
    rerender(<HelpDesk ipc={ipcWith(desk)} changeTick={1} />);
    await waitFor(() => expect(release).not.toBeNull());
    rerender(<HelpDesk ipc={ipcWith(desk)} changeTick={2} />);
    await screen.findByText("newest words");
    (release as (() => void) | null)?.();
    await new Promise((r) => setTimeout(r, 20));
    expect(container.innerHTML).not.toContain("stale words");
    expect(screen.getByText("newest words")).toBeTruthy();
  });
});

describe("HelpDesk in the teacher's language", () => {
  afterEach(() => {
    setLanguageChoice("en");
  });

  it("speaks Spanish, counts by its plurals and says the desk's refusals in it", async () => {
    setLanguageChoice("es");
    const desk = fakeDeskIpc([request({ display_name: "Ada" })]);
    desk.claim = async () => {
      throw new IpcError({ code: "already_claimed", message: "another teacher has claimed this request" });
    };
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const card = await screen.findByTestId("desk-request");
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Mesa de ayuda");
    expect(screen.queryByText("Help desk")).toBeNull();
    expect(screen.getByTestId("desk-waiting-count").textContent).toBe("1 solicitud en espera");
    expect(within(card).getByTestId("desk-state").textContent).toBe("en espera");
    expect(within(card).getByTestId("desk-countdown").textContent).toMatch(/^quedan 4 min [23]\d s$/);
    expect(within(card).queryByRole("button", { name: "Claim" })).toBeNull();
    fireEvent.click(within(card).getByRole("button", { name: "Tomar" }));
    expect((await within(card).findByTestId("desk-host-error")).textContent).toBe(
      "otro docente ha tomado esta solicitud",
    );
    await openAnswer(card, { button: "Responder", box: "Respuesta" });
    expect(within(card).getByText(/2 intentos · 1 pista/)).toBeTruthy();
    // The student's name and question are theirs: shown as written, marked not to translate.
    expect(within(card).getByText("Ada").closest("bdi")?.getAttribute("translate")).toBe("no");
    expect(within(card).getByTestId("desk-question").querySelector("bdi")?.textContent).toBe("How do I compare these?");
    expect(titleFor(3)).toBe("(3) a2learn Teacher");
  });

  it("speaks Arabic, keeps a hostile question as text, and says two by its own form", async () => {
    setLanguageChoice("ar");
    const hostile = `<img src=x onerror="window.__pwned=3">`;
    const desk = fakeDeskIpc([request({ call_id: "a", question: hostile }), request({ call_id: "b" })]);
    const { container } = render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    const [q] = await screen.findAllByTestId("desk-question");
    expect(q?.textContent).toBe(hostile);
    expect(container.querySelector("img")).toBeNull();
    expect(screen.getByTestId("desk-waiting-count").textContent).toBe("طلبان في الانتظار");
    expect(screen.queryByText("Claim")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: /إجابة واحدة للجميع/ }));
    fireEvent.change(await screen.findByLabelText(/إجابة واحدة للجميع/), { target: { value: "نفس الإجابة" } });
    fireEvent.click(screen.getByRole("button", { name: /إرسال إلى الجميع/ }));
    expect((await screen.findByTestId("desk-notice")).textContent).toBe("أُرسلت إلى طالبَين.");
  });
});
