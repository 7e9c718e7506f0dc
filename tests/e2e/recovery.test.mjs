// End to end: the database's bad day, in the real window. A first start writes the store; the
// CLI's `db backup --out` copies it (and its open makes the day's automatic backup beside the
// database: a file that held data, with no backup yet today); the database file is then damaged. The next start shows the recovery page instead of the app —
// what is wrong, and the newest backup — and its button restores that backup (the damaged file
// kept beside it). The start after that opens the restored database: the app again, with its
// class. Then the file is lost (deleted) while its backups are not: the window says so and
// restores the newest backup instead of starting on an empty database.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { after, test } from "node:test";
import { fileURLToPath } from "node:url";
import { launchApp, outDir } from "./webdriver.mjs";

const PORT = Number(process.env.E2E_RECOVERY_DRIVER_PORT ?? 4570);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(root, "target");
const cli = path.join(targetDir, "debug", "a2learn-teacher");

let app = null;
let home = null;

after(async () => {
  await app?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const dbOf = (h) => path.join(h, "data", "a2learn-teacher", "teacher.db");

test("a damaged database: the window offers the newest backup, and the restored one opens", async () => {
  // 1. A first start writes the database (the demo class).
  app = await launchApp({ port: PORT, name: "recovery" });
  home = app.home;
  await app.wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  await app.close({ keepHome: true });
  app = null;
  const db = dbOf(home);
  assert.ok(existsSync(db), `the database is at ${db}`);

  // 2. A backup on demand, which leaves the day's automatic backup too; then the damage.
  execFileSync(cli, ["--db", db, "db", "backup", "--out", path.join(home, "copy.db")]);
  const automatic = readdirSync(path.join(path.dirname(db), "backups"));
  assert.equal(automatic.length, 1, `one automatic backup: ${automatic}`);
  const BACKUP_NAME = automatic[0];
  const bytes = readFileSync(db);
  bytes.fill(0x5a, 0, 100);
  writeFileSync(db, bytes);
  for (const side of ["-wal", "-shm"]) rmSync(db + side, { force: true });

  // 3. The next start shows what is wrong and the backup, and restores it.
  app = await launchApp({ port: PORT, name: "recovery", home });
  const wd = app.wd;
  await wd.waitForText("[data-testid='recovery-message']", undefined, 30000);
  assert.equal(await wd.waitForText("#recovery-title"), "The database cannot be opened");
  assert.match(await wd.waitForText("[data-testid='recovery-message']"), /is damaged/);
  assert.match(await wd.waitForText("[data-testid='recovery-backup']"), new RegExp(BACKUP_NAME));
  await wd.screenshot(path.join(outDir, "40-recovery.png"));
  // The page is checked by axe like every other view (a11y.test.mjs): no serious or critical
  // violation.
  const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await wd.execute(`${axeSource}\n;return true;`);
  const violations = JSON.parse(
    await wd.executeAsync(
      `const done = arguments[arguments.length - 1];
       window.axe.run(document, { resultTypes: ["violations"] }).then(
         (r) => done(JSON.stringify(r.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
           .map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))),
         (e) => done(JSON.stringify(["axe failed: " + e])));`,
    ),
  );
  assert.deepEqual(violations, [], "the recovery page passes axe");
  await wd.click(await wd.find("[data-testid='recovery-restore']"));
  assert.match(await wd.waitForText("[data-testid='recovery-restored']"), /Restored/);
  assert.ok(existsSync(`${db}.before-restore`), "the damaged file is kept");
  assert.deepEqual(readFileSync(`${db}.before-restore`).subarray(0, 100), Buffer.alloc(100, 0x5a));
  await app.close({ keepHome: true });
  app = null;

  // 4. The restored database opens: the app, with the class the backup holds.
  app = await launchApp({ port: PORT, name: "recovery", home });
  await app.wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  assert.equal((await app.wd.findAll("#recovery-title")).length, 0, "the app, not the recovery page");
  await app.close({ keepHome: true });
  app = null;

  // 5. The file is lost while its backups are not: no empty database in its place, the newest
  // backup is offered and restored in the window.
  for (const side of ["", "-wal", "-shm", ".before-restore"]) rmSync(db + side, { force: true });
  const backups = readdirSync(path.join(path.dirname(db), "backups")).sort();
  const newest = backups[backups.length - 1];
  app = await launchApp({ port: PORT, name: "recovery", home });
  // The title reads "cannot be opened" until the page has asked what is wrong: wait for the answer.
  await app.wd.waitForText("[data-testid='recovery-message']", undefined, 30000);
  assert.equal(await app.wd.waitForText("#recovery-title"), "The database file is missing");
  assert.match(await app.wd.waitForText("[data-testid='recovery-backup']"), new RegExp(newest));
  assert.ok(!existsSync(db), "nothing was created in its place");
  assert.equal((await app.wd.findAll("[data-testid='recovery-start-empty']")).length, 1, "a fresh start is offered");
  await app.wd.click(await app.wd.find("[data-testid='recovery-restore']"));
  assert.match(await app.wd.waitForText("[data-testid='recovery-restored']"), /Restored/);
  assert.ok(
    readFileSync(db).equals(readFileSync(path.join(path.dirname(db), "backups", newest))),
    "the database is the newest backup",
  );
});
