import { t } from "../../i18n";
import type { AfterHelp } from "../../ipc";

/** What the learner did after the teacher's help, in the teacher's language: the one place for
 * these words, shown by the help desk and the student's page alike (the rule is the core's:
 * `progress::help_after`). */
export function afterHelpLabel(after: AfterHelp): string {
  switch (after) {
    case "right_first_try":
      return t("student-after-help-right-first-try");
    case "right_after_retries":
      return t("student-after-help-right-after-retries");
    case "wrong":
      return t("student-after-help-wrong");
    case "no_verdict":
      return t("student-after-help-no-verdict");
    case "not_yet":
      return t("student-after-help-not-yet");
  }
}
