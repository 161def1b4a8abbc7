import { execFile } from "node:child_process";
import { chmod, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import type { OpenAPIV3_1 } from "openapi-types";
import { describe, expect, it, vi } from "vitest";
import { GENERATE_DEFAULTS } from "../src/config/resolve-settings.js";
import { renderProject } from "../src/generate.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { MAX_NESTING_DEPTH, parseDocument } from "../src/spec/parse-document.js";
import { cachedProject } from "./helpers/render-cache.js";
import { runCli } from "./helpers/run-cli.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const run = promisify(execFile);
/** Renders with the project's render cache: with `cachedProject`, the runtime's files come from it. */
const WITH_CACHE = { specs: "specs", out: "generated", cacheDir: GENERATE_DEFAULTS.cacheDir };
const qa = {
  input: { type: "object", required: ["question"], properties: { question: { type: "string" } } },
  output: { type: "object", properties: { answer: { type: "string" } } },
};

async function problemsIn(dir: string): Promise<string[]> {
  const result = await loadSpecs("specs", dir);
  return result.ok ? [] : sortIssues(result.issues).map(formatIssue);
}

async function problems(files: Record<string, unknown>): Promise<string[]> {
  return problemsIn(await tempProject(files));
}

/** `{ type: object, properties: { n: { type: object, properties: { n: … } } } }`, `levels` schemas deep. */
function nested(levels: number): Record<string, unknown> {
  let schema: Record<string, unknown> = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { n: schema } };
  return schema;
}

const INEXACT =
  "this integer is too large for a JavaScript number to hold exactly (beyond ±2^53, 9007199254740992), so it would be read as another number and the contract would state that one; write it as a string, or as a number within ±2^53";

const ALIAS_BOMB = [
  "input:",
  "  type: object",
  "  x-a: &a [x, x, x, x, x, x, x, x, x]",
  "  x-b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]",
  "  x-c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]",
  "  x-d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]",
  "  x-e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]",
  "output: {type: object}",
  "",
].join("\n");

describe("root shapes of real-world schemas", () => {
  it.each([
    [
      "a $ref to a definition with properties and no type",
      { $ref: "#/$defs/Req", $defs: { Req: { properties: { a: { type: "string" } } } } },
    ],
    [
      "properties and no type (OpenAPI 3.0 style)",
      { required: ["a"], properties: { a: { type: "string" } } },
    ],
    [
      "an allOf with one object branch",
      {
        allOf: [{ $ref: "#/$defs/Base" }, { required: ["a"] }],
        $defs: { Base: { type: "object" } },
      },
    ],
    [
      "a oneOf of objects",
      { oneOf: [{ type: "object", required: ["a"] }, { properties: { b: {} } }] },
    ],
    ["a $ref chain into a shared file", { $ref: "../_shared/req.json" }],
  ])("accepts %s", async (_, input) => {
    expect(
      await problems({
        "specs/@acme/x.json": { input, output: qa.output },
        "specs/_shared/req.json": {
          $ref: "#/$defs/R",
          $defs: { R: { additionalProperties: false } },
        },
      }),
    ).toEqual([]);
  });

  it.each([
    ["a schema with no sign of an object", { description: "anything" }],
    ["a string type", { type: "string" }],
    ["an anyOf with a non-object branch", { anyOf: [{ type: "object" }, { type: "string" }] }],
    ["a $ref to an array", { $ref: "#/$defs/L", $defs: { L: { items: {}, type: "array" } } }],
  ])("still refuses %s", async (_, input) => {
    expect(await problems({ "specs/@acme/x.json": { input, output: qa.output } })).toEqual([
      expect.stringContaining("the input schema must describe a JSON object"),
    ]);
  });

  it("refuses a root of true or false, as it refuses {}: neither describes an object", async () => {
    expect(
      await problems({
        "specs/@acme/any.json": { input: true, output: qa.output },
        "specs/@acme/none.json": { input: qa.input, output: false },
      }),
    ).toEqual([
      'specs/@acme/any.json:2:3 #/input: the input schema must describe a JSON object, and true accepts any value (a string, a number, null); write { "type": "object" } instead, with the properties it has [not-an-object-schema] flowgen-cli/docs/errors.md#not-an-object-schema',
      'specs/@acme/none.json:13:3 #/output: the output schema must describe a JSON object, and false accepts no value at all, so no answer could pass; write { "type": "object" } instead, with the properties it has [not-an-object-schema] flowgen-cli/docs/errors.md#not-an-object-schema',
    ]);
  });

  it("states type object at the root of the bundled schema, so types and checks agree", async () => {
    const dir = await cachedProject({
      "specs/@acme/x.json": { input: { properties: { a: { type: "string" } } }, output: qa.output },
    });
    const result = await renderProject({ ...WITH_CACHE, cwd: dir });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    const openapi = JSON.parse(
      result.files.find((file) => file.path === "openapi.json")?.content ?? "{}",
    ) as OpenAPIV3_1.Document;
    expect(openapi.components?.schemas?.["acme.x.Input"]).toEqual({
      type: "object",
      properties: { a: { type: "string" } },
    });
  });
});

