// End to end: running the room in the real window against the embedded demo host. The teacher
// pauses the demo class with a message (the header shows it, and the grid stops moving for the
// pause), resumes it (the grid moves again), paces a pathway ("up to step 2"), and marks a missed
// help request done. The demo's help requests wait 3 s here, so some expire into follow-ups.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_ROOM_DRIVER_PORT ?? 4490);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let app;
let wd;

before(async () => {
  app = await launchApp({
    port: PORT,
    name: "room",
    env: { A2LEARN_DEMO_SPEED: "30", A2LEARN_DEMO_HELP_WAIT_SECS: "3" },
  });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

/** Completed cells of the grid on screen: only learners' work changes them. */
const completedCells = () =>
  wd.execute("return document.querySelectorAll('[role=grid] button.cell[data-state^=completed]').length");

/**
 * Steps completed in the demo class as the store holds them now, over every assignment (the
 * window's own commands, read at once: no view's refetch in between).
 */
const storedCompletions = () =>
  wd.executeAsync(`
    const done = arguments[arguments.length - 1];
    const invoke = window.__TAURI_INTERNALS__.invoke;
    (async () => {
      const [demo] = await invoke("list_classes");
      const options = [...document.querySelectorAll("[data-testid='assignment-select'] option")];
      let total = 0;
      for (const o of options) {
        const grid = await invoke("class_grid", { classId: demo.class_id, assignmentId: o.value, after: null });
        total += grid.totals.reduce((n, t) => n + t.done, 0);
      }
      return options.length > 0 ? total : -1;
    })().then(done, (e) => done("error: " + e));`);

/** Waits until `check(await completedCells())` holds, and returns the count. */
async function waitCompleted(check, timeoutMs, what) {
  const deadline = Date.now() + timeoutMs;
  let n = await completedCells();
  while (!check(n)) {
    assert.ok(Date.now() < deadline, `${what}: ${n} completed cells`);
    await sleep(200);
    n = await completedCells();
  }
  return n;
}

/**
 * Paces the first assignment's pathway up to step `step` (null lifts the limit of `pathway`), as
 * the header's select does; returns the pathway it paced.
 */
function setPacing(step, pathway = null) {
  return wd.execute(
    `const select = arguments[1] ? document.querySelector("[data-pathway='" + arguments[1] + "']")
                                 : document.querySelector("[data-testid='room-pace']");
     const value = arguments[0] === null ? '' : select.options[arguments[0]].value;
     Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, value);
     select.dispatchEvent(new Event('change', { bubbles: true }));
     return select.dataset.pathway;`,
    [step, pathway],
  );
}

/**
 * Lifts the limit `setPacing` put on `pathway`, once the select shows it: the header and the
 * select update from the host's echo separately, and a select still showing no limit would take
 * "no limit" as no change (no request sent; seen once in a clean-clone run).
 */
async function liftPacing(pathway) {
  await wd.waitFor(
    `return (document.querySelector("[data-pathway='" + arguments[0] + "']")?.value ?? '') !== ''`,
    "the select showing the limit",
    15000,
    [pathway],
  );
  await setPacing(null, pathway);
  await waitPacingLifted();
}

async function waitPacingLifted() {
  const deadline = Date.now() + 15000;
  while ((await wd.count("[data-testid='room-pacing']")) > 0) {
    assert.ok(Date.now() < deadline, "the pacing limit was not lifted");
    await sleep(100);
  }
}

test("pausing the class shows in the header and stops the grid; resuming moves it again", async () => {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  await wd.waitForText("[data-testid='room-state']", (t) => t.includes("Class running"), 30000);
  const before = await waitCompleted((n) => n > 0, 60000, "learners completed steps");

  const input = await wd.find("[data-testid='room-message']");
  await wd.request("POST", wd.s(`/element/${input}/value`), { text: "Eyes up here" });
  await wd.click(await wd.find("[data-testid='room-pause']"));
  const header = await wd.waitForText("[data-testid='room-state']", (t) => t.startsWith("Paused"));
  assert.equal(header, "Paused — “Eyes up here”");
  assert.ok(await wd.find("[data-testid='room-resume']"), "a paused class offers Resume");

  // The header shows the host's echo, read from the store, which the feed filled in order:
  // every completion from before the pause is stored by now. The store's count, not the grid's
  // (whose refetch may still be on its way), is the one to compare.
  const paused = await storedCompletions();
  assert.ok(paused >= before, `${paused} stored, ${before} on screen before the pause`);
  // Let the pause last (a span for learners to have worked in, not a check), then send a later
  // event through the same feed: a pacing limit, whose echo the header shows. Once it does,
  // the store holds everything the feed carried before it, so an unchanged count means nothing
  // completed during the pause (not merely that nothing arrived yet).
  await sleep(3000);
  const pathway = await setPacing(2);
  await wd.waitForText("[data-testid='room-pacing']", (t) => t.includes("up to step 2"));
  assert.equal(await storedCompletions(), paused, "a step was completed during the pause");
  await wd.screenshot(path.join(outDir, "70-room-paused.png"));
  await liftPacing(pathway);

  await wd.click(await wd.find("[data-testid='room-resume']"));
  await wd.waitForText("[data-testid='room-state']", (t) => t.startsWith("Class running"));
  const started = Date.now();
  const moved = await waitCompleted((n) => n > paused, 30000, "the grid moved again after the resume");
  console.log(`MEASURE resume -> grid moves: ${Date.now() - started} ms (${paused} -> ${moved} completed cells)`);
});

test("pacing a pathway shows 'up to step 2' in the header", async () => {
  const pathway = await setPacing(2);
  assert.ok(pathway, "a pacing control per assignment");
  const pacing = await wd.waitForText("[data-testid='room-pacing']", (t) => t.includes("up to step 2"));
  assert.match(pacing, /up to step 2 \(.+\)/);
  // Lifting it empties the header again.
  await liftPacing(pathway);
});

test("a missed help request stays as a follow-up until marked done", async () => {
  await wd.click(await wd.find(".desk-link"));
  await wd.waitForText("#desk-title");
  // Requests wait 3 s here; nobody answers, so one expires into "Missed — follow up".
  await wd.waitForText("[data-testid='desk-follow-up']", (t) => t.includes("Done"), 60000);
  const callId = await wd.execute(
    "return document.querySelector(\"[data-testid='desk-follow-up']\").dataset.callId",
  );
  await wd.click(await wd.find(`[data-testid='desk-follow-up'][data-call-id='${callId}'] button`));
  const deadline = Date.now() + 15000;
  while ((await wd.count(`[data-testid='desk-follow-up'][data-call-id='${callId}']`)) > 0) {
    assert.ok(Date.now() < deadline, "the follow-up stayed after Done");
    await sleep(100);
  }
});
