import path from "node:path";
import type { GenerateSettings } from "../config/resolve-settings.js";
import type { Issue } from "../issues.js";
import { projectBoundary, staysInside } from "../project-boundary.js";
import { OutputLockedError } from "../write/output-lock.js";
import { ForeignOutputError, refuseLinkedFolder } from "../write/write-output.js";

/**
 * The output folder may not be a link: flowgen never writes through one. When it lies in the
 * project as written, it must stay there once the links on its way are followed.
 *
 * @example
 * const refused = await checkOutputPlace("/repo/generated", "generated", "/repo");
 */
export async function checkOutputPlace(
  outDir: string,
  out: string,
  cwd: string,
): Promise<Issue | undefined> {
  try {
    await refuseLinkedFolder(outDir);
  } catch (error) {
    const issue = outputIssue(error, out, cwd);
    if (issue === undefined) throw error;
    return issue;
  }
  if (await staysInside(outDir, projectBoundary(outDir, cwd))) return undefined;
  return {
    code: "outside-project",
    file: out,
    message:
      "leads out of the project through a symlink on its way; flowgen writes only inside the project: point --out at a folder in it, or, if you mean the link's target, at the target itself",
  };
}

/**
 * The cache folder, unless it lies in the project as written but leads out of it: then no cache
 * (it only saves time).
 *
 * @example
 * const cacheDir = await usableCacheDir(settings, process.cwd());
 */
export async function usableCacheDir(
  settings: GenerateSettings,
  cwd: string,
): Promise<string | undefined> {
  if (!settings.cache) return undefined;
  const dir = path.resolve(cwd, settings.cacheDir);
  return (await staysInside(dir, projectBoundary(dir, cwd))) ? settings.cacheDir : undefined;
}

/**
 * The issue an error from writing the output folder stands for; undefined for a bug.
 *
 * @example
 * const issue = outputIssue(error, "generated", process.cwd());
 */
export function outputIssue(error: unknown, out: string, cwd: string): Issue | undefined {
  if (error instanceof ForeignOutputError)
    return { code: "not-an-output-folder", file: out, message: error.detail };
  if (error instanceof OutputLockedError) {
    const lock = path.relative(cwd, error.lockDir).split(path.sep).join("/");
    return {
      code: "output-locked",
      file: out,
      message: `another flowgen run (pid ${error.pid}) is writing this folder; wait for it to finish, or, if no flowgen runs, remove ${lock}`,
    };
  }
  return undefined;
}
