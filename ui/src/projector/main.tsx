import "../styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { tauriProjectorIpc } from "../ipc";
import { ProjectorPage } from "./ProjectorPage";

// The projector window's own entry: it bundles only this page, and its capability lets it call
// only `projector_view`.
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ProjectorPage ipc={tauriProjectorIpc} />
    </StrictMode>,
  );
}
