import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { diffContracts } from "../src/diff/contract-diff.js";
import { formatDiffReport } from "../src/diff/diff-report.js";
import { contract } from "./helpers/contract.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

const node = (extra: Record<string, unknown> = {}) => ({
  type: "object",
  required: ["id", "children"],
  properties: {
    id: { type: "string", ...extra },
    children: { type: "array", items: { $ref: "#/components/schemas/Node" } },
  },
});

async function repoContract(): Promise<Record<string, unknown>> {
  return JSON.parse(
    await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8"),
  ) as Record<string, unknown>;
}

describe("diffContracts: references", () => {
  it("ends on recursive schemas and reports a change in them once", () => {
    const flows = { "@acme/tree": { output: { $ref: "#/components/schemas/Node" } } };
    const report = diffContracts(
      contract(flows, { Node: node() }),
      contract(flows, { Node: node({ type: ["string", "null"] }) }),
    );
    expect(report.changes.map((c) => `${c.kind} ${c.pointer}: ${c.message}`)).toEqual([
      "breaking /output/properties/id/type: null is now allowed",
    ]);
  });

  it("ends on a $ref chain that comes back to itself", () => {
    const schemas = {
      A: { $ref: "#/components/schemas/B" },
      B: { $ref: "#/components/schemas/A" },
    };
    const flows = {
      "@acme/loop": {
        input: { type: "object", properties: { x: { $ref: "#/components/schemas/A" } } },
      },
    };
    expect(diffContracts(contract(flows, schemas), contract(flows, schemas)).changes).toEqual([]);
  });

  it("finds a change behind a $ref in every flow that reaches it, and only there", () => {
    const money = { type: "object", properties: { cents: { type: "integer" } } };
    const flows = {
      "@acme/pay": { input: { $ref: "#/components/schemas/Money" } },
      "@acme/refund": {
        output: { type: "object", properties: { m: { $ref: "#/components/schemas/Money" } } },
      },
      "@acme/qa": { input: { type: "object" } },
    };
    const head = contract(
      { ...flows, "@acme/qa": { ...flows["@acme/qa"], summary: "Ask" } },
      { Money: { ...money, required: ["cents"] } },
    );
    const report = diffContracts(contract(flows, { Money: money }), head);
    expect(report.changes.map((c) => `${c.flow} ${c.kind} ${c.pointer}: ${c.message}`)).toEqual([
      '@acme/pay breaking /input/required: "cents" is now required',
      "@acme/qa compatible /summary: summary changed",
      '@acme/refund compatible /output/properties/m/required: "cents" is now required',
    ]);
    expect(diffContracts(head, structuredClone(head)).changes).toEqual([]);
  });

  it("finds flows by path, so renamed components change nothing", () => {
    const base = contract(
      { "@acme/qa": { input: { $ref: "#/components/schemas/Old" } } },
      { Old: node(), Node: node() },
    );
    const head = contract(
      { "@acme/qa": { input: { $ref: "#/components/schemas/acme.qa.Input" } } },
      { "acme.qa.Input": node(), Node: node() },
    );
    expect(diffContracts(base, head).changes).toEqual([]);
  });

  it("finds a change inside a renamed recursive component", () => {
    const base = contract(
      { "@acme/tree": { output: { $ref: "#/components/schemas/Node" } } },
      { Node: node() },
    );
    const renamed = JSON.parse(
      JSON.stringify(node({ maxLength: 3 })).replaceAll("schemas/Node", "schemas/acme.tree.Output"),
    ) as unknown;
    const head = contract(
      { "@acme/tree": { output: { $ref: "#/components/schemas/acme.tree.Output" } } },
      { "acme.tree.Output": renamed },
    );
    expect(diffContracts(base, head).changes.map((c) => `${c.kind} ${c.pointer}`)).toEqual([
      "compatible /output/properties/id/maxLength",
    ]);
  });

  it("reads a union that lost its null branch as null removed, and keywords beside a $ref as part of it", () => {
    const schemas = { Money: { type: "object", properties: { amount: { type: "string" } } } };
    const base = contract(
      {
        "@acme/pay": {
          output: {
            type: "object",
            properties: {
              m: { oneOf: [{ $ref: "#/components/schemas/Money" }, { type: "null" }] },
              n: { $ref: "#/components/schemas/Money" },
            },
          },
        },
      },
      schemas,
    );
    const head = contract(
      {
        "@acme/pay": {
          output: {
            type: "object",
            properties: {
              m: { $ref: "#/components/schemas/Money" },
              n: { $ref: "#/components/schemas/Money", required: ["amount"] },
            },
          },
        },
      },
      schemas,
    );
    expect(
      diffContracts(base, head).changes.map((c) => `${c.kind} ${c.rule} ${c.pointer}`),
    ).toEqual([
      "compatible nullable-removed /output/properties/m/oneOf/1",
      "compatible required-added /output/properties/n/required",
    ]);
  });

  it("finds nothing between the repository's contract and itself, and lists its deprecated flow", async () => {
    const document = await repoContract();
    expect(diffContracts(document, structuredClone(document))).toMatchObject({
      changes: [],
      breaking: 0,
      compatible: 0,
      deprecated: ["@acme/org-chart"],
    });
  });

  it("follows request bodies and responses given as $refs", () => {
    const base = contract({ "@acme/qa": { input: { type: "object" } } });
    const head = structuredClone(base) as {
      paths: Record<string, { post: Record<string, unknown> }>;
      components: Record<string, unknown>;
    };
    const post = head.paths["/v1/@acme/qa"]?.post ?? {};
    head.components.requestBodies = {
      QaBody: { content: { "application/json": { schema: { type: "object", required: ["q"] } } } },
    };
    post.requestBody = { $ref: "#/components/requestBodies/QaBody" };
    expect(diffContracts(base, head).changes.map((c) => c.message)).toEqual([
      '"q" is now required',
    ]);
  });
});

