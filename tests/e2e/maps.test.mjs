// End to end: the class's two maps in the real window against the embedded demo host. The
// knowledge map: standards drawn with their counts and prerequisite edges, a node followed to its
// learners, and the same data as a table. The pathway map: each assigned pathway's steps with how
// many learners are done / current / upcoming (adding up to the class), the pacing limit set from
// the class header marked on its step, a step followed to its learners, and the same as a table.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_MAPS_DRIVER_PORT ?? 4510);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

let app;
let wd;

before(async () => {
  app = await launchApp({ port: PORT, name: "maps", env: { A2LEARN_DEMO_SPEED: "60" } });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

async function openTab(name) {
  const tabs = await wd.findAll("[role=tab]");
  for (const t of tabs) {
    if ((await wd.text(t)) === name) {
      await wd.click(t);
      return;
    }
  }
  throw new Error(`no tab ${name}`);
}

test("the knowledge map draws the standards and follows a node to its learners", async () => {
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  await wd.waitForText("#class-title", (t) => t === "Demo class");
  // Until the simulated learners have completed a few steps, so states other than "not met
  // yet" exist (bounded: the demo's learners start within seconds).
  await wd.waitFor(
    "return document.querySelectorAll('[role=grid] button.cell[data-state^=completed]').length >= 5",
    "five completed steps in the grid",
    60000,
  );
  await openTab("Knowledge map");
  await wd.waitForText("[data-testid='knowledge-map']");
  const nodes = await wd.execute(
    "return [...document.querySelectorAll('.k-node')].map((g) => g.getAttribute('aria-label'))",
  );
  assert.ok(nodes.length >= 5, `standards drawn: ${nodes.length}`);
  assert.ok(
    nodes.every((n) => /known \d+, missed \d+, doesn't know yet \d+, taught \d+, not met yet \d+$/.test(n)),
    nodes.join("\n"),
  );
  const edges = await wd.execute("return document.querySelectorAll('.k-edge:not(.k-edge-mis)').length");
  assert.ok(edges >= 3, `prerequisite edges drawn: ${edges}`);
  await wd.screenshot(path.join(outDir, "80-knowledge-map.png"));

  // Follow the first node with known learners to its list.
  const code = await wd.execute(`
    const g = [...document.querySelectorAll('.k-node')].find((g) => !/known 0,/.test(g.getAttribute('aria-label')));
    return g ? g.dataset.code : document.querySelector('.k-node').dataset.code;`);
  // An SVG group is not "interactable" to WebKit's driver: click it as the page sees a click.
  await wd.execute(
    `document.querySelector(".k-node[data-code='${code}']").dispatchEvent(new MouseEvent('click', { bubbles: true }))`,
  );
  const panel = await wd.waitForText("[data-testid='knowledge-learners']");
  assert.match(panel, /lrn-[a-z]+/, "the learners behind the node, by their ids (no roster here)");

  await wd.click(await wd.find("[data-testid='knowledge-table-mode']"));
  const rows = await wd.execute("return document.querySelectorAll(\"[data-testid='knowledge-table'] tbody tr\").length");
  assert.equal(rows, nodes.length, "the table lists the same standards");
});

/** Done, current and upcoming of a pathway node, from its accessible name. */
function statusCounts(label) {
  const m = /: (\d+) done, (\d+) current, (\d+) upcoming/.exec(label);
  assert.ok(m, `counts in "${label}"`);
  return m.slice(1).map(Number);
}

test("the pathway map counts every learner on each step and follows a step to its learners", async () => {
  // Pace the first assigned pathway up to its third step, as the class header does.
  const paced = await wd.execute(`
    const select = document.querySelector("[data-testid='room-pace']");
    if (!select || select.options.length < 4) return null;
    const step3 = select.options[3].value;
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, step3);
    select.dispatchEvent(new Event('change', { bubbles: true }));
    return { pathway: select.dataset.pathway, step: step3 };`);
  assert.ok(paced, "the class header offers pacing");
  await wd.waitForText("[data-testid='room-pacing']", (t) => t.includes("up to step 3"));

  await openTab("Pathway map");
  await wd.waitForText("[data-testid='pathway-map']");
  // The pacing echo reaches the map through the store: its step carries the mark.
  await wd.waitForText("[data-testid='pathway-pacing']", (t) => t.trim() === "Pacing: up to here", 15000);
  const limit = await wd.execute(
    "return document.querySelector(\"[data-testid='pathway-pacing']\").closest('.p-node').dataset.widget",
  );
  assert.equal(limit, paced.step, "the mark is on the step the class was paced to");

  const size = Number((await wd.text(await wd.find("[data-testid='pathway-class-size']"))).split(" ")[0]);
  assert.ok(size > 0, `the class has learners: ${size}`);
  const nodes = await wd.execute(
    "return [...document.querySelectorAll('.p-node')].map((g) => ({ widget: g.dataset.widget, label: g.getAttribute('aria-label') }))",
  );
  assert.ok(nodes.length >= 3, `steps drawn: ${nodes.length}`);
  for (const n of nodes) {
    const [done, current, upcoming] = statusCounts(n.label);
    assert.equal(done + current + upcoming, size, `the counts add up to the class on ${n.label}`);
  }
  const totals = nodes.map((n) => statusCounts(n.label));
  assert.ok(
    totals.some(([done]) => done > 0),
    `some learner has done a step: ${nodes.map((n) => n.label).join("\n")}`,
  );
  const edges = await wd.execute("return document.querySelectorAll('.p-edge').length");
  assert.ok(edges >= 1, `the pathway order drawn as edges: ${edges}`);
  await wd.screenshot(path.join(outDir, "81-pathway-map.png"));

  // Follow the first step with someone current on it to its learners: each learner of the class
  // is listed once, under one status. (Learners the feed announces meanwhile grow the class, so
  // the size is read again beside each list; a few tries at most.)
  const target = nodes.find((n) => statusCounts(n.label)[1] > 0) ?? nodes[0];
  let listed = [];
  let classSize = size;
  for (let attempt = 0; attempt < 3; attempt++) {
    await wd.execute(
      `document.querySelector(".p-node[data-widget='${target.widget}']").dispatchEvent(new MouseEvent('click', { bubbles: true }))`,
    );
    const panel = await wd.waitForText("[data-testid='pathway-learners']");
    assert.match(panel, /lrn-[a-z]+/, "the learners behind the step, by their ids (no roster here)");
    listed = await wd.execute(`
      return [...document.querySelectorAll("[data-testid='pathway-learners'] [data-status]")]
        .map((d) => [d.dataset.status, [...d.querySelectorAll('li')].map((li) => li.textContent)]);`);
    classSize = Number((await wd.text(await wd.find("[data-testid='pathway-class-size']"))).split(" ")[0]);
    if (listed.reduce((sum, [, names]) => sum + names.length, 0) === classSize) break;
    await sleep(500);
  }
  assert.deepEqual(
    listed.map(([s]) => s),
    ["done", "current", "upcoming"],
  );
  const everyone = listed.flatMap(([, names]) => names);
  assert.equal(everyone.length, classSize, "every learner of the class is listed on the step");
  assert.equal(new Set(everyone).size, everyone.length, "and each once");

  await wd.click(await wd.find("[data-testid='pathway-table-mode']"));
  const rows = await wd.execute("return document.querySelectorAll(\"[data-testid='pathway-table'] tbody tr\").length");
  assert.equal(rows, nodes.length, "the table lists the same steps");
  const tableText = await wd.text(await wd.find("[data-testid='pathway-table']"));
  assert.match(tableText, /Pacing: up to here/);

  // Lift the limit again, so the demo class is as the other tests found it.
  await wd.execute(`
    const select = document.querySelector("[data-pathway='${paced.pathway}']");
    Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value').set.call(select, '');
    select.dispatchEvent(new Event('change', { bubbles: true }));`);
});
