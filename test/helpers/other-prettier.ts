import { cp, readFile } from "node:fs/promises";
import path from "node:path";
import { REPO_ROOT } from "./temp-dir.js";

/**
 * A prettier other than flowgen's own: the devDependency `prettier-3-0-3`, an npm alias of
 * prettier 3.0.3, so the lockfile pins it and a test needs no network. Its `prettier` bin may take
 * the `node_modules/.bin/prettier` link from flowgen's own prettier, so flowgen's scripts run
 * `node node_modules/prettier/bin/prettier.cjs` by path.
 */
export const OTHER_PRETTIER = path.join(REPO_ROOT, "node_modules/prettier-3-0-3");

/** The version of {@link OTHER_PRETTIER}, read from its package.json. */
export async function otherPrettierVersion(): Promise<string> {
  const manifest = JSON.parse(
    await readFile(path.join(OTHER_PRETTIER, "package.json"), "utf8"),
  ) as { version: string };
  return manifest.version;
}

/**
 * Installs the other prettier as the project's own: a copy at `projectDir`/node_modules/prettier,
 * where Node (and flowgen) find a project's prettier.
 *
 * @example
 * await installOtherPrettier(dir);
 */
export async function installOtherPrettier(projectDir: string): Promise<void> {
  await cp(OTHER_PRETTIER, path.join(projectDir, "node_modules/prettier"), { recursive: true });
}
