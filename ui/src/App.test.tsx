import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { Profiler } from "react";
import { afterEach, describe, expect, it } from "vitest";
import { App, welcomeNext } from "./App";
import { setLanguageChoice } from "./i18n";
import type {
  AppStatus,
  CheckResult,
  ClassSummary,
  ConnectionState,
  Diagnostics,
  HostCheckView,
  HostClassView,
  HostOffersView,
  StoreChanged,
  TeacherIpc,
  UiError,
} from "./ipc";
import { IpcError, toUiError, unwrap } from "./ipc";
import { COUNTS_EVERY_MS } from "./ipc/throttle";
import { fakeDeskIpc } from "./test-support/fakeDeskIpc";
import { fakeExportIpc } from "./test-support/fakeExportIpc";
import { wholeGrid } from "./test-support/fakeGrid";
import { writingHost } from "./test-support/fakeOffers";
import { noRoomControls } from "./test-support/fakeRoom";
import { storeChanged } from "./test-support/storeChanged";

const status: AppStatus = {
  version: "0.1.0",
  db_path: "/tmp/teacher.db",
  schema_version: 20261129,
  connection: { state: "not_configured" },
  connection_label: "no host configured",
  host_mode: "demo",
};

const resumeCheck: CheckResult = {
  id: "feed.resume",
  section: "pathway-host.md §2, §4",
  required: true,
  status: "PASS",
  what: "reconnecting with Last-Event-ID yields exactly the frames after it",
  detail: null,
};

const workingHost: HostCheckView = {
  works: true,
  verdict: "This host works with a2learn Teacher.",
  checks: [resumeCheck],
};

const brokenHost: HostCheckView = {
  works: false,
  verdict:
    "This host breaks a rule the dashboard needs: reconnecting with Last-Event-ID yields exactly the frames after it (pathway-host.md §2, §4). resumed after 54, seq 55 never came",
  checks: [{ ...resumeCheck, status: "FAIL", detail: "resumed after 54, seq 55 never came" }],
};

