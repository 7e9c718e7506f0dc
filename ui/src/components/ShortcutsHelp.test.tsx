import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ShortcutsHelp } from "./ShortcutsHelp";

afterEach(cleanup);

describe("the shortcuts overlay", () => {
  it("opens with ?, lists every shortcut, closes with Escape and gives focus back", () => {
    render(
      <>
        <button type="button">before</button>
        <ShortcutsHelp />
      </>,
    );
    const before = screen.getByRole("button", { name: "before" });
    act(() => before.focus());
    expect(screen.queryByRole("dialog")).toBeNull();
    act(() => {
      fireEvent.keyDown(before, { key: "?" });
    });
    const dialog = screen.getByRole("dialog", { name: "Keyboard shortcuts" });
    const text = dialog.textContent ?? "";
    for (const s of ["Ctrl+Shift+P", "Ctrl+Shift+O", "Arrow keys", "Enter", "Escape", "?"]) {
      expect(text).toContain(s);
    }
    expect(text).toMatch(/Projector-safe/);
    expect(text).toMatch(/projector/);
    expect(document.activeElement).toBe(screen.getByTestId("shortcuts-close"));
    act(() => {
      fireEvent.keyDown(document.activeElement as HTMLElement, { key: "Escape" });
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(document.activeElement).toBe(before);
  });

  it("does not open on ? typed into a field, nor with a modifier", () => {
    render(
      <>
        <label>
          Answer <input />
        </label>
        <ShortcutsHelp />
      </>,
    );
    const input = screen.getByLabelText("Answer");
    act(() => input.focus());
    act(() => {
      fireEvent.keyDown(input, { key: "?" });
      fireEvent.keyDown(document.body, { key: "?", ctrlKey: true });
    });
    expect(screen.queryByRole("dialog")).toBeNull();
    // Positive control: the header's button opens it too.
    act(() => screen.getByTestId("shortcuts-open").click());
    expect(screen.getByRole("dialog")).toBeTruthy();
  });
});
