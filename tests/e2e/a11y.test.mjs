// End to end: accessibility checked by a machine. axe-core (tests/e2e/package.json, installed by
// scripts/install.sh) is injected into the real window and run on every view (the walk of
// walk.mjs: the live grid, the evidence pane, the class header's room controls, every tab, the
// report, a student's page, the shortcuts overlay, the help desk, export, settings and
// diagnostics) in every theme (light, dark, high contrast, chosen as a teacher does in
// Settings). Any violation of impact "serious" or "critical" fails the test, listed with its rule
// id, impact and targets.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { axeSource, runAxe } from "./axe.mjs";
import { setTheme as setThemeIn, waitFor as waitForIn, walkEveryView } from "./walk.mjs";
import { launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_A11Y_DRIVER_PORT ?? 4500);
const THEMES = ["light", "dark", "high-contrast"];
const FAIL_ON = new Set(["serious", "critical"]);
// A help request on the first start, so the help desk shows a card (the demo's test-only hook).
const QUESTION = "How do I compare 3/4 and 2/3?";

let app;
let wd;
let source;
/** Every serious or critical violation found, by theme and view. */
const found = [];

before(async () => {
  source = await axeSource();
  app = await launchApp({
    port: PORT,
    name: "a11y",
    env: { A2LEARN_DEMO_SPEED: "60", A2LEARN_DEMO_INJECT_QUESTION: QUESTION },
  });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

/** Injects axe-core into the window (once per page load) and runs it on the whole document. */
async function axe(view, theme) {
  const first = await axeOnce(view, theme);
  if (!first.some((v) => FAIL_ON.has(v.impact))) return report(view, theme, first);
  // axe reads the document from a tree it builds when it starts, and attributes as they are
  // now: a live count that changes during a run (the demo class works on) can show a label
  // that no longer matches its text. Such a violation is gone on a second run; one the view
  // really has is found again, on the same element.
  const again = await axeOnce(view, theme);
  const key = (id, target) => `${id} @ ${target}`;
  const seen = new Set(again.flatMap((v) => v.nodes.map((n) => key(v.id, n.target))));
  const kept = [];
  for (const v of first) {
    const nodes = v.nodes.filter((n) => seen.has(key(v.id, n.target)));
    const gone = v.nodes.length - nodes.length;
    if (gone > 0) console.log(`[${theme}] ${view}: ${v.id} on ${gone} element(s) changed under axe; not found again`);
    if (nodes.length > 0) kept.push({ ...v, nodes });
  }
  return report(view, theme, kept);
}

/** Lists the violations and records the serious and critical ones; returns those. */
function report(view, theme, violations) {
  const serious = violations.filter((v) => FAIL_ON.has(v.impact));
  for (const v of violations) {
    const lines = v.nodes.slice(0, 8).map((n) => `      ${n.target}`);
    const more = v.nodes.length > 8 ? [`      … and ${v.nodes.length - 8} more`] : [];
    console.log(`[${theme}] ${view}: ${v.impact} ${v.id} (${v.help})\n${[...lines, ...more].join("\n")}`);
    if (FAIL_ON.has(v.impact)) {
      console.log(`      first: ${v.nodes[0]?.summary?.replace(/\n/g, " | ")}`);
    }
  }
  for (const v of serious) found.push({ theme, view, ...v });
  return serious;
}

/** One axe run on the whole document: its violations. */
const axeOnce = (view, theme) => runAxe(wd, source, view, theme);

const setTheme = (choice) => setThemeIn(wd, choice);
const waitFor = (script, what, timeoutMs, options) => waitForIn(wd, script, what, timeoutMs, options);

test("positive control: axe, injected into the window, reports a contrast failure as serious", async () => {
  await setTheme("light");
  await wd.execute(
    `const p = document.createElement("p");
     p.id = "axe-control"; p.textContent = "grey on grey";
     p.style.cssText = "color: #8a8a8a; background: #9a9a9a";
     document.querySelector("main").append(p);`,
  );
  const serious = await axe("positive control", "light");
  const before = found.length;
  await wd.execute("document.getElementById('axe-control').remove()");
  assert.ok(
    serious.some((v) => v.id === "color-contrast" && v.nodes.some((n) => n.target.includes("#axe-control"))),
    `axe flags the control: ${JSON.stringify(serious.map((v) => v.id))}`,
  );
  // The control is not counted against the app.
  found.splice(before - serious.length, serious.length);
});

/** Runs axe on every view in `theme`; returns the serious and critical violations. */
async function everyView(theme) {
  const before = found.length;
  await setTheme(theme);
  await walkEveryView(wd, async (view) => {
    await axe(view, theme);
    if (view === "live grid" && theme === "dark") await wd.screenshot(path.join(outDir, "40-live-grid-dark.png"));
  });
  return found.slice(before);
}

for (const theme of THEMES) {
  test(`no serious or critical accessibility violation in any view, ${theme} theme`, async () => {
    const serious = await everyView(theme);
    assert.deepEqual(
      serious.map((v) => `${v.view}: ${v.impact} ${v.id} at ${v.nodes.map((n) => n.target).join(", ")}`),
      [],
    );
  });
}

test("the window starts in the theme the teacher chose", async () => {
  // The choice survives a reload (the page's storage), and the grid's cells keep their icons.
  await setTheme("dark");
  // Mark this document, so the wait below cannot mistake it (still loaded for a moment after
  // reload() returns) for the reloaded one.
  await wd.execute("window.__beforeReload = true; location.reload()");
  await waitFor(
    "return !window.__beforeReload && document.readyState === 'complete' && !!document.querySelector('.frame') && !!document.documentElement.dataset.theme",
    "the reload",
    30000,
    { acrossReload: true },
  );
  assert.equal(await wd.execute("return document.documentElement.dataset.theme"), "dark");
  await setTheme("system");
  assert.equal(await wd.execute("return localStorage.getItem('a2learn.theme')"), null, "the override is gone");
});
