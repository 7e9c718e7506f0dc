import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { followLanguage } from "./i18n";
import { tauriIpc } from "./ipc";
import { followTheme } from "./theme/theme";

// The theme before the first paint: the OS's, or the override chosen in Settings.
followTheme();
// The language too: the OS's first one we ship, or the one chosen in Settings > Appearance.
followLanguage();

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App ipc={tauriIpc} />
    </StrictMode>,
  );
}
