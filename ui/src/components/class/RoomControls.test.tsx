import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassViewIpc, PacingInput, RoomView, TeacherIpc } from "../../ipc";
import { IpcError, toUiError } from "../../ipc";
import { RoomControls } from "./RoomControls";

afterEach(cleanup);

const STEPS = [
  { widget_id: "w1", title: "Compare fractions" },
  { widget_id: "w2", title: "Explain" },
  { widget_id: "w3", title: "Reflect" },
];

/** A fake host behind the room commands: it changes its state as the real one would echo. */
function fakeRoom(tools: { pause: boolean; pace: boolean }) {
  const room: RoomView = {
    paused: false,
    message: null,
    since_ms: null,
    pacing: [
      {
        assignment_id: "a1",
        pathway_id: "p1",
        pathway_title: "Fractions",
        up_to: null,
        up_to_title: null,
        up_to_step: null,
        steps: STEPS,
      },
    ],
    can_pause: tools.pause,
    can_pace: tools.pace,
    tools_unknown: null,
  };
  const calls: string[] = [];
  const classView = {
    room: async () => structuredClone(room),
    pause: async (_c: string, message: string | null) => {
      calls.push(`pause:${message}`);
      if (message?.includes("Quillon")) {
        throw new IpcError({ code: "text_blocked", message: "Not sent: your pause message contains “Quillon”." });
      }
      room.paused = true;
      room.message = message;
    },
    resume: async () => {
      calls.push("resume");
      room.paused = false;
      room.message = null;
    },
    setPacing: async (input: PacingInput) => {
      calls.push(`pace:${input.pathway_id}:${input.up_to}`);
      const p = room.pacing[0]!;
      const i = STEPS.findIndex((s) => s.widget_id === input.up_to);
      p.up_to = input.up_to;
      p.up_to_step = i >= 0 ? i + 1 : null;
      p.up_to_title = i >= 0 ? STEPS[i]!.title : null;
    },
  } as Partial<ClassViewIpc>;
  const ipc = { classView, toUiError } as unknown as TeacherIpc;
  return { ipc, calls };
}

describe("the room controls", () => {
  it("pause with a message, show it as text, resume", async () => {
    const { ipc, calls } = fakeRoom({ pause: true, pace: true });
    render(<RoomControls ipc={ipc} classId="c1" changeTick={0} />);
    await screen.findByText("Class running");
    fireEvent.change(screen.getByTestId("room-message"), { target: { value: "<b>Eyes</b> up here" } });
    fireEvent.click(screen.getByTestId("room-pause"));
    await screen.findByText("Paused");
    // The message is text, never markup.
    expect(screen.getByTestId("room-state").textContent).toContain("“<b>Eyes</b> up here”");
    expect(screen.getByTestId("room-state").querySelector("b")).toBeNull();
    fireEvent.click(screen.getByTestId("room-resume"));
    await screen.findByText("Class running");
    expect(calls).toEqual(["pause:<b>Eyes</b> up here", "resume"]);
  });

  it("shows a refused message at the field and keeps the draft", async () => {
    const { ipc } = fakeRoom({ pause: true, pace: false });
    render(<RoomControls ipc={ipc} classId="c1" changeTick={0} />);
    const input = await screen.findByTestId("room-message");
    fireEvent.change(input, { target: { value: "Quillon, eyes up here" } });
    fireEvent.click(screen.getByTestId("room-pause"));
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Quillon");
    expect((screen.getByTestId("room-message") as HTMLInputElement).value).toBe("Quillon, eyes up here");
    expect(screen.getByText("Class running")).toBeTruthy();
  });

  it("paces a pathway up to step N and lifts it", async () => {
    const { ipc, calls } = fakeRoom({ pause: true, pace: true });
    render(<RoomControls ipc={ipc} classId="c1" changeTick={0} />);
    const select = await screen.findByTestId("room-pace");
    fireEvent.change(select, { target: { value: "w2" } });
    await waitFor(() => expect(screen.getByTestId("room-pacing").textContent).toContain("up to step 2 (Explain)"));
    fireEvent.change(screen.getByTestId("room-pace"), { target: { value: "" } });
    await waitFor(() => expect(screen.queryByTestId("room-pacing")).toBeNull());
    expect(calls).toEqual(["pace:p1:w2", "pace:p1:null"]);
  });

  it("a read from before the host's echo never lands after the echo", async () => {
    // The real host echoes pacing through the feed, after `setPacing` returned: the read the
    // control makes next still sees no pacing. Hold that read while the echo arrives.
    const { ipc } = fakeRoom({ pause: true, pace: true });
    const cv = ipc.classView as ClassViewIpc;
    const echoed = cv.setPacing;
    let echo: (() => Promise<void>) | null = null;
    cv.setPacing = async (input: PacingInput) => {
      echo = () => echoed(input);
    };
    const read = cv.room;
    const held: (() => void)[] = [];
    let reads = 0;
    let hold = false;
    cv.room = async (classId: string) => {
      reads++;
      const snapshot = await read(classId);
      if (!hold) return snapshot;
      return new Promise<RoomView>((resolve) => held.push(() => resolve(snapshot)));
    };
    const { rerender } = render(<RoomControls ipc={ipc} classId="c1" changeTick={0} />);
    const select = await screen.findByTestId("room-pace");
    hold = true;
    fireEvent.change(select, { target: { value: "w3" } });
    await waitFor(() => expect(held.length).toBe(1));
    hold = false;
    await echo!();
    rerender(<RoomControls ipc={ipc} classId="c1" changeTick={1} />);
    // One read at a time: the echo's read waits for the one on its way...
    await new Promise((r) => setTimeout(r, 20));
    expect(reads).toBe(2);
    // ...which lands first; the echo's read lands after it, and stays.
    held[0]!();
    await waitFor(() => expect(reads).toBe(3));
    await waitFor(() => expect(screen.getByTestId("room-pacing").textContent).toContain("up to step 3 (Reflect)"));
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId("room-pacing").textContent).toContain("up to step 3 (Reflect)");
  });

  it("offers no control the host lacks", async () => {
    const { ipc } = fakeRoom({ pause: false, pace: false });
    render(<RoomControls ipc={ipc} classId="c1" changeTick={0} />);
    await screen.findByText("Class running");
    expect(screen.queryByTestId("room-pause")).toBeNull();
    expect(screen.queryByTestId("room-pace")).toBeNull();
    // Control: with the tools, both are there.
    cleanup();
    const full = fakeRoom({ pause: true, pace: true });
    render(<RoomControls ipc={full.ipc} classId="c1" changeTick={0} />);
    expect(await screen.findByTestId("room-pause")).toBeTruthy();
    expect(screen.getByTestId("room-pace")).toBeTruthy();
  });
});
