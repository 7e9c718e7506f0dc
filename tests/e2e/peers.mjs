// Peers the end-to-end tests need from the machine, under the rule of tests/support/peers.rs:
// with CI set to anything non-empty a missing peer fails the run; without it the test is
// skipped and the skip is appended to the file A2LEARN_SKIPPED_PEERS names, which
// scripts/test.sh prints in one line at the end.
import { appendFileSync } from "node:fs";

export const required = () => Boolean(process.env.CI);

/** A missing peer: throws under CI; else records the skip and returns the reason to skip with. */
export function missing(peer, why) {
  if (required()) {
    throw new Error(`CI is set but ${peer} is missing: ${why} (scripts/test.sh provides it)`);
  }
  if (process.env.A2LEARN_SKIPPED_PEERS) {
    appendFileSync(process.env.A2LEARN_SKIPPED_PEERS, `${peer}\n`);
  }
  return `${peer} is missing: ${why}`;
}
