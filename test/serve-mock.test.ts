import type { ValidateFunction } from "ajv";
import { generate } from "json-schema-faker";
import { beforeAll, describe, expect, it } from "vitest";
import { buildModel } from "../src/model/build-model.js";
import { flowSchemaDocument } from "../src/model/flow-schema-document.js";
import { createMocker, MockUnavailableError, type MockSource } from "../src/serve/mock-output.js";
import { createAjv } from "../src/spec/ajv.js";
import { checkSpecs } from "../src/spec/load-specs.js";
import { readSpecFiles } from "../src/spec/read-spec-files.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const FLOW_IDS = ["@acme/invoice", "@acme/org-chart", "@acme/qa", "@acme/search", "@globex/search"];

/** Inputs valid for each flow that no example of the repo's specs has. */
const INPUTS: Record<string, (i: number) => unknown> = {
  "@acme/invoice": (i) => ({
    customer:
      i % 2 === 0
        ? { kind: "person", name: `Person ${i}` }
        : { kind: "company", legalName: `Company ${i}` },
    lines: [
      {
        description: `Line ${i}`,
        quantity: i + 1,
        unitPrice: { amount: `${i}.50`, currency: "EUR" },
      },
    ],
  }),
  "@acme/org-chart": (i) => ({ people: [{ id: `p${i}`, name: `Person ${i}`, managerId: null }] }),
  "@acme/qa": (i) =>
    i % 2 === 0
      ? { question: `Question ${i}?` }
      : { question: `Pick ${i}`, options: ["yes", "no"] },
  "@acme/search": (i) => ({ query: `words ${i}`, ...(i % 3 === 0 ? { sort: "newest" } : {}) }),
  "@globex/search": (i) => ({
    text: `product ${i}`,
    ...(i % 2 === 0 ? { categories: ["tools"] } : {}),
  }),
};
const INPUT_COUNT = 25;

