// End to end: what a room can see. With a roster imported (names on the teacher's screen: the
// positive control), a name typed into an answer is refused in the teacher's own window;
// projector-safe mode then shows no roster name, no anonymous id and no free text in any view
// (the student's question, the teacher's answer, evidence prose, saved-reply bodies), and the
// projector window shows class aggregates only while the teacher's window keeps its names. The
// projector window's capability lets it call projector_view and nothing else.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { DRAWN, launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_PROJECTOR_DRIVER_PORT ?? 4480);
const CANARIES = ["Quillon Brasswhistle", "Ottilie Marchbanks", "Fennimore Wexcombe"];
// Free text that may show on the teacher's screen only.
const QUESTION = "Projector canary question: why does three halves come after one?";
const ANSWER = "Projector canary answer: count the halves one by one.";
const REPLY_BODY = "Projector canary saved reply body.";

let app;
let wd;

before(async () => {
  app = await launchApp({
    port: PORT,
    name: "projector",
    // The injected question waits 10 host minutes: 60 s at this speed, time enough to answer.
    env: { A2LEARN_DEMO_SPEED: "10", A2LEARN_DEMO_INJECT_QUESTION: QUESTION },
  });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const page = () => wd.execute("return document.documentElement.outerHTML + '\\n' + document.title");

async function clickButton(css, label) {
  const buttons = await wd.findAll(css);
  const labels = await Promise.all(buttons.map((b) => wd.text(b)));
  const i = labels.findIndex((l) => l.startsWith(label));
  assert.ok(i >= 0, `a "${label}" button among ${labels}`);
  await wd.click(buttons[i]);
}

async function setValue(css, value) {
  await wd.execute(
    `const el = document.querySelector(arguments[0]);
     const proto = el.tagName === 'TEXTAREA' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
     Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, arguments[1]);
     el.dispatchEvent(new Event('input', { bubbles: true }));`,
    [css, value],
  );
}

/** Opens a compact help card's answer box (its "Answer" button), if it is not open yet. */
async function openAnswer(callId) {
  const card = `[data-testid='desk-request'][data-call-id='${callId}']`;
  const open = await wd.execute(`return document.querySelector("${card}").dataset.open`);
  if (open !== "true") {
    await wd.execute(`document.querySelector("${card} [data-testid='desk-open']").scrollIntoView({ block: 'center' })`);
    await wd.click(await wd.find(`${card} [data-testid='desk-open']`));
  }
  await wd.waitForText(`#answer-${callId}`, () => true);
}

/** Everything a room must not see: names, the class's anonymous ids, and free text. */
function assertNothingPrivate(text, where, ids) {
  for (const c of CANARIES) assert.ok(!text.includes(c), `${c} shown ${where}`);
  for (const part of ["Quillon", "Ottilie", "Fennimore"]) assert.ok(!text.includes(part), `${part} shown ${where}`);
  for (const id of ids) assert.ok(!text.includes(id), `anonymous id ${id} shown ${where}`);
  for (const free of [QUESTION, ANSWER, REPLY_BODY, ...evidenceProse]) {
    assert.ok(!text.includes(free), `free text "${free.slice(0, 40)}" shown ${where}`);
  }
}

let learners = [];
let evidenceProse = [];

test("the teacher's window: names after a roster import, and a name typed in an answer is refused", async () => {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  for (let i = 0; i < 120 && learners.length < 3; i++) {
    learners = await wd.execute(
      "return [...document.querySelectorAll(\"[role=grid] [data-testid='learner-name']\")].map((e) => e.textContent.trim())",
    );
    await sleep(250);
  }
  assert.ok(learners.length >= 3, `learners in the grid: ${learners}`);
  const csv = ["anonymous_id,display_name", ...learners.slice(0, 3).map((id, i) => `${id},${CANARIES[i]}`)].join("\n");
  assert.match(await wd.importRoster(csv), /3 names imported/);
  // The help desk: a saved reply, the injected question, and an answer that names a learner.
  await wd.click(await wd.find(".desk-link"));
  await wd.waitForText("#desk-title");
  await setValue("#reply-title", "Halves");
  await setValue("#reply-body", REPLY_BODY);
  await clickButton(".desk-reply-form button", "Save reply");
  await wd.waitForText(".desk-reply .muted", (t) => t === REPLY_BODY);
  const card = "[data-call-id='call-injected-question']";
  await wd.waitForText(`${card} [data-testid='desk-question']`, (t) => t === QUESTION, 30000);
  await openAnswer("call-injected-question");
  await setValue(`#answer-call-injected-question`, "Quillon, count three halves from zero.");
  await clickButton(`${card} button`, "Send answer");
  const refusal = await wd.waitForText(`${card} [role=alert]`, (t) => t.includes("Not sent"));
  assert.match(refusal, /“Quillon”/, "the teacher's own window says which word");
  const kept = await wd.execute(`return document.getElementById('answer-call-injected-question').value`);
  assert.equal(kept, "Quillon, count three halves from zero.", "the draft is kept to rephrase");
  await wd.screenshot(path.join(outDir, "30-name-in-answer-refused.png"));
  // A simulated learner's request (the host knows it; the injected one is only on the feed)
  // gets a clean answer, which the teacher's screen then shows.
  let callId = null;
  for (let i = 0; i < 300 && callId === null; i++) {
    callId = await wd.execute(`
      const c = [...document.querySelectorAll("[data-testid='desk-request']")].find((c) =>
        c.dataset.callId !== 'call-injected-question'
        && c.querySelector("[data-testid='desk-state']")?.textContent === 'waiting'
        && !c.querySelector("[data-testid='desk-open']").disabled);
      return c ? c.dataset.callId : null;`);
    if (callId === null) await sleep(200);
  }
  assert.ok(callId, "a simulated learner asked for help");
  await openAnswer(callId);
  await setValue(`#answer-${callId}`, ANSWER);
  await wd.execute(`document.getElementById('answer-${callId}').scrollIntoView({ block: 'center' })`);
  await clickButton(`[data-call-id='${callId}'] button`, "Send answer");
  const sent = await wd.waitForText(`[data-testid='desk-closed'][data-call-id='${callId}'] .desk-answer-sent`);
  assert.equal(sent, `Answer: ${ANSWER}`, "control: the answer shows on the teacher's screen");
  // Control: with names on, the teacher's window shows them.
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  // Some evidence prose, to check it disappears later.
  let states = [];
  for (let i = 0; i < 120 && !states.some((s) => s.startsWith("completed")); i++) {
    states = await wd.execute(
      "return [...document.querySelectorAll('[role=grid] button.cell')].map((b) => b.dataset.state)",
    );
    if (!states.some((s) => s.startsWith("completed"))) await sleep(250);
  }
  assert.ok(states.some((s) => s.startsWith("completed")), `a completed cell in the grid: ${states}`);
  await wd.click(await wd.find("[role=grid] button.cell[data-state^=completed]"));
  evidenceProse = [await wd.waitForText("[data-testid='evidence-prose']")];
  await wd.click(await wd.find("[data-testid='evidence'] header button"));

  let text = "";
  for (let i = 0; i < 40 && !CANARIES.some((c) => text.includes(c)); i++) {
    text = await page();
    await sleep(250);
  }
  assert.ok(CANARIES.some((c) => text.includes(c)), "names are on the teacher's screen");
});

test("projector-safe mode: no name, no id, no free text in any view", async () => {
  await wd.click(await wd.find("[data-testid='projector-safe']"));
  await wd.waitForText("[data-testid='projector-safe']", (t) => t.includes("on"));
  // Each absence below is read only once the view shows it drew its data in this mode.
  await wd.waitFor(DRAWN.aliasedGrid, "the grid's rows relabelled with aliases", 15000, [learners.length]);
  assertNothingPrivate(await page(), "on the live grid", learners);
  for (const tab of ["Mastery", "Who needs me", "Timeline"]) {
    await clickButton("[role=tab]", tab);
    await wd.waitFor(DRAWN[tab], `${tab} drawn`);
    assertNothingPrivate(await page(), `on ${tab}`, learners);
  }
  for (const [css, label, drawn] of [
    [".desk-link", "the help desk", DRAWN.desk],
    [".export-link", "the export view", DRAWN.export],
  ]) {
    await wd.click(await wd.find(css));
    await wd.waitFor(drawn, `${label} drawn`);
    assertNothingPrivate(await page(), `on ${label}`, learners);
  }
  await wd.click(await wd.find(".desk-link"));
  await wd.waitFor(DRAWN.desk, "the help desk drawn");
  const closed = await wd.findAll("[data-testid='desk-closed']");
  assert.ok(closed.length > 0, "the closed request is listed, without its answer");
  await wd.screenshot(path.join(outDir, "31-projector-safe-desk.png"));
  for (const label of ["Settings", "Diagnostics"]) {
    await clickButton(".sidebar-footer button", label);
    await wd.waitFor(DRAWN[label], `${label} drawn`);
    assertNothingPrivate(await page(), `on ${label}`, learners);
  }
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("[data-testid='projector-safe']", (t) => t.includes("on"));
  await wd.click(await wd.find("[data-testid='projector-safe']"));
  await wd.waitForText("[data-testid='projector-safe']", (t) => t.includes("off"));
});

test("the projector window shows aggregates only, and may call nothing else", async () => {
  const main = await wd.request("GET", wd.s("/window"));
  await wd.click(await wd.find("[data-testid='show-on-projector']"));
  let handles = [];
  for (let i = 0; i < 60 && handles.length < 2; i++) {
    handles = await wd.request("GET", wd.s("/window/handles"));
    await sleep(250);
  }
  assert.equal(handles.length, 2, "a second window opened");
  const projector = handles.find((h) => h !== main);
  await wd.request("POST", wd.s("/window"), { handle: projector });
  await wd.waitForText("[data-testid='projector'] h1", (t) => /learners/.test(t), 20000);
  await wd.waitForText("[data-testid='projector-waiting']");
  const shown = await page();
  // What the projector is for, first: the absence below is read from a page that drew it.
  assert.match(shown, /Mastery by standard/);
  assert.match(shown, /of \d+ done/, "progress per step");
  assertNothingPrivate(shown, "on the projector", learners);
  const queue = await wd.execute("return [...document.querySelectorAll('.projector-queue li')].map((li) => li.textContent)");
  assert.ok(queue.every((q) => /^Learner \d+$/.test(q)), `the help queue shows aliases only: ${queue}`);
  await wd.screenshot(path.join(outDir, "32-projector-window.png"));
  // Its capability: projector_view answers, any other command is refused by Tauri's ACL.
  const acl = await wd.request("POST", wd.s("/execute/async"), {
    script: `const done = arguments[0];
      const invoke = window.__TAURI_INTERNALS__.invoke;
      Promise.allSettled([invoke('projector_view'), invoke('desk_queue', { classId: null }),
                          invoke('class_grid', { classId: 'x', assignmentId: 'y' })])
        .then((r) => done(r.map((x) => x.status + ':' + String(x.reason ?? '').slice(0, 80))));`,
    args: [],
  });
  assert.equal(acl[0], "fulfilled:", `projector_view is allowed: ${acl}`);
  assert.match(acl[1], /^rejected:.*not allowed/, `desk_queue is refused: ${acl[1]}`);
  assert.match(acl[2], /^rejected:.*not allowed/, `class_grid is refused: ${acl[2]}`);

  // The teacher's window, at the same time, keeps its names (projector-safe is off).
  await wd.request("POST", wd.s("/window"), { handle: main });
  let text = "";
  for (let i = 0; i < 40 && !CANARIES.some((c) => text.includes(c)); i++) {
    text = await page();
    await sleep(250);
  }
  assert.ok(CANARIES.some((c) => text.includes(c)), "the teacher's window still names learners");
});

test("students' work on the projector: the picked response and nothing else, one naming a classmate refused", async () => {
  const main = await wd.request("GET", wd.s("/window"));
  const handles = await wd.request("GET", wd.s("/window/handles"));
  const projector = handles.find((h) => h !== main);
  assert.ok(projector, "the projector window is still open");
  // The step report lists the class's common responses, each with its "Show to class".
  await clickButton("[role=tab]", "Report");
  await wd.waitFor(
    "return document.querySelectorAll(\"[data-testid='show-work-toggle']\").length > 0",
    "a common response with its toggle",
    60000,
  );
  const responses = await wd.execute(
    "return [...document.querySelectorAll(\"[data-testid='show-work-toggle']\")].map((b) => b.closest('li').querySelector('q').textContent)",
  );
  const picked = responses[0];
  await wd.execute("document.querySelector(\"[data-testid='show-work-toggle']\").scrollIntoView({ block: 'center' })");
  await wd.click(await wd.find("[data-testid='show-work-toggle']"));
  await wd.waitForText("[data-testid='shown-work'] h3", (t) => t.includes("1 response"));
  // A response naming a classmate (as a student might write it) is refused by the core's
  // scanner, with the word for the teacher, and goes nowhere.
  const refused = await wd.request("POST", wd.s("/execute/async"), {
    // WebDriver passes the callback last.
    script: `const done = arguments[arguments.length - 1];
      window.__TAURI_INTERNALS__.invoke('show_work_pick', { classId: arguments[0], text: 'Ottilie says 3/4' })
        .then(() => done('shown'), (e) => done(JSON.stringify(e)));`,
    args: [await wd.execute("return document.querySelector('.class-item[aria-current=page]')?.dataset.classId ?? null")],
  });
  assert.match(refused, /text_blocked/, `refused: ${refused}`);
  assert.match(refused, /“Ottilie”/, "the word is named for the teacher");

  await wd.request("POST", wd.s("/window"), { handle: projector });
  const work = await wd.waitForText("[data-testid='projector-work']", (t) => t.includes("Response A"), 20000);
  const items = await wd.execute(
    "return [...document.querySelectorAll(\"[data-testid='projector-work'] li\")].map((li) => li.textContent)",
  );
  assert.deepEqual(items, [`Response A ${picked}`], `only the picked response: ${work}`);
  const shown = await page();
  assert.ok(!shown.includes("Ottilie says"), "the refused response is not on the projector");
  assertNothingPrivate(shown, "on the projector with work shown", learners);
  for (const other of responses.slice(1).filter((r) => r !== picked)) {
    assert.ok(!items.join(" ").includes(other), `an unpicked response (${other}) is on the projector`);
  }
  await wd.screenshot(path.join(outDir, "33-projector-shown-work.png"));

  // "Take all down" in the teacher's window empties the projector's work.
  await wd.request("POST", wd.s("/window"), { handle: main });
  await wd.click(await wd.find("[data-testid='shown-work-clear']"));
  await wd.request("POST", wd.s("/window"), { handle: projector });
  await wd.waitFor("return document.querySelector(\"[data-testid='projector-work']\") === null", "the work taken down");
  await wd.waitForText("[data-testid='projector'] h1", (t) => /learners/.test(t));
  await wd.request("POST", wd.s("/window"), { handle: main });
});
