import { existsSync } from "node:fs";
import { readlink, realpath } from "node:fs/promises";
import path from "node:path";

/**
 * The project a folder belongs to: the nearest folder at or above `dir` that holds `.git` (a
 * repository or a worktree) or `package.json`; undefined when there is none up to the filesystem's
 * root.
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
 * The folder that reads and writes for `target` must stay inside: the project of the working
 * directory (the nearest folder at or above it holding `package.json` or `.git`, else the working
 * directory) when `target` lies in it as written; else the project `target` lies in as written,
 * if it has one. The working directory's project is found first on purpose: a folder inside it
 * that links elsewhere (to a folder holding some `package.json`) is not a project of its own.
 *
 * @example
 * const boundary = projectBoundary("/home/me/app/specs", "/home/me/app"); // "/home/me/app"
 */
export function projectBoundary(target: string, cwd: string): string {
  const home = findProjectRoot(cwd) ?? path.resolve(cwd);
  if (isInside(path.resolve(target), home)) return home;
  return findProjectRoot(target) ?? home;
}

/**
 * True when `file` is `folder` or lies below it (both absolute, compared as written).
 *
 * @example
 * isInside("/app/specs/a.json", "/app"); // true
 */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}

/**
 * Where `target` really is once every link on its way is followed: its real path, or, when it does
 * not exist yet, the real path of its nearest existing parent with the rest appended.
 *
 * @example
 * const real = await resolveReal("/app/generated"); // "/data/app/generated" when /app links to /data/app
 */
export async function resolveReal(target: string): Promise<string> {
  const absolute = path.resolve(target);
  const found = await realpath(absolute).catch(() => undefined);
  if (found !== undefined) return found;
  const parent = path.dirname(absolute);
  if (parent === absolute) return absolute;
  return path.join(await resolveReal(parent), path.basename(absolute));
}

/**
 * Whether `target`, which lies inside `root` as written, still lies inside it once links are
 * followed. A path written outside the project is the user's explicit choice and is not refused
 * here; a link inside the project is never a way out of it.
 *
 * @example
 * if (!(await staysInside("/app/generated", "/app"))) refuse();
 */
export async function staysInside(target: string, root: string): Promise<boolean> {
  if (!isInside(path.resolve(target), path.resolve(root))) return true;
  return isInside(await resolveReal(target), await resolveReal(root));
}

/**
 * The text of the link at `file`, to name it in a message; "?" when it cannot be read.
 *
 * @example
 * `symlink to ${await linkText("specs/@acme/qa.json")}`
 */
export async function linkText(file: string): Promise<string> {
  return readlink(file).catch(() => "?");
}
