import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { ClassViewIpc, ReportView, TeacherIpc } from "../../ipc";
import { toUiError } from "../../ipc";
import { sampleReport } from "../../test-support/sampleReport";
import { Report } from "./Report";

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
});

const REPORT: ReportView = sampleReport({
  response: "3/4",
  mastery: [
    { standard: "4.NF", learners: 2, results: 2, checked: 2, correct: 1, attempts: 3, hints: 0, summary: "" },
    { standard: null, learners: 3, results: 5, checked: 4, correct: 3, attempts: 6, hints: 0, summary: "" },
  ],
  followUps: [
    { learner: "anon_2", widget_id: "w1", step_title: "Compare fractions", reason: "incorrect" },
    { learner: "anon_3", widget_id: "w1", step_title: "Compare fractions", reason: "missed_help_request" },
  ],
});

function ipc(): TeacherIpc {
  const classView = { report: async () => REPORT } as Partial<ClassViewIpc>;
  return { classView, toUiError } as unknown as TeacherIpc;
}

describe("the after-class report in the teacher's language", () => {
  it("says its words in Spanish, leaving the class's titles, codes and answers as they are", async () => {
    setLanguageChoice("es");
    render(<Report ipc={ipc()} classId="c" assignments={[]} changeTick={0} />);
    await screen.findByRole("heading", { name: "Period 3: informe después de clase" });
    expect(screen.getByTestId("report-completion").textContent).toBe(
      "3 estudiantes: 2 empezaron, 1 terminó todos los pasos.",
    );
    expect(screen.getByRole("columnheader", { name: "Bien al primer intento" })).toBeTruthy();
    expect(screen.getByTestId("helped").textContent).toBe("ayudados 3 · luego bien 2");
    // A mean in the locale's decimals; the mastery summary built from the counts, not the core's
    // English sentence.
    expect(screen.getByText("1,5")).toBeTruthy();
    expect(screen.getByText("evidencia insuficiente (2 evaluadas)")).toBeTruthy();
    expect(screen.getByText("3 de 4 correctas")).toBeTruthy();
    expect(screen.getByText("Todos los estándares")).toBeTruthy();
    const followUps = screen.getByTestId("report-follow-ups").textContent;
    expect(followUps).toContain("anon_2 — Compare fractions: respuesta incorrecta");
    expect(followUps).toContain("solicitud de ayuda sin atender");
    fireEvent.click(screen.getByRole("button", { name: "Compare fractions, Mal: 1; ver la lista" }));
    expect(screen.getByTestId("report-who").textContent).toContain("Compare fractions: mal (1)");
    // What is not ours is marked so, and kept as given.
    expect(screen.getByText("Period 3").getAttribute("translate")).toBe("no");
    expect(screen.getByText("3/4").getAttribute("translate")).toBe("no");
    for (const code of screen.getAllByText("4.NF")) expect(code.getAttribute("translate")).toBe("no");
    const text = document.body.textContent ?? "";
    for (const english of [
      "after-class report",
      "Right first try",
      "learners",
      "Who needs",
      "Nobody",
      "wrong answer",
    ]) {
      expect(text).not.toContain(english);
    }
  });
});
