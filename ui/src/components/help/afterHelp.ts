import type { AfterHelp } from "../../ipc";

/** What the learner did after the teacher's help, in the words every view shows (the rule is the
 * core's: `progress::help_after`). */
export const AFTER_HELP: Record<AfterHelp, string> = {
  right_first_try: "then right first try",
  right_after_retries: "then right after retries",
  wrong: "then wrong",
  no_verdict: "then finished (no verdict)",
  not_yet: "not reached since",
};
