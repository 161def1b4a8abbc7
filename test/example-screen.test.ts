import { describe, expect, it } from "vitest";
import { createAjv, schemaForAjv } from "../src/spec/ajv.js";
import { createExampleScreen } from "../src/spec/example-screen.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { runExamplesTask } from "../src/spec/check-examples.js";
import { checkSpecs, loadSpecs } from "../src/spec/load-specs.js";
import { readSpecFiles } from "../src/spec/read-spec-files.js";
import type { SpecIndex } from "../src/spec/schema-refs.js";
import { tempProject } from "./helpers/temp-dir.js";

const MONEY = {
  type: "object",
  $defs: {
    Money: {
      type: "object",
      required: ["amount", "currency"],
      properties: { amount: { type: "integer" }, currency: { enum: ["EUR", "USD"] } },
    },
    Priced: {
      type: "object",
      required: ["price"],
      properties: { price: { $ref: "#/$defs/Money" } },
    },
  },
};

/**
 * Input schemas with values Ajv accepts (`good`) and refuses (`bad`). `path` says which way the
 * examples go: "screen" schemas are decided by the screen when their examples pass; "ajv" ones
 * always reach Ajv. The bad values include what cfworker's own formats would let through.
 */
const CASES: [
  string,
  {
    path: "screen" | "ajv";
    schema: Record<string, unknown>;
    good: unknown[];
    bad: unknown[];
  },
][] = [
  [
    "types, required, additionalProperties",
    {
      path: "screen",
      schema: {
        required: ["q"],
        additionalProperties: false,
        properties: { q: { type: "string" } },
      },
      good: [{ q: "x" }],
      bad: [{}, { q: 1 }, { q: "x", extra: true }],
    },
  ],
  [
    "formats as ajv-formats reads them (email, uuid, date, uri)",
    {
      path: "screen",
      schema: {
        properties: {
          email: { type: "string", format: "email" },
          id: { type: "string", format: "uuid" },
          day: { type: "string", format: "date" },
          link: { type: "string", format: "uri" },
        },
      },
      good: [
        { email: "ann@example.com" },
        { id: "urn:uuid:6f1c1a2e-1111-4a5b-9c3d-0123456789ab" },
        { day: "2024-02-29" },
        { link: "https://example.com/a?b=c" },
      ],
      bad: [
        { email: '"a b"@example.com' },
        { email: "ann@[127.0.0.1]" },
        { id: "not-a-uuid" },
        { day: "2023-02-29" },
        { link: "example" },
      ],
    },
  ],
  [
    "number formats",
    {
      path: "screen",
      schema: {
        properties: {
          small: { type: "integer", format: "int32" },
          big: { type: "number", format: "int64" },
          any: { type: "number", format: "double" },
        },
      },
      good: [{ small: 2147483647 }, { big: 2 ** 40 }, { any: 0.5 }],
      bad: [{ small: 2147483648 }, { big: 1.5 }],
    },
  ],
  [
    "a $ref into a shared file, oneOf, unevaluatedProperties",
    {
      path: "screen",
      schema: {
        properties: { price: { $ref: "../_shared/money.json#/$defs/Money" } },
        oneOf: [{ required: ["price"] }, { required: ["free"] }],
        unevaluatedProperties: { type: "boolean" },
      },
      good: [{ price: { amount: 3, currency: "EUR" } }, { free: true }],
      bad: [
        { price: { amount: 3, currency: "GBP" } },
        { price: { amount: 3, currency: "EUR" }, free: true },
        { free: "yes" },
      ],
    },
  ],
  [
    "$defs of its own, recursion, the root, and a shared schema that refers on",
    {
      path: "screen",
      schema: {
        $defs: {
          Node: {
            type: "object",
            properties: {
              children: { type: "array", items: { $ref: "#/$defs/Node" } },
              priced: { $ref: "../_shared/money.json#/$defs/Priced" },
            },
          },
        },
        properties: { tree: { $ref: "#/$defs/Node" }, next: { $ref: "#" } },
      },
      good: [
        {
          tree: { children: [{ children: [] }], priced: { price: { amount: 1, currency: "USD" } } },
        },
        { next: { next: { tree: {} } } },
      ],
      bad: [
        { tree: { children: [{ children: "none" }] } },
        { tree: { priced: { price: { amount: 1, currency: "GBP" } } } },
        { tree: { children: [{ priced: {} }] } },
        { next: { next: { tree: { children: 1 } } } },
      ],
    },
  ],
  [
    "an escaped slash in a pointer, which stays inside its token",
    {
      path: "screen",
      schema: {
        $defs: {
          "a/$defs/b": { type: "string" },
          a: { $defs: { b: { type: "integer" } } },
        },
        properties: { v: { $ref: "#/$defs/a%2F$defs%2Fb" } },
      },
      good: [{ v: "x" }],
      bad: [{ v: 5 }],
    },
  ],
  [
    "a $ref into a value, not a subschema",
    {
      path: "ajv",
      schema: {
        properties: { n: { $ref: "#/x-defs/N" } },
        "x-defs": { N: { type: "integer", format: "int32" } },
      },
      good: [{ n: 1 }],
      bad: [{ n: 2 ** 40 }],
    },
  ],
  [
    "property names every object inherits",
    {
      path: "screen",
      schema: {
        required: ["constructor"],
        properties: { constructor: { type: "string" }, toString: { type: "string" } },
      },
      good: [{ constructor: "x" }, { constructor: "x", toString: "y" }],
      bad: [{}, { constructor: 1 }, { constructor: "x", toString: 2 }],
    },
  ],
  [
    "multipleOf, read as Ajv reads it",
    {
      path: "ajv",
      schema: { properties: { step: { type: "number", multipleOf: 0.5 } } },
      good: [{ step: 1.5 }],
      bad: [{ step: 1.2 }],
    },
  ],
  [
    "a pattern valid only without the u flag",
    {
      path: "ajv",
      schema: { properties: { code: { type: "string", pattern: "^[a-z]+\\:[0-9]+$" } } },
      good: [{ code: "a:1" }],
      bad: [{ code: "a-1" }],
    },
  ],
];

