// End to end: a class of the upstream project followed live in the real window, through
// `a2learn-teacher bridge ile` over a database with the upstream's tables on the throwaway
// cluster (A2LEARN_TEST_PG_URL; skipped without it outside CI). Settings points the app at the
// bridge (its verdict first), "Classes on this host" follows the shared pathway, and the grid
// shows what the rows say — then a row written while the class is open arrives by itself. A
// canary name in the upstream's name columns is never on the page.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { missing } from "./peers.mjs";
import { launchApp, openSettings, outDir, setValue, sharedStoreUrls } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_BRIDGE_DRIVER_PORT ?? 4590);
const admin = process.env.A2LEARN_TEST_PG_URL;
const skip = admin ? false : missing("PostgreSQL", "A2LEARN_TEST_PG_URL is not set");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const cli = path.join(process.env.CARGO_TARGET_DIR ?? path.join(root, "target"), "debug", "a2learn-teacher");

const database = `e2e_upstream_${process.pid}`;
const { full } = sharedStoreUrls(admin, database);
const psql = (sql) => execFileSync("psql", [full, "-v", "ON_ERROR_STOP=1", "-tAc", sql], { encoding: "utf8" }).trim();

const SESSION = "9d2c7a51-3f7e-4c55-8b1a-0c9e8f7d6a5b";
const STUDENTS = ["5b0f4c1e-8a2d-4c3b-9e7f-1a2b3c4d5e6f", "6c1a5d2f-9b3e-4d4c-8f80-2b3c4d5e6f70"];
const CANARY = "Zorblax Canaryfield";
const TOKEN = "e2e-bridge-token-qwertyuiop";

let bridge = null;
let app = null;

after(async () => {
  await app?.close();
  bridge?.kill();
  if (admin) execFileSync("psql", [admin, "-tAc", `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`]);
});

async function openTab(name) {
  for (const t of await app.wd.findAll("[role=tab]")) {
    if ((await app.wd.text(t)) === name) return app.wd.click(t);
  }
  throw new Error(`no tab ${name}`);
}

/** One telemetry row, as the upstream's storage code writes it. */
const row = (student, kind, event, correct) =>
  psql(
    `INSERT INTO interactions (session_id, student_id, widget_kind, event_type, standard_code, elapsed_ms, correct, payload)
     VALUES ('${SESSION}', '${student}', '${kind}', '${event}', 'MATH.4.NF.EQUIV', 900, ${correct}, '{}')`,
  );

