// End to end: the teacher's language. In the pseudo-locale (en-XA: every catalog word accented
// and a third longer), a walk of every view fails on any visible word in plain ASCII letters —
// a word that never went through a catalog — outside text marked translate="no" (students'
// words, names, ids, standard codes, the host's titles), and on any of our text cut off by a box
// too narrow for it. In Arabic, chosen in Settings as a teacher does, the window is mirrored:
// dir="rtl", the sidebar on the right, the grid's learner column on the right, the arrow keys
// following the reading direction, an anonymous id kept whole in an Arabic sentence. axe runs on
// every view in both, in every theme. The pictures of the class page in Spanish and Arabic are
// taken here (README).
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { axeSource, runAxe } from "./axe.mjs";
import { openSettings, setTheme, waitFor, walkEveryView } from "./walk.mjs";
import { launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_I18N_DRIVER_PORT ?? 4600);
const THEMES = ["light", "dark", "high-contrast"];
const FAIL_ON = new Set(["serious", "critical"]);
const QUESTION = "How do I compare 3/4 and 2/3?";

let app;
let wd;
let source;

before(async () => {
  source = await axeSource();
  app = await launchApp({
    port: PORT,
    name: "i18n",
    env: { A2LEARN_DEMO_SPEED: "60", A2LEARN_DEMO_INJECT_QUESTION: QUESTION },
  });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

/**
 * What on the page did not come from a catalog: words of two or more plain ASCII letters in
 * visible text (and placeholders) outside translate="no"; and our text cut off — an element
 * that clips or ellipsizes its overflow and is narrower than its text.
 */
const INSPECT = `
  const ours = (el) => !el.closest('[translate="no"]');
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const words = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || el.closest("script, style") || !ours(el) || !shown(el)) continue;
    for (const m of n.data.matchAll(/[A-Za-z]{2,}/g)) words.push(m[0] + " in <" + el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ")[0] : "") + ">: " + n.data.trim().slice(0, 60));
  }
  for (const el of document.querySelectorAll("[placeholder]")) {
    if (!ours(el) || !shown(el)) continue;
    for (const m of el.placeholder.matchAll(/[A-Za-z]{2,}/g)) {
      // An example address (https://…) is not a word of ours.
      if (!/^[a-z]+:\\/\\//.test(el.placeholder)) words.push(m[0] + " in placeholder: " + el.placeholder);
    }
  }
  const cut = [];
  for (const el of document.body.querySelectorAll("*")) {
    // Text for screen readers only is clipped to a pixel on purpose.
    if (!ours(el) || !shown(el) || !el.textContent.trim() || el.closest(".visually-hidden")) continue;
    const s = getComputedStyle(el);
    const clips = s.textOverflow === "ellipsis" || s.overflowX === "hidden" || s.overflowX === "clip";
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) {
      cut.push("<" + el.tagName.toLowerCase() + (el.className ? "." + String(el.className).split(" ")[0] : "") + "> " + el.textContent.trim().slice(0, 60) + " (" + el.scrollWidth + " > " + el.clientWidth + ")");
    }
  }
  return { words: [...new Set(words)], cut };
`;

/**
 * The serious and critical axe violations of the view, as lines. A live count that changes
 * while axe reads it can mismatch its label once: a violation counts when a second run finds it
 * again.
 */
async function axe(view, theme) {
  const serious = (await runAxe(wd, source, view, theme)).filter((v) => FAIL_ON.has(v.impact));
  if (serious.length === 0) return [];
  const again = new Set((await runAxe(wd, source, view, theme)).map((v) => v.id));
  return serious
    .filter((v) => again.has(v.id))
    .map(
      (v) =>
        `[${theme}] ${view}: ${v.impact} ${v.id} at ${v.nodes
          .slice(0, 4)
          .map((n) => n.target)
          .join(", ")}`,
    );
}

/** Opens the demo class and waits for its grid to show completed work. */
async function openDemoClass() {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  const classes = await wd.findAll(".class-item .class-title");
  const titles = await Promise.all(classes.map((e) => wd.text(e)));
  await wd.click(classes[titles.indexOf("Demo class")]);
  await waitFor(
    wd,
    "return [...document.querySelectorAll('[role=grid] button.cell')].some((b) => b.dataset.state.startsWith('completed'))",
    "the grid",
    60000,
  );
}

/** Sets the window's language as Settings keeps it, and reloads into it. */
async function reloadIn(lang) {
  await wd.execute(
    `window.__beforeReload = true; localStorage.setItem("a2learn.lang", ${JSON.stringify(lang)}); location.reload()`,
  );
  await waitFor(
    wd,
    `return !window.__beforeReload && document.readyState === "complete" && !!document.querySelector(".frame") && document.documentElement.lang === ${JSON.stringify(lang)}`,
    `the window in ${lang}`,
    30000,
    { acrossReload: true },
  );
}

/** Picks a language in Settings > Appearance, as a teacher does. */
async function chooseLanguage(value) {
  await openSettings(wd);
  await wd.click(await wd.find(`[data-testid='language-choice'] option[value='${value}']`));
  await waitFor(
    wd,
    `return document.documentElement.lang === ${JSON.stringify(value === "system" ? "en" : value)}`,
    `the window in ${value}`,
  );
}

test("positive control: the walk's check finds an English word and a cut-off label", async () => {
  await reloadIn("en-XA");
  await openSettings(wd);
  const clean = await wd.execute(INSPECT);
  await wd.execute(
    `const p = document.createElement("p"); p.id = "i18n-control"; p.textContent = "Untranslated words";
     const s = document.createElement("span"); s.id = "i18n-cut"; s.textContent = "ŠééţţííñĝšŠééţţííñĝš";
     s.style.cssText = "display: inline-block; width: 3em; overflow: hidden; white-space: nowrap; text-overflow: ellipsis";
     const q = document.createElement("p"); q.id = "i18n-data"; q.setAttribute("translate", "no"); q.textContent = "Student words";
     document.querySelector("main").append(p, s, q);`,
  );
  const dirty = await wd.execute(INSPECT);
  await wd.execute("for (const id of ['i18n-control', 'i18n-cut', 'i18n-data']) document.getElementById(id).remove()");
  assert.deepEqual(clean, { words: [], cut: [] }, "Settings in en-XA is all catalog words");
  assert.ok(
    dirty.words.some((w) => w.startsWith("Untranslated")),
    JSON.stringify(dirty.words),
  );
  assert.ok(!dirty.words.some((w) => w.startsWith("Student")), "text marked translate=no is not ours");
  assert.ok(
    dirty.cut.some((c) => c.includes("Šééţţ")),
    JSON.stringify(dirty.cut),
  );
});

for (const theme of THEMES) {
  test(`pseudo-locale: every view's words come from the catalogs, none cut off, axe clean, ${theme} theme`, async () => {
    await reloadIn("en-XA");
    await setTheme(wd, theme);
    const problems = [];
    let views = 0;
    await walkEveryView(wd, async (view) => {
      views += 1;
      const { words, cut } = await wd.execute(INSPECT);
      for (const w of words) problems.push(`${view}: not from a catalog: ${w}`);
      for (const c of cut) problems.push(`${view}: cut off: ${c}`);
      problems.push(...(await axe(view, theme)));
    });
    assert.ok(views >= 18, `the walk reached every view (${views})`);
    assert.deepEqual(problems, []);
  });
}

test("Arabic: chosen in Settings, the window mirrors and reads right to left", async () => {
  await reloadIn("en");
  await setTheme(wd, "light");
  await chooseLanguage("ar");
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  assert.equal(await wd.execute("return document.documentElement.dir"), "rtl");
  // The sidebar sits on the right of the page's main part.
  const sides = await wd.execute(
    `const s = document.querySelector(".sidebar").getBoundingClientRect(); const m = document.querySelector("main").getBoundingClientRect();
     return { sidebar: s.left, main: m.left };`,
  );
  assert.ok(sides.sidebar > sides.main, `sidebar right of main: ${JSON.stringify(sides)}`);

  await openDemoClass();
  // The grid's first column (the learners) is on the right, its first step left of it.
  const cols = await wd.execute(
    `const row = document.querySelector("[role=grid] [role=row] .learner-label")?.getBoundingClientRect();
     const cell = document.querySelector("[role=grid] button.cell")?.getBoundingClientRect();
     return { learner: row?.left, step: cell?.left };`,
  );
  assert.ok(cols.learner > cols.step, `learner column right of the steps: ${JSON.stringify(cols)}`);
  // ArrowLeft goes on to the next step (the reading direction), ArrowRight back.
  const moved = await wd.execute(
    `const cells = [...document.querySelector("[role=grid] [role=row] button.cell").closest("[role=row]").querySelectorAll("button.cell")];
     cells[0].focus();
     const key = (k) => document.activeElement.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true }));
     key("ArrowLeft"); const afterLeft = cells.indexOf(document.activeElement);
     key("ArrowRight"); const afterRight = cells.indexOf(document.activeElement);
     return { afterLeft, afterRight, steps: cells.length };`,
  );
  assert.ok(moved.steps > 1, "a row of several steps");
  assert.deepEqual({ left: moved.afterLeft, right: moved.afterRight }, { left: 1, right: 0 });
  // A learner's anonymous id inside an Arabic sentence is isolated: it reads whole, left to right.
  await wd.click(await wd.find("[role=tab][data-tab='needs']"));
  await waitFor(
    wd,
    "return !!document.querySelector(\"[data-testid='needs-me'], [data-testid='needs-me-empty']\")",
    "who needs me",
  );
  const mixed = await wd.execute(
    `const bdi = [...document.querySelectorAll("main bdi[translate=no]")].find((b) => /[A-Za-z0-9_]/.test(b.textContent) && /[\\u0600-\\u06FF]/.test(b.parentElement.textContent));
     return bdi ? { id: bdi.textContent, dir: getComputedStyle(bdi).direction, unicodeBidi: getComputedStyle(bdi).unicodeBidi } : null;`,
  );
  assert.ok(mixed, "an id or title in an Arabic sentence, in a <bdi>");
  assert.equal(mixed.unicodeBidi, "isolate", JSON.stringify(mixed));
  await wd.click(await wd.find("[role=tab][data-tab='grid']"));
  await wd.screenshot(path.join(outDir, "60-class-page-ar.png"));
});

for (const theme of THEMES) {
  test(`Arabic: axe clean on every view, ${theme} theme`, async () => {
    await setTheme(wd, theme);
    assert.equal(await wd.execute("return document.documentElement.lang"), "ar");
    const problems = [];
    await walkEveryView(wd, async (view) => {
      problems.push(...(await axe(view, theme)));
    });
    assert.deepEqual(problems, []);
  });
}

test("Spanish: the class page in Spanish, then back to the system's language", async () => {
  await setTheme(wd, "light");
  await chooseLanguage("es");
  await openDemoClass();
  const tabs = await wd.execute("return [...document.querySelectorAll('[role=tab]')].map((t) => t.textContent)");
  assert.ok(tabs.includes("Dominio"), JSON.stringify(tabs));
  await wd.screenshot(path.join(outDir, "61-class-page-es.png"));
  await chooseLanguage("system");
  assert.equal(await wd.execute("return localStorage.getItem('a2learn.lang')"), null, "the override is gone");
});

test("the window starts in the operating system's language when none is chosen", async () => {
  const spanish = await launchApp({ port: PORT + 10, name: "i18n-os", env: { LANG: "es_ES.UTF-8", LANGUAGE: "" } });
  try {
    await waitFor(
      spanish.wd,
      "return document.documentElement.lang === 'es' && !!document.querySelector('.frame')",
      "a Spanish window",
      30000,
    );
    assert.equal(await spanish.wd.waitForText("[data-testid='nav-settings']"), "Ajustes");
    assert.equal(await spanish.wd.execute("return localStorage.getItem('a2learn.lang')"), null, "no choice stored");
  } finally {
    await spanish.close();
  }
  // The negative control: this run's window, under LANG=C.UTF-8 and its choice removed, is English.
  assert.equal(await wd.execute("return document.documentElement.lang"), "en");
});
