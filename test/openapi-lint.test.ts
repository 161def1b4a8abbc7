import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compileOpenApi } from "../src/compile/openapi-document.js";
import { buildModel } from "../src/model/build-model.js";
import { loadSpecs } from "../src/spec/load-specs.js";
import { lintOpenApi } from "./helpers/openapi-lint.js";
import { REPO_ROOT, tempProject } from "./helpers/temp-dir.js";

const GOLDEN = path.join(REPO_ROOT, "test/golden");

async function renderedOpenApi(
  cwd: string,
  specs: string,
  baseUrl?: string,
): Promise<Record<string, unknown>> {
  const loaded = await loadSpecs(specs, cwd);
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.issues, null, 2));
  const model = buildModel(loaded.specs);
  return compileOpenApi(model, model.flows, { baseUrl });
}

describe("openapi.json is accepted by Redocly lint (recommended) and swagger-parser validate", async () => {
  const goldenCases = (await readdir(GOLDEN, { withFileTypes: true }))
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

  it.each([
    ["generated/openapi.json"],
    ...goldenCases.map((name) => [`test/golden/${name}/expected/openapi.json`]),
  ])("%s", async (file) => {
    expect(await lintOpenApi(await readFile(path.join(REPO_ROOT, file), "utf8"))).toEqual([]);
  });

  it("with a --base-url that ends in a slash: a literal server URL without it, and no template variables", async () => {
    const document = await renderedOpenApi(REPO_ROOT, "specs", "https://flows.acme.dev/platform/");
    expect(document.servers).toEqual([
      { url: "https://flows.acme.dev/platform", description: expect.any(String) },
    ]);
    expect(document).not.toHaveProperty("jsonSchemaDialect");
    expect(await lintOpenApi(JSON.stringify(document))).toEqual([]);
  });

  it("gives every error response and every header an example, and no description is empty", async () => {
    const document = await renderedOpenApi(REPO_ROOT, "specs");
    const components = document.components as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    const responses = Object.entries(components.responses ?? {});
    expect(responses.map(([name]) => name)).toEqual([
      "BadRequest",
      "Unauthorized",
      "Forbidden",
      "NotFound",
      "PayloadTooLarge",
      "UnsupportedMediaType",
      "TooManyRequests",
      "InternalError",
      "ServiceUnavailable",
    ]);
    for (const [, response] of responses) {
      const example = (response.content as Record<string, { example?: { code?: string } }>)[
        "application/json"
      ]?.example;
      expect(example?.code).toMatch(/^[a-z_]+$/);
    }
    expect(
      (components.responses?.BadRequest?.content as Record<string, { example: unknown }>)[
        "application/json"
      ]?.example,
    ).toMatchObject({
      code: "invalid_input",
      details: [{ pointer: expect.any(String), message: expect.any(String) }],
    });
    for (const [, header] of Object.entries(components.headers ?? {}))
      expect(header.example).toBeDefined();
    expect(Object.keys(components.schemas ?? {})).not.toContain("Error");
    expect((document.info as { version: string }).version).toMatch(/^\d+\.\d+\.\d+$/);
    const descriptions = [
      ...JSON.stringify(document).matchAll(/"description":"((?:[^"\\]|\\.)*)"/g),
    ].map((match) => match[1]);
    expect(descriptions.filter((text) => text?.trim() === "")).toEqual([]);
    // flowgen's own placeholders sit in code spans, where Markdown renderers keep <…>.
    expect(JSON.stringify(document)).not.toMatch(/(^|[^`])POST \/v1\/@</);
  });

  it("leaves out empty summaries and descriptions, the flow's and its schemas'", async () => {
    const input = {
      type: "object",
      description: "",
      properties: { a: { type: "string", description: " " } },
    };
    const dir = await tempProject({
      "specs/@acme/qa.json": {
        summary: " ",
        description: "",
        input,
        output: { type: "object" },
        examples: [{ name: "", input: {}, output: {} }],
      },
    });
    const document = await renderedOpenApi(dir, "specs");
    const operation = (document.paths as Record<string, { post: Record<string, unknown> }>)[
      "/v1/@acme/qa"
    ]?.post;
    expect(operation?.summary).toBe("Run @acme/qa");
    expect(operation).not.toHaveProperty("description");
    expect(JSON.stringify(document)).not.toMatch(/"(description|summary)":"\s*"/);
    expect(
      (document.components as { schemas: Record<string, unknown> }).schemas["acme.qa.Input"],
    ).toEqual({ type: "object", properties: { a: { type: "string" } } });
    expect(await lintOpenApi(JSON.stringify(document))).toEqual([]);
  });
});
