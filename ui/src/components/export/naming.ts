// The file name and save-dialog defaults an export proposes. Pure, so the tests can pin them.

/** What each format writes, in the README's words: a label and a one-line description. */
export const FORMAT_INFO: Record<string, { label: string; description: string }> = {
  csv: {
    label: "Steps (CSV)",
    description: "One row per learner × step, every step in scope; a step not completed yet says not_completed.",
  },
  "standards-csv": {
    label: "Standards per learner (CSV)",
    description:
      "One row per learner × standard with evidence: steps completed, checked, correct, attempts, hints, mean score.",
  },
  "standards-summary": {
    label: "Standards summary (CSV)",
    description:
      "One row per standard plus a total: class aggregates, a group smaller than k printed as “fewer than k”.",
  },
  jsonl: {
    label: "JSON lines",
    description: "One line per completed widget run: the stored contract payload, byte for byte.",
  },
  xapi: {
    label: "xAPI statements (JSON)",
    description: "One xAPI 1.0.3 statement per completed widget run, as one JSON array to POST to a record store.",
  },
  oneroster: {
    label: "OneRoster 1.1 (zip)",
    description: "OneRoster 1.1 bulk CSVs in a zip: manifest, one line item per step, and results.",
  },
  "knowledge-map": {
    label: "Knowledge map (JSON)",
    description:
      "Standards and misconceptions with how many learners are in each state (known, missed, …), a group smaller than k printed as “fewer than k”; prerequisite edges.",
  },
};

/** The save dialog's file-type filter name for an extension. */
export function filterName(extension: string): string {
  switch (extension) {
    case "csv":
      return "CSV";
    case "jsonl":
      return "JSON lines";
    case "json":
      return "JSON";
    case "zip":
      return "Zip archive";
    default:
      return extension.toUpperCase();
  }
}

/** A title as a file-name part: ASCII letters, digits and single dashes, at most 60 characters. */
export function sanitise(text: string): string {
  const ascii = text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  const slug = ascii
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return slug;
}

/** The local calendar date as YYYY-MM-DD. */
export function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * The proposed file name: class, (assignment), format, "with-names" for an identified export,
 * date, and the format's extension: `Class-4B-csv-2027-01-15.csv`.
 */
export function exportFileName(opts: {
  classTitle: string;
  assignmentTitle?: string | null;
  format: string;
  extension: string;
  identified: boolean;
  date: Date;
}): string {
  const parts = [sanitise(opts.classTitle) || "class"];
  const assignment = opts.assignmentTitle ? sanitise(opts.assignmentTitle) : "";
  if (assignment) parts.push(assignment);
  parts.push(opts.format);
  if (opts.identified) parts.push("with-names");
  parts.push(localDate(opts.date));
  const ext = opts.extension.replace(/^\.+/, "");
  return ext ? `${parts.join("-")}.${ext}` : parts.join("-");
}

/** The dialog's default path: the file name in the remembered folder, or alone (the OS default). */
export function defaultSavePath(lastFolder: string | null, fileName: string): string {
  if (!lastFolder) return fileName;
  // Windows paths use backslashes; everything else (and a mix) gets a slash.
  const sep = lastFolder.includes("\\") && !lastFolder.includes("/") ? "\\" : "/";
  const folder = lastFolder.length > 1 ? lastFolder.replace(/[\\/]+$/, "") : lastFolder;
  return folder.endsWith(sep) ? `${folder}${fileName}` : `${folder}${sep}${fileName}`;
}

/** Whether a failed export was refused by the privacy linter (`src/privacy`, `PrivacyHit`). */
export function isPrivacyBlock(error: { code: string; message: string }): boolean {
  return error.code === "privacy_blocked";
}

/** Whether a failed export was the teacher's cancel (`ExportError::Cancelled`). */
export function isCancelled(error: { code: string; message: string }): boolean {
  return error.code === "cancelled";
}
