import { describe, expect, it } from "vitest";
import { holdsKeyEscape } from "../src/spec/key-escape.js";
import { seededRandom } from "./helpers/seeded-random.js";

/** What the scans counted as an escape that can spell a key: a backslash before u, U, x or a line break. */
const ESCAPE = /\\[uUx\r\n]/;

describe("the look for an escape that can spell a key", () => {
  it.each([
    ['{ "\\u0024ref": "x" }', true],
    ['$ref: x\n"\\x24ref": y', true],
    ['"\\U00000024ref": 1', true],
    ['"nul\\\nlable": true', true],
    ['{ "description": "a \\"quote\\" and a \\\\ backslash\\n" }', false],
    ["no backslash at all", false],
    ["ends with a backslash \\", false],
  ])("in %j: %s", (text, expected) => {
    expect(holdsKeyEscape(text)).toBe(expected);
    expect(ESCAPE.test(text)).toBe(expected);
  });

  it("finds what the regular expression finds, on random texts of backslashes and letters", () => {
    const { pick } = seededRandom(3);
    const alphabet = ["\\", "\\", "u", "U", "x", "n", '"', "\n", "\r", "a", " "];
    for (let i = 0; i < 2000; i++) {
      const text = Array.from({ length: 1 + (i % 12) }, () => pick(alphabet)).join("");
      expect(holdsKeyEscape(text), JSON.stringify(text)).toBe(ESCAPE.test(text));
    }
  });
});
