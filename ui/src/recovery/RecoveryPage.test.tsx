import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RecoveryIpc, RecoveryView } from "../ipc";
import { RecoveryPage } from "./RecoveryPage";

function fakeIpc(view: RecoveryView, restore: () => Promise<void> = async () => {}): RecoveryIpc {
  return {
    view: async () => view,
    restore: vi.fn(restore),
    startEmpty: vi.fn(async () => {}),
    keepOnThisComputer: vi.fn(async () => {}),
    restart: vi.fn(async () => {}),
    toUiError: (e) => ({ code: "storage", message: e instanceof Error ? e.message : String(e) }),
  };
}

afterEach(cleanup);

const damaged: RecoveryView = {
  problem: "damaged",
  message: "The database file /x/teacher.db is damaged (it was cut short).",
  database: "/x/teacher.db",
  backup: { file_name: "teacher-20261201T140000Z.db", taken_at_ms: 1_796_133_600_000 },
};

describe("RecoveryPage", () => {
  it("shows no title until it knows the problem, and the generic one if it cannot learn it", async () => {
    let answer: (v: RecoveryView) => void = () => {};
    const ipc = fakeIpc(damaged);
    ipc.view = () => new Promise((resolve) => (answer = resolve));
    const { unmount } = render(<RecoveryPage ipc={ipc} />);
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("");
    answer({ ...damaged, problem: "shared_store", backup: null });
    await screen.findByTestId("recovery-message");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("The school's shared store cannot be opened");
    unmount();
    const failing = fakeIpc(damaged);
    failing.view = async () => {
      throw new Error("no answer");
    };
    render(<RecoveryPage ipc={failing} />);
    await waitFor(() =>
      expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("The database cannot be opened"),
    );
  });

  it("offers the newest backup of a damaged file and restores it", async () => {
    const ipc = fakeIpc(damaged);
    render(<RecoveryPage ipc={ipc} />);
    expect((await screen.findByTestId("recovery-message")).textContent).toContain("cut short");
    expect(screen.getByTestId("recovery-backup").textContent).toContain("teacher-20261201T140000Z.db");
    fireEvent.click(screen.getByTestId("recovery-restore"));
    expect(await screen.findByTestId("recovery-restored")).toBeTruthy();
    expect(ipc.restore).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole("button", { name: "Restart now" }));
    expect(ipc.restart).toHaveBeenCalledTimes(1);
  });

  it("says why a restore failed and keeps the button", async () => {
    const ipc = fakeIpc(damaged, async () => {
      throw new Error("cannot restore the database from …: it is damaged");
    });
    render(<RecoveryPage ipc={ipc} />);
    fireEvent.click(await screen.findByTestId("recovery-restore"));
    expect((await screen.findByRole("alert")).textContent).toContain("cannot restore");
    await waitFor(() => expect((screen.getByTestId("recovery-restore") as HTMLButtonElement).disabled).toBe(false));
  });

  it("offers no restore for a file from a newer app, nor without a backup", async () => {
    const newer = fakeIpc({ ...damaged, problem: "newer", message: "written by a newer version", backup: null });
    const { unmount } = render(<RecoveryPage ipc={newer} />);
    await screen.findByTestId("recovery-message");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toContain("newer version");
    expect(screen.queryByTestId("recovery-restore")).toBeNull();
    unmount();
    render(<RecoveryPage ipc={fakeIpc({ ...damaged, backup: null })} />);
    expect((await screen.findByTestId("recovery-no-backup")).textContent).toContain("db restore --from");
    expect(screen.queryByTestId("recovery-restore")).toBeNull();
  });

  it("offers a lost file's newest backup, or a fresh start", async () => {
    const missing: RecoveryView = {
      ...damaged,
      problem: "missing",
      message: "The database file /x/teacher.db is missing",
    };
    const ipc = fakeIpc(missing);
    const { unmount } = render(<RecoveryPage ipc={ipc} />);
    // The heading follows the view once it has loaded.
    await screen.findByTestId("recovery-message");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("The database file is missing");
    expect(screen.getByTestId("recovery-backup").textContent).not.toContain("damaged file");
    fireEvent.click(screen.getByTestId("recovery-start-empty"));
    expect((await screen.findByTestId("recovery-restored")).textContent).toContain("new, empty database");
    expect(ipc.startEmpty).toHaveBeenCalledTimes(1);
    expect(ipc.restore).not.toHaveBeenCalled();
    expect(screen.queryByTestId("recovery-start-empty")).toBeNull();
    unmount();
    // Negative control: a damaged file is never offered a fresh start (the restore is the way).
    render(<RecoveryPage ipc={fakeIpc(damaged)} />);
    await screen.findByTestId("recovery-restore");
    expect(screen.queryByTestId("recovery-start-empty")).toBeNull();
  });

  it("offers a shared store that did not open a retry, or this computer, and never a backup", async () => {
    const shared: RecoveryView = {
      problem: "shared_store",
      message: "cannot open the shared store at postgres://teacher:***@db.school.example/results: refused",
      database: "/x/teacher.db",
      backup: null,
    };
    const ipc = fakeIpc(shared);
    const { unmount } = render(<RecoveryPage ipc={ipc} />);
    await screen.findByTestId("recovery-message");
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe("The school's shared store cannot be opened");
    expect(screen.queryByTestId("recovery-restore")).toBeNull();
    fireEvent.click(screen.getByTestId("recovery-use-this-computer"));
    expect((await screen.findByTestId("recovery-this-computer")).textContent).toContain("on this computer");
    expect(ipc.keepOnThisComputer).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByTestId("recovery-retry"));
    expect(ipc.restart).toHaveBeenCalledTimes(1);
    unmount();
    // Negative control: a damaged file is not offered this computer (it is on this computer).
    render(<RecoveryPage ipc={fakeIpc(damaged)} />);
    await screen.findByTestId("recovery-restore");
    expect(screen.queryByTestId("recovery-use-this-computer")).toBeNull();
  });
});
