import { defineConfig } from "vitest/config";

// No React plugin: Vite's built-in transform handles TSX with the automatic runtime, and we do
// not need fast refresh badly enough to carry Babel. Port 5173 is what tauri.conf.json's devUrl
// expects.
export default defineConfig({
  clearScreen: false,
  // The catalogs live at the repository's root (`locales/`), where the Rust side reads them too.
  server: { port: 5173, strictPort: true, fs: { allow: [".."] } },
  oxc: { jsx: { runtime: "automatic" } },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    // Three pages: the teacher's window, the projector window (which bundles only its view), and
    // the recovery page the teacher's window shows when the database cannot be opened.
    rollupOptions: {
      input: {
        main: new URL("./index.html", import.meta.url).pathname,
        projector: new URL("./projector.html", import.meta.url).pathname,
        recovery: new URL("./recovery.html", import.meta.url).pathname,
      },
    },
  },
  test: {
    environment: "jsdom",
    globals: true,
    include: ["src/**/*.test.{ts,tsx}"],
  },
});
