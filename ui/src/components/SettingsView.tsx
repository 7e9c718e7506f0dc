import { useEffect, useState } from "react";
import { type LangChoice, SHIPPED, setLanguageChoice, storedLanguageChoice, t } from "../i18n";
import { tx, UserText } from "../i18n/Tx";
import type { HostCheckView, HostClassView, HostMode, HostSettingsView, ResultsStoreView, TeacherIpc } from "../ipc";
import { setThemeChoice, storedThemeChoice, THEME_CHOICES, type ThemeChoice, themeChoiceLabel } from "../theme/theme";
import { hostVerdict, hostWorks } from "./DiagnosticsView";

/** Which host the app follows: the built-in demo, or the teacher's own by URL and token. */
/** `onHostChanged`: the host was saved (and is followed now): the sidebar lists its classes. */
export function SettingsView({ ipc, onHostChanged }: { ipc: TeacherIpc; onHostChanged?: () => void }) {
  const [loaded, setLoaded] = useState<HostSettingsView | null>(null);
  const [mode, setMode] = useState<HostMode>("demo");
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [message, setMessage] = useState<Message | null>(null);
  // A school's host is checked (read-only) before it is saved; one that breaks a rule the
  // dashboard needs is saved only when the teacher says so.
  const [verdict, setVerdict] = useState<HostCheckView | null>(null);
  const [checking, setChecking] = useState(false);
  // Counts saves: the host's class list is asked for again after each.
  const [savedTick, setSavedTick] = useState(0);

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

  const save = (checked?: string) => {
    ipc
      .saveHostSettings({ mode, url, token })
      .then((s) => {
        setLoaded(s);
        setToken("");
        setVerdict(null);
        setSavedTick((n) => n + 1);
        const saved = t("settings-host-saved");
        setMessage({ kind: "ok", text: checked ? `${checked} ${saved}` : saved });
        onHostChanged?.();
      })
      .catch((err) => setMessage({ kind: "error", text: ipc.toUiError(err).message }));
  };

  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">{t("settings-title")}</h2>
      <Appearance />
      <SmallGroupThreshold ipc={ipc} />
      <ResultsStore ipc={ipc} />
      <form
        className="settings-form"
        data-testid="host-form"
        onSubmit={(e) => {
          e.preventDefault();
          setMessage(null);
          setVerdict(null);
          if (mode === "demo") {
            save();
            return;
          }
          setChecking(true);
          ipc
            .checkNewHost({ url, token })
            .then((v) => {
              setVerdict(v);
              if (v.works) save(hostWorks());
            })
            .catch((err) => setMessage({ kind: "error", text: ipc.toUiError(err).message }))
            .finally(() => setChecking(false));
        }}
      >
        <fieldset>
          <legend>{t("settings-host-legend")}</legend>
          <label>
            <input type="radio" name="mode" checked={mode === "demo"} onChange={() => setMode("demo")} />
            {t("settings-host-demo")}
          </label>
          <label>
            <input type="radio" name="mode" checked={mode === "custom"} onChange={() => setMode("custom")} />
            {t("settings-host-custom")}
          </label>
        </fieldset>
        <label htmlFor="host-url">{t("settings-host-url")}</label>
        <input
          id="host-url"
          type="url"
          value={url}
          disabled={mode === "demo"}
          placeholder="https://pathways.example.org"
          onChange={(e) => setUrl(e.target.value)}
        />
        <label htmlFor="host-token">{t("settings-host-token")}</label>
        <input
          id="host-token"
          type="password"
          autoComplete="off"
          value={token}
          disabled={mode === "demo"}
          placeholder={loaded?.token_set ? t("settings-host-token-saved") : ""}
          onChange={(e) => setToken(e.target.value)}
        />
        {loaded?.token_storage ? (
          <p className="muted" data-testid="token-storage">
            {loaded.token_storage === "system" ? t("settings-token-in-keyring") : t("settings-token-in-file")}
          </p>
        ) : null}
        <button type="submit" disabled={checking}>
          {t("settings-save")}
        </button>
        {checking ? (
          <p className="muted" role="status" data-testid="host-checking">
            {t("settings-host-checking")}
          </p>
        ) : null}
        {verdict && !verdict.works ? (
          <div role="alert" className="field-error" data-testid="host-verdict">
            <p>{hostVerdict(verdict)}</p>
            <button type="button" onClick={() => save()}>
              {t("settings-save-anyway")}
            </button>
          </div>
        ) : null}
        <FormMessage message={message} />
      </form>
      <HostClasses ipc={ipc} savedTick={savedTick} onFollowed={onHostChanged} />
    </section>
  );
}

