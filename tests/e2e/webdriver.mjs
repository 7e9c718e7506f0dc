// A small W3C WebDriver client over fetch: enough to drive the app through tauri-driver without
// any npm package.
import { spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";

const ELEMENT = "element-6066-11e4-a52e-4f735466cecf";

export class WebDriver {
  constructor(base) {
    this.base = base;
    this.session = null;
  }

  async request(method, path, body) {
    const res = await fetch(`${this.base}${path}`, {
      method,
      headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      // A window that stops answering fails the test instead of hanging the whole run.
      signal: AbortSignal.timeout(60000),
    });
    const json = await res.json();
    if (!res.ok || (json.value && json.value.error)) {
      throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json.value)}`);
    }
    return json.value;
  }

  s(path) {
    return `/session/${this.session}${path}`;
  }

  async start(application, args = []) {
    const value = await this.request("POST", "/session", {
      capabilities: { alwaysMatch: { browserName: "wry", "tauri:options": { application, args } } },
    });
    this.session = value.sessionId;
  }

  async stop() {
    if (this.session) await this.request("DELETE", this.s("")).catch(() => {});
    this.session = null;
  }

  title() {
    return this.request("GET", this.s("/title"));
  }

  /** Runs `script` in the page and returns its value. */
  execute(script, args = []) {
    return this.request("POST", this.s("/execute/sync"), { script, args });
  }

  /** Runs `script` in the page; it finishes by calling its last argument with the value to return. */
  executeAsync(script, args = []) {
    return this.request("POST", this.s("/execute/async"), { script, args });
  }

  async find(css) {
    const value = await this.request("POST", this.s("/element"), { using: "css selector", value: css });
    return value[ELEMENT];
  }

  async findAll(css) {
    const value = await this.request("POST", this.s("/elements"), { using: "css selector", value: css });
    return value.map((v) => v[ELEMENT]);
  }

  text(element) {
    return this.request("GET", this.s(`/element/${element}/text`));
  }

  click(element) {
    return this.request("POST", this.s(`/element/${element}/click`), {});
  }

  /** Waits until `css` matches an element whose text satisfies `ok`, and returns that text. */
  async waitForText(css, ok = (t) => t.length > 0, timeoutMs = 15000) {
    const deadline = Date.now() + timeoutMs;
    let last = "(no element)";
    while (Date.now() < deadline) {
      try {
        const found = await this.findAll(css);
        if (found.length > 0) {
          last = await this.text(found[0]);
          if (ok(last)) return last;
        }
      } catch (e) {
        // A live view re-rendered the element between the lookup and the read: look again.
        if (!isStale(e)) throw e;
      }
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${css}; last text: ${last}`);
  }

  /**
   * Polls `script` (run in the page) until it returns something truthy, and returns that. For a
   * check of absence, wait with this for the presence that shows the view did its work first:
   * an absence read from a page still loading proves nothing.
   */
  async waitFor(script, what, timeoutMs = 15000, args = []) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
      last = await this.execute(script, args);
      if (last) return last;
      await sleep(100);
    }
    throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
  }

  /** How many elements match `css`, counted in the page (no element handle that can go stale). */
  count(css) {
    return this.execute("return document.querySelectorAll(arguments[0]).length", [css]);
  }

  /**
   * Imports a roster CSV on the open class page as a teacher would: a file put in the page's
   * file input (no native dialog). Returns the status line the page shows.
   */
  async importRoster(csv) {
    await this.execute(
      `const input = document.querySelector("[data-testid='roster-file']");
       const dt = new DataTransfer();
       dt.items.add(new File([arguments[0]], "roster.csv", { type: "text/csv" }));
       input.files = dt.files;
       input.dispatchEvent(new Event("change", { bubbles: true }));`,
      [csv],
    );
    return this.waitForText("[data-testid='roster-status']");
  }

  /** Saves a PNG of the window, after two animation frames so the last DOM change is painted. */
  async screenshot(path) {
    await this.request("POST", this.s("/execute/async"), {
      script: "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
      args: [],
    });
    const b64 = await this.request("GET", this.s("/screenshot"));
    await writeFile(path, Buffer.from(b64, "base64"));
  }
}

/**
 * The process groups of the drivers this process started. Each tauri-driver leads its own group,
 * which WebKitWebDriver and the app it opens join: ending the group ends the app too. Without it,
 * an app that outlived its session (seen under load: the session's DELETE timed out) was
 * orphaned when its driver was killed, kept this test file's output pipe open, and so kept the
 * whole end-to-end run waiting for ever after its last test passed.
 */
const groups = new Set();

function endGroup(pid) {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
  groups.delete(pid);
}

// A test file that ends without closing its app (a failed hook, an uncaught error) ends it here.
process.on("exit", () => {
  for (const pid of groups) endGroup(pid);
});

/** Whether any process is left in the group `pid` leads. */
function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Ends a driver and everything in its group: first its own way (the session is already closed,
 * so the app is on its way out), then, after `graceMs`, by force.
 */
export async function stopDriver(child, graceMs = 5000) {
  child.kill();
  const deadline = Date.now() + graceMs;
  while (groupAlive(child.pid) && Date.now() < deadline) await sleep(100);
  if (groupAlive(child.pid)) console.error(`ending what was left of driver group ${child.pid} after ${graceMs} ms`);
  endGroup(child.pid);
  // Until the killed processes are reaped (the driver is this process's child: a zombie until
  // node collects it).
  const reaped = Date.now() + 5000;
  while (groupAlive(child.pid) && Date.now() < reaped) await sleep(50);
}

