import { act, cleanup, fireEvent, render, screen, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { LANG_STORAGE_KEY, lang, setLanguageChoice } from "../i18n";
import type { CheckResult, HostCheckView, TeacherIpc } from "../ipc";
import { toUiError } from "../ipc";
import { DiagnosticsView } from "./DiagnosticsView";
import { SettingsView } from "./SettingsView";

function check(over: Partial<CheckResult>): CheckResult {
  return {
    id: "feed.resume",
    section: "pathway-host.md §2",
    required: true,
    status: "PASS",
    what: "reconnecting with Last-Event-ID yields exactly the frames after it",
    detail: null,
    ...over,
  };
}

/** Only what Settings and Diagnostics use; cast so other areas' additions to TeacherIpc need no stub. */
function fakeIpc(verdict?: HostCheckView): TeacherIpc {
  const ipc = {
    hostSettings: async () => ({ mode: "demo", url: "", token_set: false, token_storage: null }),
    saveHostSettings: async () => ({ mode: "custom", url: "https://h.example", token_set: true, token_storage: null }),
    checkNewHost: async () => verdict,
    checkFollowedHost: async () => verdict,
    hostClasses: async () => [],
    diagnostics: async () => ({ by_rule: [], recent: [] }),
    classView: { suppressionK: async () => 5, setSuppressionK: async (k: number) => k },
    resultsStore: { get: async () => ({ shared_url: "", in_use: false }) },
    toUiError,
  };
  return ipc as unknown as TeacherIpc;
}

/** Every form of Settings has what the backend answered. */
async function settled() {
  await screen.findByDisplayValue("5");
  await act(async () => {});
}

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
  localStorage.clear();
});

describe("Settings > Appearance: the language", () => {
  it("offers the system's language and each shipped one, named in itself", async () => {
    render(<SettingsView ipc={fakeIpc()} />);
    await settled();
    const select = screen.getByRole("combobox", { name: "Language" }) as HTMLSelectElement;
    expect(select).toBe(screen.getByTestId("language-choice"));
    expect(select.value).toBe("system");
    const options = [...select.options];
    expect(options.map((o) => o.value)).toEqual(["system", "en", "es", "ar"]);
    expect(options.map((o) => o.textContent)).toEqual(["Follow the system", "English", "Español", "العربية"]);
    // Each language is marked as itself; "Follow the system" is in the window's language.
    expect(options.map((o) => o.getAttribute("lang"))).toEqual([null, "en", "es", "ar"]);
  });

  it("stores the choice, applies it, and shows it again; 'system' gives control back", async () => {
    const view = render(<SettingsView ipc={fakeIpc()} />);
    await settled();
    fireEvent.change(screen.getByTestId("language-choice"), { target: { value: "es" } });
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBe("es");
    expect(lang()).toBe("es");
    expect(document.documentElement.lang).toBe("es");
    // The app renders the window again on a change: so does this test.
    view.unmount();
    render(<SettingsView ipc={fakeIpc()} />);
    await settled();
    const select = screen.getByRole("combobox", { name: "Idioma" }) as HTMLSelectElement;
    expect(select.value).toBe("es");
    expect(screen.queryByText("Language")).toBeNull();
    fireEvent.change(select, { target: { value: "system" } });
    expect(localStorage.getItem(LANG_STORAGE_KEY)).toBeNull();
    // jsdom's system language is English.
    expect(lang()).toBe("en");
  });
});

describe("Settings and Diagnostics in another language", () => {
  it("render in Arabic, right to left, with no English left in the catalog's words", async () => {
    setLanguageChoice("ar");
    expect(document.documentElement.dir).toBe("rtl");
    render(<SettingsView ipc={fakeIpc()} />);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("الإعدادات");
    expect(screen.queryByText("Settings")).toBeNull();
    expect(screen.getByLabelText("عنوان الخادم")).toBeTruthy();
    expect(screen.queryByText("Host address")).toBeNull();
    expect(within(screen.getByTestId("theme-choice")).getByText("تباين عالٍ")).toBeTruthy();
    await settled();
    // The k saved: an Arabic plural for a count from 3 to 10.
    fireEvent.submit(screen.getByLabelText(/أصغر مجموعة/).closest("form") as HTMLFormElement);
    expect((await screen.findByRole("status")).textContent).toContain("متعلّمين");
  });

  it("build the host's verdict in the teacher's language from the checks", async () => {
    setLanguageChoice("es");
    const broken: HostCheckView = {
      works: false,
      verdict:
        "This host breaks a rule the dashboard needs: reconnecting with Last-Event-ID yields exactly the frames after it (pathway-host.md §2).",
      checks: [check({ status: "PASS", id: "feed.open" }), check({ status: "FAIL", detail: "HTTP 500" })],
    };
    render(<DiagnosticsView ipc={fakeIpc(broken)} changeTick={0} />);
    fireEvent.click(screen.getByRole("button", { name: "Comprobar el servidor" }));
    const verdict = await screen.findByTestId("host-check-verdict");
    expect(verdict.textContent).toBe(
      "Este servidor incumple una regla que el panel necesita: al reconectar con Last-Event-ID llegan exactamente las tramas posteriores a ese id (pathway-host.md §2). HTTP 500",
    );
    expect(verdict.textContent).not.toMatch(/This host/);
    const statuses = [...screen.getByTestId("host-check-table").querySelectorAll("tbody tr td:first-child")];
    expect(statuses.map((td) => td.textContent)).toEqual(["correcta", "fallida"]);
  });

  it("name each check's rule in the teacher's language by its id, and a rule it does not know in the checker's words", async () => {
    setLanguageChoice("es");
    const view: HostCheckView = {
      works: true,
      verdict: "(the backend's)",
      checks: [
        check({ id: "auth.accepted", what: "the token opens an MCP session at /mcp" }),
        check({
          id: "feed.opening",
          what: "a connection opens with RUN_STARTED then STATE_SNAPSHOT {class_id, learners, assignments}",
        }),
        check({ id: "feed.someday", what: "a rule of a newer checker" }),
      ],
    };
    render(<DiagnosticsView ipc={fakeIpc(view)} changeTick={0} />);
    fireEvent.click(screen.getByRole("button", { name: "Comprobar el servidor" }));
    const table = await screen.findByTestId("host-check-table");
    const rules = [...table.querySelectorAll("tbody tr td:nth-child(2)")].map((td) => td.textContent);
    expect(rules).toEqual([
      "el token abre una sesión MCP en /mcp auth.accepted",
      "una conexión empieza con RUN_STARTED y luego STATE_SNAPSHOT {class_id, learners, assignments} feed.opening",
      "a rule of a newer checker feed.someday",
    ]);
    expect(table.textContent).not.toContain("the token opens");
    expect(table.textContent).not.toContain("a connection opens");
  });

  it("say a working host works, then that it was saved, in English by default", async () => {
    const works: HostCheckView = { works: true, verdict: "(the backend's)", checks: [check({})] };
    render(<SettingsView ipc={fakeIpc(works)} />);
    // Settings have loaded (the demo host) before the teacher picks another.
    await settled();
    fireEvent.click(screen.getByText("My school's host"));
    fireEvent.submit(screen.getByTestId("host-form"));
    const saved = await screen.findByText(/Saved\. The app now follows this host\./);
    expect(saved.textContent).toBe("This host works with a2learn Teacher. Saved. The app now follows this host.");
  });
});