/**
 * The classes the host lists (when it has `list_classes`): a class made elsewhere — on the host
 * itself, or a pathway shared in the upstream app behind a bridge — is followed once the teacher
 * picks it. Titles are the host's, shown as text.
 */
function HostClasses({ ipc, savedTick, onFollowed }: { ipc: TeacherIpc; savedTick: number; onFollowed?: () => void }) {
  const [classes, setClasses] = useState<HostClassView[] | null>(null);
  // A host that does not answer has no list to show (the status bar says why); a follow the
  // backend refuses says why here.
  const [followError, setFollowError] = useState<string | null>(null);
  const [reload, setReload] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: reloads when a host is saved or a class followed
  useEffect(() => {
    let live = true;
    ipc
      .hostClasses()
      .then((c) => live && setClasses(c))
      .catch(() => live && setClasses(null));
    return () => {
      live = false;
    };
  }, [ipc, savedTick, reload]);
  if (!classes || classes.length === 0) return null;
  return (
    <div className="settings-form" data-testid="host-classes">
      <h3>{t("settings-host-classes")}</h3>
      <ul className="host-classes">
        {classes.map((c) => (
          <li key={c.class_id}>
            <span translate="no" dir="auto">
              {c.title}
            </span>{" "}
            {c.followed ? (
              <span className="muted">{t("settings-host-class-followed")}</span>
            ) : (
              <button
                type="button"
                data-testid={`follow-${c.class_id}`}
                onClick={() => {
                  setFollowError(null);
                  ipc
                    .followHostClass(c.class_id)
                    .then(() => {
                      setReload((n) => n + 1);
                      onFollowed?.();
                    })
                    .catch((e) => setFollowError(ipc.toUiError(e).message));
                }}
              >
                {t("settings-host-class-follow")}
              </button>
            )}
          </li>
        ))}
      </ul>
      {followError ? (
        <p role="alert" className="field-error">
          {followError}
        </p>
      ) : null}
    </div>
  );
}

/**
 * The theme of this computer's windows: follow the system (light, dark or high contrast as the
 * OS asks) or one of the three; and the language, the system's or one the app ships. Display
 * preferences, kept in the page's storage, not the database. A new language renders the whole
 * window again (this view included).
 */
function Appearance() {
  const [choice, setChoice] = useState<ThemeChoice>(storedThemeChoice);
  const [language, setLanguage] = useState<LangChoice>(storedLanguageChoice);
  return (
    <div className="settings-form">
      <fieldset data-testid="theme-choice">
        <legend>{t("settings-appearance")}</legend>
        <div className="theme-choices">
          {THEME_CHOICES.map((c) => (
            <label key={c.value}>
              <input
                type="radio"
                name="theme"
                value={c.value}
                data-testid={`theme-${c.value}`}
                checked={choice === c.value}
                onChange={() => {
                  setChoice(c.value);
                  setThemeChoice(c.value);
                }}
              />
              {themeChoiceLabel(c.value)}
            </label>
          ))}
        </div>
        <div className="theme-choices">
          <label htmlFor="language-choice">{t("settings-language")}</label>
          <select
            id="language-choice"
            data-testid="language-choice"
            value={language}
            onChange={(e) => {
              const next = e.target.value as LangChoice;
              setLanguage(next);
              setLanguageChoice(next);
            }}
          >
            <option value="system">{t("settings-language-system")}</option>
            {SHIPPED.map((l) => (
              // Each language named in itself, marked as such (its voice, its shaping).
              <option key={l.value} value={l.value} lang={l.value}>
                {l.endonym}
              </option>
            ))}
          </select>
        </div>
      </fieldset>
    </div>
  );
}

/**
 * k: every aggregate over fewer than k learners shows "fewer than k" (mastery and the standards
 * exports), with complementary suppression. The backend enforces the 5-30 range, and its message
 * shows next to the field (no min/max attributes: the browser's own bubble would say less).
 */
function SmallGroupThreshold({ ipc }: { ipc: TeacherIpc }) {
  const [k, setK] = useState("");
  const [message, setMessage] = useState<Message | null>(null);
  useEffect(() => {
    void ipc.classView
      .suppressionK()
      .then((v) => setK(String(v)))
      .catch((e) => setMessage({ kind: "error", text: ipc.toUiError(e).message }));
  }, [ipc]);
  return (
    <form
      className="settings-form"
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        ipc.classView
          .setSuppressionK(Number(k))
          .then((v) => {
            setK(String(v));
            setMessage({ kind: "ok", text: t("settings-k-saved", { count: v }) });
          })
          .catch((err) => setMessage({ kind: "error", text: ipc.toUiError(err).message }));
      }}
    >
      <label htmlFor="suppression-k">{t("settings-k-label", { min: 5, max: 30 })}</label>
      <input
        id="suppression-k"
        type="number"
        inputMode="numeric"
        value={k}
        onChange={(e) => setK(e.target.value)}
        aria-invalid={message?.kind === "error" ? true : undefined}
      />
      <button type="submit">{t("settings-k-save")}</button>
      <FormMessage message={message} />
    </form>
  );
}