/** A fake backend: the values it answers with, and a way to push connection events. */
function fakeIpc(
  opts: {
    classes?: ClassSummary[];
    fail?: UiError;
    diagnostics?: Diagnostics;
    hostCheck?: HostCheckView;
    hostClasses?: HostClassView[];
    offers?: HostOffersView;
  } = {},
) {
  let push: ((s: ConnectionState, label: string) => void) | null = null;
  let storeChanged: ((c: StoreChanged) => void) | null = null;
  const results = { shared_url: "", in_use: false };
  let restarts = 0;
  const hostClasses = (opts.hostClasses ?? []).map((c) => ({ ...c }));
  const ipc: TeacherIpc = {
    appStatus: async () => {
      if (opts.fail) throw new IpcError(opts.fail);
      return status;
    },
    listClasses: async () => opts.classes ?? [],
    createClass: async (title) => {
      if (title.trim() === "") throw new IpcError({ code: "invalid_input", message: "a class needs a title" });
      return { class_id: "new-1", title, host: null, join_code: "NEW-123", learners: 0, open_requests: 0 };
    },
    hostSettings: async () => ({ mode: "demo", url: "", token_set: false, token_storage: null }),
    saveHostSettings: async (input) => {
      if (input.mode === "custom" && !input.url.startsWith("http")) {
        throw new IpcError({ code: "invalid_input", message: "the address must start with http:// or https://" });
      }
      return {
        mode: input.mode,
        url: input.url,
        token_set: input.token !== "",
        token_storage: input.token !== "" ? ("file" as const) : null,
      };
    },
    // Like the backend: a bad address is refused; a host named "broken" breaks a rule.
    checkNewHost: async (input) => {
      if (!input.url.startsWith("http")) {
        throw new IpcError({ code: "invalid_input", message: "the address must start with http:// or https://" });
      }
      return input.url.includes("broken") ? brokenHost : workingHost;
    },
    checkFollowedHost: async () => opts.hostCheck ?? workingHost,
    hostClasses: async () => hostClasses.map((c) => ({ ...c })),
    hostOffers: async () => opts.offers ?? writingHost(),
    followHostClass: async (classId) => {
      const c = hostClasses.find((h) => h.class_id === classId);
      if (!c) throw new IpcError({ code: "invalid_input", message: `the host lists no class "${classId}"` });
      if (classId === "taken")
        throw new IpcError({ code: "invalid_input", message: "class taken belongs to another host" });
      c.followed = true;
    },
    resultsStore: {
      // Like the backend: connects before it saves (a wrong password is refused, nothing saved).
      get: async () => ({ ...results }),
      save: async (input) => {
        if (input.shared_url !== "" && input.password !== "right-password") {
          throw new IpcError({ code: "storage", message: "cannot open the shared store: password refused" });
        }
        results.shared_url = input.shared_url;
        return { ...results };
      },
      restart: async () => {
        restarts += 1;
      },
    },
    diagnostics: async () => opts.diagnostics ?? { by_rule: [], recent: [] },
    setProjectorSafe: async (on) => on,
    openProjector: async () => {},
    classView: {
      ...noRoomControls,
      grid: async (_c, assignmentId) =>
        wholeGrid({
          assignment_id: assignmentId,
          pathway_id: "p",
          steps: [],
          rows: [],
          projector_safe: false,
          idle_after_minutes: 5,
        }),
      gridRows: async () => {
        throw new Error("no rows are named in these tests");
      },
      evidence: async () => ({ label: "", learner: "", step_title: "", results: [], struggles: [], open_requests: 0 }),
      mastery: async () => {
        const empty = {
          standard: null,
          visibility: "empty" as const,
          not_enough_evidence: false,
          results: null,
          checked: null,
          correct: null,
          attempts: null,
          hints: null,
          learners: null,
          summary: "no evidence",
        };
        return { k: 10, standards: [], total: empty };
      },
      needsMe: async () => [],
      timeline: async () => ({
        bucket_ms: 10000,
        starts_ms: [],
        completions: [],
        struggles: [],
        help_requests: [],
        other: [],
      }),
      catalog: async () => [],
      assignments: async () => [],
      assign: async () => ({ assignment_id: "a1", field_errors: [] }),
      importRoster: async () => ({ imported: 0, errors: [] }),
      rosterSize: async () => 0,
      suppressionK: async () => 10,
      setSuppressionK: async (k) => {
        if (k < 5 || k > 30) throw new IpcError({ code: "invalid_input", message: "k must be between 5 and 30" });
        return k;
      },
    },
    desk: fakeDeskIpc(),
    exports: fakeExportIpc().exports,
    onConnectionChanged: (handler) => {
      push = handler;
      return () => {
        push = null;
      };
    },
    onHelpRequestArrived: () => () => {},
    onStoreChanged: (handler) => {
      storeChanged = handler;
      return () => {
        storeChanged = null;
      };
    },
    toUiError,
  };
  return {
    ipc,
    push: (s: ConnectionState, label: string) => push?.(s, label),
    changed: (c: StoreChanged) => storeChanged?.(c),
    restarts: () => restarts,
  };
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
      { class_id: "c1", title: "Period 3 Maths", host: null, join_code: "QX7-42K", learners: 24, open_requests: 2 },
      { class_id: "c2", title: "Period 5 Maths", host: null, join_code: null, learners: 0, open_requests: 0 },
    ];
    render(<App ipc={fakeIpc({ classes }).ipc} />);
    const button = await screen.findByRole("button", { name: /Period 3 Maths/ });
    expect(screen.getByLabelText("2 open help requests")).toBeTruthy();
    expect(screen.queryByLabelText("0 open help requests")).toBeNull();
    expect(screen.queryByTestId("no-classes")).toBeNull();
    act(() => button.click());
    expect(screen.getByRole("heading", { name: "Period 3 Maths" })).toBeTruthy();
    expect(screen.getByTestId("join-code").textContent).toBe("QX7-42K");
    expect(screen.getByTestId("learner-count").textContent).toBe("24");
    expect(button.getAttribute("aria-current")).toBe("page");
  });

  it("opens the only class there is by itself, and with two waits for the teacher's pick", async () => {
    const demo = { class_id: "d1", title: "Demo class", host: null, join_code: null, learners: 6, open_requests: 0 };
    render(<App ipc={fakeIpc({ classes: [demo] }).ipc} />);
    expect(await screen.findByRole("heading", { name: "Demo class" })).toBeTruthy();
    expect(screen.queryByTestId("welcome-next")).toBeNull();
    cleanup();
    const other = { ...demo, class_id: "d2", title: "Period 4" };
    render(<App ipc={fakeIpc({ classes: [demo, other] }).ipc} />);
    expect((await screen.findByTestId("welcome-next")).textContent).toBe(
      "Choose a class on the left to see its progress.",
    );
    expect(screen.queryByRole("heading", { name: "Demo class" })).toBeNull();
  });

  it("tells what to do next on each host, and never promises a demo class on a school's", () => {
    const school = (state: ConnectionState) => ({ ...status, host_mode: "custom" as const, connection: state });
    expect(welcomeNext(status, 0)).toMatch(/demo class is being made/);
    const down = welcomeNext(school({ state: "offline" }), 0);
    expect(down).toMatch(/not answering/);
    expect(down).not.toMatch(/demo/);
    expect(welcomeNext(school({ state: "token_refused" }), 0)).toMatch(/refused the token/);
    const empty = welcomeNext(school({ state: "connected" }), 0);
    expect(empty).toMatch(/No classes on your school's host yet/);
    expect(empty).not.toMatch(/demo/);
    expect(welcomeNext(school({ state: "offline" }), 2)).toMatch(/Choose a class/);
  });

  it("names the host of two classes that share a title, and of no other", async () => {
    const classes = [
      { class_id: "c-1", title: "Period 3", host: "demo", join_code: null, learners: 2, open_requests: 0 },
      {
        class_id: "c-1@9f2b",
        title: "Period 3",
        host: "https://school.example",
        join_code: null,
        learners: 3,
        open_requests: 0,
      },
      { class_id: "c-2", title: "Period 5", host: null, join_code: null, learners: 1, open_requests: 0 },
    ];
    render(<App ipc={fakeIpc({ classes }).ipc} />);
    await screen.findByRole("button", { name: /Period 5/ });
    const hosts = screen.getAllByTestId("class-host").map((e) => e.textContent);
    expect(hosts).toEqual(["demo", "https://school.example"]);
  });

  it("opens the export view from the sidebar on the class being looked at", async () => {
    const classes = [
      { class_id: "c1", title: "Period 3 Maths", host: null, join_code: "QX7-42K", learners: 24, open_requests: 0 },
      { class_id: "c2", title: "Period 5 Maths", host: null, join_code: null, learners: 0, open_requests: 0 },
    ];
    render(<App ipc={fakeIpc({ classes }).ipc} />);
    const period5 = await screen.findByRole("button", { name: /Period 5 Maths/ });
    act(() => period5.click());
    const link = screen.getByRole("button", { name: "Export" });
    act(() => link.click());
    expect(await screen.findByRole("heading", { name: "Export" })).toBeTruthy();
    expect((screen.getByTestId("export-class") as HTMLSelectElement).value).toBe("c2");
    expect(link.getAttribute("aria-current")).toBe("page");
    expect(await screen.findByLabelText(/OneRoster/)).toBeTruthy();
  });

  it("shows a backend error as its code and message, with a retry", async () => {
    const fail: UiError = { code: "storage", message: "cannot open the database" };
    render(<App ipc={fakeIpc({ fail }).ipc} />);
    const alert = await screen.findByRole("alert");
    expect(alert.getAttribute("data-code")).toBe("storage");
    expect(alert.textContent).toContain("cannot open the database");
  });

  it("keeps a connection event that arrives while the frame is still loading", async () => {
    const fake = fakeIpc();
    // The status is read ("no host configured"), then the host connects before the class list
    // has come back: the event must not be lost to the load that finishes after it.
    let release: ((classes: ClassSummary[]) => void) | null = null;
    fake.ipc.listClasses = () =>
      new Promise<ClassSummary[]>((resolve) => {
        release = resolve;
      });
    render(<App ipc={fake.ipc} />);
    await waitFor(() => expect(release).not.toBeNull());
    act(() => fake.push({ state: "connected" }, "connected"));
    await act(async () => release?.([]));
    await screen.findByTestId("no-classes");
    expect(screen.getByTestId("connection").textContent).toContain("Host: connected");
  });

  it("follows connection events", async () => {
    const fake = fakeIpc();
    render(<App ipc={fake.ipc} />);
    await screen.findByTestId("no-classes");
    act(() => fake.push({ state: "reconnecting", next_try_s: 4 }, "reconnecting in 4 s"));
    await waitFor(() => expect(screen.getByTestId("connection").textContent).toContain("reconnecting in 4 s"));
  });
});

