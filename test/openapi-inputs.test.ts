import { writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { renderProject } from "../src/generate.js";
import { tempProject } from "./helpers/temp-dir.js";

const MONEY = {
  type: "object",
  properties: { amount: { type: "number" }, currency: { type: "string" } },
};

function flow(example: unknown) {
  return {
    description: "Prices a basket.",
    input: { type: "object", properties: { total: { $ref: "../_shared/money.json" } } },
    output: { type: "object", properties: { ok: { type: "boolean" } } },
    examples: [{ name: "one", input: example, output: { ok: true } }],
  };
}

async function openapiText(dir: string, cacheDir: string | undefined): Promise<string> {
  const result = await renderProject({ specs: "specs", out: "generated", cwd: dir, cacheDir });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return result.files.find((file) => file.path === "openapi.json")?.content ?? "";
}

describe("openapi.json's inputs (the flows' models and the documents of their components)", () => {
  it.each([
    ["an example", "specs/@acme/price.json", flow({ total: { amount: 2, currency: "EUR" } })],
    ["a flow's description", "specs/@acme/price.json", { ...flow({}), description: "Other." }],
    [
      "a shared schema a flow reaches",
      "specs/_shared/money.json",
      { ...MONEY, required: ["amount"] },
    ],
  ])(
    "change with %s: a warm cache gives what a render without one gives",
    async (_what, file, edited) => {
      const dir = await tempProject({
        "package.json": { name: "app", private: true },
        "specs/_shared/money.json": MONEY,
        "specs/@acme/price.json": flow({ total: { amount: 1, currency: "EUR" } }),
        "specs/@acme/other.json": { input: { type: "object" }, output: { type: "object" } },
      });
      const cacheDir = "node_modules/.cache/flowgen";
      const before = await openapiText(dir, cacheDir);
      await writeFile(path.join(dir, file), JSON.stringify(edited));
      const warm = await openapiText(dir, cacheDir);
      expect(warm).toBe(await openapiText(dir, undefined));
      expect(warm).not.toBe(before);
    },
  );
});

async function renderedFiles(
  dir: string,
  cacheDir: string | undefined,
): Promise<Map<string, string>> {
  const result = await renderProject({ specs: "specs", out: "generated", cwd: dir, cacheDir });
  if (!result.ok) throw new Error(JSON.stringify(result.issues));
  return new Map(result.files.map((file) => [file.path, file.content]));
}

describe("a flow's types file, known by what makes its document (not made again to be hashed)", () => {
  const reaching = (...files: string[]) => ({
    input: {
      type: "object",
      properties: Object.fromEntries(
        files.map((file, i) => [`v${i}`, { $ref: `../_shared/${file}` }]),
      ),
    },
    output: { type: "object" },
  });
  it.each([
    [
      "a shared schema it reaches is edited",
      reaching("a_b.json"),
      "specs/_shared/a_b.json",
      { type: "integer" },
    ],
    // JSON.parse reads "\u0024ref" as "$ref": the flow reaches the shared file all the same.
    [
      "a shared schema it reaches through an escaped key is edited",
      '{"input":{"type":"object","properties":{"v":{"\\u0024ref":"../_shared/a_b.json"}}},"output":{"type":"object"}}',
      "specs/_shared/a_b.json",
      { type: "integer" },
    ],
    // `_shared/a.b.json` and `_shared/a_b.json` both make the component name `_shared.a_b`: the
    // first reached takes it. A flow added before @acme/b reaches `a.b.json` first: @acme/b's
    // components keep their names, but each now names the other file's schema.
    [
      "another flow takes its component's name",
      reaching("a_b.json", "a.b.json"),
      "specs/@acme/a.json",
      reaching("a.b.json"),
    ],
  ])("is rendered again when %s", async (_what, flow, file, edited) => {
    const dir = await tempProject({
      "package.json": { name: "app", private: true },
      "specs/_shared/a_b.json": { type: "string" },
      "specs/_shared/a.b.json": { type: "boolean" },
      "specs/@acme/b.json": flow,
    });
    const cacheDir = "node_modules/.cache/flowgen";
    const before = await renderedFiles(dir, cacheDir);
    await writeFile(path.join(dir, file), JSON.stringify(edited));
    const warm = await renderedFiles(dir, cacheDir);
    expect(warm).toEqual(await renderedFiles(dir, undefined));
    expect(warm.get("@acme/b.types.ts")).not.toBe(before.get("@acme/b.types.ts"));
  });
});
