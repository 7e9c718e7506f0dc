import "../styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { followLanguage } from "../i18n";
import { InLanguage } from "../i18n/useLanguage";
import { tauriProjectorIpc } from "../ipc";
import { followTheme } from "../theme/theme";
import { ProjectorPage } from "./ProjectorPage";

// The same theme as the teacher's window (the choice is kept in this origin's localStorage).
followTheme();
// The language too: the OS's first one we ship, or the one chosen in Settings > Appearance.
followLanguage();

// The projector window's own entry: it bundles only this page, and its capability lets it call
// only `projector_view`.
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <InLanguage>
        <ProjectorPage ipc={tauriProjectorIpc} />
      </InLanguage>
    </StrictMode>,
  );
}
