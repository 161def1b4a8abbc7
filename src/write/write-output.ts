import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { readdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { BANNER_PREFIX } from "../emit/banner.js";
import { compareText } from "../issues.js";
import { MANIFEST_PATH } from "../manifest/output-manifest.js";
import type { OutputFile } from "../output-file.js";
import { readTextFiles } from "../read-text-files.js";
import { isStale } from "./stale-pid.js";

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
    super(
      `${outDir} is not a flowgen output folder (${reason}); choose an empty or new folder with --out, or empty this one`,
    );
    this.name = "ForeignOutputError";
  }
}

/** Compares rendered files with what the output folder holds now. Reads only. */
export async function diffOutput(
  outDir: string,
  files: readonly OutputFile[],
): Promise<OutputDiff> {
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

/** A point in `writeOutput` after which a crash leaves the disk as it is: named for tests that stop there. */
export type WriteStep =
  "staged" | "moved-aside" | "swapped" | "marked" | "file-written" | "file-removed" | "unmarked";

export interface WriteOptions {
  /** Called after each step that changes the disk; tests copy the disk here to see what a crash would leave. */
  readonly onStep?: ((step: WriteStep, file?: string) => void) | undefined;
}

/**
 * Present in the output folder while files are replaced one by one: a crash then leaves a mix of
 * old and new files, and this marker (with any `*.flowgen-tmp-*` file) shows as an extra file, so
 * `--check` reports the folder stale and the next `generate` repairs it and removes the marker.
 */
export const WRITING_MARKER = ".flowgen-writing";

const STAGING = ".flowgen-staging-";
const PREVIOUS = ".flowgen-previous-";
const TEMPORARY = ".flowgen-tmp-";

/**
 * Makes the output folder hold exactly `files`. A run first recovers what a crashed run left
 * (`recoverOutput`). When a few files differ in a folder flowgen wrote, only those are written,
 * each to a temporary file that is renamed over the old one, so every file is whole at every
 * instant. Otherwise the tree is written to a sibling folder that takes the old one's place by two
 * renames; a crash between them leaves the old tree beside the output folder, and the next run
 * puts it back. When nothing differs, nothing is touched.
 *
 * @example
 * const diff = await writeOutput("generated", files);
 */
export async function writeOutput(
  outDir: string,
  files: readonly OutputFile[],
  options: WriteOptions = {},
): Promise<OutputDiff> {
  const target = path.resolve(outDir);
  await recoverOutput(target);
  const diff = await diffOutput(target, files);
  const changes = diff.added.length + diff.changed.length + diff.removed.length;
  if (changes === 0) return diff;
  const step = options.onStep ?? (() => undefined);
  // In place only when most of the folder stays: a first run or a large change swaps the whole tree.
  if (diff.unchanged > 0 && changes * 4 <= files.length)
    await updateFiles(target, files, diff, step);
  else await replaceTree(target, files, step);
  return diff;
}

/**
 * Repairs what a crashed run left beside the output folder: when the folder is missing and a
 * previous tree was moved aside, moves it back; then removes staging and moved-aside folders of
 * runs that are no longer alive. Folders of a live process (another run now) are left alone.
 *
 * @example
 * await recoverOutput("generated");
 */
export async function recoverOutput(outDir: string): Promise<void> {
  const target = path.resolve(outDir);
  const parent = path.dirname(target);
  const base = path.basename(target);
  const names = await readdir(parent).catch(() => [] as string[]);
  const leftovers = names.flatMap((name) => {
    const kind = name.startsWith(base + STAGING)
      ? "staging"
      : name.startsWith(base + PREVIOUS)
        ? "previous"
        : undefined;
    if (kind === undefined) return [];
    const pid = Number(name.slice(base.length + (kind === "staging" ? STAGING : PREVIOUS).length));
    return Number.isInteger(pid) && pid > 0 && isStale(pid)
      ? [{ kind, dir: path.join(parent, name) }]
      : [];
  });
  if (!(await exists(target))) {
    const previous = leftovers.filter((leftover) => leftover.kind === "previous");
    // Several moved-aside trees means several crashed runs: the last one moved aside is the newest.
    const times = await Promise.all(
      previous.map((leftover) => stat(leftover.dir).then((info) => info.mtimeMs)),
    );
    const newest = previous[times.indexOf(Math.max(...times))];
    if (newest) await rename(newest.dir, target);
  }
  await Promise.all(
    leftovers.map((leftover) => rm(leftover.dir, { recursive: true, force: true })),
  );
}

async function replaceTree(
  target: string,
  files: readonly OutputFile[],
  step: (step: WriteStep) => void,
): Promise<void> {
  const staging = `${target}${STAGING}${process.pid}`;
  const backup = `${target}${PREVIOUS}${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    writeFiles(staging, files);
    step("staged");
    const hadPrevious = await exists(target);
    if (hadPrevious) {
      await rename(target, backup);
      step("moved-aside");
    }
    try {
      await rename(staging, target);
    } catch (error) {
      if (hadPrevious) await rename(backup, target);
      throw error;
    }
    step("swapped");
    await rm(backup, { recursive: true, force: true });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

async function updateFiles(
  target: string,
  files: readonly OutputFile[],
  diff: OutputDiff,
  step: (step: WriteStep, file?: string) => void,
): Promise<void> {
  const marker = path.join(target, WRITING_MARKER);
  await writeFile(
    marker,
    "flowgen is replacing files here; if no flowgen runs, the next `flowgen generate` repairs this folder\n",
  );
  step("marked");
  const wanted = new Set([...diff.added, ...diff.changed]);
  // The manifest goes last: until every file it describes is in place, the old one stays, and its hashes do not match the mix.
  const ordered = files
    .filter((candidate) => wanted.has(candidate.path))
    .sort((a, b) => Number(a.path === MANIFEST_PATH) - Number(b.path === MANIFEST_PATH));
  const folders = new Set<string>();
  for (const file of ordered) {
    const destination = path.join(target, ...file.path.split("/"));
    const temporary = `${destination}${TEMPORARY}${process.pid}`;
    makeFolder(path.dirname(destination), folders);
    writeFileSync(temporary, file.content);
    renameSync(temporary, destination);
    step("file-written", file.path);
  }
  for (const removed of diff.removed) {
    if (removed === WRITING_MARKER) continue;
    await rm(path.join(target, ...removed.split("/")), { force: true });
    await removeEmptyFolders(target, path.posix.dirname(removed));
    step("file-removed", removed);
  }
  await rm(marker, { force: true });
  step("unmarked");
}

/**
 * Writes every file under `root`. Writes are synchronous, each folder made once: for thousands of
 * small files that is several times faster than awaiting a `mkdir` and a `writeFile` per file
 * (bench/NOTES.md), and nothing else runs while the output is written.
 */
function writeFiles(root: string, files: readonly OutputFile[]): void {
  const folders = new Set<string>();
  for (const file of files) {
    const destination = path.join(root, ...file.path.split("/"));
    makeFolder(path.dirname(destination), folders);
    writeFileSync(destination, file.content);
  }
}

function makeFolder(folder: string, made: Set<string>): void {
  if (made.has(folder)) return;
  mkdirSync(folder, { recursive: true });
  made.add(folder);
}

/** Removes `folder` (relative to `root`) and its parents below `root` while they are empty. */
async function removeEmptyFolders(root: string, folder: string): Promise<void> {
  for (
    let current = folder;
    current !== "." && current !== "";
    current = path.posix.dirname(current)
  ) {
    const absolute = path.join(root, ...current.split("/"));
    if ((await readdir(absolute).catch(() => [""])).length > 0) return;
    await rm(absolute, { recursive: true, force: true });
  }
}

/**
 * The paths of the files in the output folder (relative, forward slashes, sorted); none when it does not exist.
 *
 * @example
 * const paths = await listOutputFiles("generated");
 */
export async function listOutputFiles(outDir: string): Promise<string[]> {
  const root = path.resolve(outDir);
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return [];
      // ENOTDIR: the path, or a folder on the way to it, is a file.
      if (error.code === "ENOTDIR")
        throw new ForeignOutputError(outDir, "it is a file, or inside one");
      throw error;
    },
  );
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"),
    )
    .sort(compareText);
}

async function readOutputFolder(outDir: string): Promise<Map<string, string>> {
  const root = path.resolve(outDir);
  const paths = await listOutputFiles(outDir);
  if (paths.length === 0) return new Map();
  // index.ts is in every output, whatever the runtime's layout: flowgen's banner on it marks the folder as flowgen's.
  const [index = ""] = paths.includes("index.ts")
    ? readTextFiles([path.join(root, "index.ts")])
    : [];
  if (!index.startsWith(BANNER_PREFIX)) throw new ForeignOutputError(outDir);
  const contents = readTextFiles(paths.map((p) => path.join(root, p)));
  return new Map(paths.map((p, i) => [p, contents[i] ?? ""]));
}

async function exists(p: string): Promise<boolean> {
  return readdir(p).then(
    () => true,
    () => false,
  );
}
