import type { FollowUpView, ReportView, StandardView } from "../ipc";

/**
 * An after-class report of "Period 3" with one assignment of one step ("Compare fractions",
 * 4.NF: one right first try, one incorrect, one not reached), for the views that show it. Each
 * test gives the step's common response, the mastery rows and who needs a follow-up.
 */
export function sampleReport(parts: {
  response: string;
  mastery: StandardView[];
  followUps: FollowUpView[];
}): ReportView {
  return {
    class_id: "c",
    class_title: "Period 3",
    identified: false,
    generated_at: "2026-12-01T14:00:00Z",
    generated_ms: Date.UTC(2026, 11, 1, 14, 0),
    freshness: {
      state: "current",
      newest_work_ms: Date.UTC(2026, 11, 1, 13, 59, 58),
      last_heard_ms: Date.UTC(2026, 11, 1, 13, 59, 59),
    },
    group: null,
    assignments: [
      {
        assignment_id: "a1",
        pathway_id: "p",
        pathway_title: "Fractions",
        learners: 3,
        completion: { learners: 3, started: 2, finished: 1 },
        steps: [
          {
            widget_id: "w1",
            title: "Compare fractions",
            standard: "4.NF",
            assesses: true,
            first_try: 1,
            after_retries: 0,
            incorrect: 1,
            no_verdict: 0,
            not_reached: 1,
            mean_attempts: 1.5,
            median_time_ms: 150_000,
            helped: 3,
            then_right: 2,
            mean_hints: 0,
            common_responses: [{ response: parts.response, count: 2 }],
            who: {
              first_try: ["anon_1"],
              after_retries: [],
              incorrect: ["anon_2"],
              no_verdict: [],
              not_reached: ["anon_3"],
            },
          },
        ],
        mastery: parts.mastery,
        follow_ups: parts.followUps,
        students: [],
      },
    ],
  };
}
