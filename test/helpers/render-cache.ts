import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { generate } from "../../src/api/generate.js";
import { GENERATE_DEFAULTS } from "../../src/config/resolve-settings.js";
import { tempProject, writeFiles } from "./temp-dir.js";

const CACHE_DIR = GENERATE_DEFAULTS.cacheDir;

let runtimeCache: Promise<ReadonlyMap<string, Buffer>> | undefined;

/**
 * The files of a render cache holding the client runtime's files as flowgen formats them without
 * a prettier config, made once per test worker by generating a one-flow project of its own.
 */
function readyRuntimeCache(): Promise<ReadonlyMap<string, Buffer>> {
  runtimeCache ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "flowgen-runtime-cache-"));
    try {
      await writeFiles(dir, {
        "specs/@cache/seed.json": { input: { type: "object" }, output: { type: "object" } },
      });
      const result = await generate({ cwd: dir, config: false });
      if (!result.ok) throw new Error(JSON.stringify(result.issues));
      const cacheDir = path.join(dir, CACHE_DIR);
      const read = async (name: string): Promise<[string, Buffer]> => [
        name,
        await readFile(path.join(cacheDir, name)),
      ];
      return new Map(await Promise.all((await readdir(cacheDir)).map(read)));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return runtimeCache;
}

/**
 * A fresh folder holding `files`, as `tempProject` makes it, whose render cache already holds the
 * client runtime's files: as on a machine where flowgen has run before, its first run renders
 * only the project's own flows. For tests about what a run says and writes, not about rendering.
 * Only runs under the default settings find the runtime there: a base URL, validators or a
 * prettier config of the project's are in every cache key.
 *
 * @example
 * const dir = await cachedProject({ "specs/@acme/qa.json": qa });
 */
export async function cachedProject(files: Record<string, unknown>): Promise<string> {
  const dir = await tempProject(files);
  await mkdir(path.join(dir, CACHE_DIR), { recursive: true });
  for (const [name, bytes] of await readyRuntimeCache())
    await writeFile(path.join(dir, CACHE_DIR, name), bytes);
  return dir;
}