describe("bad input is refused with file, pointer and what to do", () => {
  it("reports every kind at once", async () => {
    const report = await problems({
      "specs/@acme/duplicate.json":
        '{\n  "input": { "type": "object" },\n  "output": { "type": "object" },\n  "input": { "type": "string" }\n}\n',
      "specs/@acme/bomb.yaml": ALIAS_BOMB,
      "specs/@acme/deep.json": { input: nested(250), output: qa.output },
      "specs/@acme/brackets.json": `{ "input": ${"[".repeat(100_000)}${"]".repeat(100_000)} }`,
      "specs/@acme/regex.json": {
        input: {
          type: "object",
          properties: {
            a: { type: "string", pattern: "([a-z]" },
            b: { type: "string", pattern: "\\p{Lu}+" },
          },
          patternProperties: { "\\k": {} },
        },
        output: qa.output,
      },
      "specs/@acme/values.json": {
        input: {
          type: "object",
          properties: {
            size: { type: "string", enum: ["s", "m", 3], default: "xl" },
            n: { type: "integer", minimum: 1, const: 0, examples: [2, "two"] },
            tag: { $ref: "../_shared/tag.json" },
          },
        },
        output: qa.output,
      },
      "specs/_shared/tag.json": { type: "string", maxLength: 3, default: "toolong", example: "ok" },
      "specs/@acme/huge.json": '{ "input": { "type": "object", "maximum": 1e400 }, "output": {} }',
      "specs/@acme/unbounded.yaml": "input:\n  type: object\n  maxProperties: .inf\noutput: {}\n",
      "specs/@acme/dated.yaml":
        "input:\n  type: object\n  properties:\n    d:\n      enum: [!!timestamp 2001-12-14]\noutput: {}\n",
      "specs/@acme/old.yaml":
        "%YAML 1.1\n---\ninput:\n  type: object\n  properties:\n    d:\n      const: 2001-12-14\noutput: {}\n",
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/bomb.yaml: aliases expand past 1000 nodes, flowgen's limit (this is how an alias bomb looks); write the repeated parts out, or move them into a shared schema and "$ref" it [yaml-alias-limit] flowgen-cli/docs/errors.md#yaml-alias-limit",
        "specs/@acme/brackets.json:1:523: values nest more than 128 levels deep here, flowgen's limit; move inner schemas into "$defs" and "$ref" them [too-deep] flowgen-cli/docs/errors.md#too-deep",
        "specs/@acme/dated.yaml:5:26 #/input/properties/d/enum/0: this YAML value (a date, set, binary or ordered map, from a tag or a %YAML 1.1 directive) has no JSON form; write it as a string, an array or a mapping [not-json] flowgen-cli/docs/errors.md#not-json",
        "specs/@acme/deep.json:193:257 #/input/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n/properties: values nest more than 128 levels deep here, flowgen's limit; move inner schemas into "$defs" and "$ref" them [too-deep] flowgen-cli/docs/errors.md#too-deep",
        "specs/@acme/duplicate.json:4:3 #/input: the input schema must describe a JSON object; add "type": "object" at its root (put other values inside a property) [not-an-object-schema] flowgen-cli/docs/errors.md#not-an-object-schema",
        "specs/@acme/duplicate.json:4:3 #/input: this key appears twice in one object (first at line 2); JSON parsers keep only one of them, so merge the two into one [duplicate-key] flowgen-cli/docs/errors.md#duplicate-key",
        "specs/@acme/huge.json:1:32 #/input/maximum: this number is infinite or not a number, which JSON cannot hold (written out, it would say null); write a finite number, or leave it out [not-json] flowgen-cli/docs/errors.md#not-json",
        "specs/@acme/old.yaml:7:7 #/input/properties/d/const: this YAML value (a date, set, binary or ordered map, from a tag or a %YAML 1.1 directive) has no JSON form; write it as a string, an array or a mapping [not-json] flowgen-cli/docs/errors.md#not-json",
        "specs/@acme/regex.json:7:9 #/input/properties/a/pattern: "([a-z]" is not a valid regular expression (ECMAScript): Unterminated group; fix it (in JSON, a backslash is written "\\\\") [invalid-pattern] flowgen-cli/docs/errors.md#invalid-pattern",
        "specs/@acme/unbounded.yaml:3:3 #/input/maxProperties: this number is infinite or not a number, which JSON cannot hold (written out, it would say null); write a finite number, or leave it out [not-json] flowgen-cli/docs/errors.md#not-json",
        "specs/@acme/values.json:10:11 #/input/properties/size/enum/2: this enum value fails its own schema: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:12:9 #/input/properties/size/default: this default value fails its own schema: must be equal to one of the allowed values ("s", "m", 3); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:17:9 #/input/properties/n/const: this const value fails its own schema: must be >= 1; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:19:11 #/input/properties/n/examples/0: this examples value fails its own schema: must be equal to constant (0); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:20:11 #/input/properties/n/examples/1: this examples value fails its own schema: must be integer; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/_shared/tag.json:4:3 #/default: this default value fails its own schema: must NOT have more than 3 characters; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      ]
    `);
  });

  it("reports every value JSON has no form for in a file at once, not one a run", async () => {
    const report = await problems({
      "specs/@acme/bounds.yaml":
        "input:\n  type: object\n  maximum: .inf\n  minimum: -.inf\n  default: !!binary aGVsbG8=\noutput:\n  type: object\n  properties:\n    n: { type: number, const: .nan }\n",
      "specs/@acme/huge.json":
        '{ "input": { "type": "object", "maximum": 1e400, "minimum": -1e400 }, "output": {} }',
    });
    expect(report.map((line) => line.replace(/: this .*\[not-json\].*$/, ""))).toEqual([
      "specs/@acme/bounds.yaml:3:3 #/input/maximum",
      "specs/@acme/bounds.yaml:4:3 #/input/minimum",
      "specs/@acme/bounds.yaml:5:3 #/input/default",
      "specs/@acme/bounds.yaml:9:24 #/output/properties/n/const",
      "specs/@acme/huge.json:1:32 #/input/maximum",
      "specs/@acme/huge.json:1:50 #/input/minimum",
    ]);
  });

  it("refuses an integer a JavaScript number cannot hold exactly, in JSON and YAML, and checks the rest", async () => {
    const report = await problems({
      "specs/@acme/ids.json":
        '{"input": {"type": "object", "properties": {\n "id": {"enum": [9007199254740993, 9007199254740992, 10000000000000000000]},\n "big": {"const": 12345678901234567890, "description": "12345678901234567890"},\n "near": {"type": "number", "default": 0.12345678901234567890},\n "z": {"type": "strin"}}},\n "output": {"type": "object"}}',
      "specs/@acme/more-ids.yaml":
        "input:\n  type: object\n  properties:\n    id: { enum: [-9007199254740993, 0x1FFFFFFFFFFFFFF, -9007199254740992] }\n    n: { type: integer, maximum: +12345678901234567890, default: '12345678901234567890' }\noutput: { type: object }\n",
    });
    expect(report.map((line) => line.replace(INEXACT, "…"))).toMatchInlineSnapshot(`
      [
        "specs/@acme/ids.json:2:18 #/input/properties/id/enum/0: … [inexact-integer] flowgen-cli/docs/errors.md#inexact-integer",
        "specs/@acme/ids.json:3:19 #/input/properties/big/const: … [inexact-integer] flowgen-cli/docs/errors.md#inexact-integer",
        "specs/@acme/ids.json:5:8 #/input/properties/z/type: "strin" is not a JSON Schema type (did you mean "string"?); use one of: array, boolean, integer, null, number, object, string [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/more-ids.yaml:4:18 #/input/properties/id/enum/0: … [inexact-integer] flowgen-cli/docs/errors.md#inexact-integer",
        "specs/@acme/more-ids.yaml:4:37 #/input/properties/id/enum/1: … [inexact-integer] flowgen-cli/docs/errors.md#inexact-integer",
        "specs/@acme/more-ids.yaml:5:25 #/input/properties/n/maximum: … [inexact-integer] flowgen-cli/docs/errors.md#inexact-integer",
        "specs/@acme/more-ids.yaml:5:57 #/input/properties/n/default: this default value fails its own schema: must be integer; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      ]
    `);
  });

  it("reports a bad value in every copy of a schema, and checks each value against what applies to it", async () => {
    const flow = (description: string) => ({
      input: {
        type: "object",
        properties: {
          size: { type: "string", description, enum: ["s", 1] },
          one: { type: "string", enum: ["a"], const: "b", default: "a" },
          ref: { $ref: "#/$defs/S", default: 5 },
        },
        $defs: { S: { type: "string", examples: ["x", 2] } },
      },
      output: qa.output,
    });
    const report = await problems({
      "specs/@acme/a.json": flow("A size."),
      "specs/@acme/b.json": flow("B size."),
    });
    const forA = [
      "specs/@acme/a.json:10:11 #/input/properties/size/enum/1: this enum value fails its own schema: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      'specs/@acme/a.json:16:11 #/input/properties/one/enum/0: this enum value fails its own schema: must be equal to constant ("b"); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value',
      'specs/@acme/a.json:18:9 #/input/properties/one/const: this const value fails its own schema: must be equal to one of the allowed values ("a"); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value',
      'specs/@acme/a.json:19:9 #/input/properties/one/default: this default value fails its own schema: must be equal to constant ("b"); fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value',
      "specs/@acme/a.json:23:9 #/input/properties/ref/default: this default value fails its own schema: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      "specs/@acme/a.json:31:11 #/input/$defs/S/examples/1: this examples value fails its own schema: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
    ];
    expect(report).toEqual([...forA, ...forA.map((line) => line.replace("a.json", "b.json"))]);
  });

  it("checks a flow's values too when its other problems lie outside its schemas, so all show in one run", async () => {
    const report = await problems({
      "specs/@acme/qa.json": {
        input: {
          type: "object",
          properties: { size: { type: "string", enum: ["s", 3], default: "xl" } },
        },
        output: qa.output,
        examples: [{ inptu: { size: "s" }, output: { answer: "a" } }],
      },
    });
    expect(report.map((line) => line.replace(/:\d+:\d+ /, " ").replace(/: .*\[/, " ["))).toEqual([
      "specs/@acme/qa.json #/input/properties/size/enum/1 [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      "specs/@acme/qa.json #/input/properties/size/default [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      "specs/@acme/qa.json #/examples/0 [missing-key] flowgen-cli/docs/errors.md#missing-key",
      "specs/@acme/qa.json #/examples/0/inptu [unknown-key] flowgen-cli/docs/errors.md#unknown-key",
    ]);
  });

  it("checks each flow's own values when their schemas are alike", async () => {
    const flow = (value: number) => ({
      input: {
        type: "object",
        properties: { t: { type: "number", maximum: 2, default: value, examples: [value] } },
      },
      output: qa.output,
    });
    expect(
      await problems({
        "specs/@acme/a.json": flow(1),
        "specs/@acme/b.json": flow(7),
        "specs/@acme/c.json": flow(2),
      }),
    ).toEqual([
      "specs/@acme/b.json:8:9 #/input/properties/t/default: this default value fails its own schema: must be <= 2; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      "specs/@acme/b.json:10:11 #/input/properties/t/examples/0: this examples value fails its own schema: must be <= 2; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
    ]);
  });

  it("refuses a $ref cycle that never steps into the data, across files or in one, and keeps recursion through properties", async () => {
    const report = await problems({
      "specs/_shared/a.json": { $ref: "b.json" },
      "specs/_shared/b.json": { anyOf: [{ $ref: "a.json" }, { type: "string" }] },
      "specs/_shared/tree.json": {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#" } } },
      },
      "specs/@acme/qa.json": {
        input: {
          type: "object",
          properties: { x: { $ref: "../_shared/a.json" }, t: { $ref: "../_shared/tree.json" } },
        },
        output: {
          type: "object",
          allOf: [{ $ref: "#/$defs/Loop" }],
          $defs: { Loop: { not: { $ref: "#" } } },
        },
        examples: [{ input: { x: "s" }, output: {} }],
      },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/qa.json:23:11 #/output/$defs/Loop/not/$ref: this leads back to where it started (@acme/qa.json#/output → @acme/qa.json#/output/$defs/Loop → @acme/qa.json#/output) without stepping into any part of the value, so no validator can finish checking a value against it; put the recursion inside "properties" or "items", or remove this reference [ref-cycle] flowgen-cli/docs/errors.md#ref-cycle",
        "specs/_shared/b.json:4:7 #/anyOf/0/$ref: this leads back to where it started (_shared/a.json → _shared/b.json → _shared/a.json) without stepping into any part of the value, so no validator can finish checking a value against it; put the recursion inside "properties" or "items", or remove this reference [ref-cycle] flowgen-cli/docs/errors.md#ref-cycle",
      ]
    `);
  });

  it("refuses a $ref cycle that the roots reach only through properties: in $defs, a flow's own and a shared file's", async () => {
    const report = await problems({
      "specs/_shared/x.json": {
        $defs: { A: { $ref: "#/$defs/B" }, B: { allOf: [{ $ref: "#/$defs/A" }] } },
      },
      "specs/@acme/qa.json": {
        input: {
          type: "object",
          properties: {
            a: { $ref: "#/$defs/A" },
            self: { $ref: "#/properties/self" },
            shared: { $ref: "../_shared/x.json#/$defs/A" },
            tree: { $ref: "#/$defs/Tree" },
          },
          $defs: {
            A: { anyOf: [{ $ref: "#/$defs/A" }, { type: "string" }] },
            Tree: { type: "object", properties: { next: { $ref: "#/$defs/Tree" } } },
          },
        },
        output: qa.output,
      },
    });
    expect(report.map((line) => line.replace(/: this leads back.*\[ref-cycle\].*$/, ""))).toEqual([
      "specs/@acme/qa.json:9:9 #/input/properties/self/$ref",
      "specs/@acme/qa.json:22:13 #/input/$defs/A/anyOf/0/$ref",
      "specs/_shared/x.json:9:11 #/$defs/B/allOf/0/$ref",
    ]);
  });

  it("checks the values of every flow whose schemas reach no cycle or broken file, beside those that do", async () => {
    const values = {
      input: {
        type: "object",
        properties: { size: { type: "string", enum: ["s", 3], default: "xl" } },
      },
      output: qa.output,
      examples: [{ input: { size: 1 }, output: {} }],
    };
    const reaching = (ref: string) => ({
      input: { type: "object", properties: { x: { $ref: ref, default: 1 } } },
      output: qa.output,
      examples: [{ input: { x: 1 }, output: {} }],
    });
    const report = await problems({
      "specs/_shared/loop.json": { $ref: "#" },
      "specs/_shared/broken.json": { type: "strnig" },
      "specs/_shared/via.json": { $ref: "loop.json", default: 2 },
      "specs/_shared/fine.json": { type: "string", default: 1 },
      "specs/@acme/values.json": values,
      "specs/@acme/loops.json": reaching("../_shared/via.json"),
      "specs/@acme/broken.json": reaching("../_shared/broken.json"),
      "specs/@acme/fine.json": reaching("../_shared/fine.json"),
    });
    expect(report.map((line) => line.replace(/: [^[]*\[/, " ["))).toMatchInlineSnapshot(`
      [
        "specs/@acme/fine.json:7:9 #/input/properties/x/default [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/fine.json:22:9 #/examples/0/input/x [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "specs/@acme/values.json:9:11 #/input/properties/size/enum/1 [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:11:9 #/input/properties/size/default [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/@acme/values.json:26:9 #/examples/0/input/size [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "specs/@acme/values.json:26:9 #/examples/0/input/size [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "specs/_shared/broken.json:2:3 #/type [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/_shared/fine.json:3:3 #/default [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "specs/_shared/loop.json:2:3 #/$ref [ref-cycle] flowgen-cli/docs/errors.md#ref-cycle",
      ]
    `);
  });

  it("reads a YAML file of many aliases in one walk, and refuses it past the alias limit", async () => {
    // 20,000 aliases: resolving each on its own walks the whole document each time.
    const aliases = Array.from({ length: 20_000 }, () => "    - *a").join("\n");
    const report = await problems({
      "specs/@acme/many.yaml": `input:\n  type: object\n  x-a: &a 1\n  x-list:\n${aliases}\noutput: {}\n`,
    });
    expect(report).toEqual([expect.stringContaining("[yaml-alias-limit]")]);
  });

  it("says where a YAML alias with no anchor before it is, and what a list or mapping as a key and a second document are, in its own words and with nothing on stderr", async () => {
    const warn = vi.spyOn(process, "emitWarning");
    const report = await problems({
      "specs/@acme/nope.yaml": "input:\n  type: object\n  properties:\n    b: *nope\noutput: {}\n",
      "specs/@acme/later.yaml": "input: *later\noutput: &later\n  type: object\n",
      "specs/@acme/complex.yaml":
        "input:\n  type: object\n  properties:\n    ? [complex]\n    : { type: string }\noutput: {}\n",
      "specs/@acme/two.yaml": "input: { type: object }\noutput: {}\n---\ninput: {}\n",
    });
    expect(report).toEqual([
      "specs/@acme/complex.yaml:4:7: invalid YAML: a key that is a list or a mapping, where JSON has only text keys; fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
      "specs/@acme/later.yaml:1:8: invalid YAML: an alias that does not resolve (its anchor must come before it); fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
      "specs/@acme/nope.yaml:4:8: invalid YAML: an alias that does not resolve (its anchor must come before it); fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
      "specs/@acme/two.yaml:3:1: invalid YAML: several documents in one file (a line of ---), where a spec file holds one; fix the syntax [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
    ]);
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it("says where a key comes twice in one object or mapping, and checks the rest of the file in the same run", async () => {
    expect(
      await problems({
        "specs/@acme/yaml.yaml":
          "input:\n  type: object\n  properties:\n    a: { type: string }\n    a: { type: number }\n    n: { type: integer, default: one }\noutput: { type: object }\n",
        "specs/@acme/json.json":
          '{"input": {"type": "object", "properties": {"a": {"type": "string", "type": "number"},\n "z": {"type": "strin"}}},\n "output": {"type": "object"}}',
      }),
    ).toMatchInlineSnapshot(`
      [
        "specs/@acme/json.json:1:69 #/input/properties/a/type: this key appears twice in one object (first at line 1); JSON parsers keep only one of them, so merge the two into one [duplicate-key] flowgen-cli/docs/errors.md#duplicate-key",
        "specs/@acme/json.json:2:8 #/input/properties/z/type: "strin" is not a JSON Schema type (did you mean "string"?); use one of: array, boolean, integer, null, number, object, string [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/yaml.yaml:5:5 #/input/properties/a: this key appears twice in one mapping (first at line 4); YAML parsers keep only one of them, so merge the two into one [duplicate-key] flowgen-cli/docs/errors.md#duplicate-key",
        "specs/@acme/yaml.yaml:6:25 #/input/properties/n/default: this default value fails its own schema: must be integer; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
      ]
    `);
  });

  it("says a YAML merge key (<<) is not merged, and what to write instead", async () => {
    const report = await problems({
      "specs/@acme/merge.yaml":
        "input:\n  type: object\n  properties:\n    a: &short { type: string, maxLength: 3 }\n    b:\n      <<: *short\n      minLength: 1\noutput: { type: object }\n",
    });
    expect(report).toEqual([
      expect.stringMatching(
        /^specs\/@acme\/merge\.yaml:6:7 #\/input\/properties\/b\/<<: "<<" is a YAML 1\.1 merge key, .* write the keys out, or "\$ref" a shared schema .*\[unknown-keyword\]/,
      ),
    ]);
  });

  it("refuses an empty YAML file (nothing, a comment, a lone ---) as no spec, flow or shared", async () => {
    const report = await problems({
      "specs/@acme/empty.yaml": "",
      "specs/@acme/comment.yaml": "# to do\n",
      "specs/@acme/dashes.yml": "---\n",
      "specs/_shared/blank.yaml": "\n\n",
    });
    expect(report.map((line) => line.replace(/: .*\[/, ": … ["))).toEqual([
      "specs/@acme/comment.yaml: … [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
      "specs/@acme/dashes.yml: … [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
      "specs/@acme/empty.yaml: … [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
      "specs/_shared/blank.yaml: … [not-a-spec-file] flowgen-cli/docs/errors.md#not-a-spec-file",
    ]);
  });

  it(`accepts nesting up to the limit (${MAX_NESTING_DEPTH} levels) and generates from it`, async () => {
    const dir = await cachedProject({
      "specs/@acme/deep.json": { input: nested(MAX_NESTING_DEPTH / 2 - 2), output: qa.output },
    });
    const result = await renderProject({ ...WITH_CACHE, cwd: dir });
    expect(result.ok ? [] : result.issues).toEqual([]);
  });

  it("refuses bytes that are not UTF-8, where they are, and checks the rest of the file", async () => {
    const latin1 = (text: string) => Buffer.from(text, "latin1");
    const report = await problems({
      "specs/@acme/key.json": Buffer.concat([
        latin1('{"input": {"type": "object", "properties": {"'),
        Buffer.from([0xff, 0xfe]),
        latin1('": {"type": "strin"}}},\n "output": {"type": "object"}}'),
      ]),
      "specs/@acme/cafe.yaml": latin1(
        "input:\n  type: object\n  description: Caf\u00e9 \u00e0 la carte\noutput: {type: object}\n",
      ),
      "specs/@acme/wide.json": Buffer.from(`\uFEFF${JSON.stringify(qa)}`, "utf16le"),
      "specs/@acme/replacement.json": { ...qa, description: "a real \uFFFD, written as UTF-8" },
    });
    expect(report).toMatchInlineSnapshot(`
      [
        "specs/@acme/cafe.yaml:3:19: holds bytes here that are not UTF-8 text, which would be read as U+FFFD (�); save the file as UTF-8 (an editor's "save with encoding" does it, or iconv -f <its encoding> -t UTF-8) [not-utf8] flowgen-cli/docs/errors.md#not-utf8",
        "specs/@acme/key.json:1:46: holds bytes here that are not UTF-8 text, which would be read as U+FFFD (�); save the file as UTF-8 (an editor's "save with encoding" does it, or iconv -f <its encoding> -t UTF-8) [not-utf8] flowgen-cli/docs/errors.md#not-utf8",
        "specs/@acme/key.json:1:52 #/input/properties/��/type: "strin" is not a JSON Schema type (did you mean "string"?); use one of: array, boolean, integer, null, number, object, string [invalid-schema] flowgen-cli/docs/errors.md#invalid-schema",
        "specs/@acme/wide.json:1:1: holds bytes here that are not UTF-8 text (the file looks like UTF-16), which would be read as U+FFFD (�); save the file as UTF-8 (an editor's "save with encoding" does it, or iconv -f <its encoding> -t UTF-8) [not-utf8] flowgen-cli/docs/errors.md#not-utf8",
        "specs/@acme/wide.json:1:1: invalid JSON: unexpected character; fix the syntax (a JSON linter or editor shows it too) [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
      ]
    `);
  });

  it("accepts a JSON file with a byte order mark, like a YAML one", async () => {
    expect(
      await problems({
        "specs/@acme/qa.json": `\uFEFF${JSON.stringify(qa)}`,
        "specs/@acme/y.yaml": "\uFEFFinput: {type: object}\noutput: {type: object}\n",
      }),
    ).toEqual([]);
  });
});

describe("JSON spec files: parsed without a position tree unless one is needed", () => {
  const issuesOf = (text: string) => {
    const parsed = parseDocument("a.json", text);
    return parsed.ok ? [] : parsed.issues.map(formatIssue);
  };

  it("finds a repeated key at any level, with escapes, spaces before the colon and __proto__", () => {
    expect(issuesOf('{"a": [{"x": 1}, {"x": 2,\n "x" : 3}]}')).toEqual([
      "a.json:2:2 #/a/1/x: this key appears twice in one object (first at line 1); JSON parsers keep only one of them, so merge the two into one [duplicate-key] flowgen-cli/docs/errors.md#duplicate-key",
    ]);
    expect(issuesOf('{"q\\"": 1, "q\\"": 2}')).toHaveLength(1);
    expect(issuesOf('{"__proto__": {}, "__proto__": {}}')).toHaveLength(1);
    expect(issuesOf('{"a": {"b": 1}, "c": {"b": 1}}')).toEqual([]);
  });

  it("does not count strings that only look like keys", () => {
    const text = '{"a\\":": "b\\":", "c": ":", "d": ["e", ":"], "f" :"g"}';
    expect(issuesOf(text)).toEqual([]);
    const parsed = parseDocument("a.json", text);
    expect(parsed.ok && parsed.document.value).toEqual(JSON.parse(text));
  });

  it("reads runs of backslashes before a quote, and brackets inside strings, as JSON does", () => {
    // An even run ends the string; an odd run escapes the quote.
    expect(issuesOf(String.raw`{"a\\": 1, "a\\": 2}`)).toHaveLength(1);
    expect(issuesOf(String.raw`{"a\\\"": 1, "a\\\"": 2}`)).toHaveLength(1);
    expect(issuesOf(String.raw`{"a\\": 1, "a\\\"": 2}`)).toEqual([]);
    const brackets = "[".repeat(4 * MAX_NESTING_DEPTH + 1);
    expect(issuesOf(JSON.stringify({ a: brackets, b: `\\${brackets}` }))).toEqual([]);
    expect(issuesOf(`{"a": "x", "b": ${brackets}`)).toEqual([
      'a.json:1:528: values nest more than 128 levels deep here, flowgen\'s limit; move inner schemas into "$defs" and "$ref" them [too-deep] flowgen-cli/docs/errors.md#too-deep',
    ]);
  });

  it("places syntax errors, and locates pointers in a valid file when asked", () => {
    expect(issuesOf('{"a": 1,}')).toEqual([
      "a.json:1:9: invalid JSON: expected a property name in double quotes; fix the syntax (a JSON linter or editor shows it too) [syntax-error] flowgen-cli/docs/errors.md#syntax-error",
    ]);
    const parsed = parseDocument("a.json", '{\n  "a/b": {\n    "~": [1, {"c": 2}]\n  }\n}');
    if (!parsed.ok) throw new Error("expected a valid document");
    expect(parsed.document.locate("/a~1b/~0/1/c")).toEqual({ line: 3, column: 15 });
    expect(parsed.document.locate("/a~1b")).toEqual({ line: 2, column: 3 });
    expect(parsed.document.locate("/missing")).toBeUndefined();
  });
});

describe("symlinks and unreadable files in the specs folder", () => {
  it("follows symlinked spec files, org folders and shared files", async () => {
    const dir = await tempProject({
      "elsewhere/qa.json": qa,
      "elsewhere/@globex/search.json": { input: { $ref: "../_shared/q.json" }, output: qa.output },
      "elsewhere/q.json": { type: "object", properties: { q: { type: "string" } } },
      "specs/@acme/keep.json": qa,
    });
    await symlink(path.join(dir, "elsewhere/qa.json"), path.join(dir, "specs/@acme/qa.json"));
    await symlink(path.join(dir, "elsewhere/@globex"), path.join(dir, "specs/@globex"), "dir");
    await mkdir(path.join(dir, "specs/_shared"));
    await symlink(path.join(dir, "elsewhere/q.json"), path.join(dir, "specs/_shared/q.json"));
    const result = await loadSpecs("specs", dir);
    expect(result.ok ? result.specs.flows.map((flow) => flow.id) : result.issues).toEqual([
      "@acme/keep",
      "@acme/qa",
      "@globex/search",
    ]);
  });

  it("refuses a broken link, a link loop and a file that is not a regular file, saying why", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa });
    await symlink(path.join(dir, "nowhere.json"), path.join(dir, "specs/@acme/gone.json"));
    await symlink(path.join(dir, "specs"), path.join(dir, "specs/@acme/loop"), "dir");
    await run("mkfifo", [path.join(dir, "specs/@acme/pipe.json")]);
    expect((await problemsIn(dir)).map((line) => line.replace(dir, "<tmp>")))
      .toMatchInlineSnapshot(`
      [
        "specs/@acme/gone.json: symlink to <tmp>/nowhere.json, which does not exist; fix the link or remove it [unreadable-file] flowgen-cli/docs/errors.md#unreadable-file",
        "specs/@acme/loop: symlink to a folder that contains it, which would be read forever; remove the link or point it elsewhere [unreadable-file] flowgen-cli/docs/errors.md#unreadable-file",
        "specs/@acme/pipe.json: is not a regular file (a pipe, socket or device); replace it with the spec file itself [unreadable-file] flowgen-cli/docs/errors.md#unreadable-file",
      ]
    `);
  });

  it("refuses a file it may not read, with the reason", async () => {
    const dir = await tempProject({ "specs/@acme/qa.json": qa, "specs/@acme/secret.json": qa });
    await chmod(path.join(dir, "specs/@acme/secret.json"), 0o000);
    // Root reads any file whatever its mode: as root, the check runs as `nobody` instead.
    const asNobody = process.getuid?.() === 0 ? await nobody() : undefined;
    if (asNobody) await chmod(dir, 0o755);
    const bin = path.join(REPO_ROOT, "bin/flowgen.js");
    const failed = await run(process.execPath, [bin, "generate", "--check", "--no-cache"], {
      cwd: dir,
      ...asNobody,
    }).catch((error: { code: number; stderr: string }) => error);
    expect("code" in failed ? failed.code : 0).toBe(2);
    expect(failed.stderr).toContain(
      "specs/@acme/secret.json: cannot be read (EACCES); check its permissions, or remove it [unreadable-file] flowgen-cli/docs/errors.md#unreadable-file",
    );
  });
});

/** The uid and gid of the `nobody` account. */
async function nobody(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all(
    ["-u", "-g"].map(async (flag) => Number((await run("id", [flag, "nobody"])).stdout.trim())),
  );
  return { uid: uid!, gid: gid! };
}

describe("flowgen generate on bad input", () => {
  it("exits 2 with one line per problem and no stack trace, and refuses --out that is a file", async () => {
    const dir = await cachedProject({
      "specs/@acme/qa.json": qa,
      "specs/@acme/bomb.yaml": ALIAS_BOMB,
      "specs/@acme/deep.json": { input: nested(250), output: qa.output },
    });
    // As a process: what the binary itself prints and exits with.
    const bin = path.join(REPO_ROOT, "bin/flowgen.js");
    const bad = await run(process.execPath, [bin, "generate"], { cwd: dir }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect("code" in bad ? bad.code : 0).toBe(2);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    expect(bad.stderr.trim().split("\n")).toHaveLength(3);
    await writeFile(
      path.join(dir, "specs/@acme/bomb.yaml"),
      "input: {type: object}\noutput: {type: object}\n",
    );
    await writeFile(path.join(dir, "specs/@acme/deep.json"), JSON.stringify(qa));
    await writeFile(path.join(dir, "out.txt"), "not a folder");
    const file = await runCli(dir, "generate", "--out", "out.txt");
    expect(file.code).toBe(2);
    expect(file.stderr).toMatchInlineSnapshot(`
      "out.txt: flowgen cannot write the output folder out.txt: this is a file where a folder is needed; move it, or choose another --out (ENOTDIR); run flowgen again once it is fixed [output-unwritable] flowgen-cli/docs/errors.md#output-unwritable
      flowgen: 1 problem; nothing was written.
      "
    `);
  });
});
