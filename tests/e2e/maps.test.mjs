// End to end: the class's knowledge map in the real window against the embedded demo host —
// standards drawn with their counts and prerequisite edges, a node followed to its learners, and
// the same data as a table.
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
  // Let the simulated learners work a little, so states other than "not met yet" exist.
  await sleep(8000);
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
