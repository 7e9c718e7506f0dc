// End to end: the class view in the real window against the embedded demo host — the live grid
// filling as simulated learners work, a drill-down, a new class with an assigned pathway, a
// roster import that puts names on screen, and projector-safe mode removing every one of them.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { DRAWN, launchApp, outDir } from "./webdriver.mjs";

// Canary names: strings that cannot occur in the page unless a roster name leaks.
const CANARIES = ["Zephyrine Quabbelwick", "Oswaldo Thrumblecorn", "Perpetua Vexmoorland"];

let app;
let wd;

before(async () => {
  app = await launchApp({ port: 4450, name: "class", env: { A2LEARN_DEMO_SPEED: "60" } });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

/** The states of every rendered grid cell. */
const cellStates = () =>
  wd.execute("return [...document.querySelectorAll('[role=grid] button.cell')].map((b) => b.dataset.state)");

/**
 * Waits until the first rows on screen (the picture's) show at least `n` states besides "not
 * started", or `timeoutMs` passes; returns the states seen. Not an assertion: the picture is
 * taken either way.
 */
async function waitForVariedRows(n, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let states = [];
  while (Date.now() < deadline) {
    states = await wd.execute(`
      const box = document.querySelector('.grid-body').getBoundingClientRect();
      const bottom = Math.min(box.bottom, window.innerHeight);
      const seen = new Set();
      for (const b of document.querySelectorAll('[role=grid] button.cell')) {
        const r = b.getBoundingClientRect();
        if (r.top >= box.top && r.bottom <= bottom && b.dataset.state !== 'not_started') seen.add(b.dataset.state);
      }
      return [...seen].sort();`);
    if (states.length >= n) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return states;
}

test("the live grid fills as simulated learners work", async () => {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  // Wait until learners are in the grid, then until some cells have moved on.
  const deadline = Date.now() + 60000;
  let states = [];
  while (Date.now() < deadline) {
    states = await cellStates();
    if (states.length > 0 && states.some((s) => s.startsWith("completed"))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.ok(states.length >= 24, `rows rendered: ${states.length} cells`);
  assert.ok(states.some((s) => s.startsWith("completed")), `some completed cells: ${[...new Set(states)]}`);
  const first = states.filter((s) => s !== "not_started").length;
  // The grid updates by itself (no reload): more cells change within a few seconds.
  let later = first;
  for (let i = 0; i < 40 && later <= first; i++) {
    await new Promise((r) => setTimeout(r, 250));
    later = (await cellStates()).filter((s) => s !== "not_started").length;
  }
  assert.ok(later > first, `cells moved on by themselves: ${first} -> ${later}`);
  const label = await wd.execute(
    "return document.querySelector('[role=grid] button.cell[data-state^=completed]').getAttribute('aria-label')",
  );
  assert.match(label, /^lrn-[a-z]+, .+: completed/, "cells have accessible names");
  await wd.screenshot(path.join(outDir, "10-live-grid.png"));
});

test("a completed cell opens its evidence", async () => {
  await wd.click(await wd.find("[role=grid] button.cell[data-state^=completed]"));
  const prose = await wd.waitForText("[data-testid='evidence-prose']");
  assert.ok(prose.length > 10, `prose: ${prose}`);
  const facts = await wd.waitForText("[data-testid='evidence'] .facts");
  assert.match(facts, /Attempts/);
  await wd.screenshot(path.join(outDir, "11-evidence.png"));
  await wd.click(await wd.find("[data-testid='evidence'] header button"));
});

test("a roster import puts names on screen, and projector-safe mode takes every one away", async () => {
  const learners = await wd.execute(
    "return [...document.querySelectorAll(\"[role=grid] [data-testid='learner-name']\")].map((e) => e.textContent.trim())",
  );
  assert.ok(learners.length >= 3, `learner ids: ${learners}`);
  const csv = ["anonymous_id,display_name", ...learners.slice(0, 3).map((id, i) => `${id},${CANARIES[i]}`)].join("\n");
  assert.match(await wd.importRoster(csv), /3 names imported/);
  const html = () => wd.execute("return document.documentElement.outerHTML + '\\n' + document.title");
  let page = "";
  for (let i = 0; i < 40; i++) {
    page = await html();
    if (CANARIES.every((c) => page.includes(c))) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  // Positive control: with the roster imported, names are on screen — so the check below could
  // see a leak. Every one: the import relabels every row at once (the grid reloads whole), not
  // only the rows of learners who happen to act next.
  for (const canary of CANARIES) assert.ok(page.includes(canary), `${canary} is shown after the import`);
  // The README's live-grid picture (scripts/screenshots.sh sets A2LEARN_SCREENSHOTS): wait,
  // bounded, until the rows in view show several states. A test run does not wait for a picture.
  if (process.env.A2LEARN_SCREENSHOTS) await waitForVariedRows(4, 45000);
  await wd.screenshot(path.join(outDir, "12-names.png"));

  await wd.click(await wd.find("[data-testid='projector-safe']"));
  await wd.waitForText("[data-testid='projector-safe']", (t) => t.includes("on"));
  // Absence is read only once the grid shows it refetched in this mode: every row an alias.
  await wd.waitFor(DRAWN.aliasedGrid, "the grid's rows relabelled with aliases", 15000, [learners.length]);
  page = await html();
  for (const canary of CANARIES) {
    assert.ok(!page.includes(canary), `${canary} must not be in the page or its title in projector-safe mode`);
  }
  for (const id of learners) {
    assert.ok(!page.includes(id), `anonymous id ${id} is replaced by an alias too`);
  }
  assert.match(page, /Learner \d+/, "aliases instead");
  await wd.screenshot(path.join(outDir, "13-projector-safe.png"));

  // Every tab in projector-safe mode: no names either.
  for (const tab of ["Mastery", "Who needs me", "Timeline"]) {
    const tabs = await wd.findAll("[role=tab]");
    const names = await Promise.all(tabs.map((t) => wd.text(t)));
    await wd.click(tabs[names.indexOf(tab)]);
    await wd.waitFor(DRAWN[tab], `${tab} drawn`);
    page = await html();
    for (const canary of CANARIES) assert.ok(!page.includes(canary), `${canary} leaked on ${tab}`);
  }
  await wd.click(await wd.find("[data-testid='projector-safe']"));
});

test("a new class gets a join code and an assigned pathway", async () => {
  await wd.execute(
    `const input = document.getElementById('new-class-title');
     const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
     set.call(input, 'Period 6 Maths');
     input.dispatchEvent(new Event('input', { bubbles: true }));`,
  );
  const create = (await wd.findAll(".new-class button"))[0];
  await wd.click(create);
  await wd.waitForText("#class-title", (t) => t === "Period 6 Maths", 20000);
  const code = await wd.waitForText("[data-testid='join-code']", (t) => t !== "—");
  assert.match(code, /^[A-Z0-9-]{4,}$/);
  // Setup waits behind the "Class setup" menu.
  await wd.click(await wd.find("[data-testid='setup-menu'] summary"));
  const buttons = await wd.findAll(".class-page button");
  const labels = await Promise.all(buttons.map((b) => wd.text(b)));
  await wd.click(buttons[labels.findIndex((l) => l.startsWith("Assign a pathway"))]);
  await wd.waitForText("[data-testid='assign-pathway'] option");
  await wd.click(await wd.find("[data-testid='assign-submit']"));
  const assignment = await wd.waitForText(
    ".class-page select option",
    (t) => t.length > 0 && !t.includes("Assign"),
    20000,
  );
  assert.ok(assignment.length > 0, `assignment listed: ${assignment}`);
  await wd.screenshot(path.join(outDir, "14-new-class.png"));
});
