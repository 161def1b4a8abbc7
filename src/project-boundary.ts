import { existsSync, readFileSync, statSync } from "node:fs";
import { readlink, realpath } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { isPlainObject } from "./json-pointer.js";
import type Picomatch from "picomatch";
import type * as Yaml from "yaml";

// Loaded only for a folder that has a workspace manifest: most runs never read one.
const requireHere = createRequire(import.meta.url);

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
  try {
    return statSync(file, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    // A file on the way (ENOTDIR: an output folder named after a file) holds no repository.
    return false;
  }
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
 * The nearest folder at or above `project` that roots a workspace `project` is a package of: it
 * holds `pnpm-workspace.yaml` (its `packages`) or a package.json with `workspaces` (npm, Yarn,
 * Bun), and one of their patterns names `project` (or it is `project` itself). Only the
 * checkout's files decide, never `.git`, so a build context without it finds the same root.
 * Undefined when there is none.
 *
 * @example
 * findWorkspaceRoot("/repo/packages/app"); // "/repo", when /repo/package.json has "workspaces": ["packages/*"]
 */
export function findWorkspaceRoot(project: string): string | undefined {
  const member = path.resolve(project);
  for (let dir = member; ; dir = path.dirname(dir)) {
    const patterns = workspacePatterns(dir);
    if (patterns !== undefined && (dir === member || namesPackage(patterns, dir, member)))
      return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** The largest workspace manifest read: anything bigger (or not a file) is no workspace's. */
const MAX_MANIFEST_BYTES = 1_000_000;

/** The package patterns of a workspace rooted at `folder`; undefined when it roots none. */
function workspacePatterns(folder: string): string[] | undefined {
  const pnpm = readSmallFile(path.join(folder, "pnpm-workspace.yaml"));
  if (pnpm !== undefined) return patternsIn(parseYamlQuietly(pnpm), "packages");
  const manifest = readSmallFile(path.join(folder, "package.json"));
  if (manifest === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(manifest);
    const workspaces = isPlainObject(value) ? value["workspaces"] : undefined;
    // npm and Yarn: a list; Yarn classic also { packages: [...] }.
    return Array.isArray(workspaces) ? strings(workspaces) : patternsIn(workspaces, "packages");
  } catch {
    return undefined;
  }
}

function patternsIn(value: unknown, key: string): string[] | undefined {
  const list = isPlainObject(value) ? value[key] : undefined;
  return Array.isArray(list) ? strings(list) : undefined;
}

function strings(values: readonly unknown[]): string[] {
  return values.filter((value): value is string => typeof value === "string");
}

/** Whether a workspace's patterns (globs, `!` to leave out) name the package at `member`. */
function namesPackage(patterns: readonly string[], root: string, member: string): boolean {
  const relative = path.relative(root, member).split(path.sep).join("/");
  const glob = requireHere("picomatch") as typeof Picomatch;
  const usable = (pattern: string) => pattern !== "" && pattern.length <= MAX_PATTERN_LENGTH;
  const named = patterns
    .filter((p) => !p.startsWith("!"))
    .map(clean)
    .filter(usable);
  const left = patterns.filter((p) => p.startsWith("!")).map((p) => clean(p.slice(1)));
  try {
    if (named.length === 0 || !glob(named)(relative)) return false;
    const leftOut = left.filter(usable);
    return leftOut.length === 0 || !glob(leftOut)(relative);
  } catch {
    // A pattern picomatch cannot read names no package.
    return false;
  }
}

/** picomatch refuses longer patterns; no workspace writes one. */
const MAX_PATTERN_LENGTH = 65_536;

function clean(pattern: string): string {
  return pattern.replace(/^\.\//, "").replace(/\/+$/, "");
}

/** The text of a regular file no larger than a workspace manifest can be; undefined otherwise. */
function readSmallFile(file: string): string | undefined {
  try {
    const info = statSync(file, { throwIfNoEntry: false });
    if (info === undefined || !info.isFile() || info.size > MAX_MANIFEST_BYTES) return undefined;
    return readFileSync(file, "utf8");
  } catch {
    // A link that loops or leads where this user may not look: no manifest here.
    return undefined;
  }
}

function parseYamlQuietly(text: string): unknown {
  try {
    return (requireHere("yaml") as typeof Yaml).parse(text);
  } catch {
    return undefined;
  }
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
