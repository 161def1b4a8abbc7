import { runInNewContext } from "node:vm";
import * as prettier from "prettier";
import { describe, expect, it } from "vitest";
import { exampleLiteral } from "../src/emit/example-literal.js";

/** Where a flow module's `@example` puts the input: `const output = await qa.run(` … `);`. */
const RUN = "const output = await qa.run(";
const PLACE = { column: RUN.length, after: 2 };

const CASES: [string, { given: unknown; want: string }][] = [
  ["a short input, on one line", { given: { question: "Why?" }, want: '{ question: "Why?" }' }],
  [
    "a long input, broken outermost first, inner objects kept on a line when they fit",
    {
      given: {
        customer: { kind: "company", legalName: "Globex Ltd", address: { country: "GB" } },
        lines: [{ description: "Consulting", quantity: 2, unitPrice: { amount: "100.00" } }],
        note: null,
      },
      want: [
        "{",
        "  customer: {",
        '    kind: "company",',
        '    legalName: "Globex Ltd",',
        '    address: { country: "GB" },',
        "  },",
        "  lines: [",
        '    { description: "Consulting", quantity: 2, unitPrice: { amount: "100.00" } },',
        "  ],",
        "  note: null,",
        "}",
      ].join("\n"),
    },
  ],
  [
    "keys quoted only when they are not identifiers, __proto__ computed",
    {
      given: JSON.parse(
        '{ "with space": 1, "1st": 2, "default": true, "$ok_1": [], "__proto__": {} }',
      ),
      want: [
        "{",
        '  "with space": 1,',
        '  "1st": 2,',
        "  default: true,",
        "  $ok_1: [],",
        '  ["__proto__"]: {},',
        "}",
      ].join("\n"),
    },
  ],
  [
    "several objects of more than one key, one a line however short",
    {
      given: {
        rows: [
          { a: 1, b: 2 },
          { a: 3, b: 4 },
        ],
      },
      want: ["{", "  rows: [", "    { a: 1, b: 2 },", "    { a: 3, b: 4 },", "  ],", "}"].join(
        "\n",
      ),
    },
  ],
];

/** Strings that would end the JSDoc comment or its line, written as the same strings that cannot. */
const ESCAPES: [string, { given: unknown; want: string }][] = [
  ["a comment's end", { given: { note: "a */ b" }, want: String.raw`{ note: "a *\/ b" }` }],
  ["line breaks", { given: { s: "a\nb\u2028c" }, want: String.raw`{ s: "a\nb\u2028c" }` }],
];

describe("exampleLiteral", () => {
  it.each([...CASES, ...ESCAPES])("%s", (_, { given, want }) => {
    expect(exampleLiteral(given, PLACE)).toBe(want);
  });

  // Prettier keeps a broken object broken, so this shows the layout inside is its own (indents,
  // commas, quotes, what fits on a line); the wants above show which objects break.
  it.each(CASES)("%s: prettier leaves the call as it is", async (_, { given }) => {
    const code = `${RUN}${exampleLiteral(given, PLACE)});\n`;
    expect(await prettier.format(code, { parser: "babel-ts" })).toBe(code);
  });

  it.each(ESCAPES)(
    "%s: evaluates to the same string and holds no comment end or line break",
    (_, { given }) => {
      const literal = exampleLiteral(given, PLACE);
      expect(literal).not.toMatch(/\*\/|[\n\r\u2028\u2029]/);
      const evaluated: unknown = runInNewContext(`(${literal})`);
      expect(evaluated).toEqual(given);
    },
  );
});
