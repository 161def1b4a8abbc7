import { describe, expect, it } from "vitest";
import { formatIssue, sortIssues } from "../src/issues.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { tempProject } from "./helpers/temp-dir.js";

const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
};

async function problems(files: Record<string, unknown>): Promise<string[]> {
  const dir = await tempProject(files);
  const result = await loadSpecs("specs", dir);
  return result.ok ? [] : sortIssues(result.issues).map(formatIssue);
}

describe("spec problems", () => {
  it("accepts a valid project", async () => {
    expect(await problems({ "specs/@acme/qa.json": qa })).toEqual([]);
  });

  it("reports every problem of a broken project at once, with file, position and pointer", async () => {
    const report = await problems({
      "specs/@acme/qa.json": {
        ouput: {},
        input: {
          type: "object",
          properties: {
            n: { type: "nubmer" },
            m: { tpye: "string" },
            c: { $ref: "../_shared/money.json#/$defs/Nope" },
            d: { $ref: "../../outside.json" },
            e: { $ref: "https://example.com/x.json" },
          },
        },
      },
      "specs/@acme/bad-example.json": {
        ...qa,
        examples: [{ name: "wrong", input: { question: 1 }, output: {} }],
      },
      "specs/@acme/list.json": { input: { type: "array" }, output: qa.output },
      "specs/@acme/other-id.json": { ...qa, id: "@acme/qa" },
      "specs/@Acme/x.json": qa,
      "specs/@acme/-x.json": qa,
      "specs/loose.json": qa,
      "specs/@acme/syntax.json": '{ "input": { "type": "object", }\n}',
      "specs/@acme/syntax-yaml.yaml": "input:\n  type: object\n output: {}\n",
      "specs/_shared/money.json": { type: "object", $defs: { Currency: { enum: ["EUR"] } } },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@Acme/x.json: org "Acme" in folder "@Acme" is not allowed: use lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters; rename the folder [invalid-flow-name] flowgen-cli/docs/errors.md#invalid-flow-name",
        "specs/@acme/-x.json: flow name "-x" is not allowed: use lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters; rename the file [invalid-flow-name] flowgen-cli/docs/errors.md#invalid-flow-name",
        "specs/@acme/bad-example.json:25:9 #/examples/0/input/question: example "wrong": input/question must be string; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "specs/@acme/list.json:2:3 #/input: the input schema must describe a JSON object; add "type": "object" at its root (put other values inside a property) [not-an-object-schema] flowgen-cli/docs/errors.md#not-an-object-schema",
        "specs/@acme/other-id.json:21:3 #/id: id "@acme/qa" differs from @acme/other-id, the id this file's path gives; change the id, or move the file to @acme/other-id.json [id-mismatch] flowgen-cli/docs/errors.md#id-mismatch",
        "specs/@acme/qa.json:1:1: missing required key "output"; add it [missing-key] flowgen-cli/docs/errors.md#missing-key",
        "specs/@acme/qa.json:2:3 #/ouput: unknown key "ouput" (did you mean "output"?); allowed keys: $schema, id, summary, description, deprecated, input, output, examples [unknown-key] flowgen-cli/docs/errors.md#unknown-key",
        "specs/@acme/qa.json:7:9 #/input/properties/n/type: "nubmer" is not a JSON Schema type (did you mean "number"?); use one of: array, boolean, integer, null, number, object, string [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/qa.json:10:9 #/input/properties/m/tpye: "tpye" is not a JSON Schema keyword (did you mean "type"?); fix the spelling, or prefix custom keywords with "x-" [unknown-keyword] flowgen-cli/docs/errors.md#unknown-keyword",
        "specs/@acme/qa.json:13:9 #/input/properties/c/$ref: $ref "../_shared/money.json#/$defs/Nope": nothing at #/$defs/Nope in _shared/money.json; check the pointer (definitions usually live under "#/$defs/<Name>") [ref-not-found] flowgen-cli/docs/errors.md#ref-not-found",
        "specs/@acme/qa.json:16:9 #/input/properties/d/$ref: $ref "../../outside.json" points outside the specs folder; move the schema into a shared file under it (name starting with "_") [ref-outside-specs] flowgen-cli/docs/errors.md#ref-outside-specs",
        "specs/@acme/qa.json:19:9 #/input/properties/e/$ref: $ref "https://example.com/x.json" is not relative; put the schema in a shared file under the specs folder (name starting with "_") and reference it by relative path [ref-not-relative] flowgen-cli/docs/errors.md#ref-not-relative",
        "specs/@acme/syntax-yaml.yaml:3:1: invalid YAML: All mapping items must start at the same column; fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
        "specs/@acme/syntax.json:1:32: invalid JSON: expected a property name in double quotes; fix the syntax (a JSON linter or editor shows it too) [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
        "specs/loose.json: flow specs live at specs/@<org>/<flow-name>.json (or .yaml/.yml); move this file there, or start its name with "_" if it is a shared schema [misplaced-file] flowgen-cli/docs/errors.md#misplaced-file",
      ]
    `);
  });

  it("rejects a $ref into another flow's spec file and says where shared schemas go", async () => {
    const report = await problems({
      "specs/@acme/qa.json": qa,
      "specs/@acme/uses.json": { input: { $ref: "qa.json#/input" }, output: qa.output },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/uses.json:3:5 #/input/$ref: $ref "qa.json#/input" points into the flow spec @acme/qa.json; move the shared part to a file whose name starts with "_" (for example _shared/qa.json) and reference that from both flows [ref-to-flow-file] flowgen-cli/docs/errors.md#ref-to-flow-file",
      ]
    `);
  });

  it("reports a missing specs folder with what to do", async () => {
    expect(await problems({})).toMatchInlineSnapshot(`
      [
        "specs: specs folder not found; create it with one file per flow at specs/@<org>/<flow-name>.json, or pass --specs <folder> [no-specs] flowgen-cli/docs/errors.md#no-specs",
      ]
    `);
  });

  it("reports the same flow described twice", async () => {
    expect(
      await problems({
        "specs/@acme/qa.json": qa,
        "specs/@acme/qa.yaml": "input: {type: object}\noutput: {type: object}\n",
      }),
    ).toMatchInlineSnapshot(`
      [
        "specs/@acme/qa.yaml: flow @acme/qa is already described by specs/@acme/qa.json; keep one of the two files [duplicate-flow] flowgen-cli/docs/errors.md#duplicate-flow",
      ]
    `);
  });
});