test("a class of the upstream project, followed live through the bridge", { skip }, async () => {
  execFileSync("psql", [admin, "-tAc", `CREATE DATABASE ${database}`]);
  execFileSync("psql", [
    full,
    "-v",
    "ON_ERROR_STOP=1",
    "-q",
    "-f",
    path.join(root, "crates/ile-bridge/tests/fixtures/upstream-schema.sql"),
  ]);
  for (const id of STUDENTS) psql(`INSERT INTO students (id, display_name) VALUES ('${id}', '${CANARY}')`);
  const plan = JSON.stringify({
    steps: [
      { title: "Sort the fractions", widgetKind: "drag-sort" },
      { title: "Read about it", widgetKind: "markdown-card" },
      { title: "Sort them again", widgetKind: "drag-sort" },
    ],
  });
  psql(
    `INSERT INTO pathway_sessions (id, student_id, topic, plan) VALUES ('${SESSION}', '${STUDENTS[0]}', 'Equivalent fractions', '${plan}')`,
  );
  for (const id of STUDENTS) psql(`INSERT INTO session_opens (session_id, student_id) VALUES ('${SESSION}', '${id}')`);
  for (let i = 0; i < 3; i++) row(STUDENTS[0], "drag-sort", "answer_checked", false);
  row(STUDENTS[0], "drag-sort", "answer_checked", true);
  row(STUDENTS[0], "drag-sort", "widget_completed", true);
  row(STUDENTS[0], "markdown-card", "widget_completed", true);

  const keyDir = await mkdtemp(path.join(tmpdir(), "a2learn-e2e-bridge-"));
  bridge = spawn(
    cli,
    [
      "bridge",
      "ile",
      "--source",
      full,
      "--listen",
      "127.0.0.1:0",
      "--token",
      TOKEN,
      "--key-file",
      path.join(keyDir, "ile.key"),
    ],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const url = await new Promise((resolve, reject) => {
    let out = "";
    bridge.stdout.on("data", (chunk) => {
      out += chunk;
      const found = out.match(/^host: (\S+)$/m);
      if (found) resolve(found[1]);
    });
    bridge.on("exit", (code) => reject(new Error(`the bridge exited (${code}): ${out}`)));
  });

  app = await launchApp({ port: PORT, name: "bridge" });
  const wd = app.wd;
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await openSettings(wd);
  await wd.click(await wd.find("input[name='mode']:not(:checked)"));
  await setValue(wd, "#host-url", url);
  await setValue(wd, "#host-token", TOKEN);
  await wd.click(await wd.find("[data-testid='host-form'] button[type='submit']"));
  // The read-only checks run first: the bridge speaks the interface, so it is saved at once.
  const saved = await wd.waitForText(
    "[data-testid='host-form'] p[role='status']:not([data-testid])",
    (t) => /Saved/.test(t),
    60000,
  );
  assert.match(saved, /This host works with a2learn Teacher/);
  const follow = `[data-testid='follow-${SESSION}']`;
  await wd.waitForText("[data-testid='host-classes']", (t) => t.includes("Equivalent fractions"), 30000);
  await wd.click(await wd.find(follow));
  await wd.waitForText(".class-item .class-title", (t) => t === "Equivalent fractions", 30000);
  await wd.click(await wd.find(".class-item"));
  // What the rows say: the first student finished the first two steps, the first correct.
  const states = () =>
    wd.execute("return [...document.querySelectorAll('[role=grid] button.cell')].map((b) => b.dataset.state)");
  await wd.waitFor(
    "return [...document.querySelectorAll('[role=grid] button.cell')].filter((b) => b.dataset.state.startsWith('completed')).length >= 2",
    "two completed cells",
    30000,
  );
  const before = (await states()).filter((s) => s.startsWith("completed")).length;
  // A row written now, in the upstream, arrives by itself: the second student's first sort.
  row(STUDENTS[1], "drag-sort", "widget_completed", true);
  await wd.waitFor(
    `return [...document.querySelectorAll('[role=grid] button.cell')].filter((b) => b.dataset.state.startsWith('completed')).length > ${before}`,
    "a cell completed live",
    30000,
  );
  await wd.screenshot(path.join(outDir, "95-bridge-class.png"));

  // No control the bridge cannot honour: no "New class", no "Assign a pathway" (the roster,
  // kept on this machine, stays).
  await wd.waitFor(
    "return !!document.querySelector(\"[data-testid='read-only-host']\")",
    "the sidebar saying the host is read-only",
    30000,
  );
  assert.equal(await wd.execute("return document.querySelectorAll('#new-class-title').length"), 0);
  assert.equal(await wd.execute("return document.querySelectorAll(\"[data-testid='assign-read-only']\").length"), 1);
  assert.equal(await wd.execute("return document.querySelectorAll(\"[data-testid='assign-open']\").length"), 0);
  assert.equal(await wd.execute("return document.querySelectorAll(\"[data-testid='roster-file']\").length"), 1);

  // The knowledge map: the standard the rows name, known by both students (the first after a
  // struggle, the second at once).
  await openTab("Knowledge map");
  const node = await wd.waitFor(
    "const g = document.querySelector(\".k-node[data-code='MATH.4.NF.EQUIV']\"); return g && /known 2,/.test(g.getAttribute('aria-label')) ? g.getAttribute('aria-label') : null",
    "the standard known by two learners",
    30000,
  );
  assert.match(node, /missed 0, doesn't know yet 0/);

  // The after-class report: two learners, and each step's five counts add up to them.
  await openTab("Report");
  await wd.waitFor("return !!document.querySelector(\"[data-testid='report-assignment']\")", "the report", 30000);
  const report = await wd.execute(`
    const a = document.querySelector("[data-testid='report-assignment']");
    const learners = Number(a.querySelector("[data-testid='report-completion']").textContent.match(/^(\\d+) learner/)[1]);
    const rows = [...a.querySelectorAll('table.report-steps tbody tr')].map((tr) =>
      [...tr.querySelectorAll('td button.count')].map((b) => Number(b.textContent)));
    return { learners, rows };`);
  assert.equal(report.learners, 2, JSON.stringify(report));
  assert.equal(report.rows.length, 3, JSON.stringify(report));
  for (const r of report.rows) assert.equal(r.reduce((x, y) => x + y, 0), 2, JSON.stringify(report));

  const page = await wd.execute("return document.body.innerText");
  assert.ok(page.includes("Equivalent fractions"), "the class is on the page");
  assert.ok(!page.includes(CANARY), "no upstream name on the page");
  for (const id of STUDENTS) assert.ok(!page.includes(id), "no upstream student id on the page");

  // The header says how fresh the data is: all work received while the host answers, and a
  // warning, with the work it still shows, once the host stops.
  const fresh = await wd.waitForText(
    "[data-testid='freshness']",
    (t) => /All work up to .* received · /.test(t),
    30000,
  );
  assert.equal(await wd.execute("return document.querySelector(\"[data-testid='freshness']\").dataset.state"), "current", fresh);
  bridge.kill();
  const stale = await wd.waitForText("[data-testid='freshness']", (t) => /host not answering$/.test(t), 60000);
  assert.match(stale, /^Showing work up to /, "the work it has stays shown");
  await wd.screenshot(path.join(outDir, "52-freshness-host-stopped.png"));
});
