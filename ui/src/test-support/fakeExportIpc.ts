import type { ExportDone, ExportIpc, ExportOptions, ExportProgress, ExportSettings, SaveFilter } from "../ipc";
import { IpcError } from "../ipc";

export const FORMATS: ExportSettings["formats"] = [
  { id: "csv", extension: "csv", names_possible: true },
  { id: "standards-csv", extension: "csv", names_possible: true },
  { id: "standards-summary", extension: "csv", names_possible: false },
  { id: "jsonl", extension: "jsonl", names_possible: true },
  { id: "xapi", extension: "json", names_possible: true },
  { id: "oneroster", extension: "zip", names_possible: true },
  { id: "knowledge-map", extension: "json", names_possible: false },
];

/** A run the test finishes by hand: progress, success or failure, as the backend would. */
export interface PendingRun {
  options: ExportOptions;
  progress(p: ExportProgress): void;
  finish(done: Partial<ExportDone>): void;
  fail(code: IpcError["uiError"]["code"], message: string): void;
}

/**
 * An in-memory export backend for tests. `run` stays pending until the test calls `finish` or
 * `fail` on the run; `cancel` fails the running export as the backend does.
 */
export function fakeExportIpc(opts: { lastFolder?: string | null; homePage?: string; savePath?: string | null } = {}) {
  let homePage = opts.homePage ?? "https://a2learn.invalid";
  const runs: PendingRun[] = [];
  const dialogs: { defaultPath: string; filters: SaveFilter[] }[] = [];
  const homePages: string[] = [];
  let cancels = 0;
  let savePath: string | null = opts.savePath === undefined ? "/home/teacher/exports/out.csv" : opts.savePath;
  let running: PendingRun | null = null;
  const exports: ExportIpc = {
    settings: async () => ({ last_folder: opts.lastFolder ?? null, home_page: homePage, formats: FORMATS }),
    setHomePage: async (url) => {
      homePages.push(url);
      const t = url.trim().replace(/\/+$/, "");
      if (!/^https?:\/\/\S+$/.test(t)) {
        throw new IpcError({
          code: "invalid_input",
          message: "the xAPI home page must be an http(s) URL such as https://school.example",
        });
      }
      homePage = t;
      return t;
    },
    run: (options, onProgress) =>
      new Promise<ExportDone>((resolve, reject) => {
        const run: PendingRun = {
          options,
          progress: onProgress,
          finish: (done) => {
            running = null;
            resolve({ path: options.path, rows: 0, bytes: 0, ...done });
          },
          fail: (code, message) => {
            running = null;
            reject(new IpcError({ code, message }));
          },
        };
        runs.push(run);
        running = run;
      }),
    cancel: async () => {
      cancels += 1;
      const r = running;
      if (!r) return false;
      // The backend stops at the next row and rejects the run.
      queueMicrotask(() => r.fail("cancelled", "the export was cancelled; nothing was written"));
      return true;
    },
    chooseSavePath: async (defaultPath, filters) => {
      dialogs.push({ defaultPath, filters });
      return savePath;
    },
  };
  return {
    exports,
    runs,
    dialogs,
    homePages,
    get cancels() {
      return cancels;
    },
    setSavePath(p: string | null) {
      savePath = p;
    },
  };
}
