import { FluentBundle, FluentResource } from "@fluent/bundle";
import { afterEach, describe, expect, it } from "vitest";
import { catalogFiles, setLanguageChoice, t } from ".";
import { pseudo } from "./pseudo";

const LANGS = ["en", "es", "ar"] as const;

/** The ids a file defines, as its own lines declare them (so a line the parser drops shows up). */
function declared(text: string): string[] {
  return [...text.matchAll(/^([a-zA-Z][\w-]*)\s*=/gm)].map((m) => m[1] as string);
}

function parsed(text: string): string[] {
  return new FluentResource(text).body.map((entry) => entry.id);
}

/** Variables a message uses: a translation may not invent one the code never passes. */
function variables(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  let id = "";
  for (const line of text.split("\n")) {
    const head = /^([a-zA-Z][\w-]*)\s*=/.exec(line);
    if (head) {
      id = head[1] as string;
      out.set(id, new Set());
    }
    if (/^\s*#/.test(line)) continue;
    for (const m of line.matchAll(/\$([a-zA-Z][\w-]*)/g)) out.get(id)?.add(m[1] as string);
  }
  return out;
}

const code = import.meta.glob(["../**/*.{ts,tsx}", "!../**/*.test.{ts,tsx}", "!../test-support/**"], {
  query: "?raw",
  import: "default",
  eager: true,
}) as Record<string, string>;

afterEach(() => {
  setLanguageChoice("en");
});

describe("the catalogs", () => {
  it("parse, every line of every file", () => {
    for (const lang of LANGS) {
      const files = catalogFiles(lang);
      expect(files.size).toBeGreaterThan(0);
      for (const [name, text] of files) {
        expect(parsed(text), `${lang}/${name}`).toEqual(declared(text));
      }
    }
  });

  it("hold the same files and the same messages in every language", () => {
    const en = catalogFiles("en");
    for (const lang of ["es", "ar"] as const) {
      const other = catalogFiles(lang);
      expect([...other.keys()].sort(), lang).toEqual([...en.keys()].sort());
      for (const [name, text] of en) {
        const theirs = other.get(name) ?? "";
        const missing = declared(text).filter((id) => !declared(theirs).includes(id));
        const extra = declared(theirs).filter((id) => !declared(text).includes(id));
        expect({ file: `${lang}/${name}`, missing, extra }).toEqual({
          file: `${lang}/${name}`,
          missing: [],
          extra: [],
        });
      }
    }
  });

  it("use in a translation only the variables the English message is given", () => {
    for (const [name, text] of catalogFiles("en")) {
      const en = variables(text);
      for (const lang of ["es", "ar"] as const) {
        const theirs = variables(catalogFiles(lang).get(name) ?? "");
        for (const [id, vars] of theirs) {
          const invented = [...vars].filter((v) => !en.get(id)?.has(v));
          expect(invented, `${lang}/${name} ${id}`).toEqual([]);
        }
      }
    }
  });

  it("define every message the window's code asks for", () => {
    const ids = new Set<string>();
    for (const text of catalogFiles("en").values()) for (const id of declared(text)) ids.add(id);
    const asked = new Set<string>();
    for (const text of Object.values(code)) {
      for (const m of text.matchAll(/\btx?\(\s*"([a-z0-9-]+)"/g)) asked.add(m[1] as string);
    }
    expect(asked.size).toBeGreaterThan(0);
    expect([...asked].filter((id) => !ids.has(id))).toEqual([]);
  });

  it("say plurals by each language's rules", () => {
    // A message of this shape is what the views use; Arabic has six plural forms.
    const ar = new FluentBundle("ar", { useIsolating: false });
    ar.addResource(
      new FluentResource(
        "n = { $n ->\n  [zero] zero\n  [one] one\n  [two] two\n  [few] few\n  [many] many\n *[other] other\n}\n",
      ),
    );
    const pattern = ar.getMessage("n")?.value;
    if (!pattern) throw new Error("no message");
    expect([0, 1, 2, 3, 11, 100].map((n) => ar.formatPattern(pattern, { n }))).toEqual([
      "zero",
      "one",
      "two",
      "few",
      "many",
      "other",
    ]);
  });
});

describe("the language", () => {
  it("puts numbers and spans in the chosen language's words", () => {
    setLanguageChoice("es");
    expect(t("span-hours-minutes", { h: 1, m: 5 })).toBe("1 h 5 min");
    setLanguageChoice("ar");
    expect(document.documentElement.dir).toBe("rtl");
    expect(t("span-seconds", { s: 4 })).toContain("ث");
    setLanguageChoice("en");
    expect(document.documentElement.dir).toBe("ltr");
    expect(t("span-seconds", { s: 45 })).toBe("45 s");
  });

  it("makes the pseudo-locale accented and longer, leaving what it puts in alone", () => {
    expect(pseudo("Settings")).toBe("Šééţţííñĝš");
    setLanguageChoice("en-XA");
    expect(t("span-minutes", { m: 3 })).toBe("3 ɱííñ");
    const sentence = t("app-name");
    expect(sentence).not.toMatch(/[a-zA-Z]{2}/);
    expect(sentence.length).toBeGreaterThan("a2learn Teacher".length * 1.3);
  });
});
