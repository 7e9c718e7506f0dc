// Runs the a2learn contract fixtures (tests/fixtures/contract) through the peers' own
// published validators, pinned in package.json:
//   AG-UI   @ag-ui/core@1.0.0 EventSchema (each event), @ag-ui/client@1.0.0 verifyEvents (streams)
//   A2UI    @a2ui/web_core@0.11.0 src/v1_0/schemas/*.json with ajv (draft 2020-12)
//   MCP     @modelcontextprotocol/ext-apps@2.0.4 schema.json with ajv, and the JSON-RPC /
//           tools/call / CallToolResult schemas of @modelcontextprotocol/core (its dependency)
// and the canonical payloads through our own JSON Schema
// (crates/a2learn-contract/schema/a2learn-contract.schema.json).
//
// Verdicts expected (see tests/fixtures/contract/README.md):
//   valid fixtures and every line of every sequence: accepted by the peer;
//   invalid `bad-frame--<case>`: rejected by the peer (a broken envelope);
//   every other invalid fixture: accepted by the peer (the envelope is fine; the contract
//   rejects it), except the A2UI response cases listed in PEER_ENFORCES_CONTRACT.
//
// Run: cd tests/peers && npm ci && node --test

import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, existsSync } from "node:fs";
import { join, dirname, basename } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { EventSchema } from "@ag-ui/core/schemas";
import { verifyEvents } from "@ag-ui/client";
import { from, lastValueFrom, toArray } from "rxjs";
import {
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
  CallToolRequestSchema,
  CallToolResultSchema,
} from "@modelcontextprotocol/core";

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, "..", "fixtures", "contract");
const OUR_SCHEMA = join(HERE, "..", "..", "crates", "a2learn-contract", "schema", "a2learn-contract.schema.json");
const VERBS = ["widget_completed", "widget_struggle", "score", "assist"];
const require = createRequire(import.meta.url);

const readJson = (path) => JSON.parse(readFileSync(path, "utf8"));
const list = (dir, ext) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(ext)).sort().map((f) => join(dir, f)) : [];
const lines = (path) => readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));

/** Every single-message fixture of a transport: {path, doc, valid, rule}. */
function singles(transport) {
  const out = [];
  for (const verb of VERBS) {
    for (const kind of ["valid", "invalid"]) {
      for (const path of list(join(FIXTURES, transport, verb, kind), ".json")) {
        const stem = basename(path, ".json");
        out.push({ path, doc: readJson(path), valid: kind === "valid", stem, rule: kind === "invalid" ? stem.split("--")[0] : null });
      }
    }
  }
  return out;
}

/** Every line of every sequence of a transport. */
function sequenceFiles(transport) {
  return ["valid", "invalid"].flatMap((kind) => list(join(FIXTURES, transport, "sequences", kind), ".jsonl"));
}

/** What the peer should say about a single fixture. */
function expectAccepted(f) {
  if (f.valid) return true;
  if (f.rule === "bad-frame") return f.stem.startsWith("bad-frame--contract-");
  return true;
}

const rel = (path) => path.slice(FIXTURES.length + 1);

// ---- AG-UI -------------------------------------------------------------------------------

const aguiOk = (ev) => EventSchema.safeParse(ev).success;

test("AG-UI: EventSchema of @ag-ui/core@1.0.0 on every fixture", async (t) => {
  const all = singles("agui");
  assert.ok(all.length > 50);
  for (const f of all) {
    await t.test(rel(f.path), () => {
      assert.equal(aguiOk(f.doc), expectAccepted(f), JSON.stringify(EventSchema.safeParse(f.doc).error?.issues ?? "accepted"));
    });
  }
  for (const path of sequenceFiles("agui")) {
    await t.test(rel(path), () => {
      for (const ev of lines(path)) assert.ok(aguiOk(ev), `${ev.type} ${ev.name ?? ""}`);
    });
  }
});

async function streamOk(events) {
  try {
    await lastValueFrom(from(events).pipe(verifyEvents(false), toArray()));
    return true;
  } catch {
    return false;
  }
}

function wrapInRun(events) {
  if (events[0]?.type === "RUN_STARTED") return events;
  return [
    { type: "RUN_STARTED", threadId: "class:cls-42", runId: "conn-1" },
    ...events,
    { type: "RUN_FINISHED", threadId: "class:cls-42", runId: "conn-1" },
  ];
}

