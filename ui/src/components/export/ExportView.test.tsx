import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { AssignmentView, ClassSummary, GroupsView, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { ProjectorSafeContext } from "../../privacy/ProjectorSafe";
import { fakeExportIpc } from "../../test-support/fakeExportIpc";
import { ExportView } from "./ExportView";
import { defaultSavePath, exportFileName, isPrivacyBlock, sanitise } from "./naming";

const classes: ClassSummary[] = [
  {
    class_id: "class-1",
    title: "Class 4B: Fractions / Ümlaut",
    host: null,
    join_code: "ABC-123",
    learners: 24,
    open_requests: 0,
  },
  { class_id: "class-2", title: "Other class", host: null, join_code: null, learners: 3, open_requests: 0 },
];
const assignment: AssignmentView = {
  assignment_id: "as-1",
  pathway_id: "p-fractions",
  pathway_title: "Compare fractions",
  due_at_ms: null,
  note: null,
  created_at_ms: null,
  started: 3,
};

const NOW = () => new Date(2027, 0, 15, 10, 30);

/** No group made yet (most tests); `withGroups` has two, the class narrowed to one. */
const GROUPS: GroupsView = { groups: [], suggested: [], filter: null, learners: [], can_save: true };
const withGroups: GroupsView = {
  ...GROUPS,
  groups: [
    { name: "Reading", size: 1, learners: ["a"], labels: ["a"] },
    { name: "Table 2", size: 1, learners: ["b"], labels: ["b"] },
  ],
  filter: "Table 2",
};

/** Only what the export view uses; cast so other areas' additions to TeacherIpc need no stub here. */
function ipcWith(fake: ReturnType<typeof fakeExportIpc>, rosterSize = 24, groups = GROUPS): TeacherIpc {
  const ipc = {
    classView: {
      assignments: async () => [assignment],
      rosterSize: async () => rosterSize,
      groups: async () => groups,
    },
    exports: fake.exports,
    toUiError,
  };
  return ipc as unknown as TeacherIpc;
}

function renderView(
  fake: ReturnType<typeof fakeExportIpc>,
  opts: { safe?: boolean; rosterSize?: number; groups?: GroupsView } = {},
) {
  return render(
    <ProjectorSafeContext.Provider value={opts.safe ?? false}>
      <ExportView
        ipc={ipcWith(fake, opts.rosterSize, opts.groups)}
        classes={classes}
        initialClassId="class-1"
        now={NOW}
      />
    </ProjectorSafeContext.Provider>,
  );
}

/** Waits for the formats, then starts a default export and waits for the run to reach the fake. */
async function startExport(fake: ReturnType<typeof fakeExportIpc>) {
  await screen.findByLabelText(/Steps \(CSV\)/);
  fireEvent.click(screen.getByTestId("export-start"));
  await waitFor(() => expect(fake.runs.length).toBe(1));
  return fake.runs[0]!;
}

afterEach(cleanup);

describe("ExportView", () => {
  it("lists the six formats with a description each", async () => {
    renderView(fakeExportIpc());
    await screen.findByLabelText(/Steps \(CSV\)/);
    const formats = [...document.querySelectorAll(".export-format")].map((e) => e.getAttribute("data-format"));
    expect(formats).toEqual([
      "csv",
      "standards-csv",
      "standards-summary",
      "jsonl",
      "xapi",
      "oneroster",
      "knowledge-map",
    ]);
    for (const el of document.querySelectorAll(".export-format-desc"))
      expect(el.textContent!.length).toBeGreaterThan(20);
    // The xAPI home page only shows for xapi.
    expect(screen.queryByTestId("export-home-page")).toBeNull();
  });

  it("opens the save dialog in the last folder with a sanitised name and the format's filter", async () => {
    const fake = fakeExportIpc({ lastFolder: "/home/teacher/exports" });
    renderView(fake);
    fireEvent.click(await screen.findByLabelText(/OneRoster/));
    await startExport(fake);
    expect(fake.dialogs).toEqual([
      {
        defaultPath: "/home/teacher/exports/Class-4B-Fractions-Umlaut-oneroster-2027-01-15.zip",
        filters: [{ name: "Zip archive", extensions: ["zip"] }],
      },
    ]);
    expect(fake.runs[0]!.options).toEqual({
      class_id: "class-1",
      assignment_id: null,
      format: "oneroster",
      identified: false,
      path: "/home/teacher/exports/out.csv",
      group: null,
    });
  });

  it("does nothing when the save dialog is closed", async () => {
    const fake = fakeExportIpc({ savePath: null });
    renderView(fake);
    await screen.findByLabelText(/Steps \(CSV\)/);
    fireEvent.click(screen.getByTestId("export-start"));
    await waitFor(() => expect(fake.dialogs.length).toBe(1));
    await waitFor(() => expect((screen.getByTestId("export-start") as HTMLButtonElement).disabled).toBe(false));
    expect(fake.runs).toEqual([]);
  });

  it("moves the progress bar with the channel's reports and shows rows and path when done", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    const bar = await screen.findByRole("progressbar");
    // Nothing counted yet: indeterminate.
    expect(bar.getAttribute("aria-valuenow")).toBeNull();
    act(() => run.progress({ rows_done: 120, rows_total: 480 }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("25");
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("120 of 480 rows");
    act(() => run.progress({ rows_done: 360, rows_total: 480 }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBe("75");
    // A non-finite f64 arrives as null: no figure, no NaN.
    act(() => run.progress({ rows_done: null, rows_total: 480 }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuenow")).toBeNull();
    expect(screen.getByTestId("export-progress").textContent).not.toMatch(/NaN/);
    await act(async () => run.finish({ rows: 480, bytes: 12_345, path: "/home/teacher/exports/out.csv" }));
    const done = await screen.findByTestId("export-done");
    expect(done.textContent).toMatch(/Exported 480 rows to \/home\/teacher\/exports\/out\.csv/);
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("shows a done export whose row count is null without a figure", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    await act(async () => run.finish({ rows: null, bytes: null }));
    expect((await screen.findByTestId("export-done")).textContent).toMatch(/^Exported to \/home/);
  });

  it("cancel calls cancel_export and says nothing was written", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    act(() => run.progress({ rows_done: 10, rows_total: 1000 }));
    fireEvent.click(screen.getByTestId("export-cancel"));
    expect(fake.cancels).toBe(1);
    expect((await screen.findByTestId("export-cancelled")).textContent).toBe("Cancelled — nothing was written.");
    expect(screen.queryByTestId("export-done")).toBeNull();
    expect(screen.queryByRole("progressbar")).toBeNull();
  });

  it("a privacy block shows the row and field and explains why", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    const message = "a roster name found in row 4, field prose; the export was not written";
    expect(isPrivacyBlock({ code: "privacy_blocked", message })).toBe(true);
    expect(isPrivacyBlock({ code: "invalid_input", message })).toBe(false);
    await act(async () => run.fail("privacy_blocked", message));
    const block = await screen.findByTestId("export-blocked");
    expect(block.getAttribute("role")).toBe("alert");
    expect(block.textContent).toMatch(/A roster name found in row 4, field prose/);
    expect(within(block).getByRole("heading").textContent).toMatch(/blocked: it contained a name or an e-mail address/);
    expect(block.textContent).toMatch(/Nothing was written/);
    // Negative control: not reported as a cancel or a plain failure.
    expect(screen.queryByTestId("export-cancelled")).toBeNull();
    expect(screen.queryByTestId("export-failed")).toBeNull();
  });

  it("other failures show the backend's message", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    await act(async () => run.fail("storage", "cannot write the export: permission denied"));
    expect((await screen.findByTestId("export-failed")).textContent).toMatch(/permission denied/);
    expect(screen.queryByTestId("export-blocked")).toBeNull();
  });

  it("the export with names needs the confirm step", async () => {
    const fake = fakeExportIpc({ lastFolder: "/srv/x" });
    renderView(fake);
    await screen.findByLabelText(/Steps \(CSV\)/);
    fireEvent.click(screen.getByTestId("export-identified"));
    // Negative control: the button alone opens the warning, no dialog, no run.
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toMatch(/will contain students’ names/);
    expect(confirm.textContent).toMatch(/inside the school’s systems/);
    expect(confirm.textContent).toMatch(/24 names/);
    expect(fake.dialogs).toEqual([]);
    expect(fake.runs).toEqual([]);
    // Going back starts nothing either.
    fireEvent.click(within(confirm).getByText("Go back"));
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(fake.runs).toEqual([]);
    // Confirming runs an identified export, with a name that says so.
    fireEvent.click(screen.getByTestId("export-identified"));
    fireEvent.click(await screen.findByTestId("export-confirm-names"));
    await waitFor(() => expect(fake.runs.length).toBe(1));
    expect(fake.runs[0]!.options.identified).toBe(true);
    expect(fake.dialogs[0]!.defaultPath).toBe("/srv/x/Class-4B-Fractions-Umlaut-csv-with-names-2027-01-15.csv");
    await act(async () => fake.runs[0]!.finish({ rows: 3 }));
    expect((await screen.findByTestId("export-done")).textContent).toMatch(/contains students’ names/);
  });

  it("a default export never asks to add names", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    const run = await startExport(fake);
    expect(run.options.identified).toBe(false);
    expect(screen.queryByRole("alertdialog")).toBeNull();
  });

  it("the export with names is disabled in projector-safe mode", async () => {
    const fake = fakeExportIpc();
    renderView(fake, { safe: true });
    await screen.findByLabelText(/Steps \(CSV\)/);
    const button = screen.getByTestId("export-identified") as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(screen.getByText("Not available in projector-safe mode.")).toBeTruthy();
    fireEvent.click(button);
    expect(screen.queryByRole("alertdialog")).toBeNull();
    expect(fake.runs).toEqual([]);
    // The anonymous export still works.
    expect((screen.getByTestId("export-start") as HTMLButtonElement).disabled).toBe(false);
  });

  it("switching projector-safe on closes an open warning", async () => {
    const fake = fakeExportIpc();
    const view = renderView(fake);
    await screen.findByLabelText(/Steps \(CSV\)/);
    fireEvent.click(screen.getByTestId("export-identified"));
    await screen.findByRole("alertdialog");
    view.rerender(
      <ProjectorSafeContext.Provider value={true}>
        <ExportView ipc={ipcWith(fake)} classes={classes} initialClassId="class-1" now={NOW} />
      </ProjectorSafeContext.Provider>,
    );
    await waitFor(() => expect(screen.queryByRole("alertdialog")).toBeNull());
    expect(fake.runs).toEqual([]);
  });

  it("xapi asks for the home page, saves it, and refuses a bad one next to the field", async () => {
    const fake = fakeExportIpc({ lastFolder: "C:\\Users\\t\\Exports" });
    renderView(fake);
    fireEvent.click(await screen.findByLabelText(/xAPI statements/));
    const input = (await screen.findByTestId("export-home-page")) as HTMLInputElement;
    expect(input.value).toBe("https://a2learn.invalid");
    fireEvent.change(input, { target: { value: "not a url" } });
    fireEvent.click(screen.getByTestId("export-start"));
    expect((await screen.findByRole("alert")).textContent).toMatch(/http\(s\) URL/);
    expect(fake.dialogs).toEqual([]);
    fireEvent.change(input, { target: { value: "https://school.example/" } });
    fireEvent.click(screen.getByTestId("export-start"));
    await waitFor(() => expect(fake.runs.length).toBe(1));
    expect(fake.homePages).toEqual(["not a url", "https://school.example/"]);
    expect(input.value).toBe("https://school.example");
    expect(fake.dialogs[0]).toEqual({
      defaultPath: "C:\\Users\\t\\Exports\\Class-4B-Fractions-Umlaut-xapi-2027-01-15.json",
      filters: [{ name: "JSON", extensions: ["json"] }],
    });
  });

  it("one assignment goes into the request and the file name", async () => {
    const fake = fakeExportIpc();
    renderView(fake);
    await screen.findByRole("option", { name: "Compare fractions" });
    fireEvent.change(screen.getByTestId("export-assignment"), { target: { value: "as-1" } });
    fireEvent.click(await screen.findByLabelText(/JSON lines/));
    const run = await startExport(fake);
    expect(run.options.assignment_id).toBe("as-1");
    expect(fake.dialogs[0]!.defaultPath).toBe("Class-4B-Fractions-Umlaut-Compare-fractions-jsonl-2027-01-15.jsonl");
  });
});

describe("ExportView and the teacher's groups", () => {
  it("exports the group the class page is narrowed to, or everyone when chosen", async () => {
    const fake = fakeExportIpc();
    renderView(fake, { groups: withGroups });
    const select = (await screen.findByTestId("export-group")) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual(["Everyone in the class", "Reading", "Table 2"]);
    await waitFor(() => expect(select.value).toBe("Table 2"));
    expect((await startExport(fake)).options.group).toBe("Table 2");

    cleanup();
    const again = fakeExportIpc();
    renderView(again, { groups: withGroups });
    const other = (await screen.findByTestId("export-group")) as HTMLSelectElement;
    await waitFor(() => expect(other.value).toBe("Table 2"));
    fireEvent.change(other, { target: { value: "" } });
    expect((await startExport(again)).options.group).toBeNull();
  });

  it("offers no group in projector-safe mode, and exports the whole class there", async () => {
    const fake = fakeExportIpc();
    renderView(fake, { safe: true, groups: withGroups });
    await screen.findByLabelText(/Steps \(CSV\)/);
    expect(screen.queryByTestId("export-group")).toBeNull();
    expect((await startExport(fake)).options.group).toBeNull();
  });
});

describe("ExportView in Spanish", () => {
  afterEach(() => {
    setLanguageChoice("en");
    localStorage.clear();
  });

  it("says everything in Spanish, plurals and file-name words included", async () => {
    setLanguageChoice("es");
    const fake = fakeExportIpc({ lastFolder: "/srv/x" });
    renderView(fake);
    expect(screen.getByRole("heading", { level: 2 }).textContent).toBe("Exportar");
    expect(screen.queryByText("Export")).toBeNull();
    await screen.findByLabelText(/Pasos \(CSV\)/);
    expect(screen.queryByText(/Steps \(CSV\)/)).toBeNull();
    fireEvent.click(screen.getByTestId("export-identified"));
    const confirm = await screen.findByRole("alertdialog");
    expect(confirm.textContent).toMatch(/La lista de esta clase tiene 24 nombres\./);
    expect(confirm.textContent).not.toMatch(/roster/);
    fireEvent.click(screen.getByTestId("export-confirm-names"));
    await waitFor(() => expect(fake.runs.length).toBe(1));
    expect(fake.dialogs[0]!.defaultPath).toBe("/srv/x/Class-4B-Fractions-Umlaut-csv-con-nombres-2027-01-15.csv");
    act(() => fake.runs[0]!.progress({ rows_done: 1, rows_total: 1 }));
    expect(screen.getByRole("progressbar").getAttribute("aria-valuetext")).toBe("1 de 1 fila");
    await act(async () => fake.runs[0]!.finish({ rows: 1 }));
    expect((await screen.findByTestId("export-done")).textContent).toMatch(/^Exportada 1 fila en \/home/);
  });
});

describe("export naming", () => {
  it("sanitises titles to safe file-name parts", () => {
    expect(sanitise("../../etc/passwd")).toBe("etc-passwd");
    expect(sanitise("  Année 5 — Maths  ")).toBe("Annee-5-Maths");
    expect(sanitise("日本")).toBe("");
    expect(
      exportFileName({ classTitle: "日本", format: "csv", extension: "csv", identified: false, date: NOW() }),
    ).toBe("class-csv-2027-01-15.csv");
  });

  it("joins the remembered folder", () => {
    expect(defaultSavePath(null, "a.csv")).toBe("a.csv");
    expect(defaultSavePath("/home/t/", "a.csv")).toBe("/home/t/a.csv");
    expect(defaultSavePath("/", "a.csv")).toBe("/a.csv");
    expect(defaultSavePath("D:\\exports", "a.csv")).toBe("D:\\exports\\a.csv");
  });
});
