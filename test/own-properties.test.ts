import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { renderProject } from "../src/generate.js";
import { serve } from "../src/index.js";
import { formatIssue, sortIssues } from "../src/issues.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { writeOutput } from "../src/write/write-output.js";
import type { FlowErrorDetail } from "../templates/runtime/index.js";
import { tempProject } from "./helpers/temp-dir.js";

/**
 * Names that every JavaScript object inherits (or, for `__proto__`, reaches through an accessor):
 * a check that reads `value[name]` instead of the value's own property sees a function there.
 */
const NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"] as const;

const strings = (names: readonly string[]) =>
  Object.fromEntries(names.map((name) => [name, { type: "string" }]));

/** Each name optional; `toString` present asks for `zz` (dependentRequired). */
const optionalNames = {
  type: "object",
  required: ["name"],
  additionalProperties: false,
  properties: strings(["name", "zz", ...NAMES]),
  dependentRequired: { toString: ["zz"] },
};

/** Each name required. */
const requiredNames = { type: "object", required: [...NAMES], properties: strings(NAMES) };

/** Own values for every name, `__proto__` included, as JSON.parse makes them. */
const allNames = (): Record<string, string> =>
  JSON.parse(`{"name":"n","zz":"z",${NAMES.map((name) => `"${name}":"v"`).join(",")}}`) as Record<
    string,
    string
  >;

const SPECS = {
  "specs/@acme/names.json": {
    input: { ...optionalNames, default: { name: "d" } },
    output: optionalNames,
    examples: [
      { name: "none of them", input: { name: "x" }, output: { name: "y" } },
      { name: "all of them", input: allNames(), output: allNames() },
    ],
  },
  // No examples: every answer is generated from the output schema.
  "specs/@acme/required-names.json": {
    input: { type: "object", properties: strings(["name"]) },
    output: requiredNames,
  },
};

describe("validation reads own properties only, whatever the property is called", () => {
  it("spec checks accept examples and defaults that lack inherited names, and refuse examples that lack required ones", async () => {
    const valid = await tempProject(SPECS);
    const checked = await loadSpecs("specs", valid);
    expect(checked.ok ? [] : sortIssues(checked.issues).map(formatIssue)).toEqual([]);

    const invalid = await tempProject({
      "specs/@acme/bad.json": {
        input: requiredNames,
        output: optionalNames,
        examples: [{ input: { toString: "t" }, output: { name: "x", toString: "t" } }],
      },
      // A `__proto__` property of the wrong type, in an example and a default.
      "specs/@acme/proto.json":
        '{ "input": { "type": "object", "properties": { "__proto__": { "type": "string" } }, "default": { "__proto__": 2 } }, "output": { "type": "object" }, "examples": [{ "input": { "__proto__": 1 }, "output": {} }] }',
    });
    const refused = await loadSpecs("specs", invalid);
    expect(refused.ok).toBe(false);
    const messages = refused.ok ? [] : sortIssues(refused.issues).map(formatIssue);
    expect(messages.map((message) => message.replace(/^.*? #\/[^ ]+: (example 0: )?/, ""))).toEqual(
      [
        "input must have required property '__proto__'; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "input must have required property 'constructor'; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "input must have required property 'hasOwnProperty'; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "input must have required property 'valueOf'; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "output must have property zz when property toString is present; fix the example or the output schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
        "this default value fails its own schema at /__proto__: must be string; fix the value or the schema [invalid-schema-value] flowgen-cli/docs/errors.md#invalid-schema-value",
        "input/__proto__ must be string; fix the example or the input schema [invalid-example] flowgen-cli/docs/errors.md#invalid-example",
      ],
    );
  });

  it("serve checks inputs and outputs, and mocks outputs, by own properties", async () => {
    const dir = await tempProject(SPECS);
    const server = await serve({
      cwd: dir,
      config: false,
      port: 0,
      watch: false,
      keysEnv: "k_names_0123456789abcdef",
    });
    if (!server.ok) throw new Error(JSON.stringify(server.issues));
    onTestFinished(() => server.close());
    const post = async (flow: string, body: unknown) => {
      const response = await fetch(`${server.url}/v1/${flow}`, {
        method: "POST",
        headers: {
          authorization: "Bearer k_names_0123456789abcdef",
          "content-type": "application/json",
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };

    expect(await post("@acme/names", { name: "x" })).toEqual({ status: 200, body: { name: "y" } });
    // Sent as text: JSON.stringify would write `__proto__` too, but the body says it outright.
    const all = `{"name":"n","zz":"z",${NAMES.map((name) => `"${name}":"v"`).join(",")}}`;
    expect((await post("@acme/names", all)).status).toBe(200);
    // Declared, a `__proto__` key is checked as the schema says, and never becomes a prototype.
    expect(await post("@acme/names", '{"name":"x","__proto__":{"polluted":true}}')).toMatchObject({
      status: 400,
      body: {
        code: "invalid_input",
        details: [{ pointer: "/__proto__", message: "must be string" }],
      },
    });
    expect(
      await post("@acme/names", '{"name":"x","constructor":{"prototype":{"polluted":true}}}'),
    ).toMatchObject({
      status: 400,
      body: {
        code: "invalid_input",
        details: [{ pointer: "/constructor", message: "must be string" }],
      },
    });
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined();
    expect(await post("@acme/names", {})).toMatchObject({
      status: 400,
      body: { code: "invalid_input", details: [{ pointer: "/name", message: "is required" }] },
    });
    expect(await post("@acme/names", { name: "x", toString: 1, valueOf: "v" })).toMatchObject({
      status: 400,
      body: {
        details: [
          { pointer: "/toString", message: "must be string" },
          { pointer: "/zz", message: "is required" },
        ],
      },
    });

    // The mock's answers carry every required name as the value's own property.
    for (const question of ["a", "b", "c"]) {
      const answer = await post("@acme/required-names", { name: question });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const own = JSON.parse(JSON.stringify(answer.body)) as object;
      expect(Object.keys(own).sort()).toEqual([...NAMES].sort());
    }
  });

  it("generated validators accept values without inherited names and refuse those that lack required ones", async () => {
    const dir = await tempProject(SPECS);
    const result = await renderProject({
      specs: "specs",
      out: "generated",
      cwd: dir,
      validators: true,
    });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    await writeOutput(path.join(dir, "generated"), result.files);
    const load = async (file: string) =>
      Object.values(
        (await import(pathToFileURL(path.join(dir, "generated", file)).href)) as Record<
          string,
          {
            input: (value: unknown) => FlowErrorDetail[];
            output: (value: unknown) => FlowErrorDetail[];
          }
        >,
      )[0];
    const names = await load("@acme/names.validators.ts");
    const required = await load("@acme/required-names.validators.ts");
    expect(names?.input({ name: "x" })).toEqual([]);
    expect(names?.input(allNames())).toEqual([]);
    expect(names?.input({ name: "x", toString: "t" })).toEqual([
      { pointer: "", message: "lacks a property that another of its properties requires" },
    ]);
    expect(names?.input({ name: "x", toString: 1 })).toEqual([
      { pointer: "", message: "lacks a property that another of its properties requires" },
      { pointer: "/toString", message: "has the wrong type" },
    ]);
    expect(names?.input(JSON.parse('{"name":"x","__proto__":1}'))).toEqual([
      { pointer: "/__proto__", message: "has the wrong type" },
    ]);
    expect(required?.output(allNames())).toEqual([]);
    expect(required?.output({})).toEqual(
      NAMES.map((name) => ({ pointer: `/${name}`, message: "is required" })),
    );
  });
});
