import { describe, expect, it } from "vitest";
import { CHANGE_RULES, type RuleId, type Side } from "../src/diff/change-rules.js";
import { diffContracts } from "../src/diff/contract-diff.js";
import { contract } from "./helpers/contract.js";

const obj = (
  properties: Record<string, unknown>,
  required: string[] = [],
  extra: Record<string, unknown> = {},
) => ({ type: "object", properties, required, ...extra });
const str = { type: "string" };

interface Case {
  side: Side;
  base: unknown;
  head: unknown;
  /** `kind rule pointer: message` for each change, in report order. */
  want: string[];
  /** Component schemas both documents share, for `$ref`s. */
  schemas?: Record<string, unknown>;
}

/** Each row: a schema change on one side of one flow, and what the report says about it. */
const cases: [string, Case][] = [
  [
    "a new required input property",
    {
      side: "input",
      base: obj({ q: str }, ["q"]),
      head: obj({ q: str, lang: str }, ["q", "lang"]),
      want: ['breaking required-added /input/required: "lang" is now required'],
    },
  ],
  [
    "an existing input property becomes required",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: str }, ["q"]),
      want: ['breaking required-added /input/required: "q" is now required'],
    },
  ],
  [
    "an output property becomes required",
    {
      side: "output",
      base: obj({ a: str }),
      head: obj({ a: str }, ["a"]),
      want: ['compatible required-added /output/required: "a" is now required'],
    },
  ],
  [
    "an input property is no longer required",
    {
      side: "input",
      base: obj({ q: str }, ["q"]),
      head: obj({ q: str }),
      want: ['compatible required-removed /input/required: "q" is no longer required'],
    },
  ],
  [
    "an output property is no longer required",
    {
      side: "output",
      base: obj({ a: str }, ["a"]),
      head: obj({ a: str }),
      want: [
        'breaking required-removed /output/required: "a" is no longer required: callers may not get it',
      ],
    },
  ],
  [
    "a new optional input property",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: str, n: str }),
      want: ['compatible property-added /input/properties/n: new property "n"'],
    },
  ],
  [
    "a new output property",
    {
      side: "output",
      base: obj({ a: str }),
      head: obj({ a: str, b: str }, ["b"]),
      want: ['compatible property-added /output/properties/b: new property "b"'],
    },
  ],
  [
    "a new output property where none were allowed",
    {
      side: "output",
      base: obj({ a: str }, [], { additionalProperties: false }),
      head: obj({ a: str, b: str }, [], { additionalProperties: false }),
      want: [
        'breaking property-added-closed /output/properties/b: new property "b", where no additional properties were allowed: older clients that check output reject it',
      ],
    },
  ],
  [
    "an input property removed, additional properties allowed",
    {
      side: "input",
      base: obj({ q: str, old: str }),
      head: obj({ q: str }),
      want: ['compatible property-removed /input/properties/old: property "old" was removed'],
    },
  ],
  [
    "an input property removed, additional properties not allowed",
    {
      side: "input",
      base: obj({ q: str, old: str }, [], { additionalProperties: false }),
      head: obj({ q: str }, [], { additionalProperties: false }),
      want: [
        'breaking property-removed-closed /input/properties/old: property "old" was removed and no additional properties are allowed: callers that still send it are rejected',
      ],
    },
  ],
  [
    "a required output property removed",
    {
      side: "output",
      base: obj({ a: str, b: str }, ["a", "b"]),
      head: obj({ a: str }, ["a"]),
      want: ['breaking property-removed /output/properties/b: property "b" was removed'],
    },
  ],
  [
    "a new optional input property named like an Object method",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: str, constructor: str }),
      want: ['compatible property-added /input/properties/constructor: new property "constructor"'],
    },
  ],
  [
    "an input property deprecated",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: { ...str, deprecated: true } }),
      want: ["compatible property-deprecated /input/properties/q/deprecated: deprecated"],
    },
  ],
  [
    "an input type narrowed",
    {
      side: "input",
      base: obj({ n: { type: ["string", "number"] } }),
      head: obj({ n: { type: "string" } }),
      want: [
        'breaking type-narrowed /input/properties/n/type: type narrowed from "number" or "string" to "string"',
      ],
    },
  ],
  [
    "an input number becomes integer",
    {
      side: "input",
      base: obj({ n: { type: "number" } }),
      head: obj({ n: { type: "integer" } }),
      want: [
        'breaking type-narrowed /input/properties/n/type: type narrowed from "number" to "integer"',
      ],
    },
  ],
  [
    "an input integer becomes number",
    {
      side: "input",
      base: obj({ n: { type: "integer" } }),
      head: obj({ n: { type: "number" } }),
      want: [
        'compatible type-widened /input/properties/n/type: type widened from "integer" to "number"',
      ],
    },
  ],
  [
    "an output type narrowed",
    {
      side: "output",
      base: obj({ n: { type: ["string", "number"] } }),
      head: obj({ n: { type: "string" } }),
      want: [
        'compatible type-narrowed /output/properties/n/type: type narrowed from "number" or "string" to "string"',
      ],
    },
  ],
  [
    "an output type widened",
    {
      side: "output",
      base: obj({ n: { type: "integer" } }),
      head: obj({ n: { type: "number" } }),
      want: [
        'breaking type-widened /output/properties/n/type: type widened from "integer" to "number"',
      ],
    },
  ],
  [
    "an output type changed",
    {
      side: "output",
      base: obj({ n: { type: "string" } }),
      head: obj({ n: { type: "integer" } }),
      want: [
        'breaking type-changed /output/properties/n/type: type was "string", is now "integer"',
      ],
    },
  ],
  [
    "an input type changed",
    {
      side: "input",
      base: obj({ n: { type: "string" } }),
      head: obj({ n: { type: "boolean" } }),
      want: ['breaking type-changed /input/properties/n/type: type was "string", is now "boolean"'],
    },
  ],
  [
    "an output that may now be null (type array)",
    {
      side: "output",
      base: obj({ a: str }),
      head: obj({ a: { type: ["string", "null"] } }),
      want: ["breaking nullable-added /output/properties/a/type: null is now allowed"],
    },
  ],
  [
    "an input that accepts null now",
    {
      side: "input",
      base: obj({ a: str }),
      head: obj({ a: { type: ["string", "null"] } }),
      want: ["compatible nullable-added /input/properties/a/type: null is now allowed"],
    },
  ],
  [
    "an input that no longer accepts null",
    {
      side: "input",
      base: obj({ a: { type: ["null", "string"] } }),
      head: obj({ a: str }),
      want: ["breaking nullable-removed /input/properties/a/type: null is no longer allowed"],
    },
  ],
  [
    "an output that is never null now",
    {
      side: "output",
      base: obj({ a: { type: ["null", "string"] } }),
      head: obj({ a: str }),
      want: ["compatible nullable-removed /output/properties/a/type: null is no longer allowed"],
    },
  ],
  [
    "an output $ref that became oneOf [$ref, null]",
    {
      side: "output",
      schemas: { Money: obj({ amount: str }) },
      base: obj({ m: { $ref: "#/components/schemas/Money" } }),
      head: obj({ m: { oneOf: [{ $ref: "#/components/schemas/Money" }, { type: "null" }] } }),
      want: ["breaking nullable-added /output/properties/m/oneOf/1: null is now allowed"],
    },
  ],
  [
    "an output enum value added",
    {
      side: "output",
      base: obj({ s: { enum: ["a", "b"] } }),
      head: obj({ s: { enum: ["a", "b", "c"] } }),
      want: ['breaking enum-value-added /output/properties/s/enum: value "c" is now allowed'],
    },
  ],
  [
    "an input enum value added",
    {
      side: "input",
      base: obj({ s: { enum: ["a"] } }),
      head: obj({ s: { enum: ["a", "c"] } }),
      want: ['compatible enum-value-added /input/properties/s/enum: value "c" is now allowed'],
    },
  ],
  [
    "an input enum value removed",
    {
      side: "input",
      base: obj({ s: { enum: ["a", "b"] } }),
      head: obj({ s: { enum: ["a"] } }),
      want: [
        'breaking enum-value-removed /input/properties/s/enum: value "b" is no longer allowed',
      ],
    },
  ],
  [
    "an output enum value removed",
    {
      side: "output",
      base: obj({ s: { enum: ["a", "b"] } }),
      head: obj({ s: { enum: ["b"] } }),
      want: [
        'compatible enum-value-removed /output/properties/s/enum: value "a" is no longer allowed',
      ],
    },
  ],
  [
    "an output enum that allows null now",
    {
      side: "output",
      base: obj({ s: { enum: ["a"] } }),
      head: obj({ s: { enum: ["a", null] } }),
      want: ["breaking nullable-added /output/properties/s/enum: null is now allowed"],
    },
  ],
  [
    "an input const changed",
    {
      side: "input",
      base: obj({ k: { const: "v1" } }),
      head: obj({ k: { const: "v2" } }),
      want: [
        'breaking enum-value-removed /input/properties/k/const: value "v1" is no longer allowed',
        'compatible enum-value-added /input/properties/k/const: value "v2" is now allowed',
      ],
    },
  ],
  [
    "an input enum where any value went",
    {
      side: "input",
      base: obj({ s: str }),
      head: obj({ s: { ...str, enum: ["a"] } }),
      want: ['breaking constraint-added /input/properties/s/enum: only "a" allowed now'],
    },
  ],
  [
    "an output enum dropped",
    {
      side: "output",
      base: obj({ s: { ...str, enum: ["a"] } }),
      head: obj({ s: str }),
      want: [
        'breaking constraint-removed /output/properties/s/enum: any value allowed now (was "a")',
      ],
    },
  ],
  [
    "an input maxLength added",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: { ...str, maxLength: 100 } }),
      want: ["breaking bound-tightened /input/properties/q/maxLength: maxLength 100 added"],
    },
  ],
  [
    "an input minimum raised",
    {
      side: "input",
      base: obj({ n: { type: "integer", minimum: 0 } }),
      head: obj({ n: { type: "integer", minimum: 1 } }),
      want: ["breaking bound-tightened /input/properties/n/minimum: minimum raised from 0 to 1"],
    },
  ],
  [
    "an input exclusiveMaximum lowered",
    {
      side: "input",
      base: obj({ n: { exclusiveMaximum: 10 } }),
      head: obj({ n: { exclusiveMaximum: 5 } }),
      want: [
        "breaking bound-tightened /input/properties/n/exclusiveMaximum: exclusiveMaximum lowered from 10 to 5",
      ],
    },
  ],
  [
    "an input minItems added",
    {
      side: "input",
      base: obj({ l: { type: "array" } }),
      head: obj({ l: { type: "array", minItems: 1 } }),
      want: ["breaking bound-tightened /input/properties/l/minItems: minItems 1 added"],
    },
  ],
  [
    "an input maxProperties lowered",
    {
      side: "input",
      base: obj({ m: { type: "object", maxProperties: 9 } }),
      head: obj({ m: { type: "object", maxProperties: 3 } }),
      want: [
        "breaking bound-tightened /input/properties/m/maxProperties: maxProperties lowered from 9 to 3",
      ],
    },
  ],
  [
    "an input multipleOf 2 becomes 4",
    {
      side: "input",
      base: obj({ n: { multipleOf: 2 } }),
      head: obj({ n: { multipleOf: 4 } }),
      want: [
        "breaking bound-tightened /input/properties/n/multipleOf: multipleOf changed from 2 to 4",
      ],
    },
  ],
  [
    "an input uniqueItems added",
    {
      side: "input",
      base: obj({ l: { type: "array" } }),
      head: obj({ l: { type: "array", uniqueItems: true } }),
      want: ["breaking bound-tightened /input/properties/l/uniqueItems: items must be unique now"],
    },
  ],
  [
    "an input maxLength raised",
    {
      side: "input",
      base: obj({ q: { maxLength: 10 } }),
      head: obj({ q: { maxLength: 20 } }),
      want: [
        "compatible bound-loosened /input/properties/q/maxLength: maxLength raised from 10 to 20",
      ],
    },
  ],
  [
    "an input minLength removed",
    {
      side: "input",
      base: obj({ q: { minLength: 1 } }),
      head: obj({ q: {} }),
      want: ["compatible bound-loosened /input/properties/q/minLength: minLength 1 removed"],
    },
  ],
  [
    "an output maxLength raised",
    {
      side: "output",
      base: obj({ a: { maxLength: 10 } }),
      head: obj({ a: { maxLength: 20 } }),
      want: [
        "breaking bound-loosened /output/properties/a/maxLength: maxLength raised from 10 to 20",
      ],
    },
  ],
  [
    "an output maximum lowered",
    {
      side: "output",
      base: obj({ a: { maximum: 10 } }),
      head: obj({ a: { maximum: 5 } }),
      want: [
        "compatible bound-tightened /output/properties/a/maximum: maximum lowered from 10 to 5",
      ],
    },
  ],
  [
    "an input pattern added",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: { ...str, pattern: "^[a-z]+$" } }),
      want: ['breaking pattern-added /input/properties/q/pattern: pattern "^[a-z]+$" added'],
    },
  ],
  [
    "an input format added",
    {
      side: "input",
      base: obj({ e: str }),
      head: obj({ e: { ...str, format: "email" } }),
      want: ['breaking pattern-added /input/properties/e/format: format "email" added'],
    },
  ],
  [
    "an input pattern removed",
    {
      side: "input",
      base: obj({ q: { pattern: "^a" } }),
      head: obj({ q: {} }),
      want: ['compatible pattern-removed /input/properties/q/pattern: pattern "^a" removed'],
    },
  ],
  [
    "an output pattern removed",
    {
      side: "output",
      base: obj({ a: { pattern: "^a" } }),
      head: obj({ a: {} }),
      want: ['breaking pattern-removed /output/properties/a/pattern: pattern "^a" removed'],
    },
  ],
  [
    "an input pattern changed",
    {
      side: "input",
      base: obj({ q: { pattern: "^a" } }),
      head: obj({ q: { pattern: "^b" } }),
      want: [
        'breaking pattern-changed /input/properties/q/pattern: pattern changed from "^a" to "^b"',
      ],
    },
  ],
  [
    "an output pattern changed",
    {
      side: "output",
      base: obj({ a: { pattern: "^a" } }),
      head: obj({ a: { pattern: "^b" } }),
      want: [
        'breaking pattern-changed /output/properties/a/pattern: pattern changed from "^a" to "^b"',
      ],
    },
  ],
  [
    "input additional properties closed",
    {
      side: "input",
      base: obj({ q: str }),
      head: obj({ q: str }, [], { additionalProperties: false }),
      want: [
        "breaking additional-properties-closed /input/additionalProperties: additional properties are no longer allowed",
      ],
    },
  ],
  [
    "output additional properties opened",
    {
      side: "output",
      base: obj({ a: str }, [], { additionalProperties: false }),
      head: obj({ a: str }),
      want: [
        "breaking additional-properties-opened /output/additionalProperties: additional properties are allowed now",
      ],
    },
  ],
  [
    "input additional properties typed",
    {
      side: "input",
      base: obj({}),
      head: obj({}, [], { additionalProperties: str }),
      want: [
        'breaking type-narrowed /input/additionalProperties/type: type is now "string" (was any type)',
      ],
    },
  ],
  [
    "an input oneOf branch added",
    {
      side: "input",
      base: obj({ v: { oneOf: [str, { type: "integer" }] } }),
      head: obj({ v: { oneOf: [str, { type: "integer" }, { type: "boolean" }] } }),
      want: [
        'compatible branch-added /input/properties/v/oneOf/2: oneOf branch 2 ("boolean") added',
      ],
    },
  ],
  [
    "an output anyOf branch added",
    {
      side: "output",
      base: obj({ v: { anyOf: [str] } }),
      head: obj({ v: { anyOf: [str, { type: "integer" }] } }),
      want: [
        'breaking branch-added /output/properties/v/anyOf/1: anyOf branch 1 ("integer") added',
      ],
    },
  ],
  [
    "an input union branch removed, told apart by its discriminator",
    {
      side: "input",
      base: obj({
        c: { oneOf: [obj({ kind: { const: "person" } }), obj({ kind: { const: "company" } })] },
      }),
      head: obj({ c: { oneOf: [obj({ kind: { const: "company" } })] } }),
      want: [
        'breaking branch-removed /input/properties/c/oneOf/0: oneOf branch with kind="person" removed',
      ],
    },
  ],
  [
    "reordered union branches are paired by discriminator, not position",
    {
      side: "input",
      base: obj({
        c: {
          oneOf: [
            obj({ kind: { const: "person" }, name: str }),
            obj({ kind: { const: "company" } }),
          ],
        },
      }),
      head: obj({
        c: {
          oneOf: [
            obj({ kind: { const: "company" } }),
            obj({ kind: { const: "person" }, name: str }, ["name"]),
          ],
        },
      }),
      want: [
        'breaking required-added /input/properties/c/oneOf/1/required: "name" is now required',
      ],
    },
  ],
  [
    "an output union branch removed",
    {
      side: "output",
      base: obj({ v: { anyOf: [str, { type: "integer" }] } }),
      head: obj({ v: { anyOf: [str] } }),
      want: [
        'compatible branch-removed /output/properties/v/anyOf/1: anyOf branch 1 ("integer") removed',
      ],
    },
  ],
  [
    "an input anyOf becomes oneOf",
    {
      side: "input",
      base: obj({ v: { anyOf: [str, { type: "integer" }] } }),
      head: obj({ v: { oneOf: [str, { type: "integer" }] } }),
      want: ["breaking constraint-added /input/properties/v/oneOf: anyOf became oneOf"],
    },
  ],
  [
    "an input allOf branch added",
    {
      side: "input",
      base: obj({ v: { allOf: [str] } }),
      head: obj({ v: { allOf: [str, { minLength: 2 }] } }),
      want: ["breaking constraint-added /input/properties/v/allOf/1: allOf branch 1 added"],
    },
  ],
  [
    "an input tuple position added",
    {
      side: "input",
      base: obj({ t: { prefixItems: [str] } }),
      head: obj({ t: { prefixItems: [str, { type: "integer" }] } }),
      want: ["breaking constraint-added /input/properties/t/prefixItems/1: tuple position 1 added"],
    },
  ],
  [
    "an input tuple position narrowed",
    {
      side: "input",
      base: obj({ t: { prefixItems: [{ type: ["string", "integer"] }] } }),
      head: obj({ t: { prefixItems: [{ type: "integer" }] } }),
      want: [
        'breaking type-narrowed /input/properties/t/prefixItems/0/type: type narrowed from "integer" or "string" to "integer"',
      ],
    },
  ],
  [
    "an output items schema removed",
    {
      side: "output",
      base: obj({ l: { type: "array", items: str } }),
      head: obj({ l: { type: "array" } }),
      want: [
        'breaking type-widened /output/properties/l/items/type: any type is allowed now (was "string")',
      ],
    },
  ],
  [
    "an input contains removed",
    {
      side: "input",
      base: obj({ l: { contains: str } }),
      head: obj({ l: {} }),
      want: ["compatible constraint-removed /input/properties/l/contains: contains removed"],
    },
  ],
  [
    "an input that accepts nothing now",
    {
      side: "input",
      base: obj({ x: {} }),
      head: obj({ x: false }),
      want: ["breaking constraint-added /input/properties/x: accepts no value now"],
    },
  ],
  [
    "an input not changed",
    {
      side: "input",
      base: obj({ x: { not: str } }),
      head: obj({ x: { not: { type: "integer" } } }),
      want: [
        "breaking constraint-changed /input/properties/x/not: not changed; flowgen does not tell whether that accepts more or less, so it counts as breaking",
      ],
    },
  ],
  [
    "an output keyword flowgen does not classify",
    {
      side: "output",
      base: obj({ x: { dependencies: { a: ["b"] } } }),
      head: obj({ x: {} }),
      want: [
        "breaking constraint-changed /output/properties/x/dependencies: dependencies changed; flowgen does not classify this keyword, so the change counts as breaking",
      ],
    },
  ],
  [
    "a description changed",
    {
      side: "output",
      base: obj({ a: { ...str, description: "old" } }),
      head: obj({ a: { ...str, description: "new" } }),
      want: [
        "compatible description-changed /output/properties/a/description: description changed",
      ],
    },
  ],
  [
    "a change inside a referenced component",
    {
      side: "input",
      schemas: { Base: obj({ q: str }), Head: obj({ q: { ...str, maxLength: 5 } }) },
      base: { $ref: "#/components/schemas/Base" },
      head: { $ref: "#/components/schemas/Head" },
      want: ["breaking bound-tightened /input/properties/q/maxLength: maxLength 5 added"],
    },
  ],
];

