// End to end: a teacher's app on a school's shared PostgreSQL store, in the real window. Settings
// names the store (its address without the password, the password in its own field); saving
// connects first; the next start keeps results there — the demo class's events land in the
// shared database — while the teacher's file holds no password. Then the store goes away (its
// database dropped): the next start shows the recovery window, whose "Keep results on this
// computer" brings the app back on the teacher's file. Runs against the throwaway cluster that
// scripts/test.sh starts (A2LEARN_TEST_PG_URL); skipped without it outside CI.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { launchApp, openSettings, outDir, setValue, sharedStoreUrls } from "./webdriver.mjs";
import { missing } from "./peers.mjs";

const PORT = Number(process.env.E2E_SHARED_DRIVER_PORT ?? 4580);
const admin = process.env.A2LEARN_TEST_PG_URL;
const skip = admin ? false : missing("PostgreSQL", "A2LEARN_TEST_PG_URL is not set");

const database = `e2e_shared_${process.pid}`;
const { password, bare, full } = sharedStoreUrls(admin, database);

const psql = (url, sql) => execFileSync("psql", [url, "-tAc", sql], { encoding: "utf8" }).trim();

let app = null;
let home = null;

after(async () => {
  await app?.close();
  if (admin) psql(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

const dbOf = (h) => path.join(h, "data", "a2learn-teacher", "teacher.db");

test("Settings names a shared store; the next start keeps results there", { skip }, async () => {
  psql(admin, `CREATE DATABASE ${database}`);
  app = await launchApp({ port: PORT, name: "shared" });
  home = app.home;
  const wd = app.wd;
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await openSettings(wd);
  await wd.click(await wd.find("[data-testid='results-store-shared']"));
  await setValue(wd, "#results-store-url", bare);
  // A wrong password first: refused, nothing saved, no restart offered.
  await setValue(wd, "#results-store-password", "not-the-password");
  await wd.click(await wd.find("[data-testid='results-store'] button[type='submit']"));
  const refused = await wd.waitForText("[data-testid='results-store'] [role='alert']", undefined, 30000);
  assert.match(refused, /password authentication failed/);
  assert.equal(await wd.count("[data-testid='results-store-restart']"), 0);
  await setValue(wd, "#results-store-password", password);
  await wd.click(await wd.find("[data-testid='results-store'] button[type='submit']"));
  await wd.waitForText("[data-testid='results-store'] [role='status']", (t) => /next start/.test(t), 30000);
  assert.equal(await wd.count("[data-testid='results-store-restart']"), 1, "a restart is offered");
  await wd.screenshot(path.join(outDir, "60-results-store.png"));
  await app.close({ keepHome: true });
  app = null;
  // Every byte of the teacher's file, its write-ahead log included.
  const file = ["", "-wal"]
    .map((side) => (existsSync(dbOf(home) + side) ? readFileSync(dbOf(home) + side).toString("latin1") : ""))
    .join("");
  assert.ok(file.includes(bare), "the teacher's file names the store");
  assert.ok(!file.includes(password), "and holds no password");

  // The next start: the shared store, with the demo class's events in it.
  app = await launchApp({ port: PORT, name: "shared", home });
  await app.wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  let events = 0;
  for (let i = 0; i < 300 && events === 0; i += 1) {
    events = Number(psql(full, "SELECT COUNT(*) FROM ledger"));
    if (events === 0) await sleep(100);
  }
  assert.ok(events > 0, "the demo class's events reached the shared store");
  assert.ok(Number(psql(full, "SELECT COUNT(*) FROM classes")) >= 1);
  // The demo host keeps its log beside the teacher's file, also when results are elsewhere: a
  // shared store has no folder, and the working folder (where this test runs the app) is not one.
  assert.ok(
    !existsSync(path.join(process.cwd(), "demo-host.jsonl")),
    "no demo host log in the app's working folder",
  );
  await openSettings(app.wd);
  const inUse = await app.wd.waitForText("[data-testid='results-store-in-use']");
  assert.ok(inUse.includes(bare), inUse);
  assert.ok(!inUse.includes(password), "the window never shows the password");
  await app.close({ keepHome: true });
  app = null;
});

test("a shared store that does not open: the recovery window, and back to this computer", { skip }, async () => {
  assert.ok(home, "the first test ran");
  psql(admin, `DROP DATABASE ${database} WITH (FORCE)`);
  app = await launchApp({ port: PORT, name: "shared", home });
  const wd = app.wd;
  // The title appears once the window knows the problem; a generic one first would fail here.
  assert.equal(
    await wd.waitForText("#recovery-title", undefined, 30000),
    "The school's shared store cannot be opened",
  );
  const message = await wd.waitForText("[data-testid='recovery-message']");
  assert.ok(!message.includes(password), "the message never quotes the password");
  assert.equal(await wd.count("[data-testid='recovery-restore']"), 0, "no backup offered");
  await wd.screenshot(path.join(outDir, "61-recovery-shared-store.png"));
  await wd.click(await wd.find("[data-testid='recovery-use-this-computer']"));
  await wd.waitForText("[data-testid='recovery-this-computer']");
  await app.close({ keepHome: true });
  app = null;
  // Back on the teacher's file: the app again, with its own demo class.
  app = await launchApp({ port: PORT, name: "shared", home });
  await app.wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await openSettings(app.wd);
  assert.equal(await app.wd.count("[data-testid='results-store-in-use']"), 0, "this computer");
});
