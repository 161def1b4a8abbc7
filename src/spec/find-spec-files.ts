import type { Dirent } from "node:fs";
import { readdir, realpath, stat } from "node:fs/promises";
import path from "node:path";
import type { IssueCode } from "../issues.js";
import { isInside, linkText } from "../project-boundary.js";

/** The extensions of spec files: JSON and YAML. */
export const SPEC_EXTENSION = /\.(json|ya?ml)$/i;

/** Why a file or folder under the specs folder is not read, by its path relative to it. */
export interface ReadProblem {
  readonly relPath: string;
  readonly code: IssueCode;
  readonly message: string;
}

/** One walk of the specs folder: what it found so far. */
interface Walk {
  readonly boundary: string;
  readonly files: string[];
  readonly problems: ReadProblem[];
}

/**
 * Every JSON and YAML file under `root`, relative to it, skipping dot-files and dot-folders.
 * Symlinks are followed, to files and folders alike, and their targets read as if they lived at
 * the link's path; a link that leads nowhere, back into a folder it sits in, or out of the project
 * (`boundary`, a real path) is a problem, and nothing behind it is read.
 *
 * @example
 * const { files, problems } = await findSpecFiles("/repo/specs", "/repo");
 */
export async function findSpecFiles(
  root: string,
  boundary: string,
): Promise<{ files: string[]; problems: ReadProblem[] }> {
  const walk: Walk = { boundary, files: [], problems: [] };
  await walkFolder(walk, root, "", [await realpath(root)]);
  return { files: walk.files, problems: walk.problems };
}

async function walkFolder(
  walk: Walk,
  dir: string,
  relDir: string,
  ancestors: readonly string[],
): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (relDir === "") throw error;
      walk.problems.push({
        relPath: relDir,
        code: "unreadable-file",
        message: `folder cannot be read (${error.code ?? error.message}); check its permissions, or remove it`,
      });
      return [];
    },
  );
  for (const entry of entries) {
    if (entry.name.startsWith(".")) continue;
    const full = path.join(dir, entry.name);
    const relPath = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
    const kind = await readEntryKind(walk, entry, full, relPath);
    if (kind === undefined) continue;
    if (kind.isFile && SPEC_EXTENSION.test(entry.name)) walk.files.push(relPath);
    else if (!kind.isDirectory && SPEC_EXTENSION.test(entry.name)) {
      walk.problems.push({
        relPath,
        code: "unreadable-file",
        message:
          "is not a regular file (a pipe, socket or device); replace it with the spec file itself",
      });
    }
    if (!kind.isDirectory) continue;
    const real = await realpath(full);
    if (ancestors.includes(real)) {
      walk.problems.push({
        relPath,
        code: "unreadable-file",
        message: describeLinkLoop(),
      });
      continue;
    }
    await walkFolder(walk, full, relPath, [...ancestors, real]);
  }
}

/** Whether an entry is a file or a folder, a link's target's; undefined for a link not to follow. */
async function readEntryKind(
  walk: Walk,
  entry: Dirent,
  full: string,
  relPath: string,
): Promise<{ isFile: boolean; isDirectory: boolean } | undefined> {
  if (!entry.isSymbolicLink()) return { isFile: entry.isFile(), isDirectory: entry.isDirectory() };
  const target = await stat(full).catch(() => undefined);
  if (target === undefined) {
    walk.problems.push({
      relPath,
      code: "unreadable-file",
      message: describeLinkNowhere(await linkText(full)),
    });
    return undefined;
  }
  if (!isInside(await realpath(full), walk.boundary)) {
    walk.problems.push({
      relPath,
      code: "outside-project",
      message: describeLinkOut(await linkText(full)),
    });
    return undefined;
  }
  return { isFile: target.isFile(), isDirectory: target.isDirectory() };
}

/**
 * Why a link to `text` that leads out of the project is not read: the same words in the working
 * tree and at a git ref.
 *
 * @example
 * describeLinkOut("/etc/hostname");
 */
export function describeLinkOut(text: string): string {
  return `symlink to ${text}, outside the project (the folder holding package.json or .git); flowgen reads specs only from inside the project: copy what you need into it, or remove the link`;
}

/**
 * Why a link to `text` that leads nowhere (or in a loop of links) is not read.
 *
 * @example
 * describeLinkNowhere("../shared/gone.json");
 */
export function describeLinkNowhere(text: string): string {
  return `symlink to ${text}, which does not exist; fix the link or remove it`;
}

/**
 * Why a link to a folder that contains it is not read.
 *
 * @example
 * describeLinkLoop();
 */
export function describeLinkLoop(): string {
  return "symlink to a folder that contains it, which would be read forever; remove the link or point it elsewhere";
}
