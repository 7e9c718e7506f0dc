import "../styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { followLanguage } from "../i18n";
import { InLanguage } from "../i18n/useLanguage";
import { tauriRecoveryIpc } from "../ipc";
import { followTheme } from "../theme/theme";
import { RecoveryPage } from "./RecoveryPage";

followTheme();
// The language too: the OS's first one we ship, or the one chosen in Settings > Appearance.
followLanguage();

// The page the teacher's window shows instead of the app when the database cannot be opened.
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <InLanguage>
        <RecoveryPage ipc={tauriRecoveryIpc} />
      </InLanguage>
    </StrictMode>,
  );
}
