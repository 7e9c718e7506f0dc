import { useEffect, useState } from "react";
import type { HostMode, HostSettingsView, TeacherIpc } from "../ipc";

/** Which host the app follows: the built-in demo, or the teacher's own by URL and token. */
export function SettingsView({ ipc }: { ipc: TeacherIpc }) {
  const [loaded, setLoaded] = useState<HostSettingsView | null>(null);
  const [mode, setMode] = useState<HostMode>("demo");
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [message, setMessage] = useState<{ kind: "error" | "ok"; text: string } | null>(null);

  useEffect(() => {
    void ipc
      .hostSettings()
      .then((s) => {
        setLoaded(s);
        setMode(s.mode);
        setUrl(s.url);
      })
      .catch((e) => setMessage({ kind: "error", text: ipc.toUiError(e).message }));
  }, [ipc]);

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      <form
        className="settings-form"
        onSubmit={(e) => {
          e.preventDefault();
          setMessage(null);
          ipc
            .saveHostSettings({ mode, url, token })
            .then((s) => {
              setLoaded(s);
              setToken("");
              setMessage({ kind: "ok", text: "Saved. The app now follows this host." });
            })
            .catch((err) => setMessage({ kind: "error", text: ipc.toUiError(err).message }));
        }}
      >
        <fieldset>
          <legend>Pathway host</legend>
          <label>
            <input type="radio" name="mode" checked={mode === "demo"} onChange={() => setMode("demo")} />
            The built-in demo host (a simulated class on this computer)
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === "custom"} onChange={() => setMode("custom")} />
            My school's host
          </label>
        </fieldset>
        <label htmlFor="host-url">Host address</label>
        <input
          id="host-url"
          type="url"
          value={url}
          disabled={mode === "demo"}
          placeholder="https://pathways.example.org"
          onChange={(e) => setUrl(e.target.value)}
        />
        <label htmlFor="host-token">Token</label>
        <input
          id="host-token"
          type="password"
          autoComplete="off"
          value={token}
          disabled={mode === "demo"}
          placeholder={loaded?.token_set ? "(saved; leave empty to keep it)" : ""}
          onChange={(e) => setToken(e.target.value)}
        />
        <button type="submit">Save</button>
        {message ? (
          <p role={message.kind === "error" ? "alert" : "status"} className={message.kind === "error" ? "field-error" : "muted"}>
            {message.text}
          </p>
        ) : null}
      </form>
    </section>
  );
}
