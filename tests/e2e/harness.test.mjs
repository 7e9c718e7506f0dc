// The harness itself: an app that outlives its WebDriver session (seen under load, when the
// session's DELETE timed out) must still be ended by `close`. An orphaned app kept its test
// file's output pipe open, and the whole end-to-end run then waited for ever after its last test.
import assert from "node:assert/strict";
import { test } from "node:test";
import { launchApp } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_HARNESS_DRIVER_PORT ?? 4590);

const alive = (group) => {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
};

test("close ends an app whose session was never deleted", async () => {
  const app = await launchApp({ port: PORT, name: "harness" });
  await app.wd.waitForText(".app-title");
  assert.ok(alive(app.group), "the driver and the app run in their own group");
  // As if the session's DELETE had failed: the app is not told to close.
  app.wd.session = null;
  await app.close();
  assert.equal(alive(app.group), false, "nothing is left of the driver's group");
});
