import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import { findProjectRoot, isInside, staysInside } from "../project-boundary.js";

/** An empty prettier config: what applies when the one prettier finds is outside the project. */
const NO_CONFIG = fileURLToPath(new URL("../../templates/prettier-none.json", import.meta.url));

/**
 * The prettier options (`.editorconfig` included) for `file`, from config inside its project only.
 * The project is the nearest folder holding `.git` or `package.json` (`findProjectRoot`); prettier
 * searches for its config up to the filesystem's root: a config above the project (in a
 * home folder, a CI workspace) would make output depend on the machine. Then only .editorconfig
 * counts, which prettier reads up to the repository's root. A config that is a link leading out of
 * the project is not used either.
 *
 * @example
 * const options = await resolveProjectConfig("/home/me/app/generated/file.ts");
 */
export async function resolveProjectConfig(file: string): Promise<prettier.Options> {
  const root = findProjectRoot(path.dirname(file));
  const found = root === undefined ? null : await prettier.resolveConfigFile(file);
  // A config inside the project that links out of it is someone else's file too.
  const outside =
    found !== null &&
    root !== undefined &&
    (!isInside(found, root) || !(await staysInside(found, root)));
  return (
    (await prettier.resolveConfig(file, {
      editorconfig: true,
      ...(outside ? { config: NO_CONFIG } : {}),
    })) ?? {}
  );
}