describe("the frame in the teacher's language", () => {
  afterEach(() => {
    setLanguageChoice("en");
  });

  it("says the sidebar, the welcome page and the host state in Spanish, the host state from its state", async () => {
    setLanguageChoice("es");
    const classes = [
      { class_id: "c1", title: "Period 3 Maths", host: null, join_code: null, learners: 1, open_requests: 2 },
      { class_id: "c2", title: "Period 5 Maths", host: null, join_code: null, learners: 24, open_requests: 0 },
    ];
    const fake = fakeIpc({ classes });
    render(<App ipc={fake.ipc} />);
    expect(await screen.findByRole("navigation", { name: "Clases" })).toBeTruthy();
    expect(await screen.findByText("1 estudiante")).toBeTruthy();
    expect(screen.getByLabelText("2 peticiones de ayuda abiertas")).toBeTruthy();
    expect(screen.getByTestId("welcome-next").textContent).toBe("Elige una clase a la izquierda para ver su progreso.");
    // The class's own title is the host's, in no language of ours.
    expect(screen.getByText("Period 3 Maths").getAttribute("translate")).toBe("no");
    expect(document.title).toBe("a2learn Teacher");
    const text = document.body.textContent ?? "";
    expect(text).not.toContain("Help desk");
    expect(text).not.toContain("learners");
    // The label the core wrote is English; the bar says the state in the window's language.
    act(() => fake.push({ state: "reconnecting", next_try_s: 4 }, "reconnecting in 4 s"));
    await waitFor(() =>
      expect(screen.getByTestId("connection").textContent).toContain("Servidor: reconectando en 4 s"),
    );
    expect(screen.getByTestId("connection").textContent).not.toContain("Host:");
  });
});

