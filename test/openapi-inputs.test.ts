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
