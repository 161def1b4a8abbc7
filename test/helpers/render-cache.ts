import { rmSync } from "node:fs";
import { cp, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "../../src/api/generate.js";
import { tempProject, writeFiles } from "./temp-dir.js";

/** Where a project's render cache lives by default. */
export const CACHE_DIR = "node_modules/.cache/flowgen";

let runtimeCache: Promise<string> | undefined;

/**
 * A render cache holding the client runtime's files as flowgen formats them without a prettier
 * config, made once per test worker by generating a one-flow project of its own.
 */
function readyRuntimeCache(): Promise<string> {
  runtimeCache ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "flowgen-runtime-cache-"));
    process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
    await writeFiles(dir, {
      "specs/@cache/seed.json": { input: { type: "object" }, output: { type: "object" } },
    });
    const result = await generate({ cwd: dir, config: false });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    return path.join(dir, CACHE_DIR);
  })();
  return runtimeCache;
}

/**
 * A fresh folder holding `files`, as `tempProject` makes it, whose render cache already holds the
 * client runtime's files: as on a machine where flowgen has run before, its first run renders
 * only the project's own flows. For tests about what a run says and writes, not about rendering.
 *
 * @example
 * const dir = await cachedProject({ "specs/@acme/qa.json": qa });
 */
export async function cachedProject(files: Record<string, unknown>): Promise<string> {
  const dir = await tempProject(files);
  await cp(await readyRuntimeCache(), path.join(dir, CACHE_DIR), { recursive: true });
  return dir;
}
