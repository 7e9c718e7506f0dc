// End to end: the help desk in the real window, with its own app instance and demo host. A
// simulated student asks, the teacher opens the compact card's answer box from the keyboard,
// types an answer and sends it, and the host's acceptance shows as "answered"; a hostile
// question (injected through the demo's test-only hook) shows as literal text and runs nothing.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchApp, outDir } from "./webdriver.mjs";

// Its own driver port, so this file never shares a driver with app.test.mjs.
const PORT = Number(process.env.E2E_DESK_DRIVER_PORT ?? 4460);
const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script> how do I start?`;
const INJECTED = "call-injected-question";

let app;
let wd;

before(async () => {
  app = await launchApp({ port: PORT, name: "desk", env: { A2LEARN_DEMO_SPEED: "20", A2LEARN_DEMO_INJECT_QUESTION: HOSTILE } });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

async function openDesk() {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".desk-link"));
  await wd.waitForText("#desk-title");
}

test("a hostile question shows as literal text and runs nothing", async () => {
  await openDesk();
  const sel = `[data-call-id='${INJECTED}'] [data-testid='desk-question']`;
  const shown = await wd.waitForText(sel, (t) => t.length > 0, 30000);
  assert.equal(shown, HOSTILE, "the question as the student typed it");
  const dom = await wd.execute(`return {
    imgs: document.querySelectorAll('.help-desk img').length,
    scripts: document.querySelectorAll('.help-desk script').length,
    pwned: window.__pwned ?? null,
  }`);
  assert.deepEqual(dom, { imgs: 0, scripts: 0, pwned: null });
  // Positive control: the check above can see an element when one exists.
  const control = await wd.execute(`
    const i = document.createElement('img'); i.alt = ''; document.querySelector('.help-desk').appendChild(i);
    const n = document.querySelectorAll('.help-desk img').length; i.remove(); return n;`);
  assert.equal(control, 1);
});

test("a simulated student asks, the teacher answers, the host accepts", async () => {
  await openDesk();
  // A request from a simulated learner (not the injected one), still waiting.
  const deadline = Date.now() + 60000;
  let callId = null;
  let latencyMs = null;
  while (Date.now() < deadline && callId === null) {
    const found = await wd.execute(`
      const card = [...document.querySelectorAll("[data-testid='desk-request']")]
        .find((c) => c.dataset.callId !== '${INJECTED}'
          && c.querySelector("[data-testid='desk-state']")?.textContent === 'waiting'
          && !c.querySelector("[data-testid='desk-open']").disabled);
      return card ? { id: card.dataset.callId, asked: Number(card.dataset.askedAt), now: Date.now() } : null;`);
    if (found) {
      callId = found.id;
      latencyMs = found.now - found.asked;
    } else {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  assert.ok(callId, "a simulated student asked for help within 60 s");
  // Host emit time to the row in the window (polled every 100 ms; the first row seen may have
  // been waiting already, so this is an upper bound).
  console.log(`MEASURE host emit -> row in window: ${latencyMs} ms`);

  // Compact until opened: no answer box yet. Enter on the card's "Answer" button opens it and
  // puts the focus in the box, with a visible focus ring.
  const card = `[data-testid='desk-request'][data-call-id='${callId}']`;
  const compact = await wd.execute(`
    const card = document.querySelector("${card}");
    return { open: card.dataset.open, boxes: card.querySelectorAll('textarea').length, height: card.getBoundingClientRect().height };`);
  assert.equal(compact.open, "false");
  assert.equal(compact.boxes, 0, "a compact card has no answer box");
  console.log(`MEASURE compact help card height: ${Math.round(compact.height)} px`);
  await wd.execute(`document.querySelector("${card} [data-testid='desk-open']").scrollIntoView({ block: 'center' })`);
  const toggle = await wd.find(`${card} [data-testid='desk-open']`);
  await wd.request("POST", wd.s(`/element/${toggle}/value`), { text: "\uE007" });
  await wd.waitForText(`${card} textarea`, () => true);
  const focus = await wd.execute(`
    const el = document.activeElement;
    const style = getComputedStyle(el);
    return { id: el.id, expanded: document.querySelector("${card} [data-testid='desk-open']").getAttribute('aria-expanded'),
      outline: style.outlineStyle, outlineWidth: parseFloat(style.outlineWidth) };`);
  assert.equal(focus.id, `answer-${callId}`, "the opened box has the focus");
  assert.equal(focus.expanded, "true");
  assert.ok(focus.outline !== "none" && focus.outlineWidth > 0, `a visible focus ring: ${JSON.stringify(focus)}`);
  await wd.execute(`document.getElementById('answer-${callId}').scrollIntoView({ block: 'center' })`);
  const textarea = await wd.find(`#answer-${callId}`);
  await wd.request("POST", wd.s(`/element/${textarea}/value`), {
    text: "Compare the numerators: the denominators are the same.",
  });
  await wd.screenshot(path.join(outDir, "10-help-desk-typing.png"));
  // The card may sit below the fold of a long queue: bring its button into view first.
  const send = await wd.execute(`
    const card = document.querySelector("[data-call-id='${callId}']");
    const all = [...card.querySelectorAll('button')];
    const i = all.findIndex((b) => b.textContent === 'Send answer');
    all[i]?.scrollIntoView({ block: 'center' });
    return i;`);
  assert.ok(send >= 0, "the card has a send button");
  const buttons = await wd.findAll(`[data-call-id='${callId}'] button`);
  await wd.click(buttons[send]);

  const state = await wd.waitForText(
    `[data-testid='desk-closed'][data-call-id='${callId}'] [data-testid='desk-state']`,
    (t) => t === "answered",
    15000,
  );
  assert.equal(state, "answered");
  const answer = await wd.waitForText(`[data-testid='desk-closed'][data-call-id='${callId}'] .desk-answer-sent`);
  assert.equal(answer, "Answer: Compare the numerators: the denominators are the same.");
  assert.deepEqual(await wd.findAll(`[data-call-id='${callId}'] [data-testid='desk-host-error']`), [], "no host error");
  await wd.screenshot(path.join(outDir, "11-help-desk-answered.png"));

  // Did the help work? Once the host's feed closes the call, the desk's history says what the
  // learner did next (one of the rule's outcomes, "not reached since" until they finish the step).
  const after = await wd.waitForText(
    `[data-testid='desk-closed'][data-call-id='${callId}'] [data-testid='desk-after-help']`,
    (t) => /· (then right first try|then right after retries|then wrong|then finished \(no verdict\)|not reached since)$/.test(t),
    60000,
  );
  assert.ok(after.length > 0);
  // The report counts the answered request on its step: "helped N · then right M".
  await wd.click(await wd.find(".class-item"));
  for (const t of await wd.findAll("[role=tab]")) {
    if ((await wd.text(t)) === "Report") await wd.click(t);
  }
  const helped = await wd.waitForText(
    "[data-testid='report-assignment']",
    (t) => /helped [1-9]\d* · then right \d+/.test(t),
    60000,
  );
  assert.match(helped, /helped [1-9]\d* · then right \d+/);
  // Time on step, in the same report: a median for some step after the first.
  const times = await wd.execute(
    "return [...document.querySelectorAll(\"[data-testid='median-time']\")].map((c) => c.textContent)",
  );
  assert.equal(times[0], "—", "the first step has no time (no 'step shown' event)");
});
