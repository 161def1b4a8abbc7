import { readFile } from "node:fs/promises";
import Module, { createRequire } from "node:module";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type * as Prettier from "prettier";

/** The prettier a run formats with: where to import it from, and its version. */
export interface PrettierRef {
  /** A file URL of the module to import (`index.mjs` of the package). */
  readonly url: string;
  readonly version: string;
  /** True when this is flowgen's own prettier, the version its fast printers are proven against. */
  readonly own: boolean;
}

/** flowgen's own prettier: resolved from this module, as a static import would. */
const OWN_PRETTIER = createRequire(import.meta.url).resolve("prettier/package.json");

/**
 * The prettier of the project the output folder is in, when it has a prettier 3.x of its own,
 * found as Node finds packages from the output folder (its `node_modules`, then its parents', a
 * monorepo's hoisted one included): formatting with it is what makes that project's
 * `prettier --check` pass on the generated files. Else flowgen's own. Packages found only in
 * Node's global folders (`NODE_PATH`, `~/.node_modules`) are not the project's.
 *
 * @example
 * const ref = await findProjectPrettier("/home/me/app/generated");
 * const prettier = await importPrettier(ref);
 */
export async function findProjectPrettier(outDir: string): Promise<PrettierRef> {
  const own = await describePackage(OWN_PRETTIER, true);
  let manifest: string;
  try {
    manifest = createRequire(path.join(path.resolve(outDir), "noop.js")).resolve(
      "prettier/package.json",
    );
  } catch {
    return own;
  }
  if (manifest === OWN_PRETTIER || inGlobalFolder(manifest)) return own;
  const found = await describePackage(manifest, false).catch(() => undefined);
  if (found === undefined) return own;
  // Another major formats differently and has another API: flowgen's own then.
  if (!/^3\./.test(found.version)) return own;
  return found.version === own.version ? { ...found, own: true } : found;
}

/**
 * The prettier module a `PrettierRef` names. Imports are cached by Node, so each thread loads a
 * version once.
 *
 * @example
 * const prettier = await importPrettier(ref);
 */
export async function importPrettier(ref: PrettierRef): Promise<typeof Prettier> {
  return (await import(ref.url)) as typeof Prettier;
}

async function describePackage(manifest: string, own: boolean): Promise<PrettierRef> {
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  return {
    url: pathToFileURL(path.join(path.dirname(manifest), "index.mjs")).href,
    version,
    own,
  };
}

function inGlobalFolder(file: string): boolean {
  const globalPaths = (Module as unknown as { globalPaths?: readonly string[] }).globalPaths ?? [];
  return globalPaths.some((folder) => {
    const relative = path.relative(folder, file);
    return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
  });
}
