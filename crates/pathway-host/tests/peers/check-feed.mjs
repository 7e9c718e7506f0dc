// Checks a captured class feed (one AG-UI event as JSON per line) with the AG-UI peers'
// own published validators, installed in tests/peers (npm ci there first):
//   @ag-ui/core@1.0.0   EventSchema on every event
//   @ag-ui/client@1.0.0 verifyEvents on the whole stream (RUN_STARTED ... RUN_FINISHED)
// Negative controls run first, so a validator that accepts anything is caught.
//
// Usage: node crates/pathway-host/tests/peers/check-feed.mjs FILE
// Exit 0 and one summary line when every check passes; 1 with the failures otherwise.

import { readFileSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRequire } from "node:module";

const HERE = dirname(fileURLToPath(import.meta.url));
const PEERS = join(HERE, "..", "..", "..", "..", "tests", "peers");
const require = createRequire(join(PEERS, "package.json"));
const load = async (name) => import(pathToFileURL(require.resolve(name)).href);

const { EventSchema } = await load("@ag-ui/core/schemas");
const { verifyEvents } = await load("@ag-ui/client");
const { from, lastValueFrom, toArray } = await load("rxjs");

const file = process.argv[2];
if (!file) {
  console.error("usage: check-feed.mjs FILE");
  process.exit(2);
}
const events = readFileSync(file, "utf8")
  .split("\n")
  .filter((l) => l.trim() !== "")
  .map((l) => JSON.parse(l));

async function streamOk(evs) {
  try {
    await lastValueFrom(from(evs).pipe(verifyEvents(false), toArray()));
    return true;
  } catch (e) {
    return e;
  }
}

const failures = [];
// Negative controls.
const custom = events.find((e) => e.type === "CUSTOM");
if (!custom) failures.push("the capture has no CUSTOM event");
else {
  if (EventSchema.safeParse({ ...custom, timestamp: 1.5 }).success)
    failures.push("negative control: EventSchema accepted a fractional timestamp");
  if (EventSchema.safeParse({ ...custom, timestamp: null }).success)
    failures.push("negative control: EventSchema accepted a null timestamp");
}
if ((await streamOk(events.slice(1))) === true)
  failures.push("negative control: verifyEvents accepted the stream without RUN_STARTED");

// The capture.
events.forEach((ev, i) => {
  const r = EventSchema.safeParse(ev);
  if (!r.success) failures.push(`line ${i + 1} (${ev.type} ${ev.name ?? ""}): ${JSON.stringify(r.error.issues)}`);
});
const stream = await streamOk(events);
if (stream !== true) failures.push(`verifyEvents: ${stream}`);

if (failures.length) {
  for (const f of failures) console.error(f);
  process.exit(1);
}
const names = new Set(events.filter((e) => e.type === "CUSTOM").map((e) => e.name));
console.log(
  `feed capture ok: ${events.length} events (${[...names].sort().join(", ")}); ` +
    `EventSchema @ag-ui/core@1.0.0 accepted every event; verifyEvents @ag-ui/client@1.0.0 accepted the stream`,
);
