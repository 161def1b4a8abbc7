import { mkdir, readdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { BANNER_PREFIX } from "../emit/banner.js";
import { compareText } from "../issues.js";
import type { OutputFile } from "../output-file.js";

export interface OutputDiff {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
  /** Current content of each changed file, for showing a diff. */
  readonly previous: ReadonlyMap<string, string>;
}

/** Thrown when the output folder holds files flowgen did not write, so replacing it could lose work. */
export class ForeignOutputError extends Error {
  constructor(
    readonly outDir: string,
    reason = "it has files but no index.ts written by flowgen",
  ) {
    super(`${outDir} is not a flowgen output folder (${reason}); choose an empty or new folder with --out, or empty this one`);
    this.name = "ForeignOutputError";
  }
}

/** Compares rendered files with what the output folder holds now. Reads only. */
export async function diffOutput(outDir: string, files: readonly OutputFile[]): Promise<OutputDiff> {
  const existing = await readOutputFolder(outDir);
  const added: string[] = [];
  const changed: string[] = [];
  const previous = new Map<string, string>();
  let unchanged = 0;
  for (const file of files) {
    const current = existing.get(file.path);
    if (current === undefined) added.push(file.path);
    else if (current !== file.content) {
      changed.push(file.path);
      previous.set(file.path, current);
    } else unchanged++;
  }
  const wanted = new Set(files.map((file) => file.path));
  const removed = [...existing.keys()].filter((p) => !wanted.has(p)).sort(compareText);
  return { added, changed, removed, unchanged, previous };
}

/**
 * Makes the output folder hold exactly `files`, or leaves it as it was. Everything is written to
 * a sibling folder first, which then takes the old one's place by two renames, so a failure at any
 * point before leaves the previous output untouched. When nothing differs, nothing is touched.
 *
 * @example
 * const diff = await writeOutput("generated", files);
 */
export async function writeOutput(outDir: string, files: readonly OutputFile[]): Promise<OutputDiff> {
  const diff = await diffOutput(outDir, files);
  if (diff.added.length + diff.changed.length + diff.removed.length === 0) return diff;
  const target = path.resolve(outDir);
  const staging = `${target}.flowgen-staging-${process.pid}`;
  const backup = `${target}.flowgen-previous-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    for (const file of files) {
      const destination = path.join(staging, ...file.path.split("/"));
      await mkdir(path.dirname(destination), { recursive: true });
      await writeFile(destination, file.content);
    }
    const hadPrevious = await exists(target);
    if (hadPrevious) await rename(target, backup);
    try {
      await rename(staging, target);
    } catch (error) {
      if (hadPrevious) await rename(backup, target);
      throw error;
    }
    await rm(backup, { recursive: true, force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return diff;
}

async function readOutputFolder(outDir: string): Promise<Map<string, string>> {
  const root = path.resolve(outDir);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    // ENOTDIR: the path, or a folder on the way to it, is a file.
    if (error.code === "ENOTDIR") throw new ForeignOutputError(outDir, "it is a file, or inside one");
    throw error;
  });
  const paths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .sort(compareText);
  if (paths.length === 0) return new Map();
  // index.ts is in every output, whatever the runtime's layout: flowgen's banner on it marks the folder as flowgen's.
  const index = paths.includes("index.ts") ? await readFile(path.join(root, "index.ts"), "utf8") : "";
  if (!index.startsWith(BANNER_PREFIX)) throw new ForeignOutputError(outDir);
  const contents = await Promise.all(paths.map((p) => readFile(path.join(root, p), "utf8")));
  return new Map(paths.map((p, i) => [p, contents[i] ?? ""]));
}

async function exists(p: string): Promise<boolean> {
  return readdir(p).then(
    () => true,
    () => false,
  );
}
