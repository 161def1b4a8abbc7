import { existsSync, readFileSync, statSync } from "node:fs";
import { readlink, realpath } from "node:fs/promises";
import path from "node:path";

/**
 * The project a folder belongs to: the nearest folder at or above `dir` that holds `.git` (a
 * repository or a worktree) or `package.json` (other than the one in flowgen's output folder);
 * undefined when there is none up to the filesystem's root.
 *
 * @example
 * const root = findProjectRoot("/home/me/app/generated"); // "/home/me/app"
 */
export function findProjectRoot(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git")) || holdsProjectManifest(current)) return current;
    if (path.dirname(current) === current) return undefined;
  }
}

/**
 * The folder where prettier stops reading `.editorconfig` files for a file in `folder`: the
 * nearest one at or above it that holds `.git` (a folder, or a file in a worktree) or an `.hg`
 * folder. Undefined when there is none: then prettier reads them up to the filesystem's root.
 *
 * @example
 * findRepositoryRoot("/home/me/app/generated"); // "/home/me/app"
 */
export function findRepositoryRoot(folder: string): string | undefined {
  for (let dir = path.resolve(folder); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".git")) || isFolder(path.join(dir, ".hg"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

function isFolder(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
}

/**
 * How far up the project's own config files (flowgen's, prettier's, tsconfig's `extends`) are read
 * for files in `dir`: the root of the workspace the project is a package of (a monorepo's root
 * holds its shared prettier config, base tsconfig and flowgen config), else the project's root;
 * undefined outside any project. It follows files of the checkout only, not `.git` (a build
 * context without it reads the same), and depends on `dir` alone, never on the working directory,
 * so a run from the workspace's root and one from the package agree.
 *
 * @example
 * findConfigRoot("/repo/packages/app/generated"); // "/repo", when /repo/package.json has "workspaces"
 */
export function findConfigRoot(dir: string): string | undefined {
  const project = findProjectRoot(dir);
  if (project === undefined) return undefined;
  return findWorkspaceRoot(project) ?? project;
}

/**
 * The nearest folder at or above `project` that roots a workspace: it holds `pnpm-workspace.yaml`,
 * or a package.json with `workspaces` (npm, Yarn, Bun). The search ends at a repository's root
 * (`.git`): a workspace never spans repositories. Undefined when there is none.
 *
 * @example
 * findWorkspaceRoot("/repo/packages/app"); // "/repo"
 */
export function findWorkspaceRoot(project: string): string | undefined {
  for (let dir = path.resolve(project); ; dir = path.dirname(dir)) {
    if (rootsWorkspace(dir)) return dir;
    if (existsSync(path.join(dir, ".git")) || path.dirname(dir) === dir) return undefined;
  }
}

function rootsWorkspace(folder: string): boolean {
  if (existsSync(path.join(folder, "pnpm-workspace.yaml"))) return true;
  let manifest: unknown;
  try {
    manifest = JSON.parse(readFileSync(path.join(folder, "package.json"), "utf8"));
  } catch {
    // No package.json here, or one that is not JSON: no workspace either way.
    return false;
  }
  return typeof manifest === "object" && manifest !== null && "workspaces" in manifest;
}

/**
 * A package.json that makes a folder a project: not the one flowgen writes into its output folder
 * (beside its manifest) to mark the generated modules as ES modules.
 */
function holdsProjectManifest(folder: string): boolean {
  return (
    existsSync(path.join(folder, "package.json")) &&
    !existsSync(path.join(folder, ".flowgen-manifest.json"))
  );
}

/**
 * The package a folder belongs to: the nearest folder at or above `dir`, and inside `boundary`,
 * that holds a package.json; undefined when there is none.
 *
 * @example
 * findPackageFolder("/home/me/app/src", "/home/me/app"); // "/home/me/app"
 */
export function findPackageFolder(dir: string, boundary: string): string | undefined {
  for (
    let current = path.resolve(dir);
    isInside(current, boundary);
    current = path.dirname(current)
  ) {
    if (existsSync(path.join(current, "package.json"))) return current;
    if (path.dirname(current) === current) return undefined;
  }
  return undefined;
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
