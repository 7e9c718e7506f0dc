import type { AppStatus, ConnectionState } from "../ipc";

/** A glyph per state so the bar never relies on colour alone. */
const GLYPH: Record<ConnectionState["state"], string> = {
  not_configured: "○",
  connecting: "◌",
  connected: "●",
  reconnecting: "◐",
  offline: "✕",
  token_refused: "⚠",
};

export function StatusBar({ status }: { status: AppStatus | null }) {
  const state = status?.connection.state;
  return (
    <footer className="status-bar" role="status" aria-label="Host connection">
      <span className={`connection connection-${state ?? "unknown"}`} data-testid="connection">
        <span aria-hidden="true">{state ? GLYPH[state] : "…"}</span>{" "}
        {status ? `Host: ${status.connection_label}` : "Host: …"}
      </span>
      {status ? <span className="muted">v{status.version}</span> : null}
    </footer>
  );
}
