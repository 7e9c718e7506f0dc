// End to end: the export view in the real window, with its own app instance and demo host. It
// lists the six formats, asks for the xAPI home page, and the export with names asks for an
// explicit confirmation (and is disabled in projector-safe mode). The native save dialog cannot be
// driven over WebDriver, so "Export…" is not clicked; the export command itself is called from the
// page with the same IPC the view uses (a real Channel for progress), to a file in the test's home.
import assert from "node:assert/strict";
import { mkdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchApp, outDir } from "./webdriver.mjs";

// Its own driver port, so this file never shares a driver with the other e2e files.
const PORT = Number(process.env.E2E_EXPORT_DRIVER_PORT ?? 4470);
const FORMATS = ["csv", "standards-csv", "standards-summary", "jsonl", "xapi", "oneroster", "knowledge-map"];

let app;
let wd;

before(async () => {
  app = await launchApp({ port: PORT, name: "export", env: { A2LEARN_DEMO_SPEED: "20" } });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

/** Opens the demo class, then the Export link: the view opens on that class. */
async function openExport() {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title");
  await wd.click(await wd.find(".export-link"));
  return wd.waitForText("#export-title");
}

test("the export view lists the formats for the demo class", async () => {
  assert.equal(await openExport(), "Export");
  await wd.waitForText(".export-format label");
  const formats = await wd.execute(
    "return [...document.querySelectorAll('.export-format')].map((e) => e.getAttribute('data-format'))",
  );
  assert.deepEqual(formats, FORMATS);
  const descriptions = await wd.execute(
    "return [...document.querySelectorAll('.export-format-desc')].map((e) => e.textContent.length)",
  );
  assert.ok(
    descriptions.every((n) => n > 20),
    `every format has a description: ${descriptions}`,
  );
  const cls = await wd.execute(
    "const s = document.querySelector('[data-testid=export-class]'); return s.options[s.selectedIndex].text",
  );
  assert.equal(cls, "Demo class");
  // xAPI asks for the home page; the others do not.
  assert.deepEqual(await wd.findAll("[data-testid='export-home-page']"), []);
  await wd.click(await wd.find(".export-format[data-format='xapi'] input"));
  const homePage = await wd.execute("return document.querySelector('[data-testid=export-home-page]')?.value ?? null");
  assert.equal(homePage, "https://a2learn.invalid");
  await wd.click(await wd.find(".export-format[data-format='csv'] input"));
  assert.deepEqual(await wd.findAll("[role='alert']"), [], "no error");
});

test("the export with names asks for confirmation first", async () => {
  await wd.click(await wd.find("[data-testid='export-identified']"));
  const warning = await wd.waitForText("[role='alertdialog']");
  assert.match(warning, /will contain students’ names/);
  assert.match(warning, /inside the school’s systems/);
  // Nothing started: no save dialog state, no progress.
  assert.deepEqual(await wd.findAll("[role='progressbar']"), []);
  await wd.screenshot(path.join(outDir, "20-export.png"));
  const back = await wd.execute(
    "return [...document.querySelectorAll('[role=alertdialog] button')].findIndex((b) => b.textContent === 'Go back')",
  );
  assert.ok(back >= 0);
  const buttons = await wd.findAll("[role='alertdialog'] button");
  await wd.click(buttons[back]);
  assert.deepEqual(await wd.findAll("[role='alertdialog']"), [], "going back closes the warning");
});

test("projector-safe mode disables the export with names", async () => {
  const press = "window.dispatchEvent(new KeyboardEvent('keydown', { key: 'P', ctrlKey: true, shiftKey: true }))";
  // The switch goes through the backend (which holds the mode) before the page follows: wait
  // for the page, up to 5 s.
  const disabledWithin = async (want) => {
    let disabled = null;
    for (let i = 0; i < 50 && disabled !== want; i++) {
      disabled = await wd.execute("return document.querySelector('[data-testid=export-identified]').disabled");
      if (disabled !== want) await new Promise((r) => setTimeout(r, 100));
    }
    return disabled;
  };
  await wd.execute(press);
  assert.equal(await disabledWithin(true), true);
  await wd.execute(press);
  assert.equal(await disabledWithin(false), false);
});

test("the export command writes the file with progress and remembers the folder", async () => {
  const folder = path.join(app.home, "exports");
  await mkdir(folder, { recursive: true });
  const file = path.join(folder, "demo.csv");
  // The same call the view makes after the save dialog: export_class with a Channel for progress.
  const result = await wd.request("POST", wd.s("/execute/async"), {
    script: `const [file, done] = [arguments[0], arguments[1]];
      const tauri = window.__TAURI_INTERNALS__;
      (async () => {
        const classes = await tauri.invoke("list_classes");
        const progress = [];
        const id = tauri.transformCallback((m) => { if (m && 'message' in m) progress.push(m.message); });
        const out = await tauri.invoke("export_class", {
          options: { class_id: classes[0].class_id, assignment_id: null, format: "csv", identified: false, path: file },
          onProgress: "__CHANNEL__:" + id,
        });
        // The channel's messages and the command's answer travel apart: the progress may land
        // just after the answer (a race a busy machine lost once). Wait for it, bounded.
        for (let i = 0; i < 200 && progress.length === 0; i++) await new Promise((r) => setTimeout(r, 25));
        const settings = await tauri.invoke("export_settings");
        return { out, progress, last_folder: settings.last_folder };
      })().then(done, (e) => done({ error: String(e && e.message ? e.message : JSON.stringify(e)) }));`,
    args: [file],
  });
  assert.equal(result.error, undefined, JSON.stringify(result));
  assert.equal(result.out.path, file);
  // The demo class has learners and steps: one row per learner x step, not-started ones included.
  assert.ok(result.out.rows > 0, JSON.stringify(result.out));
  assert.equal(result.last_folder, folder, "the backend remembered the folder");
  assert.ok((await stat(file)).size > 0);
  const lines = (await readFile(file, "utf8")).split("\n").filter((l) => l.length > 0);
  assert.match(lines[0], /^anonymous_id,pathway_id,position,widget_id/);
  assert.equal(lines.length - 1, result.out.rows, "the rows reported are the rows written");
  assert.ok(result.progress.length > 0, "progress arrived on the channel");
});

test("a group of the class: offered in the view, and its export holds only its learners", async () => {
  const folder = path.join(app.home, "exports");
  const whole = (await readFile(path.join(folder, "demo.csv"), "utf8")).split("\n").filter((l) => l.length > 0);
  const learners = [...new Set(whole.slice(1).map((l) => l.split(",")[0]))];
  assert.ok(learners.length > 2, `the class has learners: ${learners.length}`);
  const two = learners.slice(0, 2);
  const file = path.join(folder, "group.csv");
  const result = await wd.request("POST", wd.s("/execute/async"), {
    script: `const [two, file, done] = [arguments[0], arguments[1], arguments[2]];
      const tauri = window.__TAURI_INTERNALS__;
      (async () => {
        const classes = await tauri.invoke("list_classes");
        await tauri.invoke("save_group", { classId: classes[0].class_id, name: "Table A", learners: two });
        const id = tauri.transformCallback(() => {});
        const out = await tauri.invoke("export_class", {
          options: { class_id: classes[0].class_id, assignment_id: null, format: "csv", identified: false, path: file, group: "Table A" },
          onProgress: "__CHANNEL__:" + id,
        });
        return { out };
      })().then(done, (e) => done({ error: String(e && e.message ? e.message : JSON.stringify(e)) }));`,
    args: [two, file],
  });
  assert.equal(result.error, undefined, JSON.stringify(result));
  const rows = (await readFile(file, "utf8"))
    .split("\n")
    .filter((l) => l.length > 0)
    .slice(1);
  assert.ok(rows.length > 0, "the group's rows are there");
  assert.deepEqual([...new Set(rows.map((l) => l.split(",")[0]))].sort(), [...two].sort(), "only the group's learners");

  // The view offers the group, the whole class first (the class page is not narrowed).
  await wd.click(await wd.find("[data-testid='nav-settings']"));
  await wd.click(await wd.find(".export-link"));
  const options = await wd.waitFor(
    "const s = document.querySelector(\"[data-testid='export-group']\"); return s && s.options.length > 1 ? [...s.options].map((o) => [o.value, o.text]) : null",
    "the group choice",
  );
  assert.deepEqual(options, [
    ["", "Everyone in the class"],
    ["Table A", "Table A"],
  ]);
  assert.equal(await wd.execute("return document.querySelector(\"[data-testid='export-group']\").value"), "");
});