/**
 * Where this dashboard keeps results: this computer (the default), or a school's shared store that
 * co-teachers and a follower write too. Names, drafts and the teacher's own settings stay on this
 * computer either way; the password goes to the credential store, never into the database. Saving
 * connects first (a store that does not answer, or refuses the password, is an error and nothing
 * changes); the app uses the new place when it starts again.
 */
function ResultsStore({ ipc }: { ipc: TeacherIpc }) {
  const [view, setView] = useState<ResultsStoreView | null>(null);
  const [where, setWhere] = useState<"computer" | "shared">("computer");
  const [url, setUrl] = useState("");
  const [password, setPassword] = useState("");
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  useEffect(() => {
    void ipc.resultsStore
      .get()
      .then((v) => {
        setView(v);
        setWhere(v.shared_url ? "shared" : "computer");
        setUrl(v.shared_url);
      })
      .catch((e) => setMessage({ kind: "error", text: ipc.toUiError(e).message }));
  }, [ipc]);
  // What Settings names is not what this run uses: a restart puts it to use.
  const pending = view !== null && (view.shared_url !== "") !== view.in_use;
  return (
    <form
      className="settings-form"
      data-testid="results-store"
      onSubmit={(e) => {
        e.preventDefault();
        setMessage(null);
        setBusy(true);
        ipc.resultsStore
          .save({ shared_url: where === "shared" ? url : "", password })
          .then((v) => {
            setView(v);
            setPassword("");
            setMessage({
              kind: "ok",
              text: v.shared_url ? t("settings-store-saved-shared") : t("settings-store-saved-computer"),
            });
          })
          .catch((err) => setMessage({ kind: "error", text: ipc.toUiError(err).message }))
          .finally(() => setBusy(false));
      }}
    >
      <fieldset>
        <legend>{t("settings-store-legend")}</legend>
        <label>
          <input
            type="radio"
            name="results-store"
            data-testid="results-store-computer"
            checked={where === "computer"}
            onChange={() => setWhere("computer")}
          />
          {t("settings-store-computer")}
        </label>
        <label>
          <input
            type="radio"
            name="results-store"
            data-testid="results-store-shared"
            checked={where === "shared"}
            onChange={() => setWhere("shared")}
          />
          {t("settings-store-shared")}
        </label>
      </fieldset>
      <label htmlFor="results-store-url">{t("settings-store-url")}</label>
      <input
        id="results-store-url"
        type="text"
        autoComplete="off"
        spellCheck={false}
        value={url}
        disabled={where === "computer"}
        placeholder="postgres://teacher@db.school.example/results"
        onChange={(e) => setUrl(e.target.value)}
      />
      <label htmlFor="results-store-password">{t("settings-store-password")}</label>
      <input
        id="results-store-password"
        type="password"
        autoComplete="off"
        value={password}
        disabled={where === "computer"}
        onChange={(e) => setPassword(e.target.value)}
      />
      <p className="muted">{t("settings-store-note")}</p>
      <button type="submit" disabled={busy}>
        {busy ? t("settings-store-connecting") : t("settings-store-save")}
      </button>
      {view?.in_use ? (
        <p className="muted" data-testid="results-store-in-use">
          {tx("settings-store-in-use", {
            url: (
              <code>
                <UserText>{view.shared_url}</UserText>
              </code>
            ),
          })}
        </p>
      ) : null}
      {pending ? (
        <button type="button" data-testid="results-store-restart" onClick={() => void ipc.resultsStore.restart()}>
          {t("settings-store-restart")}
        </button>
      ) : null}
      <FormMessage message={message} />
    </form>
  );
}

type Message = { kind: "error" | "ok"; text: string };

/** What a settings form's save came to: an error (announced at once) or a confirmation. */
function FormMessage({ message }: { message: Message | null }) {
  if (!message) return null;
  return (
    <p
      role={message.kind === "error" ? "alert" : "status"}
      className={message.kind === "error" ? "field-error" : "muted"}
    >
      {message.text}
    </p>
  );
}
