// End to end: the real app window under Xvfb, driven over WebDriver (tauri-driver +
// WebKitWebDriver). Run by tests/e2e/run.sh, which builds nothing and expects the binary built.
import assert from "node:assert/strict";
import path from "node:path";
import { after, before, test } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { launchApp, outDir } from "./webdriver.mjs";



let app;
let wd;

before(async () => {
  app = await launchApp({ port: Number(process.env.E2E_DRIVER_PORT ?? 4444), name: "app" });
  wd = app.wd;
});

after(async () => {
  await app?.close();
});

test("the window opens on the app frame", async () => {
  assert.equal(await wd.title(), "a2learn Teacher");
  const heading = await wd.waitForText(".app-title");
  assert.equal(heading, "a2learn Teacher");
  const sidebar = await wd.waitForText("nav[aria-label='Classes'] .sidebar-title");
  assert.equal(sidebar.toUpperCase(), "CLASSES");
});

test("a first start follows a live demo class from the embedded host", async () => {
  // The sidebar lists the demo class the app created on the embedded demo host.
  const item = await wd.waitForText(".class-item .class-title", (t) => t === "Demo class", 30000);
  assert.equal(item, "Demo class");
  const status = await wd.waitForText("[data-testid='connection']", (t) => t.includes("connected"), 30000);
  assert.match(status, /Host: connected/);
  const version = await wd.execute("return document.querySelector('.status-bar .muted')?.textContent ?? ''");
  assert.match(version, /^v\d+\.\d+\.\d+$/, "the status bar shows the app's version from the backend");

  await wd.click(await wd.find(".class-item"));
  const heading = await wd.waitForText("#class-title");
  assert.equal(heading, "Demo class");
  const joinCode = await wd.waitForText("[data-testid='join-code']");
  assert.notEqual(joinCode, "—", "the host handed out a join code");
  // Simulated learners arrive through the feed; the count comes from the local store.
  const learners = await wd.waitForText("[data-testid='learner-count']", (t) => Number(t) > 0, 30000);
  assert.ok(Number(learners) > 0, `learners: ${learners}`);
  // Negative control: the error panel only appears when a command failed.
  assert.deepEqual(await wd.findAll("[role='alert']"), [], "no error panel");
  // The README's first picture: a class under way (answers checked), not its first seconds.
  for (let i = 0; i < 400 && (await wd.count("button.cell[data-state='completed_correct']")) < 8; i++) await sleep(100);
  await wd.screenshot(path.join(outDir, "01-demo-class.png"));
});

test("diagnostics show an empty quarantine for a well-behaved host", async () => {
  const buttons = await wd.findAll(".sidebar-footer .nav-link");
  const labels = await Promise.all(buttons.map((b) => wd.text(b)));
  await wd.click(buttons[labels.indexOf("Diagnostics")]);
  const empty = await wd.waitForText("[data-testid='quarantine-empty']");
  assert.match(empty, /No quarantined frames/);
  await wd.screenshot(path.join(outDir, "02-diagnostics.png"));
});

test("diagnostics check the followed host against every rule of the host interface", async () => {
  // Diagnostics is open (the test before). The demo host is a real host on loopback: the same
  // suite as `a2learn-teacher host check`, read-only, watching its feed for 16 s.
  await wd.click(await wd.find("[data-testid='host-check'] button"));
  // The verdict, or the error that took its place (then the assertion below shows it).
  const said = await wd.waitForText(
    "[data-testid='host-check-verdict'], [data-testid='host-check'] [role='alert']",
    (t) => t.length > 0,
    90000,
  );
  const table = await wd.execute("return document.querySelector('[data-testid=host-check-table]')?.innerText ?? ''");
  assert.equal(said, "This host works with a2learn Teacher.", table);
  assert.ok((await wd.count("[data-testid='host-check-table'] tr[data-status='PASS']")) >= 15, table);
  assert.equal(await wd.count("[data-testid='host-check-table'] tr[data-status='FAIL']"), 0, table);
  await wd.screenshot(path.join(outDir, "02b-host-check.png"));
});

test("settings show the demo host as the default", async () => {
  const buttons = await wd.findAll(".sidebar-footer .nav-link");
  const labels = await Promise.all(buttons.map((b) => wd.text(b)));
  await wd.click(buttons[labels.indexOf("Settings")]);
  await wd.waitForText("#settings-title");
  const checked = await wd.execute(
    "return [...document.querySelectorAll('input[name=mode]')].map((r) => r.checked)",
  );
  assert.deepEqual(checked, [true, false], "demo selected, custom not");
  const urlDisabled = await wd.execute("return document.getElementById('host-url').disabled");
  assert.equal(urlDisabled, true, "no address to type for the demo");
  await wd.screenshot(path.join(outDir, "03-settings.png"));
});

test("the page runs under the strict content security policy", async () => {
  // An inline script injected at run time must be refused by the CSP.
  const ran = await wd.execute(`
    window.__inlineRan = false;
    const s = document.createElement('script');
    s.textContent = 'window.__inlineRan = true';
    document.head.appendChild(s);
    return window.__inlineRan;`);
  assert.equal(ran, false, "inline scripts are blocked");
});
