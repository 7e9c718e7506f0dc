import { useEffect, useState } from "react";
import { dateTime } from "../format";
import type { RecoveryIpc, RecoveryView } from "../ipc";

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
            ? "This database is from a newer version"
            : view?.problem === "missing"
              ? "The database file is missing"
              : view?.problem === "shared_store"
                ? "The school's shared store cannot be opened"
                : "The database cannot be opened"}
      </h1>
      {view ? (
        <>
          <p data-testid="recovery-message">{view.message}</p>
          <p className="muted">
            Database: <code>{view.database}</code>
          </p>
          {offered && view.backup ? (
            <section aria-labelledby="recovery-backup">
              <h2 id="recovery-backup">Restore the newest backup</h2>
              <p data-testid="recovery-backup">
                Backup from {dateTime(view.backup.taken_at_ms)} (<code>{view.backup.file_name}</code>). Whatever was
                stored after it is not in it
                {view.problem === "damaged" ? "; the damaged file is kept beside the database." : "."}
              </p>
              {done ? (
                <>
                  <p role="status" data-testid="recovery-restored">
                    {step.kind === "restored"
                      ? "Restored. Start the app again to open it."
                      : "A new, empty database is ready; the backups stay where they were. Start the app again to open it."}
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
                  disabled={step.kind === "working"}
                  onClick={restore}
                >
                  {step.kind === "working" ? "Working…" : "Restore this backup"}
                </button>
              )}
              {view.problem === "missing" && !done ? (
                <button
                  type="button"
                  data-testid="recovery-start-empty"
                  disabled={step.kind === "working"}
                  onClick={startEmpty}
                >
                  Start with an empty database
                </button>
              ) : null}
            </section>
          ) : view.problem === "shared_store" ? (
            <section aria-labelledby="recovery-shared">
              <h2 id="recovery-shared">Try again, or keep results on this computer</h2>
              <p>
                Nothing was lost: what the shared store holds stays there, and Settings can name it again. Your names,
                drafts and settings are in the file above.
              </p>
              {step.kind === "this-computer" ? (
                <p role="status" data-testid="recovery-this-computer">
                  From now on results are kept on this computer. Start the app again to open it.
                </p>
              ) : null}
              <button type="button" className="primary" data-testid="recovery-retry" onClick={() => ipc.restart()}>
                {step.kind === "this-computer" ? "Restart now" : "Try again"}
              </button>
              {step.kind === "this-computer" ? null : (
                <button
                  type="button"
                  data-testid="recovery-use-this-computer"
                  disabled={step.kind === "working"}
                  onClick={keepOnThisComputer}
                >
                  Keep results on this computer
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
