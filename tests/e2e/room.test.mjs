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

  // Settle on the host's echo, then watch: nothing completes while the class is paused.
  await sleep(800);
  const paused = await completedCells();
  assert.ok(paused >= before);
  await sleep(4000);
  assert.equal(await completedCells(), paused, "the grid moved during the pause");
  await wd.screenshot(path.join(outDir, "70-room-paused.png"));

  await wd.click(await wd.find("[data-testid='room-resume']"));
  await wd.waitForText("[data-testid='room-state']", (t) => t.startsWith("Class running"));
  const started = Date.now();
  const moved = await waitCompleted((n) => n > paused, 30000, "the grid moved again after the resume");
  console.log(`MEASURE resume -> grid moves: ${Date.now() - started} ms (${paused} -> ${moved} completed cells)`);
});

test("pacing a pathway shows 'up to step 2' in the header", async () => {
  const pathway = await wd.execute(`
    const select = document.querySelector("[data-testid='room-pace']");
    const step2 = select.options[2].value;
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, step2);
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return select.dataset.pathway;`);
  assert.ok(pathway, "a pacing control per assignment");
  const pacing = await wd.waitForText("[data-testid='room-pacing']", (t) => t.includes("up to step 2"));
  assert.match(pacing, /up to step 2 \(.+\)/);
  // Lifting it empties the header again.
  await wd.execute(`
    const select = document.querySelector("[data-pathway='${pathway}']");
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, '');
    select.dispatchEvent(new Event('change', { bubbles: true }));`);
  const deadline = Date.now() + 15000;
  while ((await wd.count("[data-testid='room-pacing']")) > 0) {
    assert.ok(Date.now() < deadline, "the pacing limit was not lifted");
    await sleep(100);
  }
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
