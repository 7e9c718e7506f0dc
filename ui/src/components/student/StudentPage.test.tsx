import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import type { ClassViewIpc, ReportView, StudentPageView, TeacherIpc } from "../../ipc";
import { IpcError, toUiError } from "../../ipc";
import { noRoomControls } from "../../test-support/fakeRoom";
import { sampleReport } from "../../test-support/sampleReport";
import { Report } from "../report/Report";
import { StudentPage } from "./StudentPage";

afterEach(cleanup);

const HOSTILE = "<img src=x onerror=alert(1)>";

const page: StudentPageView = {
  learner: "anon_1",
  label: "Ada",
  pathways: [
    {
      assignment_id: "a1",
      pathway_id: "p",
      pathway_title: "Fractions",
      done: 1,
      quiet_ms: 120_000,
      idle: false,
      steps: [
        {
          widget_id: "w1",
          title: "Compare fractions",
          standard: "4.NF",
          status: "done",
          outcome: "after_retries",
          struggles: 0,
          time_on_step_ms: 95_000,
          runs: [
            {
              at_ms: Date.UTC(2026, 11, 1, 9, 0),
              prose: HOSTILE,
              result: "correct after 2 attempts",
              correct: true,
              score: 1,
              detail: [
                { key: "response", value: "3/4" },
                { key: "parts.num", value: "3" },
              ],
            },
          ],
        },
        {
          widget_id: "w2",
          title: "Order",
          standard: null,
          status: "current",
          outcome: "not_reached",
          struggles: 1,
          time_on_step_ms: null,
          runs: [],
        },
      ],
    },
  ],
  help: [
    {
      call_id: "c1",
      asked_at_ms: Date.UTC(2026, 11, 1, 8, 59),
      step_title: "Compare fractions",
      question: HOSTILE,
      state: "answered",
      outcome: "answered",
      answer: "Find a common denominator.",
      visit_promised_at_ms: null,
      visit_done: false,
      after_help: "right_after_retries",
    },
  ],
  timeline: [
    {
      at_ms: Date.UTC(2026, 11, 1, 9, 0),
      kind: "completed",
      step_title: "Compare fractions",
      what: "correct after 2 attempts",
    },
  ],
};

function ipcWith(classView: Partial<ClassViewIpc>): TeacherIpc {
  return { classView: { ...noRoomControls, ...classView } as ClassViewIpc, toUiError } as unknown as TeacherIpc;
}

describe("a student's page", () => {
  it("shows the strip, the evidence as key/value rows, the help history and the timeline as text", async () => {
    let back = 0;
    render(
      <StudentPage
        ipc={ipcWith({ studentPage: async () => page })}
        classId="c"
        learner="anon_1"
        changeTick={0}
        onBack={() => back++}
      />,
    );
    await screen.findByRole("heading", { name: "Ada" });
    const strip = screen.getByTestId("student-strip");
    const steps = within(strip).getAllByRole("button");
    expect(steps.map((b) => b.textContent)).toEqual([
      "1. Compare fractions: right after retries",
      "2. Order: working on it, struggled 1×",
    ]);
    fireEvent.click(steps[0]!);
    const evidence = screen.getByTestId("student-evidence");
    expect(within(evidence).getByRole("rowheader", { name: "parts.num" })).toBeTruthy();
    expect(evidence.querySelector("pre")).toBeNull();
    expect(within(evidence).getByTestId("time-on-step").textContent).toBe(
      "Took 1 min (from finishing the step before)",
    );
    fireEvent.click(steps[1]!);
    expect(screen.getByTestId("student-evidence").textContent).toContain("No completion yet.");
    expect(screen.queryByTestId("time-on-step")).toBeNull();
    fireEvent.click(steps[0]!);
    // Untrusted text stays text: no element made from it, in the evidence or the help history.
    expect(document.querySelector("img")).toBeNull();
    expect(evidence.textContent).toContain(HOSTILE);
    expect(screen.getByTestId("student-help-item").textContent).toContain(HOSTILE);
    expect(screen.getByTestId("student-after-help").textContent).toBe(" · then right after retries");
    expect(document.querySelector(".student-timeline li")?.textContent).toContain(
      "Compare fractions: correct after 2 attempts",
    );
    fireEvent.click(screen.getByTestId("student-back"));
    expect(back).toBe(1);
  });

  it("shows the backend's refusal (projector-safe) instead of a page", async () => {
    const refuse = async () => {
      throw new IpcError({ code: "privacy_blocked", message: "A student's page is hidden in projector-safe mode." });
    };
    render(
      <StudentPage
        ipc={ipcWith({ studentPage: refuse })}
        classId="c"
        learner="anon_1"
        changeTick={0}
        onBack={() => {}}
      />,
    );
    expect((await screen.findByRole("alert")).textContent).toMatch(/hidden in projector-safe mode/);
    expect(screen.queryByTestId("student-strip")).toBeNull();
  });
});

const report: ReportView = sampleReport({
  response: HOSTILE,
  mastery: [
    {
      standard: "4.NF",
      learners: 2,
      results: 2,
      checked: 2,
      correct: 1,
      attempts: 3,
      hints: 0,
      summary: "1 of 2 correct",
    },
  ],
  followUps: [{ learner: "anon_2", widget_id: "w1", step_title: "Compare fractions", reason: "incorrect" }],
});

describe("the after-class report", () => {
  it("shows the step report, opens a count's learners, and asks for names only when told", async () => {
    const asked: boolean[] = [];
    const opened: string[] = [];
    render(
      <Report
        ipc={ipcWith({
          report: async (_c, _a, identified) => {
            asked.push(identified);
            return report;
          },
        })}
        classId="c"
        assignments={[]}
        changeTick={0}
        onStudent={(l) => opened.push(l)}
      />,
    );
    // The class's title is a <bdi> in the heading; jsdom's accessible name puts a space after it.
    await screen.findByRole("heading", { name: /Period 3\s?: after-class report/ });
    expect(asked).toEqual([false]);
    expect(screen.getByTestId("report-completion").textContent).toBe("3 learners: 2 started, 1 finished every step.");
    expect(screen.getByTestId("median-time").textContent).toBe("2 min");
    expect(screen.getByTestId("helped").textContent).toBe("helped 3 · then right 2");
    // A zero count lists nobody; a count lists its learners.
    expect((screen.getByRole("button", { name: /Right after retries: 0/ }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("button", { name: /Compare fractions, Wrong: 1/ }));
    const who = screen.getByTestId("report-who");
    expect(who.textContent).toContain("wrong (1)");
    fireEvent.click(within(who).getByRole("button", { name: "anon_2" }));
    expect(opened).toEqual(["anon_2"]);
    expect(document.querySelector("img")).toBeNull();
    fireEvent.click(screen.getByTestId("report-names"));
    await waitFor(() => expect(asked).toEqual([false, true]));
  });
});
