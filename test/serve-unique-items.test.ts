import { describe, expect, it } from "vitest";
import { useLinearUniqueItems } from "../src/serve/linear-unique-items.js";
import { createAjv } from "../src/spec/ajv.js";
import { serveFlow } from "./helpers/serve.js";

/** Request data as serve gets it: parsed from JSON text, so `1.0` and `-0` are what JSON.parse makes. */
const json = (text: string): unknown => JSON.parse(text) as unknown;
const unique = { type: "array", uniqueItems: true };

const cases: [string, { schema: object; data: unknown; want: boolean }][] = [
  ["no items", { schema: unique, data: [], want: true }],
  ["one item", { schema: unique, data: [{}], want: true }],
  ["distinct small objects", { schema: unique, data: [{ i: 0 }, { i: 1 }, { j: 0 }], want: true }],
  [
    "objects with keys in another order",
    { schema: unique, data: json('[{"a":1,"b":2},{"b":2,"a":1}]'), want: false },
  ],
  [
    "the same keys deeper, in another order",
    { schema: unique, data: json('[{"a":{"x":1,"y":[2]}},{"a":{"y":[2],"x":1}}]'), want: false },
  ],
  ["1 and 1.0", { schema: unique, data: json("[1, 1.0]"), want: false }],
  ["0 and -0", { schema: unique, data: json("[0, -0]"), want: false }],
  ["1 and 1.5", { schema: unique, data: [1, 1.5], want: true }],
  ["equal nested arrays", { schema: unique, data: json("[[1,[2,{}]],[1,[2,{}]]]"), want: false }],
  [
    "nested arrays in another order",
    {
      schema: unique,
      data: [
        [1, 2],
        [2, 1],
      ],
      want: true,
    },
  ],
  ['null and "null"', { schema: unique, data: [null, "null"], want: true }],
  ["true and 1", { schema: unique, data: [true, 1], want: true }],
  ['"1" and 1', { schema: unique, data: ["1", 1], want: true }],
  ["{} and []", { schema: unique, data: [{}, []], want: true }],
  ['[1] and {"0":1}', { schema: unique, data: [[1], { 0: 1 }], want: true }],
  [
    "own __proto__ keys",
    { schema: unique, data: json('[{"__proto__":1},{"__proto__":1}]'), want: false },
  ],
  [
    "Ajv's pair: the last item equal to an earlier one",
    { schema: unique, data: [{}, [], {}, [], 0], want: false },
  ],
  [
    "uniqueItems false",
    { schema: { type: "array", uniqueItems: false }, data: [{}, {}], want: true },
  ],
  [
    "several errors, in Ajv's order",
    { schema: { ...unique, maxItems: 2, items: { type: "object" } }, data: [1, 1, 2], want: false },
  ],
  [
    "an array deeper in the value",
    {
      schema: { type: "object", properties: { l: unique } },
      data: { l: [{ a: 1 }, { a: 1 }] },
      want: false,
    },
  ],
  // Ajv's loop for scalar `items` types: its own pair, and items of other types skipped.
  [
    "scalar items: Ajv's pair",
    { schema: { ...unique, items: { type: "string" } }, data: ["a", "b", "a", "b"], want: false },
  ],
  [
    "scalar items: 1 and 1.0",
    { schema: { ...unique, items: { type: "integer" } }, data: json("[1, 1.0]"), want: false },
  ],
  [
    'scalar items: "1" and 1',
    { schema: { ...unique, items: { type: ["string", "number"] } }, data: ["1", 1], want: true },
  ],
  [
    "scalar items: equal items of another type",
    { schema: { ...unique, items: { type: "string" } }, data: [{}, {}], want: false },
  ],
  [
    "scalar items: nullable",
    {
      schema: { ...unique, items: { type: "string", nullable: true } },
      data: [null, "null", null],
      want: false,
    },
  ],
];

describe("serve's linear uniqueItems", () => {
  it.each(cases)("%s: Ajv's verdict and errors", (_, { schema, data, want }) => {
    const ajv = createAjv();
    const linear = createAjv();
    useLinearUniqueItems(linear);
    const theirs = ajv.compile(schema);
    const ours = linear.compile(schema);
    expect(theirs(data)).toBe(want);
    expect(ours(data)).toBe(want);
    expect(ours.errors ?? null).toEqual(theirs.errors ?? null);
  });

  it("keeps uniqueItems where Ajv checks it among the array keywords", () => {
    const arrayKeywords = (ajv: ReturnType<typeof createAjv>) =>
      ajv.RULES.rules.find((group) => group.type === "array")?.rules.map((rule) => rule.keyword);
    const linear = createAjv();
    useLinearUniqueItems(linear);
    expect(arrayKeywords(linear)).toEqual(arrayKeywords(createAjv()));
  });
});

const KEY = "k_unique_0123456789abcdef";

describe("uniqueItems in flowgen serve", () => {
  it("answers 200,000 distinct small objects at once, and names a duplicate as Ajv does", async () => {
    // 200,000 items of `{"i":199999}` are about 2.6 MB.
    const flow = await serveFlow(
      "many",
      { type: "object", properties: { list: { type: "array", uniqueItems: true } } },
      KEY,
      { bodyLimit: 8 << 20 },
    );
    const post = (list: unknown[]) => flow.post({ list });
    const list = Array.from({ length: 200_000 }, (_, i) => ({ i }));
    // Ajv compares every pair of these objects, 2·10¹⁰ deep equals: the test's timeout is what fails then.
    expect((await post(list)).status).toBe(200);
    expect(await post([...list, { i: 7 }])).toMatchObject({
      status: 400,
      body: {
        code: "invalid_input",
        details: [
          {
            pointer: "/list",
            message: "must NOT have duplicate items (items ## 7 and 200000 are identical)",
          },
        ],
      },
    });
  }, 10_000);
});
