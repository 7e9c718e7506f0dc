import { Keyboard, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";
import { t } from "../i18n";

/**
 * Every keyboard shortcut of the teacher's window, as the overlay lists them, in the window's
 * language. Key names are the ones the language's keyboards print (a Spanish keyboard says
 * "Mayús" and "Inicio"), so they come from the catalogs too; letters and "?" are the keys'.
 */
export function shortcuts(): { id: string; keys: string[][]; what: string }[] {
  const ctrl = t("app-key-ctrl");
  const shift = t("app-key-shift");
  return [
    { id: "projector-safe", keys: [[ctrl, shift, "P"]], what: t("app-shortcut-projector-safe") },
    { id: "projector", keys: [[ctrl, shift, "O"]], what: t("app-shortcut-projector") },
    { id: "grid-move", keys: [[t("app-shortcut-key-arrows")]], what: t("app-shortcut-grid-move") },
    { id: "grid-row-ends", keys: [[t("app-key-home")], [t("app-key-end")]], what: t("app-shortcut-grid-row-ends") },
    {
      id: "grid-page",
      keys: [[t("app-key-page-up")], [t("app-key-page-down")]],
      what: t("app-shortcut-grid-page"),
    },
    { id: "grid-open", keys: [[t("app-key-enter")]], what: t("app-shortcut-grid-open") },
    { id: "close", keys: [[t("app-key-escape")]], what: t("app-shortcut-close") },
    { id: "help", keys: [["?"]], what: t("app-shortcut-help") },
  ];
}

/** Whether a key press is typing into a field (where `?` is a character, not a shortcut). */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || target.matches("input, textarea, select");
}

/**
 * The shortcuts overlay: `?` (outside a text field) or the header's button opens it; Escape, the
 * Close button or a click on the backdrop closes it, and focus returns where it was.
 */
export function ShortcutsHelp() {
  const [open, setOpen] = useState(false);
  const returnTo = useRef<HTMLElement | null>(null);
  const closeRef = useRef<HTMLButtonElement>(null);

  const show = useCallback(() => {
    returnTo.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(true);
  }, []);
  const close = useCallback(() => {
    setOpen(false);
    returnTo.current?.focus();
  }, []);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "?" && !e.ctrlKey && !e.altKey && !e.metaKey && !typing(e.target)) {
        e.preventDefault();
        show();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [show]);

  useEffect(() => {
    if (open) closeRef.current?.focus();
  }, [open]);

  return (
    <>
      <button
        type="button"
        className="shortcuts-open"
        data-testid="shortcuts-open"
        aria-keyshortcuts="?"
        aria-haspopup="dialog"
        onClick={show}
      >
        <Keyboard className="icon" size={16} aria-hidden="true" focusable="false" />
        {t("app-shortcuts-open")}
      </button>
      {open ? (
        // The backdrop closes the list on a click; Escape (below) is its keyboard equivalent.
        // biome-ignore lint/a11y/useKeyWithClickEvents: Escape closes the dialog, handled on the dialog itself
        // biome-ignore lint/a11y/noStaticElementInteractions: the backdrop is only a mouse convenience
        <div className="shortcuts-backdrop" onClick={(e) => e.target === e.currentTarget && close()}>
          <div
            role="dialog"
            aria-modal="true"
            aria-labelledby="shortcuts-title"
            className="shortcuts-dialog"
            data-testid="shortcuts"
            onKeyDown={(e) => {
              if (e.key === "Escape") {
                e.preventDefault();
                e.stopPropagation();
                close();
              } else if (e.key === "Tab") {
                // One control inside: focus stays in the dialog while it is open.
                e.preventDefault();
                closeRef.current?.focus();
              }
            }}
          >
            <div className="shortcuts-head">
              <h2 id="shortcuts-title">{t("app-shortcuts-title")}</h2>
              <button type="button" ref={closeRef} onClick={close} data-testid="shortcuts-close">
                <X className="icon" size={16} aria-hidden="true" focusable="false" />
                {t("app-shortcuts-close")}
              </button>
            </div>
            <dl className="shortcuts-list">
              {shortcuts().map((s) => (
                <div key={s.id} style={{ display: "contents" }}>
                  <dt>
                    {s.keys.map((combo, i) => (
                      // A combination reads "Ctrl+Shift+P" in a right-to-left window too.
                      <span key={combo.join("+")} dir="ltr">
                        {i > 0 ? " " : null}
                        {combo.map((k, j) => (
                          <span key={k}>
                            {j > 0 ? "+" : null}
                            <kbd>{k}</kbd>
                          </span>
                        ))}
                      </span>
                    ))}
                  </dt>
                  <dd className="shortcut-what">{s.what}</dd>
                </div>
              ))}
            </dl>
          </div>
        </div>
      ) : null}
    </>
  );
}
