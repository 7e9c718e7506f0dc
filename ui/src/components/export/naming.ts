// The file name and save-dialog defaults an export proposes. Pure (but for the language the words
// are in), so the tests can pin them.

import { t } from "../../i18n";

/** What each format writes, in the README's words: a label and a one-line description. */
export function describeFormat(id: string): { label: string; description: string } | null {
  switch (id) {
    case "csv":
      return { label: t("export-format-csv"), description: t("export-format-csv-desc") };
    case "standards-csv":
      return { label: t("export-format-standards-csv"), description: t("export-format-standards-csv-desc") };
    case "standards-summary":
      return { label: t("export-format-standards-summary"), description: t("export-format-standards-summary-desc") };
    case "jsonl":
      return { label: t("export-format-jsonl"), description: t("export-format-jsonl-desc") };
    case "xapi":
      return { label: t("export-format-xapi"), description: t("export-format-xapi-desc") };
    case "oneroster":
      return { label: t("export-format-oneroster"), description: t("export-format-oneroster-desc") };
    case "knowledge-map":
      return { label: t("export-format-knowledge-map"), description: t("export-format-knowledge-map-desc") };
    default:
      return null;
  }
}

/** The save dialog's file-type filter name for an extension. */
export function filterName(extension: string): string {
  switch (extension) {
    case "csv":
      return "CSV";
    case "jsonl":
      return t("export-filter-jsonl");
    case "json":
      return "JSON";
    case "zip":
      return t("export-filter-zip");
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
  const parts = [sanitise(opts.classTitle) || fileWord(t("export-file-class"), "class")];
  const assignment = opts.assignmentTitle ? sanitise(opts.assignmentTitle) : "";
  if (assignment) parts.push(assignment);
  parts.push(opts.format);
  if (opts.identified) parts.push(fileWord(t("export-file-with-names"), "with-names"));
  parts.push(localDate(opts.date));
  const ext = opts.extension.replace(/^\.+/, "");
  return ext ? `${parts.join("-")}.${ext}` : parts.join("-");
}

/** A catalog word as a file-name part; the English one when the language's has no ASCII to keep. */
function fileWord(word: string, english: string): string {
  return sanitise(word) || english;
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
