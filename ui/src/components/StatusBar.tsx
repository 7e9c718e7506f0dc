import { Circle, CircleCheck, KeyRound, LoaderCircle, type LucideIcon, RefreshCw, WifiOff } from "lucide-react";
import type { AppStatus, ConnectionState } from "../ipc";

/** An icon per state (from the shipped set) so the bar never relies on colour alone. */
const ICON: Record<ConnectionState["state"], LucideIcon> = {
  not_configured: Circle,
  connecting: LoaderCircle,
  connected: CircleCheck,
  reconnecting: RefreshCw,
  offline: WifiOff,
  token_refused: KeyRound,
};

export function StatusBar({ status }: { status: AppStatus | null }) {
  const state = status?.connection.state;
  const Icon = state ? ICON[state] : LoaderCircle;
  return (
    <footer className="status-bar">
      {/* A live region inside the footer (a footer may not take the status role itself). */}
      <span
        className={`connection connection-${state ?? "unknown"}`}
        data-testid="connection"
        role="status"
        aria-label="Host connection"
      >
        <Icon className="icon" size={14} aria-hidden="true" focusable="false" />{" "}
        {status ? `Host: ${status.connection_label}` : "Host: …"}
      </span>
      {status ? <span className="muted">v{status.version}</span> : null}
    </footer>
  );
}