const OUTPUT = { type: "object" };

function flowSpec(schema: Record<string, unknown>, examples: unknown[]): Record<string, unknown> {
  return {
    input: { type: "object", ...schema },
    output: OUTPUT,
    examples: examples.map((input) => ({ input, output: {} })),
  };
}

function indexOf(flows: Record<string, Record<string, unknown>>): SpecIndex {
  return {
    files: new Map<string, unknown>([["_shared/money.json", MONEY], ...Object.entries(flows)]),
    flowFiles: new Set(Object.keys(flows)),
    brokenFiles: new Set(),
  };
}

describe("example checks", () => {
  it.each(CASES)("%s: good examples pass and every bad one is reported", async (_name, c) => {
    const dir = await tempProject({
      "specs/_shared/money.json": MONEY,
      "specs/@acme/good.json": flowSpec(c.schema, c.good),
      "specs/@acme/bad.json": flowSpec(c.schema, c.bad),
    });
    const result = await loadSpecs("specs", dir);
    const issues = result.ok ? [] : sortIssues(result.issues).map(formatIssue);
    expect(issues.filter((line) => line.includes("good.json"))).toEqual([]);
    const reported = new Set(
      issues
        .filter((line) => line.includes("[invalid-example]"))
        .map((line) => /#\/examples\/(\d+)\//.exec(line)?.[1]),
    );
    expect([...reported].sort()).toEqual(c.bad.map((_, i) => String(i)));
  });

  it.each(CASES)(
    "%s: deferred to a task (a worker thread's), the same problems are found",
    async (_name, c) => {
      const dir = await tempProject({
        "specs/_shared/money.json": MONEY,
        "specs/@acme/good.json": flowSpec(c.schema, c.good),
        "specs/@acme/bad.json": flowSpec(c.schema, c.bad),
      });
      const sources = await readSpecFiles("specs", dir);
      const direct = checkSpecs(sources);
      const deferred = checkSpecs(sources, { deferChecks: true });
      if (!deferred.ok || deferred.examples === undefined)
        throw new Error("expected the example checks to be left to a task");
      const placed = deferred.examples.place(deferred.examples.tasks.flatMap(runExamplesTask));
      expect(placed.warnings).toEqual([]);
      expect(sortIssues(placed.errors).map(formatIssue)).toEqual(
        direct.ok ? [] : sortIssues(direct.issues).map(formatIssue),
      );
    },
  );

  it.each(CASES)("%s: the screen passes only what Ajv passes", (_name, c) => {
    const spec = flowSpec(c.schema, []);
    const screen = createExampleScreen(indexOf({ "@acme/x.json": spec }), ["@acme/x.json"]);
    const ajv = createAjv({ optimize: false });
    ajv.addSchema(schemaForAjv(MONEY), "file:///_shared/money.json");
    const validate = ajv.compile({ ...(spec.input as object), $id: "file:///@acme/x.json?input" });
    for (const value of c.good) {
      expect(validate(value)).toBe(true);
      expect(screen("@acme/x.json", "input", value)).toBe(c.path === "screen");
    }
    for (const value of c.bad) {
      expect(validate(value)).toBe(false);
      expect(screen("@acme/x.json", "input", value)).toBe(false);
    }
  });

  it("leaves a value to Ajv when a $ref leads nowhere it knows", () => {
    const spec = flowSpec({ properties: { a: { $ref: "../_shared/none.json" } } }, []);
    const screen = createExampleScreen(indexOf({ "@acme/x.json": spec }), ["@acme/x.json"]);
    expect(screen("@acme/x.json", "input", { a: 1 })).toBe(false);
    expect(screen("@acme/x.json", "input", {})).toBe(false);
  });

  it("refuses a $ref path with an empty segment, which Ajv cannot resolve", async () => {
    const dir = await tempProject({
      "specs/_shared/money.json": MONEY,
      "specs/@acme/x.json": flowSpec(
        { properties: { price: { $ref: "..//_shared/money.json#/$defs/Money" } } },
        [{ price: { amount: 1, currency: "GBP" } }],
      ),
    });
    const result = await loadSpecs("specs", dir);
    const issues = result.ok ? [] : result.issues.map(formatIssue);
    expect(issues).toEqual([
      expect.stringContaining(
        '#/input/properties/price/$ref: $ref "..//_shared/money.json#/$defs/Money" has an empty path segment',
      ),
    ]);
  });

  it("leaves the spec's own schema objects as they were", () => {
    const spec = flowSpec(CASES[3]![1].schema, []);
    const before = JSON.stringify(spec);
    const money = JSON.stringify(MONEY);
    const screen = createExampleScreen(indexOf({ "@acme/x.json": spec }), ["@acme/x.json"]);
    expect(screen("@acme/x.json", "input", { free: true })).toBe(true);
    expect(JSON.stringify(spec)).toBe(before);
    expect(JSON.stringify(MONEY)).toBe(money);
    expect(Object.getOwnPropertyNames(spec.input)).not.toContain("__absolute_uri__");
  });
});
