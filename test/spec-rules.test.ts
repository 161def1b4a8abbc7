import { readFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { runCli as flowgen } from "./helpers/run-cli.js";
import { startServe } from "../src/serve/serve.js";
import { tempProject } from "./helpers/temp-dir.js";

const object = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  ...extra,
});
const answer = object({ answer: { type: "string" } });

/** A flow whose `priority` has an OpenAPI 3.0 `example` its own schema refuses. */
const withBadExample = {
  input: object({ priority: { type: "integer", minimum: 1, example: "high" } }),
  output: answer,
};
/** A flow whose enum holds a member of the wrong type. */
const withBadEnum = {
  input: object({ size: { type: "string", enum: ["s", "m", 3] } }),
  output: answer,
};

describe("rule severities", () => {
  it("by default, a 3.0 example that fails its schema warns, with file, line, pointer and code, and generation goes on", async () => {
    const dir = await tempProject({ "specs/@acme/tickets.json": withBadExample });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: specs\/@acme\/tickets\.json:\d+:\d+ #\/input\/properties\/priority\/example: this example value fails its own schema: must be integer; fix the value or the schema \[invalid-schema-example\] flowgen-cli\/docs\/errors\.md#invalid-schema-example\n$/,
    );
    expect(run.stdout).toMatch(/^flowgen: 1 flow → generated: /);
    // A warm run takes the checks from the cache, and says the same.
    expect((await flowgen(dir, "generate")).stderr).toBe(run.stderr);
    expect((await flowgen(dir, "generate", "--check")).stderr).toBe(run.stderr);
  });

  it.each<[Record<string, string>, number, RegExp]>([
    [
      { "invalid-schema-example": "error" },
      2,
      /^specs\/@acme\/tickets\.json:\d+:\d+ .*\[invalid-schema-example\] flowgen-cli\/docs\/errors\.md#invalid-schema-example\nflowgen: 1 problem in specs; nothing was written\.\n$/,
    ],
    [{ "invalid-schema-example": "off" }, 0, /^$/],
  ])("rules %j: exit %i", async (rules, code, stderr) => {
    const dir = await tempProject({
      "flowgen.config.json": { rules },
      "specs/@acme/tickets.json": withBadExample,
    });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(stderr);
  });

  it("turns a value error into a warning for a team that imports upstream schemas", async () => {
    const specs = { "specs/@acme/sizes.json": withBadEnum };
    const refused = await flowgen(await tempProject(specs), "generate");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("[invalid-schema-value]");
    const dir = await tempProject({
      ...specs,
      "flowgen.config.json": { rules: { "invalid-schema-value": "warn" } },
    });
    // flowgen diff reads specs under the same rules.
    expect((await flowgen(dir, "diff", "--base", "specs")).code).toBe(0);
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: specs\/@acme\/sizes\.json:\d+:\d+ #\/input\/properties\/size\/enum\/2: this enum value fails its own schema: must be string; .* \[invalid-schema-value\] flowgen-cli\/docs\/errors\.md#invalid-schema-value\n$/,
    );
  });

  it("cannot switch off a structural problem, and names the codes that take a severity", async () => {
    const dir = await tempProject({
      "flowgen.config.json": {
        rules: { "ref-not-found": "off", "invalid-schema-valu": "warn", "unknown-keyword": "loud" },
      },
      "specs/@acme/qa.json": { input: { $ref: "#/$defs/Missing" }, output: answer },
    });
    const run = await flowgen(dir, "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      'flowgen.config.json #/rules/ref-not-found: "ref-not-found" is a structural problem: flowgen cannot build with it, so it is always an error and cannot be given a severity; the codes that can are unknown-keyword, non-unicode-pattern, invalid-example, invalid-schema-value, invalid-schema-example, missing-dependency [invalid-config] flowgen-cli/docs/errors.md#invalid-config',
    );
    expect(run.stderr).toContain(
      '#/rules/invalid-schema-valu: "invalid-schema-valu" is not a problem code (did you mean "invalid-schema-value"?)',
    );
    expect(run.stderr).toContain(
      '#/rules/unknown-keyword: must be "error", "warn" or "off", not "loud"',
    );
    const noRules = await tempProject({
      "flowgen.config.json": { rules: { "invalid-schema-value": "off" } },
      "specs/@acme/qa.json": { input: { $ref: "#/$defs/Missing" }, output: answer },
    });
    const dangling = await flowgen(noRules, "generate");
    expect(dangling.code).toBe(2);
    expect(dangling.stderr).toContain("[ref-not-found]");
  });
});

