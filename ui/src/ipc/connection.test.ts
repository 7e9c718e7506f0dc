import { afterEach, describe, expect, it, vi } from "vitest";
import type { ConnectionState } from "./bindings";

// The Tauri side, replaced: the event's listener is captured, and the catch-up read answers
// when the test says.
const bridge = vi.hoisted(() => ({
  listener: null as ((event: { payload: unknown }) => void) | null,
  answerStatus: null as ((state: string) => void) | null,
}));

vi.mock("@tauri-apps/api/core", () => ({ Channel: class {} }));
vi.mock("@tauri-apps/api/window", () => ({ getCurrentWindow: () => ({}) }));
vi.mock("@tauri-apps/plugin-dialog", () => ({ save: async () => null }));
vi.mock("./bindings", () => ({
  events: {
    connectionChanged: {
      listen: async (cb: (event: { payload: unknown }) => void) => {
        bridge.listener = cb;
        return () => {};
      },
    },
  },
  commands: {
    appStatus: () =>
      new Promise((resolve) => {
        bridge.answerStatus = (state) =>
          resolve({ status: "ok", data: { connection: { state }, connection_label: state } });
      }),
  },
}));

const { tauriIpc } = await import("./index");

const flush = () => new Promise((r) => setTimeout(r, 0));

describe("onConnectionChanged", () => {
  afterEach(() => {
    bridge.listener = null;
    bridge.answerStatus = null;
  });

  it("drops a catch-up read that answers after an event arrived", async () => {
    const seen: string[] = [];
    tauriIpc.onConnectionChanged((c: ConnectionState, label: string) => seen.push(`${c.state}/${label}`));
    await flush();
    expect(bridge.listener).not.toBeNull();
    expect(bridge.answerStatus).not.toBeNull();
    // The state changes after the read was taken: the event arrives first, the read's stale
    // answer after it.
    bridge.listener?.({ payload: { connection: { state: "connected" }, label: "connected" } });
    bridge.answerStatus?.("connecting");
    await flush();
    expect(seen).toEqual(["connected/connected"]);
  });

  it("uses the catch-up read when no event came (control)", async () => {
    const seen: string[] = [];
    tauriIpc.onConnectionChanged((c: ConnectionState, label: string) => seen.push(`${c.state}/${label}`));
    await flush();
    bridge.answerStatus?.("connected");
    await flush();
    expect(seen).toEqual(["connected/connected"]);
  });
});