describe("classes, settings and diagnostics", () => {
  it("creates a class and opens it; an empty title is refused next to the field", async () => {
    render(<App ipc={fakeIpc().ipc} />);
    await screen.findByTestId("no-classes");
    const create = screen.getByRole("button", { name: "Create" });
    act(() => create.click());
    expect((await screen.findByRole("alert")).textContent).toContain("A class needs a title");
    const input = screen.getByLabelText("New class") as HTMLInputElement;
    fireEvent.change(input, { target: { value: "Period 6" } });
    act(() => create.click());
    expect(await screen.findByRole("heading", { name: "Period 6" })).toBeTruthy();
    expect(screen.getByTestId("join-code").textContent).toBe("NEW-123");
  });

  it("offers no class or assignment a read-only host would refuse; the roster stays", async () => {
    const classes = [
      { class_id: "s-1", title: "Fractions", host: null, join_code: null, learners: 3, open_requests: 0 },
    ];
    const readOnly = { create_class: false, assign_pathway: false, answer: false, unknown: null };
    render(<App ipc={fakeIpc({ classes, offers: readOnly }).ipc} />);
    expect((await screen.findByTestId("read-only-host")).textContent).toContain("read-only");
    expect(screen.queryByLabelText("New class")).toBeNull();
    act(() => screen.getByRole("button", { name: /Fractions/ }).click());
    const setup = screen.getByTestId("setup-menu");
    expect((await within(setup).findByTestId("assign-read-only")).textContent).toContain("read-only");
    expect(within(setup).queryByTestId("assign-open")).toBeNull();
    expect(within(setup).getByText(/roster/i)).toBeTruthy();
  });

  it("offers a class and an assignment when the host has their tools (the control)", async () => {
    const classes = [
      { class_id: "s-1", title: "Fractions", host: null, join_code: null, learners: 3, open_requests: 0 },
    ];
    const fake = fakeIpc({ classes });
    // The host's answer counted: the absences below come after the window heard it.
    let answered = 0;
    const ask = fake.ipc.hostOffers;
    fake.ipc.hostOffers = async () => {
      const offers = await ask();
      answered += 1;
      return offers;
    };
    render(<App ipc={fake.ipc} />);
    expect(await screen.findByLabelText("New class")).toBeTruthy();
    await waitFor(() => expect(answered).toBeGreaterThan(0));
    expect(screen.queryByTestId("read-only-host")).toBeNull();
    act(() => screen.getByRole("button", { name: /Fractions/ }).click());
    expect(await within(screen.getByTestId("setup-menu")).findByTestId("assign-open")).toBeTruthy();
    await waitFor(() => expect(answered).toBeGreaterThan(1));
    expect(screen.queryByTestId("assign-read-only")).toBeNull();
  });

  it("sets k for small-group suppression, and shows the backend's refusal out of range", async () => {
    render(<App ipc={fakeIpc().ipc} />);
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    const input = (await screen.findByLabelText(/Smallest group shown/)) as HTMLInputElement;
    await waitFor(() => expect(input.value).toBe("10"));
    fireEvent.change(input, { target: { value: "4" } });
    act(() => screen.getByRole("button", { name: "Save k" }).click());
    expect((await screen.findByRole("alert")).textContent).toContain("between 5 and 30");
    fireEvent.change(input, { target: { value: "12" } });
    act(() => screen.getByRole("button", { name: "Save k" }).click());
    await screen.findByText("Groups smaller than 12 learners are hidden.");
  });

  it("refuses a bad host address with the backend's message", async () => {
    render(<App ipc={fakeIpc().ipc} />);
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    await screen.findByRole("heading", { name: "Settings" });
    act(() => screen.getByLabelText(/My school's host/).click());
    fireEvent.change(screen.getByLabelText("Host address"), { target: { value: "ftp://x" } });
    act(() => screen.getByRole("button", { name: "Save" }).click());
    expect((await screen.findByRole("alert")).textContent).toContain("http:// or https://");
  });

  it("lists the saved host's classes once the host is saved", async () => {
    // The backend lists the classes of the host its settings name.
    let host = "demo";
    const fake = fakeIpc();
    fake.ipc.listClasses = async () =>
      host === "demo"
        ? [{ class_id: "d1", title: "Demo class", host: null, join_code: null, learners: 0, open_requests: 0 }]
        : [{ class_id: "s1", title: "Period 3", host: null, join_code: null, learners: 0, open_requests: 0 }];
    const save = fake.ipc.saveHostSettings;
    fake.ipc.saveHostSettings = async (input) => {
      const saved = await save(input);
      host = input.mode === "custom" ? input.url : "demo";
      return saved;
    };
    render(<App ipc={fake.ipc} />);
    await screen.findByRole("button", { name: /Demo class/ });
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    await screen.findByRole("heading", { name: "Settings" });
    act(() => screen.getByLabelText(/My school's host/).click());
    fireEvent.change(screen.getByLabelText("Host address"), { target: { value: "https://school.example" } });
    act(() => screen.getByRole("button", { name: "Save" }).click());
    await screen.findByRole("button", { name: /Period 3/ });
    expect(screen.queryByRole("button", { name: /Demo class/ })).toBeNull();
  });

  it("checks a school's host before saving it, and saves one that breaks a rule only when asked", async () => {
    const fake = fakeIpc();
    const saved: string[] = [];
    const save = fake.ipc.saveHostSettings;
    fake.ipc.saveHostSettings = async (input) => {
      saved.push(input.url);
      return save(input);
    };
    render(<App ipc={fake.ipc} />);
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    await screen.findByRole("heading", { name: "Settings" });
    act(() => screen.getByLabelText(/My school's host/).click());
    fireEvent.change(screen.getByLabelText("Host address"), { target: { value: "https://broken.example" } });
    act(() => screen.getByRole("button", { name: "Save" }).click());
    const verdict = await screen.findByTestId("host-verdict");
    expect(verdict.textContent).toContain("Last-Event-ID");
    expect(saved).toEqual([]);
    act(() => within(verdict).getByRole("button", { name: "Save anyway" }).click());
    await screen.findByText("Saved. The app now follows this host.");
    expect(saved).toEqual(["https://broken.example"]);
    // A host that works is saved at once, and the verdict says so.
    fireEvent.change(screen.getByLabelText("Host address"), { target: { value: "https://school.example" } });
    act(() => screen.getByRole("button", { name: "Save" }).click());
    await screen.findByText("This host works with a2learn Teacher. Saved. The app now follows this host.");
    expect(saved).toEqual(["https://broken.example", "https://school.example"]);
    expect(screen.queryByTestId("host-verdict")).toBeNull();
  });

  it("lists the host's classes and follows one the teacher picks; the sidebar then lists it", async () => {
    let followed = false;
    const fake = fakeIpc({
      hostClasses: [
        { class_id: "d1", title: "Demo class", followed: true },
        { class_id: "s9", title: "<b>Shared</b> in the upstream app", followed: false },
        { class_id: "taken", title: "Another host's", followed: false },
      ],
    });
    const follow = fake.ipc.followHostClass;
    fake.ipc.followHostClass = async (id) => {
      await follow(id);
      followed = true;
    };
    fake.ipc.listClasses = async () =>
      followed
        ? [
            {
              class_id: "s9",
              title: "Shared in the upstream app",
              host: null,
              join_code: null,
              learners: 0,
              open_requests: 0,
            },
          ]
        : [];
    const { container } = render(<App ipc={fake.ipc} />);
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    const list = await screen.findByTestId("host-classes");
    expect(list.textContent).toContain("<b>Shared</b> in the upstream app");
    expect(container.querySelector("[data-testid=host-classes] b")).toBeNull();
    expect(within(list).getAllByRole("button").length).toBe(2);
    // A follow the backend refuses says why, next to the list.
    act(() => screen.getByTestId("follow-taken").click());
    expect((await within(list).findByRole("alert")).textContent).toContain("belongs to another host");
    act(() => screen.getByTestId("follow-s9").click());
    await screen.findByRole("button", { name: /Shared in the upstream app/ });
    await waitFor(() => expect(within(list).queryAllByRole("button").length).toBe(1));
    expect(within(list).queryByRole("alert")).toBeNull();
  });

  it("runs the full host check from Diagnostics and shows what the host said as text", async () => {
    const detail = '<img src=x onerror="window.__pwned=3">';
    const hostCheck: HostCheckView = {
      ...brokenHost,
      checks: [{ ...resumeCheck, status: "FAIL", detail }],
    };
    const { container } = render(<App ipc={fakeIpc({ hostCheck }).ipc} />);
    act(() => screen.getByRole("button", { name: "Diagnostics" }).click());
    act(() => screen.getByRole("button", { name: "Check the host" }).click());
    const table = await screen.findByTestId("host-check-table");
    expect(screen.getByTestId("host-check-verdict").textContent).toContain("breaks a rule");
    expect(table.textContent).toContain("failed");
    expect(table.textContent).toContain(detail);
    expect(container.querySelector("img")).toBeNull();
  });

  it("names a school's shared store for results once it answers, and offers the restart", async () => {
    const fake = fakeIpc();
    render(<App ipc={fake.ipc} />);
    act(() => screen.getByRole("button", { name: "Settings" }).click());
    const form = await screen.findByTestId("results-store");
    const url = screen.getByLabelText(/Shared store address/) as HTMLInputElement;
    expect(url.disabled).toBe(true);
    act(() => screen.getByTestId("results-store-shared").click());
    fireEvent.change(url, { target: { value: "postgres://teacher@db.school.example/results" } });
    const password = screen.getByLabelText("Password") as HTMLInputElement;
    fireEvent.change(password, { target: { value: "wrong-password" } });
    act(() => screen.getByRole("button", { name: "Save where results are kept" }).click());
    // Refused: the error shows, nothing is saved, no restart is offered.
    expect((await within(form).findByRole("alert")).textContent).toContain("password refused");
    expect(screen.queryByTestId("results-store-restart")).toBeNull();
    fireEvent.change(password, { target: { value: "right-password" } });
    act(() => screen.getByRole("button", { name: "Save where results are kept" }).click());
    expect((await within(form).findByRole("status")).textContent).toContain("next start");
    expect(password.value).toBe("");
    expect(form.innerHTML).not.toContain("right-password");
    act(() => screen.getByTestId("results-store-restart").click());
    expect(fake.restarts()).toBe(1);
  });

  it("shows quarantined frames as text, never as markup", async () => {
    const raw = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const diagnostics: Diagnostics = {
      by_rule: [{ rule_id: "bad-frame", count: 1 }],
      recent: [
        {
          id: 1,
          class_id: "c1",
          seq: 7,
          rule_id: "bad-frame",
          message: "not JSON",
          raw,
          raw_bytes: raw.length,
          received_at_ms: 0,
        },
      ],
    };
    const { container } = render(<App ipc={fakeIpc({ diagnostics }).ipc} />);
    act(() => screen.getByRole("button", { name: "Diagnostics" }).click());
    const table = await screen.findByTestId("quarantine-table");
    expect(table.textContent).toContain(raw);
    expect(container.querySelector("img")).toBeNull();
    expect(container.querySelector("table script")).toBeNull();
    expect((window as unknown as { __pwned?: number }).__pwned).toBeUndefined();
  });

  it("an empty quarantine says so", async () => {
    render(<App ipc={fakeIpc().ipc} />);
    act(() => screen.getByRole("button", { name: "Diagnostics" }).click());
    expect(await screen.findByTestId("quarantine-empty")).toBeTruthy();
  });

  it("refetches the class list when the store changes", async () => {
    const classes: ClassSummary[] = [
      { class_id: "c1", title: "P3", host: null, join_code: null, learners: 0, open_requests: 0 },
    ];
    const fake = fakeIpc({ classes });
    render(<App ipc={fake.ipc} />);
    await screen.findByRole("button", { name: /P3/ });
    classes[0] = { ...classes[0]!, learners: 12 };
    act(() =>
      fake.changed({
        class_ids: ["c1"],
        rows: [],
        results: true,
        calls: false,
        learners: true,
        assignments: false,
        quarantine: false,
        room: false,
        classes: true,
      }),
    );
    expect(await screen.findByLabelText("12 learners")).toBeTruthy();
    // Negative control: a change that leaves the sidebar's counts alone does not refetch them.
    let asked = 0;
    const listed = fake.ipc.listClasses;
    fake.ipc.listClasses = async () => {
      asked++;
      return listed();
    };
    const change = {
      class_ids: ["c1"],
      rows: [],
      results: true,
      calls: false,
      learners: false,
      assignments: false,
      quarantine: false,
      room: false,
    };
    act(() => fake.changed({ ...change, classes: false }));
    await new Promise((r) => setTimeout(r, 20));
    expect(asked).toBe(0);
    act(() => fake.changed({ ...change, classes: true }));
    // Within a second of the last refetch: it comes at the end of that second (throttle.ts).
    await waitFor(() => expect(asked).toBe(1), { timeout: COUNTS_EVERY_MS * 3 });
  });
});

describe("what a store change reloads", () => {
  it("reloads the class page's parts on the changes that touch them, for its own class only", async () => {
    const classes: ClassSummary[] = [
      { class_id: "c1", title: "P3", host: null, join_code: null, learners: 3, open_requests: 0 },
      { class_id: "c2", title: "P5", host: null, join_code: null, learners: 3, open_requests: 0 },
    ];
    const fake = fakeIpc({ classes });
    const asked = { grid: 0, room: 0, assignments: 0 };
    const cv = fake.ipc.classView;
    const { grid, room } = cv;
    cv.grid = (...args) => {
      asked.grid++;
      return grid(...args);
    };
    cv.room = (...args) => {
      asked.room++;
      return room(...args);
    };
    cv.assignments = async () => {
      asked.assignments++;
      return [
        {
          assignment_id: "a1",
          pathway_id: "p",
          pathway_title: "Fractions",
          due_at_ms: null,
          note: null,
          created_at_ms: 0,
          started: 1,
        },
      ];
    };
    // Every render the window commits (the app frame, the class page, any view).
    let commits = 0;
    render(
      <Profiler id="app" onRender={() => commits++}>
        <App ipc={fake.ipc} />
      </Profiler>,
    );
    fireEvent.click(await screen.findByRole("button", { name: /P3/ }));
    await waitFor(() => expect(asked).toEqual({ grid: 1, room: 1, assignments: 1 }));
    // Another class's change renders nothing at all (the app frame used to, and the class page
    // with it); this class's change renders (the control).
    await new Promise((r) => setTimeout(r, 30));
    const before = commits;
    act(() => fake.changed(storeChanged(["c2"], ["results", "calls", "room"])));
    await new Promise((r) => setTimeout(r, 30));
    expect(commits).toBe(before);
    act(() => fake.changed(storeChanged(["c1"], ["room"])));
    await waitFor(() => expect(commits).toBeGreaterThan(before));
    await waitFor(() => expect(asked.room).toBe(2));
    asked.room = 1;
    const reloadsAfter = async (change: StoreChanged, expected: typeof asked) => {
      act(() => fake.changed(change));
      await waitFor(() => expect(asked).toEqual(expected));
      // Nothing more comes later.
      await new Promise((r) => setTimeout(r, 30));
      expect(asked).toEqual(expected);
    };
    // Another class's results: nothing here reloads.
    await reloadsAfter(storeChanged(["c2"], ["results", "room", "assignments"]), { grid: 1, room: 1, assignments: 1 });
    // The host paused this class: the header only.
    await reloadsAfter(storeChanged(["c1"], ["room"]), { grid: 1, room: 2, assignments: 1 });
    // A result here: the grid and the assignment list (its "started" count), not the header.
    await reloadsAfter(storeChanged(["c1"], ["results"]), { grid: 2, room: 2, assignments: 2 });
    // Two changes in one render (a result here, then one in another class): the first is not lost.
    act(() => {
      fake.changed(storeChanged(["c1"], ["results"]));
      fake.changed(storeChanged(["c2"], ["results"]));
    });
    await waitFor(() => expect(asked).toEqual({ grid: 3, room: 2, assignments: 3 }));
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
