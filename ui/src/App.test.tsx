import { act, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup } from "@testing-library/react";
import { App } from "./App";
import type { AppStatus, ClassSummary, ConnectionState, TeacherIpc, UiError } from "./ipc";
import { IpcError, toUiError, unwrap } from "./ipc";

const status: AppStatus = {
  version: "0.1.0",
  db_path: "/tmp/teacher.db",
  schema_version: 20261129,
  connection: { state: "not_configured" },
  connection_label: "no host configured",
};

/** A fake backend: the values it answers with, and a way to push connection events. */
function fakeIpc(opts: { classes?: ClassSummary[]; fail?: UiError } = {}) {
  let push: ((s: ConnectionState, label: string) => void) | null = null;
  const ipc: TeacherIpc = {
    appStatus: async () => {
      if (opts.fail) throw new IpcError(opts.fail);
      return status;
    },
    listClasses: async () => opts.classes ?? [],
    onConnectionChanged: (handler) => {
      push = handler;
      return () => {
        push = null;
      };
    },
    toUiError,
  };
  return { ipc, push: (s: ConnectionState, label: string) => push?.(s, label) };
}

afterEach(cleanup);

describe("the app frame", () => {
  it("shows the empty class list and the host state", async () => {
    render(<App ipc={fakeIpc().ipc} />);
    expect(await screen.findByTestId("no-classes")).toHaveProperty("textContent", "No classes yet");
    expect(screen.getByTestId("connection").textContent).toContain("Host: no host configured");
    expect(screen.getByRole("navigation", { name: "Classes" })).toBeTruthy();
  });

  it("lists classes and opens one", async () => {
    const classes = [
      { class_id: "c1", title: "Period 3 Maths", join_code: "QX7-42K" },
      { class_id: "c2", title: "Period 5 Maths", join_code: null },
    ];
    render(<App ipc={fakeIpc({ classes }).ipc} />);
    const button = await screen.findByRole("button", { name: "Period 3 Maths" });
    expect(screen.queryByTestId("no-classes")).toBeNull();
    act(() => button.click());
    expect(screen.getByRole("heading", { name: "Period 3 Maths" })).toBeTruthy();
    expect(screen.getByText("Join code: QX7-42K")).toBeTruthy();
    expect(button.getAttribute("aria-current")).toBe("page");
  });

  it("shows a backend error as its code and message, with a retry", async () => {
    const fail: UiError = { code: "storage", message: "cannot open the database" };
    render(<App ipc={fakeIpc({ fail }).ipc} />);
    const alert = await screen.findByRole("alert");
    expect(alert.getAttribute("data-code")).toBe("storage");
    expect(alert.textContent).toContain("cannot open the database");
  });

  it("follows connection events", async () => {
    const fake = fakeIpc();
    render(<App ipc={fake.ipc} />);
    await screen.findByTestId("no-classes");
    act(() => fake.push({ state: "reconnecting", next_try_s: 4 }, "reconnecting in 4 s"));
    await waitFor(() =>
      expect(screen.getByTestId("connection").textContent).toContain("reconnecting in 4 s"),
    );
  });
});

describe("ipc helpers", () => {
  it("unwrap returns data and throws the backend error", () => {
    expect(unwrap({ status: "ok", data: 3 })).toBe(3);
    const error: UiError = { code: "not_found", message: "no such class" };
    expect(() => unwrap({ status: "error", error })).toThrow(IpcError);
    try {
      unwrap({ status: "error", error });
    } catch (e) {
      expect(toUiError(e)).toEqual(error);
    }
  });

  it("maps framework failures to internal", () => {
    expect(toUiError("command not allowed")).toEqual({ code: "internal", message: "command not allowed" });
  });
});
