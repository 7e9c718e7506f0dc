import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { ProjectorSafeContext } from "../../privacy/ProjectorSafe";
import { fakeDeskIpc, request } from "../../test-support/fakeDeskIpc";
import { HelpDesk } from "./HelpDesk";

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
    expect(within(cards[0]!).getByText(/2 attempts · 1 hints/)).toBeTruthy();
    expect(within(cards[0]!).getByText(/waiting 1 min 30 s/)).toBeTruthy();
    expect(within(cards[0]!).getByTestId("desk-countdown").textContent).toMatch(/4 min 3\d s left/);
    expect(screen.getByTestId("desk-waiting-count").textContent).toBe("2 requests waiting");
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
    const box = (await screen.findByLabelText("Answer")) as HTMLTextAreaElement;
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
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    fireEvent.change(await screen.findByLabelText("Answer"), { target: { value: "Compare the numerators." } });
    fireEvent.click(screen.getByText("Send answer"));
    await waitFor(() => expect(desk.sent).toEqual([{ callId: "call-1", text: "Compare the numerators." }]));
    await screen.findByText("Recently closed");
    expect(screen.getByTestId("desk-state").textContent).toBe("answered");
    expect(screen.getByText("Answer: Compare the numerators.")).toBeTruthy();
  });

  it("offers one answer to a group on the same widget", async () => {
    const desk = fakeDeskIpc([request({ call_id: "a" }), request({ call_id: "b" })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    fireEvent.change(await screen.findByLabelText("One answer to all 2"), { target: { value: "Same for all" } });
    fireEvent.click(screen.getByText("Send to all 2"));
    expect((await screen.findByTestId("desk-notice")).textContent).toBe("Sent to 2 students.");
    expect(desk.sent).toEqual([]); // the group went through answerGroup, not one by one
    expect(screen.getAllByTestId("desk-state").map((s) => s.textContent)).toEqual(["answered", "answered"]);
  });

  it("shows an expired request as expired with no way to answer", async () => {
    const desk = fakeDeskIpc([request({ deadline_ms: 1_800_000_000_000 - 1 })]);
    render(<HelpDesk ipc={ipcWith(desk)} changeTick={0} />);
    await screen.findByText("Recently closed");
    expect(screen.getByTestId("desk-state").textContent).toBe("expired");
    expect(screen.queryByText("Send answer")).toBeNull();
  });
});
