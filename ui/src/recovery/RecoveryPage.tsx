import { useEffect, useState } from "react";
import { dateTime } from "../format";
import type { RecoveryIpc, RecoveryView } from "../ipc";

type Step = { kind: "idle" } | { kind: "restoring" } | { kind: "restored" } | { kind: "failed"; message: string };

/**
 * Shown instead of the app when the database cannot be opened: what is wrong, in the store's
 * words, and for a damaged file the newest automatic backup with one button to bring it back
 * (the damaged file is kept beside it). A file from a newer app gets no restore: the answer
 * there is to update the app, and an older backup would drop what the newer app stored.
 */
export function RecoveryPage({ ipc }: { ipc: RecoveryIpc }) {
  const [view, setView] = useState<RecoveryView | null>(null);
  const [step, setStep] = useState<Step>({ kind: "idle" });
  useEffect(() => {
    ipc.view().then(setView, (e) => setStep({ kind: "failed", message: ipc.toUiError(e).message }));
  }, [ipc]);

  const restore = () => {
    setStep({ kind: "restoring" });
    ipc.restore().then(
      () => setStep({ kind: "restored" }),
      (e) => setStep({ kind: "failed", message: ipc.toUiError(e).message }),
    );
  };

  return (
    <main className="recovery card" data-testid="recovery" aria-labelledby="recovery-title">
      <h1 id="recovery-title">
        {view?.problem === "newer" ? "This database is from a newer version" : "The database cannot be opened"}
      </h1>
      {view ? (
        <>
          <p data-testid="recovery-message">{view.message}</p>
          <p className="muted">
            Database: <code>{view.database}</code>
          </p>
          {view.problem === "damaged" && view.backup ? (
            <section aria-labelledby="recovery-backup">
              <h2 id="recovery-backup">Restore the newest backup</h2>
              <p data-testid="recovery-backup">
                Backup from {dateTime(view.backup.taken_at_ms)} (<code>{view.backup.file_name}</code>). Whatever was
                stored after it is not in it; the damaged file is kept beside the database.
              </p>
              {step.kind === "restored" ? (
                <>
                  <p role="status" data-testid="recovery-restored">
                    Restored. Start the app again to open it.
                  </p>
                  <button type="button" className="primary" onClick={() => ipc.restart()}>
                    Restart now
                  </button>
                </>
              ) : (
                <button
                  type="button"
                  className="primary"
                  data-testid="recovery-restore"
                  disabled={step.kind === "restoring"}
                  onClick={restore}
                >
                  {step.kind === "restoring" ? "Restoring…" : "Restore this backup"}
                </button>
              )}
            </section>
          ) : view.problem === "damaged" ? (
            <p data-testid="recovery-no-backup">
              There is no automatic backup beside this database. If you have a copy, restore it with{" "}
              <code>a2learn-teacher db restore --from FILE</code>.
            </p>
          ) : null}
        </>
      ) : null}
      {step.kind === "failed" ? <p role="alert">{step.message}</p> : null}
    </main>
  );
}