describe("OpenAPI 3.0 shapes imported schemas have", () => {
  it("reads nullable: true as 3.0.3 defines it: null joins the types when type is there", async () => {
    const dir = await tempProject({
      "specs/@acme/people.json": {
        input: object({
          name: { type: "string", nullable: true, default: null },
          tags: { type: ["array"], items: { type: "string" }, nullable: true },
          size: { type: "string", enum: ["s", "m"], nullable: true },
          sizeOrNone: { type: "string", enum: ["s", null], nullable: true },
          fixed: { type: "string", const: "x", nullable: true },
          any: { description: "no type: nullable says nothing", nullable: true },
          plain: { type: "string", nullable: false },
        }),
        output: answer,
      },
    });
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const document = JSON.parse(
      await readFile(path.join(dir, "generated/openapi.json"), "utf8"),
    ) as {
      components: { schemas: Record<string, { properties: Record<string, unknown> }> };
    };
    expect(document.components.schemas["acme.people.Input"]?.properties).toEqual({
      name: { type: ["string", "null"], default: null },
      tags: { type: ["array", "null"], items: { type: "string" } },
      // An enum or const without null still refuses it: the type need not say null.
      size: { type: "string", enum: ["s", "m"] },
      sizeOrNone: { type: ["string", "null"], enum: ["s", null] },
      fixed: { type: "string", const: "x" },
      any: { description: "no type: nullable says nothing" },
      plain: { type: "string" },
    });
    const types = await readFile(path.join(dir, "generated/@acme/people.types.ts"), "utf8");
    expect(types).toMatch(/name\?: string \| null;/);
    expect(types).toMatch(/tags\?: string\[\] \| null;/);
    expect(types).toMatch(/size\?: "s" \| "m";/);
    expect(types).toMatch(/sizeOrNone\?: "s" \| null;/);
  });

  it("reads nullable written with an escape, which JSON and YAML read as the same key", async () => {
    const dir = await tempProject({
      "specs/@acme/json.json":
        '{"input":{"type":"object","properties":{"a":{"type":"string","n\\u0075llable":true}}},"output":{"type":"object"}}',
      "specs/@acme/yaml.yaml":
        'input:\n  type: object\n  properties:\n    a:\n      type: string\n      "n\\x75llable": true\noutput:\n  type: object\n',
    });
    expect(await flowgen(dir, "generate")).toMatchObject({ code: 0, stderr: "" });
    for (const flow of ["json", "yaml"]) {
      const types = await readFile(path.join(dir, `generated/@acme/${flow}.types.ts`), "utf8");
      expect(types).toMatch(/a\?: string \| null;/);
    }
  });

  it("accepts an object-or-null root as an object, and still refuses a root that is not one", async () => {
    const dir = await tempProject({
      "specs/@acme/maybe.json": {
        input: { type: ["object", "null"], properties: { q: { type: "string" } } },
        output: { type: "object", nullable: true, properties: { a: { type: "string" } } },
      },
    });
    const run = await flowgen(dir, "generate");
    expect(run).toMatchObject({ code: 0, stderr: "" });
    const document = JSON.parse(
      await readFile(path.join(dir, "generated/openapi.json"), "utf8"),
    ) as {
      components: { schemas: Record<string, { type: unknown }> };
    };
    expect(document.components.schemas["acme.maybe.Input"]?.type).toBe("object");
    expect(document.components.schemas["acme.maybe.Output"]?.type).toBe("object");
    const list = await tempProject({
      "specs/@acme/list.json": { input: { type: ["array", "null"] }, output: answer },
    });
    const refused = await flowgen(list, "generate");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain("#/input: the input schema must describe a JSON object");
  });
});

