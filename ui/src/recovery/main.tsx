import "../styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { tauriRecoveryIpc } from "../ipc";
import { followTheme } from "../theme/theme";
import { RecoveryPage } from "./RecoveryPage";

followTheme();

// The page the teacher's window shows instead of the app when the database cannot be opened.
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <RecoveryPage ipc={tauriRecoveryIpc} />
    </StrictMode>,
  );
}
