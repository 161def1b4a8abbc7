import ts from "typescript";
import { describe, expect, it } from "vitest";
import { emitFlowModule, type EmitOptions } from "../src/emit/flow-module.js";
import { buildModel } from "../src/model/build-model.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { tempProject } from "./helpers/temp-dir.js";

const PLAIN: EmitOptions = { baseUrl: undefined, validators: false };

/** `@acme/qa`'s module as emitted from a spec with these fields over a small input and output. */
async function emitQa(fields: Record<string, unknown>, options = PLAIN): Promise<string> {
  const spec = {
    input: {
      type: "object",
      properties: {
        question: { type: "string" },
        context: { type: "array", items: { type: "object" } },
      },
    },
    output: { type: "object" },
    ...fields,
  };
  const dir = await tempProject({ "specs/@acme/qa.json": spec });
  const loaded = await loadSpecs("specs", dir);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues.slice(0, 3)));
  const [flow] = buildModel(loaded.specs).flows;
  if (flow === undefined) throw new Error("no flow");
  return emitFlowModule(flow, options);
}

/** The factory's JSDoc as TypeScript reads it: its tags and their text. */
function factoryTags(module: string): { tag: string; text: string }[] {
  const file = ts.createSourceFile("qa.ts", module, ts.ScriptTarget.Latest, true);
  const factory = file.statements.find(ts.isFunctionDeclaration);
  if (factory === undefined) throw new Error("no factory function");
  return ts.getJSDocTags(factory).map((tag) => ({
    tag: tag.tagName.text,
    text: ts.getTextOfJSDocComment(tag.comment) ?? "",
  }));
}

/** The statements TypeScript reads in the module, by kind: text that left a comment would add some. */
function statementKinds(module: string): string[] {
  const file = ts.createSourceFile("qa.ts", module, ts.ScriptTarget.Latest, true);
  return file.statements.map((statement) => ts.SyntaxKind[statement.kind]);
}

const LONG_INPUT = {
  question: "What changed in the second quarter, and which regions drove it?",
  context: [
    { region: "EMEA", revenue: "1200000.00", currency: "EUR", note: "after the price change" },
    { region: "APAC", revenue: "800000.00", currency: "USD", note: "two new resellers" },
  ],
};

describe("emitFlowModule's client factory", () => {
  it.each([
    ["a description line starting with @", { description: "Answers.\n  @deprecated use v2" }],
    ["a summary starting with @", { summary: "@acme's question answering" }],
    [
      "an example string holding a comment's end",
      { examples: [{ input: { question: "*/ x" }, output: {} }] },
    ],
    ["a long example", { examples: [{ input: LONG_INPUT, output: {} }] }],
  ])("%s: JSDoc has the @example tag only, and no text leaves it", async (_, fields) => {
    const module = await emitQa(fields);
    expect(factoryTags(module).map((tag) => tag.tag)).toEqual(["example"]);
    expect(statementKinds(module)).toEqual(statementKinds(await emitQa({})));
  });

  it("keeps a description's @ line as text, escaped as TSDoc writes it", async () => {
    const module = await emitQa({ description: "Answers.\n  @deprecated use v2" });
    expect(module).toContain(" *   \\@deprecated use v2\n");
  });

  it("prints the example input as a formatted object literal, no line over 80 columns", async () => {
    const [example] = factoryTags(await emitQa({ examples: [{ input: LONG_INPUT, output: {} }] }));
    const run = example?.text.slice(example.text.indexOf("const output"));
    expect(run).toBe(
      [
        "const output = await qa.run({",
        '  question: "What changed in the second quarter, and which regions drove it?",',
        "  context: [",
        "    {",
        '      region: "EMEA",',
        '      revenue: "1200000.00",',
        '      currency: "EUR",',
        '      note: "after the price change",',
        "    },",
        "    {",
        '      region: "APAC",',
        '      revenue: "800000.00",',
        '      currency: "USD",',
        '      note: "two new resellers",',
        "    },",
        "  ],",
        "});",
      ].join("\n"),
    );
    expect(Math.max(...(run ?? "").split("\n").map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it("writes a comment's end inside an example string as the same string that cannot end it", async () => {
    const [example] = factoryTags(
      await emitQa({ examples: [{ input: { question: "*/ x" }, output: {} }] }),
    );
    expect(example?.text).toContain('const output = await qa.run({ question: "*\\/ x" });');
  });

  it.each([
    ["no base URL", PLAIN, "(qaFlow, options)"],
    [
      "a base URL",
      { ...PLAIN, baseUrl: "https://api.example.com" },
      '(qaFlow, { baseUrl: "https://api.example.com" }, options)',
    ],
  ])("passes the runtime defaults only when there are some: %s", async (_, options, want) => {
    const module = await emitQa({}, options);
    expect(module).toContain(`return runtime.createFlowClient<QaInput, QaOutput, paths>${want};`);
  });
});