describe("messages that say what to write", () => {
  it("for forms of older drafts and an example that is not an object", async () => {
    const report = await problems({
      "specs/@acme/old.json": {
        input: {
          type: "object",
          properties: {
            pair: { type: "array", items: [{ type: "string" }, { type: "number" }] },
            n: { type: "number", minimum: 0, exclusiveMinimum: true },
            m: { type: "number", exclusiveMaximum: true },
            k: { type: "number", maximum: 9, exclusiveMaximum: false },
            one: { allOf: [{ type: "number" }, "positive"] },
          },
        },
        output: qa.output,
      },
      "specs/_shared/tuple.json": { items: [{ type: "string" }] },
      "specs/@acme/examples.json": {
        ...qa,
        examples: [{ input: { question: "?" }, output: {} }, "2"],
      },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/examples.json:28:5 #/examples/1: example 1 is not an object; write each example as { "name": "…", "input": {…}, "output": {…} } (the name is optional) [invalid-value] flowgen-cli/docs/errors.md#invalid-value",
        "specs/@acme/old.json:7:9 #/input/properties/pair/items: "items" is a list, the tuple form of draft-07 and earlier; in JSON Schema 2020-12 the list is "prefixItems": rename "items" to "prefixItems" (and an "additionalItems" beside it to "items") [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/old.json:19:9 #/input/properties/n/exclusiveMinimum: "exclusiveMinimum": true is draft-04's form; in JSON Schema 2020-12 "exclusiveMinimum" holds the bound itself: replace "minimum": 0 and "exclusiveMinimum": true with "exclusiveMinimum": 0 [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/old.json:23:9 #/input/properties/m/exclusiveMaximum: "exclusiveMaximum": true is draft-04's form; in JSON Schema 2020-12 "exclusiveMaximum" holds the bound itself: write "exclusiveMaximum": <the bound> [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/old.json:28:9 #/input/properties/k/exclusiveMaximum: "exclusiveMaximum": false is draft-04's form, and says nothing in JSON Schema 2020-12; remove it ("maximum" stays inclusive) [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/old.json:35:11 #/input/properties/one/allOf/1: item 1 must be object or boolean (JSON Schema 2020-12) [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/_shared/tuple.json:2:3 #/items: "items" is a list, the tuple form of draft-07 and earlier; in JSON Schema 2020-12 the list is "prefixItems": rename "items" to "prefixItems" (and an "additionalItems" beside it to "items") [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
      ]
    `);
  });

  it("for YAML 1.1's words for booleans, which YAML 1.2 reads as strings", async () => {
    const report = await problems({
      "specs/@acme/flags.yaml": [
        "input:",
        "  type: object",
        "  properties:",
        "    dry: { type: boolean, default: no }",
        "    loud: { type: [boolean, 'null'], default: On }",
        "    name: { type: string, default: off }",
        "output: { type: object }",
        "examples:",
        "  - input: { dry: yes }",
        "    output: {}",
        "",
      ].join("\n"),
      "specs/@acme/flags-json.json": {
        input: { type: "object", properties: { dry: { type: "boolean", default: "no" } } },
        output: qa.output,
      },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/flags-json.json:7:9 #/input/properties/dry/default: this default value fails its own schema: must be boolean; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/flags.yaml:4:27 #/input/properties/dry/default: this default value fails its own schema: must be boolean; YAML 1.2 reads no as the string "no", not as false (YAML 1.1 did); write false [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/flags.yaml:5:38 #/input/properties/loud/default: this default value fails its own schema: must be boolean,null; YAML 1.2 reads On as the string "On", not as true (YAML 1.1 did); write true [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/flags.yaml:9:14 #/examples/0/input/dry: example 0: input/dry must be boolean; YAML 1.2 reads yes as the string "yes", not as true (YAML 1.1 did); write true [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
      ]
    `);
  });
});

describe("the spec-file checks, compiled once per process", () => {
  it("give each run its own findings: a broken run, a sound one, then the broken one again", async () => {
    const broken = {
      "specs/@acme/qa.json": { ...qa, ouput: {} },
      "specs/_shared/money.json": { type: "objet" },
    };
    const first = await problems(broken);
    expect(first.map((line) => /\[([a-z-]+)\]/.exec(line)?.[1])).toEqual([
      "unknown-key",
      "invalid-schema",
    ]);
    expect(await problems({ "specs/@acme/qa.json": qa, "specs/_shared/money.json": {} })).toEqual(
      [],
    );
    expect(await problems(broken)).toEqual(first);
  });
});
