import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguageChoice } from "../../i18n";
import type { GroupsView } from "../../ipc";
import { IpcError } from "../../ipc";
import { GroupFilter, GroupsPanel } from "./Groups";

afterEach(() => {
  cleanup();
  setLanguageChoice("en");
});

/** The core's groups in small: a save refused without learners, as the core words it. */
function fakeGroups(start: GroupsView) {
  let view = start;
  const calls: string[] = [];
  return {
    calls,
    ipc: {
      saveGroup: async (_c: string, name: string, learners: string[]) => {
        calls.push(`save ${name} ${learners.join(",")}`);
        if (learners.length === 0) {
          throw new IpcError({ code: "invalid_input", message: "a group needs at least one learner" });
        }
        view = {
          ...view,
          groups: [
            ...view.groups,
            { name, size: learners.length, learners, labels: learners.map((l) => `name of ${l}`) },
          ],
        };
        return view;
      },
      deleteGroup: async (_c: string, name: string) => {
        view = { ...view, groups: view.groups.filter((g) => g.name !== name) };
        return view;
      },
      setGroupFilter: async (_c: string, group: string | null) => {
        calls.push(`filter ${group}`);
        view = { ...view, filter: group };
        return view;
      },
    },
  };
}

const base: GroupsView = {
  groups: [{ name: "Table 1", size: 2, learners: ["anon_a", "anon_d"], labels: ["Ada", "Dev"] }],
  suggested: [
    {
      name: "bigger denominator means bigger fraction",
      misconception: "bigger denominator means bigger fraction",
      missed_standard: null,
      learners: ["anon_a", "anon_b"],
      labels: ["Ada", "Bea"],
    },
  ],
  filter: null,
  learners: [
    { learner: "anon_a", label: "Ada" },
    { learner: "anon_b", label: "Bea" },
  ],
  can_save: true,
};

describe("groups", () => {
  it("narrows the class to a group with the filter shown, and back", async () => {
    const fake = fakeGroups(base);
    let view: GroupsView = base;
    const { rerender } = render(
      <GroupFilter ipc={fake.ipc} classId="c1" groups={view} onChange={(v) => (view = v)} onError={() => {}} />,
    );
    expect(screen.queryByTestId("group-filter-on")).toBeNull();
    fireEvent.change(screen.getByTestId("group-filter"), { target: { value: "Table 1" } });
    await waitFor(() => expect(view.filter).toBe("Table 1"));
    rerender(<GroupFilter ipc={fake.ipc} classId="c1" groups={view} onChange={(v) => (view = v)} onError={() => {}} />);
    expect(screen.getByTestId("group-filter-on").textContent).toContain(
      "Every view shows the group Table 1 only (2 learners)",
    );
    fireEvent.click(screen.getByRole("button", { name: "Show the whole class" }));
    await waitFor(() => expect(view.filter).toBeNull());
    expect(fake.calls).toEqual(["filter Table 1", "filter null"]);
  });

  it("makes a suggested group in one click, and shows a refused group's reason", async () => {
    const fake = fakeGroups(base);
    let view: GroupsView = base;
    render(<GroupsPanel ipc={fake.ipc} classId="c1" groups={view} onChange={(v) => (view = v)} />);
    expect(screen.getByTestId("suggested-group").textContent).toContain("2 learners: bigger denominator");
    fireEvent.click(screen.getByRole("button", { name: "Make this group" }));
    await waitFor(() => expect(view.groups.map((g) => g.name)).toContain("bigger denominator means bigger fraction"));
    fireEvent.change(screen.getByLabelText("Name"), { target: { value: "Empty" } });
    fireEvent.click(screen.getByRole("button", { name: "Make the group" }));
    expect((await screen.findByRole("alert")).textContent).toBe("a group needs at least one learner");
    expect(fake.calls).toEqual(["save bigger denominator means bigger fraction anon_a,anon_b", "save Empty "]);
  });

  it("says why a group is suggested in the teacher's language, the standard's code as it is", () => {
    const missed: GroupsView = {
      ...base,
      suggested: [
        {
          name: "Missed 4.NF.A.2",
          misconception: null,
          missed_standard: "4.NF.A.2",
          learners: ["anon_a", "anon_b", "anon_c"],
          labels: ["Ada", "Bea", "Cy"],
        },
      ],
    };
    const { unmount } = render(
      <GroupsPanel ipc={fakeGroups(missed).ipc} classId="c1" groups={missed} onChange={() => {}} />,
    );
    expect(screen.getByTestId("suggested-group").textContent).toContain("3 learners missed 4.NF.A.2");
    unmount();
    setLanguageChoice("es");
    render(<GroupsPanel ipc={fakeGroups(missed).ipc} classId="c1" groups={missed} onChange={() => {}} />);
    const text = screen.getByTestId("suggested-group").textContent ?? "";
    expect(text).toContain("3 estudiantes no lograron 4.NF.A.2");
    expect(text).not.toContain("learners missed");
    expect(screen.getByTestId("suggested-group").querySelector("bdi[translate=no]")?.textContent).toBe("4.NF.A.2");
  });
});
