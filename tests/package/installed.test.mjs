// The installed package's app (A2LEARN_APP, set by tests/package/run.sh after `dpkg -i`), opened
// as a teacher opens it: a first start on an empty home follows the embedded demo host's class
// live, and the window is the product's (title, version, no error).
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { launchApp, outDir } from "../e2e/webdriver.mjs";

const app = process.env.A2LEARN_APP;
const version = process.env.A2LEARN_PACKAGE_VERSION;

let launched;
let wd;

before(async () => {
  assert.ok(app?.startsWith("/usr/"), `A2LEARN_APP is an installed binary: ${app}`);
  launched = await launchApp({ port: Number(process.env.E2E_PACKAGE_DRIVER_PORT ?? 4580), name: "package" });
  wd = launched.wd;
});

after(async () => {
  await launched?.close();
});

test("the installed app opens its window and follows the demo class live", async () => {
  assert.equal(await wd.title(), "a2learn Teacher");
  const shown = await wd.waitForText(".status-bar .muted", (t) => /^v\d/.test(t), 30000);
  assert.equal(shown, `v${version}`, "the window shows the packaged version");
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await wd.click(await wd.find(".class-item"));
  assert.equal(await wd.waitForText("#class-title"), "Demo class");
  // Learners arrive through the feed into the installed app's own store.
  const learners = await wd.waitForText("[data-testid='learner-count']", (t) => Number(t) > 0, 60000);
  assert.ok(Number(learners) > 0, `learners: ${learners}`);
  const status = await wd.waitForText("[data-testid='connection']", (t) => t.includes("connected"), 30000);
  assert.match(status, /Host: connected/);
  assert.deepEqual(await wd.findAll("[role='alert']"), [], "no error panel");
  await wd.screenshot(path.join(outDir, "installed-app.png"));
});
