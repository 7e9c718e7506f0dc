// A walk through every view of the teacher's window, by selectors that hold in any language (the
// language e2e walks it in Arabic and in the pseudo-locale, the accessibility e2e in English):
// settings, diagnostics, the help desk, export, the live grid, the evidence pane, the class
// header's room controls (paused too), every tab of the class page, the report with a response
// on show, a student's page, the class setup menu and the shortcuts overlay. `at(view)` runs at
// each, once the view has shown what it is waiting for.
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { outDir } from "./webdriver.mjs";

/**
 * Polls `script` until it returns true. With `acrossReload`, a call that lands while the page is
 * unloading ("no such frame") counts as "not yet" instead of failing the test.
 */
export async function waitFor(wd, script, what, timeoutMs = 30000, { acrossReload = false } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = null;
  while (Date.now() < deadline) {
    try {
      if (await wd.execute(script)) return;
    } catch (e) {
      if (!acrossReload || !/no such frame|unload/i.test(e.message)) throw e;
      last = e;
    }
    await sleep(150);
  }
  throw new Error(`timed out waiting for ${what}${last ? `; last error: ${last.message}` : ""}`);
}

/** Opens Settings (the sidebar's link, in whatever language it is written). */
export async function openSettings(wd) {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find("[data-testid='nav-settings']"));
  await wd.waitForText("#settings-title");
}

/** Chooses the theme in Settings, as a teacher does (`system`: follow the OS). */
export async function setTheme(wd, choice) {
  await openSettings(wd);
  await wd.click(await wd.find(`[data-testid='theme-${choice}']`));
  await waitFor(
    wd,
    `return document.documentElement.dataset.themeChoice === ${JSON.stringify(choice)}`,
    `the ${choice} theme`,
  );
}

/** Every view, `at(view)` at each. A failure names the last view reached. */
export async function walkEveryView(wd, at) {
  let reached = "the start";
  try {
    await walk(wd, async (view) => {
      reached = view;
      await at(view);
    });
  } catch (e) {
    e.message = `after ${reached}: ${e.message}`;
    await wd.screenshot(path.join(outDir, "walk-failed.png")).catch(() => {});
    throw e;
  }
}

async function walk(wd, at) {
  await openSettings(wd);
  await at("settings");

  await wd.click(await wd.find("[data-testid='nav-diagnostics']"));
  await wd.waitForText("#diagnostics-title");
  await waitFor(
    wd,
    "return !!document.querySelector(\"[data-testid='quarantine-empty'], [data-testid='quarantine-table']\")",
    "diagnostics",
  );
  await at("diagnostics");

  await wd.click(await wd.find(".desk-link"));
  await wd.waitForText("#desk-title");
  await wd.waitForText("[data-testid='desk-question']", (t) => t.length > 0, 30000);
  await at("help desk");

  await wd.click(await wd.find(".export-link"));
  await waitFor(wd, "return !!document.querySelector('.export-view')", "the export view");
  await at("export");

  const classes = await wd.findAll(".class-item .class-title");
  const titles = await Promise.all(classes.map((e) => wd.text(e)));
  await wd.click(classes[titles.indexOf("Demo class")]);
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  await waitFor(
    wd,
    "return [...document.querySelectorAll('[role=grid] button.cell')].some((b) => b.dataset.state.startsWith('completed'))",
    "completed cells in the live grid",
    60000,
  );
  await at("live grid");

  await wd.click(await wd.find("[role=grid] button.cell[data-state^=completed]"));
  await wd.waitForText("[data-testid='evidence-prose']");
  await at("evidence pane");
  await wd.click(await wd.find("[data-testid='evidence'] header button"));

  // The class header's room controls: the pacing menu open, then the class paused (and resumed).
  await waitFor(wd, "return !!document.querySelector(\"[data-testid='room-pause']\")", "the room controls");
  const menu = await wd.findAll(".room-pacing-menu:not([open]) summary");
  if (menu.length > 0) await wd.click(menu[0]);
  await at("room controls");
  await wd.click(await wd.find("[data-testid='room-pause']"));
  await waitFor(wd, "return !!document.querySelector(\"[data-testid='room-resume']\")", "the class paused");
  await at("room controls (paused)");
  await wd.click(await wd.find("[data-testid='room-resume']"));
  await waitFor(wd, "return !!document.querySelector(\"[data-testid='room-pause']\")", "the class running");

  for (const [tab, ready] of [
    ["mastery", "[data-testid='mastery']"],
    ["knowledge", "[data-testid='knowledge-map']"],
    ["pathways", "[data-testid='pathway-map']"],
    ["needs", "[data-testid='needs-me'], [data-testid='needs-me-empty']"],
    ["timeline", "[data-testid='timeline']"],
    ["groups", "[data-testid='groups']"],
  ]) {
    await wd.click(await wd.find(`[role=tab][data-tab='${tab}']`));
    await waitFor(wd, `return !!document.querySelector(${JSON.stringify(ready)})`, tab);
    await at(tab);
  }
  // The after-class report, with a response on show (the header's list of shown work is walked
  // with it), a student's page (from a learner's name) and the class setup menu.
  await wd.click(await wd.find("[role=tab][data-tab='report']"));
  await waitFor(wd, "return !!document.querySelector(\"[data-testid='report-assignment']\")", "the report");
  const toggles = await wd.findAll("[data-testid='show-work-toggle'][aria-pressed='false']");
  if (toggles.length > 0) {
    await wd.execute(
      "document.querySelector(\"[data-testid='show-work-toggle']\").scrollIntoView({ block: 'center' })",
    );
    await wd.click(toggles[0]);
    await waitFor(wd, "return !!document.querySelector(\"[data-testid='shown-work']\")", "the shown work");
  }
  await at("report");
  if (toggles.length > 0) {
    await wd.click(await wd.find("[data-testid='shown-work-clear']"));
    await waitFor(wd, "return !document.querySelector(\"[data-testid='shown-work']\")", "the shown work taken down");
  }
  await wd.click(await wd.find("[role=tab][data-tab='grid']"));
  await waitFor(wd, "return !!document.querySelector('.learner-link')", "a learner's name");
  await wd.click(await wd.find(".learner-link"));
  await waitFor(wd, "return !!document.querySelector(\"[data-testid='student-strip'] button\")", "the student page");
  await at("student page");
  await wd.click(await wd.find("[data-testid='student-back']"));
  await wd.click(await wd.find("[data-testid='setup-menu'] summary"));
  await at("class setup");
  await wd.click(await wd.find("[data-testid='setup-menu'] summary"));
  await wd.click(await wd.find("[role=tab][data-tab='grid']"));

  await wd.click(await wd.find("[data-testid='shortcuts-open']"));
  await waitFor(wd, "return !!document.querySelector('[role=dialog]')", "the shortcuts overlay");
  await at("shortcuts overlay");
  await wd.click(await wd.find("[data-testid='shortcuts-close']"));
}
