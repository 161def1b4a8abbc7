import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { generate } from "../src/api/generate.js";
import { openRenderCache } from "../src/cache/render-cache.js";
import { contractProvenance } from "../src/diff/contract-provenance.js";
import { diffContracts } from "../src/diff/contract-diff.js";
import { createRunKeys, stampRun } from "../src/render/run-keys.js";
import { readSpecFiles } from "../src/spec/read-spec-files.js";
import { contract } from "./helpers/contract.js";
import { tempProject, writeFiles } from "./helpers/temp-dir.js";

const schema = (required: string[]) => ({
  type: "object",
  required,
  properties: { q: { type: "string" }, lang: { type: "string" } },
});
const flow = (required: string[]) => ({ input: schema(required), output: { type: "object" } });

describe("contract provenance: which flows an earlier openapi.json shows as they are now", () => {
  it("names the flows whose inputs match the record of that exact text, and none for text it has no record of", async () => {
    const dir = await tempProject({
      "specs/@acme/qa.json": flow(["q"]),
      "specs/@acme/search.json": flow([]),
    });
    const stamp = stampRun({
      code: "code",
      version: "1",
      runtime: [],
      validation: "",
      formatter: "",
      settings: {},
    });
    const keys = createRunKeys(stamp, await readSpecFiles("specs", dir), undefined);
    const cache = await openRenderCache(path.join(dir, ".cache"), dir);
    const provenance = contractProvenance(cache, keys);
    const { inputs } = keys.hashFlows();
    provenance.record("text one", inputs);

    expect([...provenance.unchangedSince("text one", inputs)]).toEqual([
      "@acme/qa.json",
      "@acme/search.json",
    ]);
    const edited = { ...inputs, "@acme/qa.json": "another hash" };
    expect([...provenance.unchangedSince("text one", edited)]).toEqual(["@acme/search.json"]);
    expect([...provenance.unchangedSince("text two", inputs)]).toEqual([]);
  });

  it("diffContracts does not compare the flows it is told are unchanged", () => {
    const base = contract({ "@acme/qa": { input: schema(["q"]) }, "@acme/x": {} });
    const head = contract({ "@acme/qa": { input: schema(["q", "lang"]) }, "@acme/x": {} });
    expect(diffContracts(base, head).changes.map((change) => change.flow)).toEqual(["@acme/qa"]);
    const told = diffContracts(base, head, undefined, { unchanged: new Set(["@acme/qa"]) });
    expect(told.changes).toEqual([]);
  });
});

describe("generate after an edit, with this machine's cache", () => {
  async function generated(): Promise<string> {
    const dir = await tempProject({
      "specs/@acme/qa.json": flow(["q"]),
      "specs/@acme/search.json": flow([]),
    });
    const first = await generate({ cwd: dir, config: false });
    if (!first.ok) throw new Error(JSON.stringify(first.issues));
    return dir;
  }
  const changesOf = async (dir: string, cacheDir?: string) => {
    const result = await generate({ cwd: dir, config: false, ...(cacheDir ? { cacheDir } : {}) });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return result.contract?.changes.map((c) => `${c.flow} ${c.kind} ${c.rule} ${c.pointer}`);
  };

  it("reports the edited flow's changes, as a run without the cache does", async () => {
    const dir = await generated();
    const again = await generated();
    for (const project of [dir, again])
      await writeFiles(project, { "specs/@acme/qa.json": flow(["q", "lang"]) });
    const expected = ["@acme/qa breaking required-added /input/required"];
    expect(await changesOf(dir)).toEqual(expected);
    expect(await changesOf(again, ".another-cache")).toEqual(expected);
  });

  it("compares every flow when openapi.json is not the text this machine rendered", async () => {
    const dir = await generated();
    // Edited by hand: search's input now requires "lang" in the committed contract.
    const file = path.join(dir, "generated/openapi.json");
    const text = await readFile(file, "utf8");
    await writeFile(file, text.replace('"required": []', '"required": ["lang"]'));
    await writeFiles(dir, { "specs/@acme/qa.json": flow(["q", "lang"]) });
    expect(await changesOf(dir)).toEqual([
      "@acme/qa breaking required-added /input/required",
      "@acme/search compatible required-removed /input/required",
    ]);
  });
});
