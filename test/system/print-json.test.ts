import path from "node:path";
import { readFile } from "node:fs/promises";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { printJson, type JsonLayout } from "../../src/format/print-json.js";
import { REPO_ROOT } from "../helpers/temp-dir.js";
import { seededRandom } from "../helpers/seeded-random.js";

const DEFAULT_LAYOUT: JsonLayout = {
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  endOfLine: "lf",
  stringWidth: prettier.util.getStringWidth,
};

/** What prettier itself makes of the value, with the `.json` defaults flowgen uses. */
function prettierJson(value: unknown, options: prettier.Options = {}) {
  return prettier.format(JSON.stringify(value, null, 2), {
    parser: "json",
    printWidth: 80,
    tabWidth: 2,
    useTabs: false,
    endOfLine: "lf",
    ...options,
  });
}

/**
 * A small deterministic generator of awkward JSON: long and short arrays, wide characters, escapes,
 * text that looks like JSON layout, numbers (`exponents`: some print with one, which the printer
 * walks the value for; without, it lays out `JSON.stringify`'s text).
 */
function randomJson(seed: number, exponents = true) {
  const { next, pick } = seededRandom(seed);
  const words = [
    "a",
    "type",
    "description",
    "x".repeat(30),
    "文字",
    "é",
    'quote"d',
    "back\\slash",
    "line\nbreak",
    "emoji😀",
    "",
    "[",
    "{",
    "],\n  [",
    "1e+5",
  ];
  const value = (depth: number): unknown => {
    const roll = next();
    if (depth > 4 || roll < 0.3)
      return pick([
        null,
        true,
        false,
        0,
        -1,
        3.5,
        exponents ? 1e21 : 1e20,
        -2.5e-7,
        123456789,
        pick(words),
        pick(words) + pick(words),
      ]);
    if (roll < 0.6) {
      const length = Math.floor(next() * (next() < 0.5 ? 4 : 30));
      const mode = next();
      return Array.from({ length }, () =>
        mode < 0.25
          ? Math.floor(next() * 100000) * (next() < 0.2 ? -1 : 1)
          : mode < 0.4
            ? pick(words)
            : value(depth + 1),
      );
    }
    return Object.fromEntries(
      Array.from({ length: Math.floor(next() * 5) }, (_, i) => [
        `${pick(words)}${i}`,
        value(depth + 1),
      ]),
    );
  };
  const layout = {
    printWidth: pick([80, 40, 120, 20]),
    tabWidth: pick([2, 4, 1, 12]),
    useTabs: next() < 0.2,
    endOfLine: pick(["lf", "crlf"] as const),
  };
  return { document: { root: value(0), other: value(1) }, layout };
}

describe("printJson", () => {
  it("prints the repo's OpenAPI document byte for byte as prettier does", async () => {
    const text = await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8");
    const document: unknown = JSON.parse(text);
    expect(printJson(document, DEFAULT_LAYOUT)).toBe(await prettierJson(document));
  });

  it.each([
    ["with exponents", true],
    ["without exponents", false],
  ])(
    "prints 250 random documents %s as prettier does, across widths, indents, tabs and line ends",
    async (_, exponents) => {
      const mismatches: number[] = [];
      for (let seed = 1; seed <= 250; seed++) {
        const { document, layout } = randomJson(seed, exponents);
        const expected = await prettierJson(document, layout);
        if (
          printJson(document, { ...layout, stringWidth: prettier.util.getStringWidth }) !== expected
        )
          mismatches.push(seed);
      }
      expect(mismatches).toEqual([]);
    },
  );

  it("breaks an array exactly where prettier does, with and without a comma after it", async () => {
    const documents = Array.from({ length: 16 }, (_, n) => {
      const array = ["a".repeat(n + 50), "b"];
      return { last: { array }, first: { array, after: true }, nested: [[array, "c"], "d"] };
    });
    for (const document of documents)
      expect(printJson(document, DEFAULT_LAYOUT)).toBe(await prettierJson(document));
  });

  it("keeps the cases prettier lays out specially", async () => {
    const document = {
      numbers: Array.from({ length: 40 }, (_, i) => i * 1000),
      pairs: [
        [1, 2],
        [3, 4],
      ],
      uneven: [["a", "b"], ["c"]],
      empties: [{}, []],
      objects: [{ a: 1 }],
      exponent: [1e21, 1.5e-7],
      wide: ["文字".repeat(20)],
    };
    const printed = printJson(document, DEFAULT_LAYOUT);
    expect(printed).toBe(await prettierJson(document));
    expect(printed).toContain('"exponent": [1e21, 1.5e-7]');
    expect(printed).toContain('"pairs": [\n    [1, 2],\n    [3, 4]\n  ]');
  });
});
