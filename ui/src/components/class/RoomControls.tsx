import { useState } from "react";
import { MAX_PAUSE_MESSAGE_CHARS, type PacingView, type RoomView, type TeacherIpc } from "../../ipc";
import { useLiveLoad } from "../../ipc/liveLoad";
import { useProjectorSafe } from "../../privacy/ProjectorSafe";

/**
 * Running the room (pathway-host.md §3): whether the class is paused and how far each pathway is
 * paced, as the host's feed reports it (so a co-teacher's dashboard shows the same), and the
 * controls the host offers — none when it lacks the tool. A control changes nothing here by
 * itself: the header redraws when the host's echo arrives (`changeTick`).
 */
export function RoomControls({ ipc, classId, changeTick }: { ipc: TeacherIpc; classId: string; changeTick: number }) {
  const safe = useProjectorSafe();
  const [room, setRoom] = useState<RoomView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [message, setMessage] = useState("");
  const [busy, setBusy] = useState(false);

  // After a control the host accepted, the header reads the room again through the same queue as
  // a store change: a read from before the host's echo never lands after the echo's.
  const reload = useLiveLoad(
    (keep) =>
      ipc.classView.room(classId).then(
        keep(setRoom),
        keep((e: unknown) => setError(ipc.toUiError(e).message)),
      ),
    [ipc, classId],
    changeTick,
  );

  if (!room) return null;
  const act = (call: Promise<void>, after?: () => void) => {
    setBusy(true);
    setError(null);
    call
      .then(() => {
        after?.();
        reload();
      })
      .catch((e) => setError(ipc.toUiError(e).message))
      .finally(() => setBusy(false));
  };
  const paced = room.pacing.filter((p) => p.up_to_step !== null);

  return (
    <div className="room" data-testid="room">
      <p role="status" className={room.paused ? "room-state room-paused" : "room-state"} data-testid="room-state">
        {room.paused ? (
          <>
            <strong>Paused</strong>
            {room.message ? <> — “{room.message}”</> : null}
          </>
        ) : (
          "Class running"
        )}
        {paced.map((p) => (
          <span key={p.assignment_id} className="room-pacing" data-testid="room-pacing">
            {" · "}
            {p.pathway_title}: up to step {p.up_to_step}
            {p.up_to_title ? ` (${p.up_to_title})` : ""}
          </span>
        ))}
      </p>
      {room.can_pause ? (
        room.paused ? (
          <button
            type="button"
            data-testid="room-resume"
            disabled={busy}
            onClick={() => act(ipc.classView.resume(classId))}
          >
            Resume class
          </button>
        ) : (
          <form
            className="room-pause"
            onSubmit={(e) => {
              e.preventDefault();
              act(ipc.classView.pause(classId, message.trim() ? message : null), () => setMessage(""));
            }}
          >
            {!safe ? (
              <label>
                Message for the class (optional){" "}
                <input
                  data-testid="room-message"
                  value={message}
                  maxLength={MAX_PAUSE_MESSAGE_CHARS}
                  placeholder="Eyes up here"
                  onChange={(e) => setMessage(e.target.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "room-error" : undefined}
                />
              </label>
            ) : null}
            <button type="submit" data-testid="room-pause" disabled={busy}>
              Pause class
            </button>
          </form>
        )
      ) : null}
      {room.can_pace && room.pacing.length > 0 ? (
        // One control per assignment, folded away: pacing is set now and then, not watched.
        <details className="room-pacing-menu" open={paced.length > 0}>
          <summary>Pacing</summary>
          {room.pacing.map((p) => (
            <PacingControl
              key={p.assignment_id}
              pacing={p}
              busy={busy}
              onChange={(upTo) =>
                act(ipc.classView.setPacing({ class_id: classId, pathway_id: p.pathway_id, up_to: upTo }))
              }
            />
          ))}
        </details>
      ) : null}
      {error ? (
        <p id="room-error" role="alert" className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function PacingControl({
  pacing,
  busy,
  onChange,
}: {
  pacing: PacingView;
  busy: boolean;
  onChange: (upTo: string | null) => void;
}) {
  return (
    <label className="room-pace">
      Pace {pacing.pathway_title}{" "}
      <select
        data-testid="room-pace"
        data-pathway={pacing.pathway_id}
        value={pacing.up_to ?? ""}
        disabled={busy}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">no limit</option>
        {pacing.steps.map((s, i) => (
          <option key={s.widget_id} value={s.widget_id}>
            up to step {i + 1}: {s.title}
          </option>
        ))}
      </select>
    </label>
  );
}