/** The same JSON value with every object's keys in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, item]) => [key, reverseKeys(item)]),
  );
}

function inputsOf(id: string): unknown[] {
  const make = INPUTS[id];
  if (!make) throw new Error(`no inputs for ${id}`);
  return Array.from({ length: INPUT_COUNT }, (_, i) => make(i));
}

describe("mock outputs of flows without a handler, for the repo's specs", () => {
  const sources = new Map<string, MockSource>();
  const validators = new Map<string, ValidateFunction>();
  const source = (id: string): MockSource => sources.get(id) ?? expect.unreachable(`no flow ${id}`);
  const isValidOutput = (id: string, value: unknown): boolean =>
    validators.get(id)?.(value) ?? false;

  beforeAll(async () => {
    const checked = checkSpecs(await readSpecFiles("specs", REPO_ROOT));
    if (!checked.ok) throw new Error(JSON.stringify(checked.issues));
    const model = buildModel(checked.specs);
    const ajv = createAjv();
    for (const flow of model.flows) {
      const outputSchema = flowSchemaDocument(model, flow, "output");
      sources.set(flow.id, { id: flow.id, outputSchema, examples: flow.examples });
      validators.set(flow.id, ajv.compile(outputSchema));
    }
    expect([...sources.keys()]).toEqual(FLOW_IDS);
  });

  it("answers an example's input with that example's output, whatever the key order", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    let examples = 0;
    for (const id of FLOW_IDS) {
      for (const example of source(id).examples) {
        const output = await mocker.mock(source(id), example.input);
        expect(output, id).toEqual(example.output);
        expect(output, `${id} gives a copy`).not.toBe(example.output);
        expect(
          await mocker.mock(source(id), reverseKeys(example.input)),
          `${id}, keys reversed`,
        ).toEqual(example.output);
        examples++;
      }
    }
    expect(examples).toBe(8);
    // The two invoice examples have different outputs: each input finds its own.
    const invoice = source("@acme/invoice");
    expect(await mocker.mock(invoice, reverseKeys(invoice.examples[1]?.input))).toMatchObject({
      invoiceId: "inv_2",
    });
  });

  it("generates output valid against the output schema for inputs no example has, for every flow", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    let longestArray = 0;
    for (const id of FLOW_IDS) {
      const schemaBefore = JSON.stringify(source(id).outputSchema);
      const outputs = new Set<string>();
      for (const input of inputsOf(id)) {
        const output = await mocker.mock(source(id), input);
        const validate = validators.get(id);
        expect(
          validate?.(output),
          `${id} ${JSON.stringify(output)}: ${JSON.stringify(validate?.errors)}`,
        ).toBe(true);
        outputs.add(JSON.stringify(output));
        longestArray = Math.max(longestArray, longestArrayIn(output));
      }
      // Generated, not the example fallback: different inputs get different data.
      expect(outputs.size, id).toBeGreaterThan(INPUT_COUNT / 2);
      expect(JSON.stringify(source(id).outputSchema), `${id}'s schema is left as it was`).toBe(
        schemaBefore,
      );
    }
    // No output array sets maxItems or minItems: faker's default length, 0 to 3, applies.
    expect(longestArray).toBe(3);
  });

  it("gives the same output for the same seed, flow and input, in any mocker and any call order", async () => {
    const calls = FLOW_IDS.flatMap((id) => inputsOf(id).map((input) => ({ id, input })));
    const first = createMocker({ seed: 7, isValidOutput });
    const second = createMocker({ seed: 7, isValidOutput });
    const firstOutputs: unknown[] = [];
    for (const { id, input } of calls) firstOutputs.push(await first.mock(source(id), input));
    const secondOutputs: unknown[] = [];
    for (const { id, input } of [...calls].reverse())
      secondOutputs.unshift(await second.mock(source(id), reverseKeys(input)));
    expect(secondOutputs).toEqual(firstOutputs);
    expect(await first.mock(source("@acme/qa"), { question: "Why?" })).toEqual(
      await first.mock(source("@acme/qa"), { question: "Why?" }),
    );

    const otherSeed = createMocker({ seed: 8, isValidOutput });
    const otherOutputs: unknown[] = [];
    for (const { id, input } of calls) otherOutputs.push(await otherSeed.mock(source(id), input));
    const differing = new Set(
      calls
        .filter((_, i) => JSON.stringify(otherOutputs[i]) !== JSON.stringify(firstOutputs[i]))
        .map((call) => call.id),
    );
    expect(differing.size).toBeGreaterThan(0);
  });

  it("gives the same output in every process: the value for one call is pinned", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    expect(await mocker.mock(source("@acme/invoice"), INPUTS["@acme/invoice"]?.(0)))
      .toMatchInlineSnapshot(`
      {
        "invoiceId": "r54",
        "status": "draft",
        "total": {
          "amount": "229",
          "currency": "JPY",
        },
      }
    `);
  });

  it("leaves json-schema-faker's defaults as they were", async () => {
    const schema = {
      type: "object",
      required: ["tags"],
      properties: { tags: { type: "array", items: { type: "string" } } },
    };
    const before = await generate(schema);
    const mocker = createMocker({ seed: 3, isValidOutput });
    for (const id of FLOW_IDS) await mocker.mock(source(id), inputsOf(id)[0]);
    expect(await generate(schema)).toEqual(before);
  });

  it("keeps the recursive org chart small", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    const chart = source("@acme/org-chart");
    let longest = 0;
    let deepest = 0;
    for (let i = 0; i < 200; i++) {
      const output = await mocker.mock(chart, { people: [{ id: String(i), name: "N" }] });
      longest = Math.max(longest, JSON.stringify(output).length);
      deepest = Math.max(deepest, depthOf((output as { root: OrgNode }).root));
    }
    expect(longest).toBeLessThan(2048);
    // The recursion is exercised (some reports have reports), and cut off.
    expect(deepest).toBeGreaterThanOrEqual(3);
    expect(deepest).toBeLessThanOrEqual(6);
  });
});

function longestArrayIn(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const items: unknown[] = Array.isArray(value) ? value : Object.values(value);
  return Math.max(Array.isArray(value) ? value.length : 0, ...items.map(longestArrayIn));
}

interface OrgNode {
  readonly children: readonly OrgNode[];
}

function depthOf(node: OrgNode): number {
  return 1 + Math.max(0, ...node.children.map(depthOf));
}

describe("mock outputs when generated data never passes the output check", () => {
  // Satisfiable ("aaaaaaaaaaaaaaaaaaaa"), but json-schema-faker pads the pattern's match with
  // letters and digits of any case to reach minLength, so its strings never match.
  const outputSchema = {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    type: "object",
    required: ["code"],
    properties: { code: { type: "string", pattern: "^[a-z]+$", minLength: 20 } },
  };
  const validate = createAjv().compile(outputSchema);
  const isValidOutput = (_id: string, value: unknown) => validate(value);
  const example = { input: { n: 1 }, output: { code: "abcdefghijklmnopqrstu" } };

  it("falls back to the flow's first example output", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    const flow: MockSource = {
      id: "@acme/codes",
      outputSchema,
      examples: [example, { input: { n: 2 }, output: { code: "zyxwvutsrqponmlkjihgf" } }],
    };
    expect(await mocker.mock(flow, { n: 3 })).toEqual(example.output);
    expect(await mocker.mock(flow, { n: 2 })).toEqual({ code: "zyxwvutsrqponmlkjihgf" });
  });

  it("throws an error that says to add an example or write a handler when there is no example", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput });
    const error = await mocker
      .mock({ id: "@acme/codes", outputSchema, examples: [] }, { n: 3 })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MockUnavailableError);
    expect((error as Error).message).toMatchInlineSnapshot(
      `"cannot mock @acme/codes: none of 20 values generated from its output schema is valid, and the spec has no example to fall back on; add an example ({ input, output }) to the spec of @acme/codes, or write a handler for it (@acme/codes.ts in the handlers folder)"`,
    );
  });

  it("never returns data the check rejects, not even an example's output", async () => {
    const mocker = createMocker({ seed: 1, isValidOutput: () => false });
    const flow: MockSource = { id: "@acme/codes", outputSchema, examples: [example] };
    await expect(mocker.mock(flow, { n: 3 })).rejects.toThrow(MockUnavailableError);
    await expect(mocker.mock(flow, example.input)).rejects.toThrow(/cannot mock @acme\/codes/);
  });
});