test("AG-UI: verifyEvents of @ag-ui/client@1.0.0 on every stream", async (t) => {
  // Negative control: without RUN_STARTED, verifyEvents refuses the stream.
  const first = singles("agui").find((f) => f.valid).doc;
  assert.equal(await streamOk([first]), false, "verifyEvents accepted a stream without RUN_STARTED");
  // Every sequence (the invalid ones break contract rules, not the stream order).
  for (const path of sequenceFiles("agui")) {
    await t.test(`stream ${rel(path)}`, async () => assert.ok(await streamOk(wrapInRun(lines(path)))));
  }
  // All valid single fixtures as one run.
  const valid = singles("agui").filter((f) => f.valid).map((f) => f.doc);
  assert.ok(await streamOk(wrapInRun(valid)), "the valid fixtures as one run");
});

// ---- A2UI --------------------------------------------------------------------------------

// The package exports no ./package.json and no schema subpath: read the files where npm put them.
const A2UI_DIR = join(HERE, "node_modules", "@a2ui", "web_core", "src", "v1_0", "schemas");

/**
 * The peer schemas resolve `catalog.json` next to themselves: the catalog of the surface.
 * Ours is the basic catalog plus the two a2learn functions (a2ui-a2learn-functions.json),
 * each checked against catalog_definition.json's FunctionDefinition.
 */
function a2uiAjv() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const load = (name) => readJson(join(A2UI_DIR, name));
  const catalog = load("catalogs/basic/catalog.json");
  const functions = readJson(join(HERE, "a2ui-a2learn-functions.json"));
  catalog.$id = "https://a2ui.org/specification/v1_0/catalog.json";
  catalog.catalogId = "https://a2learn.invalid/a2ui/catalog.json";
  for (const [name, def] of Object.entries(functions)) {
    catalog.functions[name] = def;
    catalog.$defs.anyFunction.oneOf.push({ $ref: `#/functions/${name}` });
  }
  ajv.addSchema(load("common_types.json"));
  ajv.addSchema(catalog);
  ajv.addSchema(load("catalog_definition.json"));
  return {
    ajv,
    functions,
    rendererToAgent: ajv.compile(load("renderer_to_agent.json")),
    agentToRenderer: ajv.compile(load("agent_to_renderer.json")),
  };
}

// A2UI's FunctionResponse has `oneOf: [required value, required error]`: the peer enforces
// value XOR error itself, so those contract fixtures are rejected by it too.
const PEER_ENFORCES_CONTRACT = new Set(["value-and-error", "no-value-no-error"]);
// A widget_completed's `at` rides in A2UI's `action.timestamp`, a `date-time`: a time without an
// offset is refused by the peer too (an offset that is not UTC is valid there, as in the contract).
const A2UI_SEES = new Set(["bad-frame--contract-at-without-offset"]);

test("A2UI: our function definitions are valid catalog FunctionDefinitions", () => {
  const { ajv, functions } = a2uiAjv();
  const validate = ajv.compile({
    $ref: "https://a2ui.org/specification/v1_0/catalog_definition.json#/$defs/FunctionDefinition",
  });
  for (const [name, def] of Object.entries(functions)) {
    assert.ok(validate(def), `${name}: ${JSON.stringify(validate.errors)}`);
  }
});

test("A2UI: v1.0 JSON schemas of @a2ui/web_core@0.11.0 on every fixture", async (t) => {
  const { rendererToAgent, agentToRenderer } = a2uiAjv();
  const check = (doc) => {
    const validate = "agentFunctionResponse" in doc ? agentToRenderer : rendererToAgent;
    return { ok: validate(doc), errors: validate.errors };
  };
  const all = singles("a2ui");
  assert.ok(all.length > 50);
  for (const f of all) {
    const expected =
      PEER_ENFORCES_CONTRACT.has(f.rule) || A2UI_SEES.has(f.stem) ? false : expectAccepted(f);
    await t.test(rel(f.path), () => {
      const { ok, errors } = check(f.doc);
      assert.equal(ok, expected, JSON.stringify(errors?.slice(0, 3)));
    });
  }
  for (const path of sequenceFiles("a2ui")) {
    await t.test(rel(path), () => {
      for (const doc of lines(path)) {
        const { ok, errors } = check(doc);
        assert.ok(ok, JSON.stringify(errors?.slice(0, 3)));
      }
    });
  }
});

// ---- MCP Apps ----------------------------------------------------------------------------

