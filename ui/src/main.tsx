import "./styles.css";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App";
import { tauriIpc } from "./ipc";

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App ipc={tauriIpc} />
    </StrictMode>,
  );
}
