import { useState } from "react";
import { t } from "../../i18n";
import { tx, UserText } from "../../i18n/Tx";
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
          room.message ? (
            tx("class-room-paused-message", {
              paused: <strong>{t("class-room-paused")}</strong>,
              message: <UserText>{room.message}</UserText>,
            })
          ) : (
            <strong>{t("class-room-paused")}</strong>
          )
        ) : (
          t("class-room-running")
        )}
        {paced.map((p) => (
          <span key={p.assignment_id} className="room-pacing" data-testid="room-pacing">
            {" · "}
            {p.up_to_title
              ? tx("class-room-pacing-titled", {
                  pathway: <UserText>{p.pathway_title}</UserText>,
                  step: p.up_to_step,
                  title: <UserText>{p.up_to_title}</UserText>,
                })
              : tx("class-room-pacing", { pathway: <UserText>{p.pathway_title}</UserText>, step: p.up_to_step })}
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
            {t("class-room-resume")}
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
                {t("class-room-message")}{" "}
                <input
                  data-testid="room-message"
                  value={message}
                  maxLength={MAX_PAUSE_MESSAGE_CHARS}
                  placeholder={t("class-room-message-placeholder")}
                  onChange={(e) => setMessage(e.target.value)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? "room-error" : undefined}
                />
              </label>
            ) : null}
            <button type="submit" data-testid="room-pause" disabled={busy}>
              {t("class-room-pause")}
            </button>
          </form>
        )
      ) : null}
      {room.can_pace && room.pacing.length > 0 ? (
        // One control per assignment, folded away: pacing is set now and then, not watched.
        <details className="room-pacing-menu" open={paced.length > 0}>
          <summary>{t("class-room-pacing-menu")}</summary>
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
      {tx("class-room-pace", { pathway: <UserText>{pacing.pathway_title}</UserText> })}{" "}
      <select
        data-testid="room-pace"
        data-pathway={pacing.pathway_id}
        value={pacing.up_to ?? ""}
        disabled={busy}
        onChange={(e) => onChange(e.target.value || null)}
      >
        <option value="">{t("class-room-no-limit")}</option>
        {pacing.steps.map((s, i) => (
          <option key={s.widget_id} value={s.widget_id}>
            {t("class-room-up-to-step", { step: i + 1, title: s.title })}
          </option>
        ))}
      </select>
    </label>
  );
}