/** `\:` is an identity escape: valid without the u flag (it means ":"), refused with it. */
const COLON_CODE = "^\\:[a-z]+$";

describe("a pattern that compiles only without the u flag", () => {
  const specs = {
    "specs/@acme/codes.json": {
      input: object(
        { code: { type: "string", pattern: COLON_CODE, default: ":ok" } },
        { required: ["code"] },
      ),
      output: answer,
    },
  };

  it("warns, and is used without the flag by the spec checks, generated validators and serve", async () => {
    const dir = await tempProject(specs);
    const run = await flowgen(dir, "generate", "--validators");
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(
      /^warning: specs\/@acme\/codes\.json:\d+:\d+ #\/input\/properties\/code\/pattern: /,
    );
    expect(run.stderr).toContain(
      '"^\\\\:[a-z]+$" is a regular expression only without the "u" flag (with it: Invalid escape); flowgen uses it without, as OpenAPI 3.0 tools did. To use it with the flag, drop the escapes the flag refuses (such as "\\-" outside brackets or "\\:", which mean "-" and ":") [non-unicode-pattern] flowgen-cli/docs/errors.md#non-unicode-pattern\n',
    );
    expect(run.stderr.split("\n")).toHaveLength(2);
    const validators = await readFile(
      path.join(dir, "generated/@acme/codes.validators.ts"),
      "utf8",
    );
    expect(validators).toContain('new RegExp("^\\\\:[a-z]+$", "")');
    expect(validators).not.toContain("flowgen-pattern-");
    const { codesValidators } = (await import(
      pathToFileURL(path.join(dir, "generated/@acme/codes.validators.ts")).href
    )) as { codesValidators: { input: (value: unknown) => unknown } };
    expect(codesValidators.input({ code: ":abc" })).toEqual([]);
    expect(codesValidators.input({ code: "abc" })).toEqual([
      { pointer: "/code", message: expect.any(String) as unknown },
    ]);

    const server = await startServe({
      specs: "specs",
      cwd: dir,
      port: 0,
      host: "127.0.0.1",
      handlers: "handlers",
      watch: false,
      keysEnv: "k_codes_0123456789",
      rate: 100,
      burst: 100,
      bodyLimit: 1024,
      maxDepth: 16,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 5000,
      seed: 1,
    });
    if (!server.ok) throw new Error(JSON.stringify(server.issues));
    try {
      const call = (code: string) =>
        fetch(`${server.url}/v1/@acme/codes`, {
          method: "POST",
          headers: {
            authorization: "Bearer k_codes_0123456789",
            "content-type": "application/json",
          },
          body: JSON.stringify({ code }),
        }).then((response) => response.status);
      expect(await call(":abc")).toBe(200);
      expect(await call("abc")).toBe(400);
    } finally {
      await server.close();
    }
  });

  it("checks values against it without the flag too, and is refused when the rule says error", async () => {
    const bad = structuredClone(specs);
    (bad["specs/@acme/codes.json"].input.properties.code as { default: string }).default = "no";
    const run = await flowgen(await tempProject(bad), "generate");
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(
      '#/input/properties/code/default: this default value fails its own schema: must match pattern "^\\:[a-z]+$"',
    );
    const strict = await tempProject({
      ...specs,
      "flowgen.config.json": { rules: { "non-unicode-pattern": "error" } },
    });
    const refused = await flowgen(strict, "generate");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      "[non-unicode-pattern] flowgen-cli/docs/errors.md#non-unicode-pattern\nflowgen: 1 problem in specs",
    );
    const invalid = await tempProject({
      "specs/@acme/codes.json": {
        input: object({ c: { type: "string", pattern: "((" } }),
        output: answer,
      },
    });
    const broken = await flowgen(invalid, "generate");
    expect(broken.code).toBe(2);
    expect(broken.stderr).toContain('"((" is not a valid regular expression (ECMAScript)');
  });
});
