import { Keyboard, X } from "lucide-react";
import { useCallback, useEffect, useRef, useState } from "react";

/** Every keyboard shortcut of the teacher's window, as the overlay lists them. */
export const SHORTCUTS: { keys: string[][]; what: string }[] = [
  { keys: [["Ctrl", "Shift", "P"]], what: "Projector-safe mode on or off" },
  { keys: [["Ctrl", "Shift", "O"]], what: "Show the class on the projector" },
  { keys: [["Arrow keys"]], what: "Live grid: move between cells" },
  { keys: [["Home"], ["End"]], what: "Live grid: first or last step of the row (with Ctrl: first or last cell)" },
  { keys: [["Page Up"], ["Page Down"]], what: "Live grid: ten learners up or down" },
  { keys: [["Enter"]], what: "Live grid: open the cell's evidence" },
  { keys: [["Escape"]], what: "Close the evidence pane (or this list)" },
  { keys: [["?"]], what: "Show this list of shortcuts" },
];

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
        Shortcuts
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
              <h2 id="shortcuts-title">Keyboard shortcuts</h2>
              <button type="button" ref={closeRef} onClick={close} data-testid="shortcuts-close">
                <X className="icon" size={16} aria-hidden="true" focusable="false" />
                Close
              </button>
            </div>
            <dl className="shortcuts-list">
              {SHORTCUTS.map((s) => (
                <div key={s.what} style={{ display: "contents" }}>
                  <dt>
                    {s.keys.map((combo, i) => (
                      <span key={combo.join("+")}>
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
