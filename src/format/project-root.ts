import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";

/** An empty prettier config: what applies when the one prettier finds is outside the project. */
const NO_CONFIG = fileURLToPath(new URL("../../templates/prettier-none.json", import.meta.url));

/**
 * The project a folder belongs to: the nearest folder at or above `dir` that holds `.git` (a
 * repository or a worktree) or `package.json`; undefined when there is none up to the filesystem's
 * root. Prettier config found above it belongs to something else and is not used.
 *
 * @example
 * const root = findProjectRoot("/home/me/app/generated"); // "/home/me/app"
 */
export function findProjectRoot(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git")) || existsSync(path.join(current, "package.json")))
      return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * The prettier options (`.editorconfig` included) for `file`, from config inside its project only.
 * Prettier searches for its config up to the filesystem's root: a config above the project (in a
 * home folder, a CI workspace) would make output depend on the machine. Then only .editorconfig
 * counts, which prettier reads up to the repository's root.
 *
 * @example
 * const options = await resolveProjectConfig("/home/me/app/generated/file.ts");
 */
export async function resolveProjectConfig(file: string): Promise<prettier.Options> {
  const root = findProjectRoot(path.dirname(file));
  const found = root === undefined ? null : await prettier.resolveConfigFile(file);
  const outside =
    found !== null && root !== undefined && path.relative(root, found).startsWith("..");
  return (
    (await prettier.resolveConfig(file, {
      editorconfig: true,
      ...(outside ? { config: NO_CONFIG } : {}),
    })) ?? {}
  );
}
