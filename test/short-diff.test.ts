import { createTwoFilesPatch } from "diff";
import { describe, expect, it } from "vitest";
import { shortDiff } from "../src/write/short-diff.js";
import { seededRandom } from "./helpers/seeded-random.js";

/** The whole-file diff, cut to the same 40 lines: what `--check` showed before it compared a window. */
function wholeFileDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(
    `${file} (committed)`,
    `${file} (from specs)`,
    before,
    after,
    undefined,
    undefined,
    { context: 2 },
  );
  const lines = patch.split("\n").slice(2);
  const shown = lines.slice(0, 40);
  if (lines.length > 40) shown.push(`  … ${lines.length - 40} more lines`);
  return shown.join("\n");
}

const numbered = (count: number, label = "line") =>
  Array.from({ length: count }, (_, i) => `${label} ${i + 1}`);

describe("shortDiff: the start of what went stale in a file", () => {
  it("shows what a diff of the whole file shows, for edits within a window", () => {
    const { next, pick } = seededRandom(11);
    for (let round = 0; round < 200; round++) {
      const before = numbered(Math.floor(next() * 120));
      const after = [...before];
      for (let edit = Math.floor(next() * 6); edit > 0; edit--) {
        const at = Math.floor(next() * (after.length + 1));
        const kind = pick(["insert", "delete", "change"] as const);
        if (kind === "insert") after.splice(at, 0, `new ${round}.${edit}`);
        else if (kind === "delete") after.splice(at, 1);
        else after[at] = `changed ${round}.${edit}`;
      }
      const newline = pick(["", "\n"]);
      const [a, b] = [before.join("\n") + newline, after.join("\n") + pick([newline, ""])];
      expect(shortDiff("f.ts", a, b)).toBe(wholeFileDiff("f.ts", a, b));
    }
  });

  it("numbers hunks from the start of the file", () => {
    const before = numbered(2000);
    const after = [...before];
    after[999] = "changed";
    // The first line is a separator, and the old file's name line is not shown (as before).
    expect(shortDiff("f.ts", before.join("\n"), after.join("\n")).split("\n")).toEqual([
      "+++ f.ts (from specs)",
      "@@ -998,5 +998,5 @@",
      " line 998",
      " line 999",
      "-line 1000",
      "+changed",
      " line 1001",
      " line 1002",
      "",
    ]);
  });

  it("compares only the start of two large files that differ throughout, and says more follows", () => {
    const before = numbered(50_000, "old").join("\n");
    const after = numbered(50_000, "new").join("\n");
    const lines = shortDiff(".flowgen-manifest.json", before, after).split("\n");
    expect(lines.slice(0, 4)).toEqual([
      "+++ .flowgen-manifest.json (from specs)",
      "@@ -1,400 +1,400 @@",
      "-old 1",
      "-old 2",
    ]);
    expect(lines.at(-2)).toMatch(/^ {2}… \d+ more lines$/);
    expect(lines.at(-1)).toBe("  … more differences follow");
  });
});
