import { type ReactNode, useEffect, useState } from "react";
import { dateTime } from "../format";
import { t } from "../i18n";
import { tx } from "../i18n/Tx";
import type { RecoveryIpc, RecoveryView } from "../ipc";

/** When the backup was taken and its file; for a damaged file, that the file is kept too. */
function backupSentence(problem: RecoveryView["problem"], backup: NonNullable<RecoveryView["backup"]>): ReactNode {
  const args = {
    when: dateTime(backup.taken_at_ms),
    file: (
      <code translate="no" dir="auto">
        {backup.file_name}
      </code>
    ),
  };
  return problem === "damaged" ? tx("recovery-backup-damaged", args) : tx("recovery-backup-missing", args);
}

type Step =
  | { kind: "idle" }
  | { kind: "working" }
  | { kind: "restored" }
  | { kind: "started-empty" }
  | { kind: "this-computer" }
  | { kind: "failed"; message: string };

/**
 * Shown instead of the app when the database cannot be opened: what is wrong, in the store's
 * words, and for a damaged file the newest automatic backup with one button to bring it back
 * (the damaged file is kept beside it). A file that is missing while its backups are not gets
 * the same offer, and a second button to start afresh instead. A file from a newer app gets no
 * restore: the answer there is to update the app, and an older backup would drop what the newer
 * app stored. A school's shared store that does not answer (or refuses the password) gets "try
 * again" and a way back to keeping results on this computer.
 */
export function RecoveryPage({ ipc }: { ipc: RecoveryIpc }) {
  const [view, setView] = useState<RecoveryView | null>(null);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  // The window's title in its language (the page renders anew on a change of language).
  useEffect(() => {
    document.title = t("recovery-window-title");
  }, []);
  useEffect(() => {
    ipc.view().then(setView, (e) => setStep({ kind: "failed", message: ipc.toUiError(e).message }));
  }, [ipc]);

  // Restore or start afresh: busy until the backend answers, then done or why not.
  const act = (action: () => Promise<void>, done: "restored" | "started-empty" | "this-computer") => () => {
    setStep({ kind: "working" });
    action().then(
      () => setStep({ kind: done }),
      (e) => setStep({ kind: "failed", message: ipc.toUiError(e).message }),
    );
  };
  const restore = act(() => ipc.restore(), "restored");
  const startEmpty = act(() => ipc.startEmpty(), "started-empty");
  const keepOnThisComputer = act(() => ipc.keepOnThisComputer(), "this-computer");

  const offered = view?.problem === "damaged" || view?.problem === "missing";
  const done = step.kind === "restored" || step.kind === "started-empty";

  return (
    <main className="recovery card" data-testid="recovery" aria-labelledby="recovery-title">
      {/* No title until the problem is known: a generic one would flash before the right one. */}
      <h1 id="recovery-title">
        {view === null && step.kind !== "failed"
          ? ""
          : view?.problem === "newer"
            ? t("recovery-title-newer")
            : view?.problem === "missing"
              ? t("recovery-title-missing")
              : view?.problem === "shared_store"
                ? t("recovery-title-shared-store")
                : t("recovery-title-other")}
      </h1>
      {view ? (
        <>
          <p data-testid="recovery-message">{view.message}</p>
          <p className="muted">
            {tx("recovery-database", {
              path: (
                <code translate="no" dir="auto">
                  {view.database}
                </code>
              ),
            })}
          </p>
          {offered && view.backup ? (
            <section aria-labelledby="recovery-backup">
              <h2 id="recovery-backup">{t("recovery-backup-title")}</h2>
              <p data-testid="recovery-backup">{backupSentence(view.problem, view.backup)}</p>
              {done ? (
                <>
                  <p role="status" data-testid="recovery-restored">
                    {step.kind === "restored" ? t("recovery-restored") : t("recovery-started-empty")}
                  </p>
                  <button type="button" className="primary" onClick={() => ipc.restart()}>
                    {t("recovery-restart-now")}
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="primary"
                  data-testid="recovery-restore"
                  disabled={step.kind === "working"}
                  onClick={restore}
                >
                  {step.kind === "working" ? t("recovery-working") : t("recovery-restore")}
                </button>
              )}
              {view.problem === "missing" && !done ? (
                <button
                  type="button"
                  data-testid="recovery-start-empty"
                  disabled={step.kind === "working"}
                  onClick={startEmpty}
                >
                  {t("recovery-start-empty")}
                </button>
              ) : null}
            </section>
          ) : view.problem === "shared_store" ? (
            <section aria-labelledby="recovery-shared">
              <h2 id="recovery-shared">{t("recovery-shared-title")}</h2>
              <p>{t("recovery-shared-nothing-lost")}</p>
              {step.kind === "this-computer" ? (
                <p role="status" data-testid="recovery-this-computer">
                  {t("recovery-this-computer")}
                </p>
              ) : null}
              <button type="button" className="primary" data-testid="recovery-retry" onClick={() => ipc.restart()}>
                {step.kind === "this-computer" ? t("recovery-restart-now") : t("recovery-try-again")}
              </button>
              {step.kind === "this-computer" ? null : (
                <button
                  type="button"
                  data-testid="recovery-use-this-computer"
                  disabled={step.kind === "working"}
                  onClick={keepOnThisComputer}
                >
                  {t("recovery-keep-on-this-computer")}
                </button>
              )}
            </section>
          ) : view.problem === "damaged" ? (
            <p data-testid="recovery-no-backup">
              {tx("recovery-no-backup", {
                command: (
                  <code translate="no" dir="ltr">
                    a2learn-teacher db restore --from {t("recovery-restore-file")}
                  </code>
                ),
              })}
            </p>
          ) : null}
        </>
      ) : null}
      {step.kind === "failed" ? <p role="alert">{step.message}</p> : null}
    </main>
  );
}
