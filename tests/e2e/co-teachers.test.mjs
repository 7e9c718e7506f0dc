// End to end: two co-teachers' apps at once, each in its own window and home, on one school's
// shared PostgreSQL store, both on the embedded demo host (the default). Each app's demo host is
// named apart in the store, so each makes a demo class of its own and follows it on its own demo
// host: the store holds two demo hosts, a class of each and the events of both, and each window
// lists its own class. (Under one name for every demo host, the second app took the first's demo
// class for its own, made none, and asked its own demo host for a class it never had.) Runs
// against the throwaway cluster that scripts/test.sh starts (A2LEARN_TEST_PG_URL); skipped
// without it outside CI.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import path from "node:path";
import { after, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { launchApp, openSettings, outDir, setValue, sharedStoreUrls } from "./webdriver.mjs";
import { missing } from "./peers.mjs";

const FIRST_PORT = Number(process.env.E2E_COTEACHERS_DRIVER_PORT ?? 4600);
// Each app's driver takes two ports (its own and the native driver's).
const PORTS = [FIRST_PORT, FIRST_PORT + 2];
const admin = process.env.A2LEARN_TEST_PG_URL;
const skip = admin ? false : missing("PostgreSQL", "A2LEARN_TEST_PG_URL is not set");

const database = `e2e_coteachers_${process.pid}`;
const { password, bare, full } = sharedStoreUrls(admin, database);

const psql = (url, sql) => execFileSync("psql", [url, "-tAc", sql], { encoding: "utf8" }).trim();

let apps = [];

after(async () => {
  await Promise.all(apps.map((app) => app?.close()));
  if (admin) psql(admin, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
});

/** A first start on the teacher's own file, then Settings names the shared store. */
async function setUpTeacher(port, name) {
  const app = await launchApp({ port, name });
  apps.push(app);
  const wd = app.wd;
  await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await openSettings(wd);
  await wd.click(await wd.find("[data-testid='results-store-shared']"));
  await setValue(wd, "#results-store-url", bare);
  await setValue(wd, "#results-store-password", password);
  await wd.click(await wd.find("[data-testid='results-store'] button[type='submit']"));
  await wd.waitForText("[data-testid='results-store'] [role='status']", (t) => /next start/.test(t), 30000);
  await app.close({ keepHome: true });
  apps = apps.filter((a) => a !== app);
  return app.home;
}

test("two co-teachers on the demo host and one shared store: a demo class each", { skip }, async () => {
  psql(admin, `CREATE DATABASE ${database}`);
  const homes = [];
  for (const [i, port] of PORTS.entries()) {
    homes.push(await setUpTeacher(port, `coteacher-${i}`));
  }
  // Both windows at once, on the shared store.
  apps = await Promise.all(PORTS.map((port, i) => launchApp({ port, name: `coteacher-${i}`, home: homes[i] })));
  for (const app of apps) {
    await app.wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  }
  let classes = 0;
  for (let i = 0; i < 300 && classes < 2; i += 1) {
    classes = Number(psql(full, "SELECT COUNT(DISTINCT class_id) FROM ledger"));
    if (classes < 2) await sleep(100);
  }
  assert.equal(classes, 2, "the events of both teachers' demo classes reached the store");
  const hosts = psql(full, "SELECT host_id FROM classes ORDER BY host_id").split("\n");
  assert.equal(hosts.length, 2, `a class of each demo host: ${hosts}`);
  assert.notEqual(hosts[0], hosts[1], "each app's demo host under its own name");
  for (const host of hosts) assert.match(host, /^demo-[0-9a-f]{32}$/);
  for (const [i, app] of apps.entries()) {
    assert.equal(await app.wd.count(".class-item"), 1, `window ${i} lists its own class only`);
    // Each follows its class on its own demo host, which knows it.
    const status = await app.wd.waitForText("[data-testid='connection']", (t) => t.includes("connected"), 30000);
    assert.match(status, /Host: connected/, `window ${i}`);
  }
  await apps[1].wd.screenshot(path.join(outDir, "62-co-teachers-second-window.png"));
});
