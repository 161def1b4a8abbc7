import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type * as Prettier from "prettier";
import {
  findConfigRoot,
  findProjectRoot,
  findRepositoryRoot,
  isInside,
  staysInside,
} from "../project-boundary.js";
import { editorconfigReader } from "./editorconfig.js";

/** An empty prettier config: what applies when the one prettier finds is outside the project. */
const NO_CONFIG = fileURLToPath(new URL("../../templates/prettier-none.json", import.meta.url));

/**
 * The prettier options (`.editorconfig` included) for `file`, from config inside its project only,
 * its `overrides` matched against `file` as `prettier --check` matches them. The project is the
 * repository the file is in (a workspace package of a monorepo takes the config at the
 * monorepo's root, as `prettier --check` does), else the nearest folder holding `package.json`
 * (`findConfigRoot`); prettier searches for its config up to the filesystem's root: a config above the
 * project (in a home folder, a CI workspace) would make output depend on the machine. Then only .editorconfig counts, which
 * prettier reads up to the repository's root, and, in a project outside any repository, up to the
 * project's root (`editorconfigBound`). A config that is a link leading out of the project is not
 * used either.
 *
 * @example
 * const options = await resolveProjectConfig("/home/me/app/generated/file.ts", prettier);
 */
export async function resolveProjectConfig(
  file: string,
  prettier: typeof Prettier,
): Promise<Prettier.Options> {
  return createConfigResolver(prettier, path.dirname(file))(file);
}

/**
 * `resolveProjectConfig` for the files of `folder` and its subfolders, which hold no config of
 * their own (an output folder: its content is flowgen's): which config file applies is found once,
 * and handed to prettier, whose own search for it would look in every subfolder and up from there.
 *
 * @example
 * const resolve = createConfigResolver(prettier, "/home/me/app/generated");
 * const options = await Promise.all(files.map(resolve));
 */
export function createConfigResolver(
  prettier: typeof Prettier,
  folder: string,
): (file: string) => Promise<Prettier.Options> {
  let found: Promise<string> | undefined;
  const bound = editorconfigBound(folder);
  const readBounded = bound === undefined ? undefined : editorconfigReader(bound);
  // Without an .editorconfig above, prettier's reading of them per file finds none.
  const editorconfig = readBounded === undefined && hasEditorconfigAbove(folder);
  return async (file) => {
    const config = await (found ??= folderConfig(folder, prettier));
    const options = (await prettier.resolveConfig(file, { editorconfig, config })) ?? {};
    // As prettier merges them: the config file's options over the .editorconfig's.
    return readBounded === undefined ? options : { ...(await readBounded(file)), ...options };
  };
}

/**
 * Where `.editorconfig` files stop counting for the files of `folder` when prettier's own reading
 * would pass the project: outside any repository, prettier reads them up to the filesystem's root,
 * where a machine's own file would change the output; they count up to the project's root then.
 * Undefined when prettier's reading stays inside (or there is no project).
 */
function editorconfigBound(folder: string): string | undefined {
  const project = findProjectRoot(folder);
  if (project === undefined || findRepositoryRoot(folder) !== undefined) return undefined;
  const above = path.dirname(project);
  return above !== project && hasEditorconfigAbove(above) ? project : undefined;
}

/**
 * The config file for the files of `folder` and its subfolders: the one found from `folder` in
 * its project, else an empty one. Without a project, the one prettier finds from `folder`.
 */
async function folderConfig(folder: string, prettier: typeof Prettier): Promise<string> {
  const probe = path.join(folder, "index.ts");
  const config = await findProjectConfig(probe, prettier);
  if (config !== undefined) return config.inside ? config.file : NO_CONFIG;
  if (findConfigRoot(folder) !== undefined) return NO_CONFIG;
  return (await prettier.resolveConfigFile(probe)) ?? NO_CONFIG;
}

/**
 * What decides the options of the files in `folder`, for the fingerprint: the prettier config file
 * found from it (its path from `folder` and its text) and the `.editorconfig` files from the
 * folder up to the project's root. Equal sources give equal options to every path.
 *
 * @example
 * const sources = await readConfigSources("/home/me/app/generated", prettier);
 */
export async function readConfigSources(
  folder: string,
  prettier: typeof Prettier,
): Promise<string[]> {
  const root = findConfigRoot(folder);
  if (root === undefined) return [];
  const files: string[] = [];
  const config = await findProjectConfig(path.join(folder, "index.ts"), prettier);
  if (config?.inside === true) files.push(config.file);
  for (let dir = folder; isInside(dir, root); dir = path.dirname(dir)) {
    const editorconfig = path.join(dir, ".editorconfig");
    if (existsSync(editorconfig)) files.push(editorconfig);
    if (dir === root) break;
  }
  const sources: string[] = [];
  for (const file of files) {
    if (!(await staysInside(file, root))) continue;
    // Named from the output folder, not the root: the same project gives the same fingerprint
    // wherever its repository's root is found (a copy of it inside another repository too).
    const named = path.relative(folder, file).split(path.sep).join("/");
    sources.push(named, await readFile(file, "utf8").catch(() => ""));
  }
  return sources;
}

/**
 * Whether files in `folder` could get options of their own: false when prettier finds no config
 * file for it and no `.editorconfig` lies in it or above it (up to the filesystem's root, further
 * than prettier reads). Then every file has the options prettier's defaults give its kind.
 *
 * @example
 * if (!(await optionsMayVary("/home/me/app/generated", prettier))) console.log("one set of options");
 */
export async function optionsMayVary(folder: string, prettier: typeof Prettier): Promise<boolean> {
  if ((await prettier.resolveConfigFile(path.join(folder, "index.ts"))) !== null) return true;
  return hasEditorconfigAbove(folder, editorconfigBound(folder));
}

/** Whether an `.editorconfig` lies in `folder` or above it, up to `root` (else the filesystem's root). */
function hasEditorconfigAbove(folder: string, root?: string): boolean {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, ".editorconfig"))) return true;
    if (dir === root || path.dirname(dir) === dir) return false;
  }
}

/** The config file prettier finds for `file`, and whether it lies in the project; undefined when there is none. */
async function findProjectConfig(
  file: string,
  prettier: typeof Prettier,
): Promise<{ readonly file: string; readonly inside: boolean } | undefined> {
  const root = findConfigRoot(path.dirname(file));
  if (root === undefined) return undefined;
  const found = await prettier.resolveConfigFile(file);
  if (found === null) return undefined;
  // A config inside the project that links out of it is someone else's file too.
  return { file: found, inside: isInside(found, root) && (await staysInside(found, root)) };
}