/** Starts tauri-driver on `port` and waits until it answers. */
export async function startDriver({ port, env }) {
  const child = spawn(
    "tauri-driver",
    ["--port", String(port), "--native-port", String(port + 1), "--native-driver", "/usr/bin/WebKitWebDriver"],
    // Its own process group (see `groups`).
    { env, stdio: ["ignore", "inherit", "inherit"], detached: true },
  );
  groups.add(child.pid);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`tauri-driver exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${base}/status`);
      if (res.ok) return { child, base };
    } catch {
      // not listening yet
    }
    await sleep(200);
  }
  endGroup(child.pid);
  throw new Error("tauri-driver did not start");
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** Where screenshots go. */
export const outDir = path.join(root, "test-output", "e2e");

/**
 * Starts tauri-driver on `port` and the app in a fresh data and config home (so it starts from
 * an empty database and its own embedded demo host), with `env` added. Each test file passes its
 * own port so files never share a driver.
 */
export async function launchApp({ port, name, env = {}, home: reuse = null }) {
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(root, "target");
  const application = process.env.A2LEARN_APP ?? path.join(targetDir, "debug", "a2learn-teacher-app");
  await mkdir(outDir, { recursive: true });
  // `home`: start again in the data and config home of an earlier launch (kept on close).
  const home = reuse ?? (await mkdtemp(path.join(tmpdir(), `a2learn-e2e-${name}-`)));
  const fullEnv = {
    ...process.env,
    XDG_DATA_HOME: path.join(home, "data"),
    XDG_CONFIG_HOME: path.join(home, "config"),
    ...env,
  };
  delete fullEnv.A2LEARN_TEACHER_DB;
  const driver = await startDriver({ port, env: fullEnv });
  const wd = new WebDriver(driver.base);
  await wd.start(application);
  return {
    wd,
    home,
    /** The process group of the driver and the app (ended by `close`). */
    group: driver.child.pid,
    async close({ keepHome = false } = {}) {
      await wd.stop();
      await stopDriver(driver.child);
      if (keepHome) return;
      // The web process may still be flushing its storage: retry a busy directory.
      await rm(home, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
    },
  };
}

/** WebKitWebDriver's answer for a handle to an element the page has since replaced. */
function isStale(e) {
  return /stale element/i.test(String(e?.message ?? e));
}

/** Opens Settings from the sidebar's footer. */
export async function openSettings(wd) {
  const buttons = await wd.findAll(".sidebar-footer .nav-link");
  const labels = await Promise.all(buttons.map((b) => wd.text(b)));
  await wd.click(buttons[labels.indexOf("Settings")]);
  await wd.waitForText("#settings-title");
}

/** Types `value` into the input at `css` as React sees typing (its value setter, then `input`). */
export async function setValue(wd, css, value) {
  await wd.execute(
    `const el = document.querySelector(arguments[0]);
     Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(el, arguments[1]);
     el.dispatchEvent(new Event('input', { bubbles: true }));`,
    [css, value],
  );
}

/**
 * The throwaway cluster's admin URL (A2LEARN_TEST_PG_URL, `postgres://user:PASSWORD@host:port/db`)
 * made into a test database's: `bare` without the password (as a teacher types it in Settings),
 * `full` with it (for psql), and the `password` alone. Empty strings without a cluster.
 */
export function sharedStoreUrls(admin, database) {
  const parts = admin?.match(/^(postgres(?:ql)?:\/\/)([^:@/]+):([^@]+)@([^/]+)\/.*$/);
  const password = parts?.[3] ?? "";
  return {
    password,
    bare: parts ? `${parts[1]}${parts[2]}@${parts[4]}/${database}` : "",
    full: parts ? `${parts[1]}${parts[2]}:${password}@${parts[4]}/${database}` : "",
  };
}

/**
 * What shows that a view has drawn its data, as a page script returning true: the presence to
 * wait for before asserting that something is absent from it.
 */
export const DRAWN = {
  // Rows with labels, each an alias (projector-safe mode: no name, no id).
  aliasedGrid:
    "const l = [...document.querySelectorAll(\"[role=grid] [data-testid='learner-name']\")]; " +
    "return l.length >= arguments[0] && l.every((e) => /^Learner \\d+$/.test(e.textContent.trim()))",
  Mastery: "return document.querySelectorAll(\"[data-testid='mastery'] tbody tr\").length > 0",
  "Who needs me": "return !!document.querySelector(\"[data-testid='needs-me'] li, [data-testid='needs-me-empty']\")",
  Timeline:
    "return /[1-9][0-9]* completions/.test(document.querySelector(\"[data-testid='timeline'] figcaption\")?.textContent ?? '')",
  desk: "return !!document.querySelector(\"[data-testid='desk-closed']\")",
  export: "return (document.querySelector(\"[data-testid='export-class']\")?.options.length ?? 0) > 0",
  Settings: "return !!document.querySelector(\"#settings-title\") && !!document.querySelector(\"[data-testid='theme-choice']\")",
  Diagnostics: "return !!document.querySelector(\"[data-testid='quarantine-empty'], [data-testid='quarantine-table']\")",
};
