import { Circle, CircleCheck, KeyRound, LoaderCircle, type LucideIcon, RefreshCw, WifiOff } from "lucide-react";
import { t } from "../i18n";
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

/**
 * The connection's words, made here from its state in the window's language (the core's
 * `connection_label` says the same in English: "reconnecting in 3 s").
 */
export function hostLabel(connection: ConnectionState | null): string {
  switch (connection?.state) {
    case undefined:
      return t("app-status-host-unknown");
    case "not_configured":
      return t("app-status-host-not-configured");
    case "connecting":
      return t("app-status-host-connecting");
    case "connected":
      return t("app-status-host-connected");
    case "reconnecting":
      // Whole seconds, as the core's label rounds them; none when the core could not say.
      return connection.next_try_s === null || !Number.isFinite(connection.next_try_s)
        ? t("app-status-host-reconnecting")
        : t("app-status-host-reconnecting-in", { seconds: Math.round(connection.next_try_s) });
    case "offline":
      return t("app-status-host-offline");
    case "token_refused":
      return t("app-status-host-token-refused");
  }
}

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
        aria-label={t("app-status-connection")}
      >
        <Icon className="icon" size={14} aria-hidden="true" focusable="false" /> {hostLabel(status?.connection ?? null)}
      </span>
      {status ? <span className="muted">{t("app-status-version", { version: status.version })}</span> : null}
    </footer>
  );
}