describe("formatDiffReport", () => {
  const base = contract({
    "@acme/qa": { input: { type: "object", properties: { "a|b": { type: "string" } } } },
    "@acme/old": {},
  });
  const head = contract({
    "@acme/qa": {
      input: {
        type: "object",
        properties: { "a|b": { type: "string" }, "<x>`": { type: "string" } },
        required: ["<x>`"],
      },
      deprecated: true,
    },
  });
  const report = diffContracts(base, head, { base: "HEAD", head: "specs" });

  it("prints one line per change, the deprecated flows and a count", () => {
    expect(formatDiffReport(report, "text")).toMatchInlineSnapshot(`
      "@acme/old: flow removed without being deprecated first; mark it "deprecated": true in a release before removing it (breaking for callers)
      @acme/qa #/deprecated: flow deprecated (compatible)
      @acme/qa #/input/required: "<x>\`" is now required (breaking for callers)
      Deprecated flows (compatible until removed): @acme/qa
      Contract HEAD → specs: 2 breaking changes, 1 compatible change
      "
    `);
  });

  it("writes Markdown for a pull-request comment, with names from specs escaped", () => {
    expect(formatDiffReport(report, "markdown")).toMatchInlineSnapshot(`
      "### flowgen: 2 breaking changes, 1 compatible change

      Comparing \`HEAD\` → \`specs\`.

      #### Breaking for callers

      | Flow | Where | Change |
      | --- | --- | --- |
      | \`@acme/old\` |  | flow removed without being deprecated first; mark it "deprecated": true in a release before removing it |
      | \`@acme/qa\` | \`#/input/required\` | "\\<x\\>\\\`" is now required |

      #### Compatible

      | Flow | Where | Change |
      | --- | --- | --- |
      | \`@acme/qa\` | \`#/deprecated\` | flow deprecated |

      Deprecated flows (compatible until removed): \`@acme/qa\`
      "
    `);
  });

  it("writes JSON that parses back to the report", () => {
    expect(JSON.parse(formatDiffReport(report, "json"))).toEqual(report);
  });

  it("says so when nothing changed", () => {
    expect(
      formatDiffReport(diffContracts(base, base, { base: "HEAD", head: "specs" }), "text"),
    ).toBe("Contract HEAD → specs: no changes\n");
  });
});
