import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { CHECK_PRINTERS_VARIABLE } from "../../src/format/check-printers.js";
import { renderProject } from "../../src/generate.js";
import { POOL_THRESHOLD } from "../../src/render/open-run.js";
import { syntheticSpecs } from "../helpers/synthetic-specs.js";
import { REPO_ROOT, tempProject } from "../helpers/temp-dir.js";

/** The built flowgen's generate API: built JavaScript starts worker threads, TypeScript sources do not. */
const BUILT_API = path.join(REPO_ROOT, "dist/api/generate.js");
const BUILT_POOL = path.join(REPO_ROOT, "dist/workers/stage-pool.js");

describe("a large project on worker threads", () => {
  // The built flowgen (dist/) renders a project this size on worker threads; flowgen's TypeScript
  // sources, which tests import, always render on one thread: both must write prettier's output.
  it("is printed as prettier does one file at a time, and written as one thread renders it", async () => {
    const dir = await tempProject(syntheticSpecs(26));
    // On one thread, every file a fast printer prints is formatted by prettier too, one file at a
    // time, and a difference fails the render (src/format/check-printers.ts).
    vi.stubEnv(CHECK_PRINTERS_VARIABLE, "1");
    const result = await renderProject({ specs: "specs", out: "generated", cwd: dir }).finally(() =>
      vi.unstubAllEnvs(),
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues.slice(0, 3)));
    const modules = result.files.filter(
      (file) => file.path.endsWith(".ts") && !file.path.startsWith("runtime/"),
    );
    expect(modules.length).toBe(2 * 26 + 1);
    // The unions and arrays of unions that had to wrap are in it.
    expect(modules.some((file) => /\?:\n\s+\| components/.test(file.content))).toBe(true);
    // Enough files that a run with nothing cached renders on worker threads...
    expect(result.files.length).toBeGreaterThanOrEqual(POOL_THRESHOLD);
    // ...which the built flowgen's `generate --no-cache` does here (its threads print without the
    // printer check, which the run above made).
    vi.stubEnv(CHECK_PRINTERS_VARIABLE, "0");
    const built = (await import(BUILT_API)) as typeof import("../../src/api/generate.js");
    const generated = await built
      .generate({ cwd: dir, config: false, cache: false })
      .finally(() => vi.unstubAllEnvs());
    expect(generated.ok && generated.diff.added.length).toBe(result.files.length);
    const written = result.files.map((file) =>
      readFileSync(path.join(dir, "generated", file.path), "utf8"),
    );
    expect(written).toEqual(result.files.map((file) => file.content));
  });

  it("checks the examples on a worker thread: a wrong one is still refused, and nothing written", async () => {
    const flow = (q: unknown) => ({
      input: { type: "object", properties: { q: { type: "string", format: "email" } } },
      output: { type: "object" },
      examples: [{ name: "one", input: { q }, output: {} }],
    });
    const { issues, written } = await generateOneWrong(
      (i) => flow(`user${i}@example.com`),
      flow("not an email"),
    );
    expect(issues).toEqual(["specs/@acme/flow-7.json invalid-example"]);
    expect(written).toBe(false);
  });

  it("checks the values in the flows' schemas while they render: a wrong default is still refused, and nothing written", async () => {
    const flow = (q: Record<string, unknown>) => ({
      input: { type: "object", properties: { q } },
      output: { type: "object" },
    });
    const { issues, written } = await generateOneWrong(
      () => flow({ type: "string", enum: ["a", "b"], default: "a" }),
      flow({ type: "string", enum: ["a", "b"], default: "c" }),
    );
    expect(issues).toEqual(["specs/@acme/flow-7.json invalid-schema-value"]);
    expect(written).toBe(false);
  });

  it("load ts-morph through the code cache they are started with", async () => {
    const dir = await tempProject({});
    const codeCache = { dir: path.join(dir, "code-cache"), secret: "c".repeat(64) };
    const built = (await import(BUILT_POOL)) as typeof import("../../src/workers/stage-pool.js");
    const pool = await built.startWorkerPool(codeCache);
    if (pool === undefined) throw new Error("the built flowgen starts no worker threads");
    try {
      await pool.run({ stage: "load modules" });
    } finally {
      await pool.close();
    }
    // This thread loaded nothing with these settings: the thread wrote the entry of ts-morph's
    // own TypeScript, named by the hash of the file's path.
    const tsMorphCommon = createRequire(createRequire(import.meta.url).resolve("ts-morph")).resolve(
      "@ts-morph/common",
    );
    const typescript = path.join(path.dirname(tsMorphCommon), "typescript.js");
    const entry = `${createHash("sha256").update(typescript).digest("hex")}.v8`;
    expect(readdirSync(codeCache.dir)).toContain(entry);
  });
});

/**
 * Generates, with the built flowgen (worker threads), a project large enough for them whose
 * @acme/flow-7 is `wrong` and whose other flows are `good(i)`: the problems found (file and code),
 * and whether an output folder was written.
 */
async function generateOneWrong(
  good: (i: number) => unknown,
  wrong: unknown,
): Promise<{ issues: string[]; written: boolean }> {
  const specs: Record<string, unknown> = {};
  for (let i = 0; i < POOL_THRESHOLD / 2; i++) specs[`specs/@acme/flow-${i}.json`] = good(i);
  const dir = await tempProject({ ...specs, "specs/@acme/flow-7.json": wrong });
  const built = (await import(BUILT_API)) as typeof import("../../src/api/generate.js");
  const generated = await built.generate({ cwd: dir, config: false });
  return {
    issues: generated.ok ? [] : generated.issues.map((issue) => `${issue.file} ${issue.code}`),
    written: existsSync(path.join(dir, "generated")),
  };
}
