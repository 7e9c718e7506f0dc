// axe-core in the real window: its source (tests/e2e/package.json, installed by
// scripts/install.sh) and one run on the whole document, for the accessibility and the language
// end-to-end tests.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export async function axeSource() {
  const require = createRequire(import.meta.url);
  let axePath;
  try {
    axePath = require.resolve("axe-core/axe.min.js");
  } catch {
    throw new Error("axe-core is not installed in tests/e2e: run scripts/install.sh (npm ci --prefix tests/e2e)");
  }
  return readFile(axePath, "utf8");
}

/**
 * One axe run on the whole document, injected once per page load, after the last change painted
 * (colour contrast reads computed styles of what is drawn): its violations, each with its nodes'
 * targets. Checks the document is in `theme`.
 */
export async function runAxe(wd, source, view, theme) {
  const loaded = await wd.execute("return typeof window.axe === 'object' && typeof window.axe.run === 'function'");
  if (!loaded) {
    await wd.execute(`${source}\n;return true;`);
    assert.ok(await wd.execute("return typeof window.axe === 'object'"), "axe-core loaded into the window");
  }
  await wd.executeAsync(
    "const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done(true)));",
  );
  const out = await wd.executeAsync(
    `const done = arguments[arguments.length - 1];
     window.axe.run(document, { resultTypes: ["violations"] }).then(
       (r) => done(JSON.stringify({ theme: document.documentElement.dataset.theme, passes: r.passes.length,
         violations: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
           nodes: v.nodes.map((n) => ({ target: n.target.join(" "), summary: n.failureSummary })) })) })),
       (e) => done(JSON.stringify({ error: String(e && e.stack || e) })));`,
  );
  const result = JSON.parse(out);
  assert.equal(result.error, undefined, `axe ran on ${view}`);
  assert.equal(result.theme, theme, `${view} is in the ${theme} theme`);
  return result.violations;
}