describe("diffContracts: the rule table", () => {
  it.each(cases)("%s", (_, { side, base, head, want, schemas }) => {
    const flow = (schema: unknown) => ({
      "@acme/qa": side === "input" ? { input: schema } : { output: schema },
    });
    const report = diffContracts(contract(flow(base), schemas), contract(flow(head), schemas));
    expect(
      report.changes.map(
        (change) => `${change.kind} ${change.rule} ${change.pointer}: ${change.message}`,
      ),
    ).toEqual(want);
    expect(
      report.changes.every(
        (change) => change.flow === "@acme/qa" && change.kind === CHANGE_RULES[change.rule][side],
      ),
    ).toBe(true);
  });
});

describe("diffContracts: flows", () => {
  const qa = { input: obj({ q: str }, ["q"]) };
  const flowCases: [
    string,
    { base: Parameters<typeof contract>[0]; head: Parameters<typeof contract>[0]; want: string[] },
  ][] = [
    [
      "a new flow",
      {
        base: { "@acme/qa": qa },
        head: { "@acme/qa": qa, "@acme/new": qa },
        want: ["@acme/new compatible flow-added : new flow"],
      },
    ],
    [
      "a flow removed that was never deprecated",
      {
        base: { "@acme/qa": qa, "@acme/old": qa },
        head: { "@acme/qa": qa },
        want: [
          '@acme/old breaking flow-removed : flow removed without being deprecated first; mark it "deprecated": true in a release before removing it',
        ],
      },
    ],
    [
      "a deprecated flow removed",
      {
        base: { "@acme/qa": qa, "@acme/old": { ...qa, deprecated: true } },
        head: { "@acme/qa": qa },
        want: ["@acme/old breaking flow-removed : flow removed (it was deprecated)"],
      },
    ],
    [
      "a flow deprecated",
      {
        base: { "@acme/qa": qa },
        head: { "@acme/qa": { ...qa, deprecated: true } },
        want: ["@acme/qa compatible flow-deprecated /deprecated: flow deprecated"],
      },
    ],
    [
      "a flow no longer deprecated",
      {
        base: { "@acme/qa": { ...qa, deprecated: true } },
        head: { "@acme/qa": qa },
        want: ["@acme/qa compatible flow-undeprecated /deprecated: flow no longer deprecated"],
      },
    ],
    [
      "a flow's summary changed",
      {
        base: { "@acme/qa": qa },
        head: { "@acme/qa": { ...qa, summary: "Answer" } },
        want: ["@acme/qa compatible description-changed /summary: summary changed"],
      },
    ],
  ];
  it.each(flowCases)("%s", (_, { base, head, want }) => {
    const report = diffContracts(contract(base), contract(head));
    expect(
      report.changes.map((c) => `${c.flow} ${c.kind} ${c.rule} ${c.pointer}: ${c.message}`),
    ).toEqual(want);
  });

  it("has a row for every rule", () => {
    const covered = new Set<RuleId>();
    for (const [, { side, base, head, schemas }] of cases) {
      const flow = (schema: unknown) => ({
        "@acme/qa": side === "input" ? { input: schema } : { output: schema },
      });
      for (const change of diffContracts(
        contract(flow(base), schemas),
        contract(flow(head), schemas),
      ).changes)
        covered.add(change.rule);
    }
    for (const [, { base, head }] of flowCases)
      for (const change of diffContracts(contract(base), contract(head)).changes)
        covered.add(change.rule);
    expect(Object.keys(CHANGE_RULES).filter((rule) => !covered.has(rule as RuleId))).toEqual([]);
  });

  it("lists deprecated flows and counts breaking and compatible changes", () => {
    const report = diffContracts(
      contract({ "@acme/a": qa, "@acme/b": qa }),
      contract({ "@acme/a": { ...qa, deprecated: true }, "@acme/c": qa }),
      { base: "HEAD", head: "specs" },
    );
    expect(report).toMatchObject({
      base: "HEAD",
      head: "specs",
      breaking: 1,
      compatible: 2,
      deprecated: ["@acme/a"],
    });
  });
});
