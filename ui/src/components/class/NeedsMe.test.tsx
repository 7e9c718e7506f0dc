import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { NeedsMeView } from "../../ipc";
import { NeedsMe } from "./NeedsMe";

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
});

const item = (over: Partial<NeedsMeView>): NeedsMeView => ({
  reason: "help_request",
  count: 0,
  label: "Ada Canary",
  learner: "anon_0",
  step_title: "Compare fractions",
  widget_id: "w1",
  pathway_id: "p",
  since_ms: 0,
  waited_ms: 180_000,
  ...over,
});

describe("who needs me, in the teacher's language", () => {
  it("words the reasons, counts and waits from the catalogs, leaving names and titles as they are", () => {
    setLanguageChoice("es");
    const { rerender } = render(<NeedsMe items={[]} />);
    expect(screen.getByTestId("needs-me-empty").textContent).toBe("Nadie está esperando.");
    expect(document.body.textContent).not.toContain("Nobody is waiting.");

    rerender(
      <NeedsMe items={[item({}), item({ reason: "struggling", count: 1, waited_ms: 5_000 })]} onStudent={() => {}} />,
    );
    const list = screen.getByTestId("needs-me").textContent ?? "";
    expect(list).toContain("Ada Canary — pidió ayuda en Compare fractions (hace 3 min)");
    expect(list).toContain("con dificultades: 1 comprobación fallida");
    expect(list).not.toContain("asked for help");
    expect(screen.getAllByTitle("Abrir la página de Ada Canary")).toHaveLength(2);

    // Arabic: its own plural forms, and the learner's name kept whole inside the sentence.
    setLanguageChoice("ar");
    rerender(<NeedsMe items={[item({ reason: "repeated_failures", count: 2 })]} />);
    const ar = screen.getByTestId("needs-me").textContent ?? "";
    expect(ar).toContain("إكمالان غير صحيحين");
    expect(ar).toContain("Ada Canary");
    expect(ar).not.toContain("incorrect completions");
  });
});