function mcpCheck() {
  const schema = readJson(require.resolve("@modelcontextprotocol/ext-apps/schema.json"));
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(schema, "ext-apps");
  const update = ajv.getSchema("ext-apps#/$defs/McpUiUpdateModelContextRequest");
  return (doc) => {
    const problems = [];
    if ("method" in doc) {
      const rpc = JSONRPCRequestSchema.safeParse(doc);
      if (!rpc.success) problems.push(`JSONRPCRequest: ${rpc.error.issues[0]?.message}`);
      const { jsonrpc: _j, id: _i, ...body } = doc;
      if (doc.method === "ui/update-model-context") {
        if (!update(body)) problems.push(`McpUiUpdateModelContextRequest: ${JSON.stringify(update.errors)}`);
      } else if (doc.method === "tools/call") {
        const call = CallToolRequestSchema.safeParse(body);
        if (!call.success) problems.push(`CallToolRequest: ${call.error.issues[0]?.message}`);
      }
    } else {
      const rpc = JSONRPCResultResponseSchema.safeParse(doc);
      if (!rpc.success) problems.push(`JSONRPCResultResponse: ${rpc.error.issues[0]?.message}`);
      const result = CallToolResultSchema.safeParse(doc.result);
      if (!result.success) problems.push(`CallToolResult: ${result.error.issues[0]?.message}`);
    }
    return problems;
  };
}

test("MCP Apps: ext-apps@2.0.4 schema.json and the MCP core schemas on every fixture", async (t) => {
  const check = mcpCheck();
  const all = singles("mcp-apps");
  assert.ok(all.length > 50);
  for (const f of all) {
    await t.test(rel(f.path), () => {
      const problems = check(f.doc);
      assert.equal(problems.length === 0, expectAccepted(f), problems.join("; ") || "accepted");
    });
  }
  for (const path of sequenceFiles("mcp-apps")) {
    await t.test(rel(path), () => {
      for (const doc of lines(path)) assert.deepEqual(check(doc), []);
    });
  }
});

// ---- our own JSON Schema -----------------------------------------------------------------

/** The canonical payload of an AG-UI fixture and its `$defs` name. */
function canonical(ev) {
  const defs = {
    "a2learn.widget_completed": "WidgetCompleted",
    "a2learn.widget_struggle": "WidgetStruggle",
    "a2learn.score": "ScoreRequest",
    "a2learn.assist": "AssistRequest",
    "a2learn.score.response": "FunctionResponse",
    "a2learn.assist.response": "FunctionResponse",
  };
  return defs[ev.name] ? { def: defs[ev.name], payload: ev.value } : null;
}

// Invalid fixtures whose breakage the schema alone can see (no registry, no sequence).
const SCHEMA_SEES = [
  "bad-frame--contract-missing-learner",
  "bad-frame--contract-negative-attempts",
  "bad-frame--contract-score-above-one",
  "bad-frame--contract-deadline-not-a-time",
  "bad-frame--contract-answered-by-a-model",
  "value-and-error--both",
  "no-value-no-error--neither",
  "empty-prose--empty-string",
  "empty-prose--whitespace-only",
  "prose-too-long--1001-characters",
  "prose-too-long--answer-4001-characters",
  "non-anonymous-id--email-as-learner",
  "non-anonymous-id--numeric-school-id",
  "non-anonymous-id--name-with-spaces",
  "non-anonymous-id--too-short",
];

test("our JSON Schema accepts every valid canonical payload and refuses the shape errors", () => {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(readJson(OUR_SCHEMA), "a2learn");
  const validate = (def, payload) => {
    const v = ajv.getSchema(`a2learn#/$defs/${def}`);
    return { ok: v(payload), errors: v.errors };
  };
  let valid = 0;
  let refused = 0;
  for (const f of singles("agui")) {
    const c = canonical(f.doc);
    if (!c) continue;
    const { ok, errors } = validate(c.def, c.payload);
    if (f.valid) {
      valid += 1;
      assert.ok(ok, `${rel(f.path)}: ${JSON.stringify(errors)}`);
    } else if (SCHEMA_SEES.includes(f.stem)) {
      refused += 1;
      assert.equal(ok, false, `${rel(f.path)} passed the schema`);
    }
  }
  assert.ok(valid >= 18 && refused >= SCHEMA_SEES.length, `${valid} valid, ${refused} refused`);
});
