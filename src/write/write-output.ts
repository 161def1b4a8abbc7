import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { lstat, readdir, readlink, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { BANNER_PREFIX } from "../emit/banner.js";
import { compareText } from "../issues.js";
import { MANIFEST_PATH } from "../manifest/output-manifest.js";
import type { OutputFile } from "../output-file.js";
import { readTextFiles } from "../read-text-files.js";
import { lockOutput } from "./output-lock.js";
import {
  describeForeignFiles,
  findForeignFiles,
  TEMPORARY,
  WRITING_MARKER,
} from "./output-ownership.js";
import { isStale } from "./stale-pid.js";

export interface OutputDiff {
  readonly added: readonly string[];
  readonly changed: readonly string[];
  readonly removed: readonly string[];
  readonly unchanged: number;
  /** Current content of each changed file, for showing a diff. */
  readonly previous: ReadonlyMap<string, string>;
}

/**
 * Thrown when the output folder holds files flowgen did not write, so replacing it could lose work,
 * or is a symlink, which flowgen never writes through. `detail` is the message without the folder.
 */
export class ForeignOutputError extends Error {
  readonly detail: string;
  constructor(
    readonly outDir: string,
    reason = "it has files but no index.ts written by flowgen",
    detail = `not a flowgen output folder (${reason}); choose an empty or new folder with --out, or empty this one`,
  ) {
    super(`${outDir}: ${detail}`);
    this.name = "ForeignOutputError";
    this.detail = detail;
  }
}

/**
 * Compares rendered files with what the output folder holds now. Reads only, and never through a
 * link: a symlink (or anything else that is not a file or folder) in the folder is an extra entry,
 * and what it points at is neither read nor listed. Waits for a run writing the folder, so that it
 * never compares a half-written folder.
 */
export async function diffOutput(
  outDir: string,
  files: readonly OutputFile[],
  options: Pick<WriteOptions, "waitForLock" | "signal"> = {},
): Promise<OutputDiff> {
  const { waitForLock: waitMs, signal } = options;
  const release = await lockOutput(outDir, { waitMs, signal, readOnly: true });
  try {
    return (await compareFolder(outDir, files)).diff;
  } finally {
    await release();
  }
}

async function compareFolder(
  outDir: string,
  files: readonly OutputFile[],
): Promise<{ diff: OutputDiff; links: number; existing: ReadonlyMap<string, string> }> {
  await refuseLinkedFolder(outDir);
  const { contents: existing, links } = await readOutputFolder(outDir);
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
  const removed = [...[...existing.keys()].filter((p) => !wanted.has(p)), ...links].sort(
    compareText,
  );
  return {
    diff: { added, changed, removed, unchanged, previous },
    links: links.length,
    existing,
  };
}

/**
 * The output folder must be a real folder (or not exist yet): flowgen never reads or writes
 * through a link in its place, wherever the link points. Throws `ForeignOutputError` otherwise.
 *
 * @example
 * await refuseLinkedFolder("generated");
 */
export async function refuseLinkedFolder(outDir: string): Promise<void> {
  const info = await lstat(path.resolve(outDir)).catch(() => undefined);
  if (info?.isSymbolicLink() !== true) return;
  throw new ForeignOutputError(
    outDir,
    "",
    `is a symlink to ${await readlink(path.resolve(outDir)).catch(() => "?")}; flowgen never writes through a link: replace the link with a real folder, or point --out at its target`,
  );
}

/** A point in `writeOutput` after which a crash leaves the disk as it is: named for tests that stop there. */
export type WriteStep =
  "staged" | "moved-aside" | "swapped" | "marked" | "file-written" | "file-removed" | "unmarked";

export interface WriteOptions {
  /** Called after each step that changes the disk; tests copy the disk here to see what a crash would leave. */
  readonly onStep?: ((step: WriteStep, file?: string) => void) | undefined;
  /** How long to wait for another run writing the same folder, in ms (default 60 000); then `OutputLockedError`. */
  readonly waitForLock?: number | undefined;
  /**
   * Stops the run (Ctrl-C): while it waits for the lock, or before the folder changes, nothing is
   * written; a whole tree written beside the folder is removed unless the swap has begun; a swap
   * or a few files replaced in place are finished. Then the lock is released and the call rejects
   * with the signal's reason, unless the write was done.
   */
  readonly signal?: AbortSignal | undefined;
}

export { WRITING_MARKER } from "./output-ownership.js";

const STAGING = ".flowgen-staging-";
const PREVIOUS = ".flowgen-previous-";

/**
 * Makes the output folder hold exactly `files`. A run first recovers what a crashed run left
 * (`recoverOutput`). When a few files differ in a folder flowgen wrote, only those are written,
 * each to a temporary file that is renamed over the old one, so every file is whole at every
 * instant. Otherwise the tree is written to a sibling folder that takes the old one's place by two
 * renames; a crash between them leaves the old tree beside the output folder, and the next run
 * puts it back. When nothing differs, nothing is touched. Nothing is written through a link: the
 * output folder may not be one, and a link inside it is replaced (the whole tree is swapped). One
 * run at a time writes a folder (`lockOutput`): a second waits, or fails with `OutputLockedError`.
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
  await refuseLinkedFolder(target);
  const release = await lockOutput(target, { waitMs: options.waitForLock, signal: options.signal });
  try {
    return await writeLocked(target, files, options);
  } finally {
    await release();
  }
}

async function writeLocked(
  target: string,
  files: readonly OutputFile[],
  options: WriteOptions,
): Promise<OutputDiff> {
  await recoverOutput(target);
  const { diff, links, existing } = await compareFolder(target, files);
  const changes = diff.added.length + diff.changed.length + diff.removed.length;
  if (changes === 0) return diff;
  // Both ways of writing drop what the new files do not hold: refused while that may be someone's work.
  const foreign = findForeignFiles(existing, diff.removed);
  if (foreign.length > 0) throw new ForeignOutputError(target, "", describeForeignFiles(foreign));
  options.signal?.throwIfAborted();
  const step = options.onStep ?? (() => undefined);
  // In place only when most of the folder stays: a first run or a large change swaps the whole tree.
  // A folder with a link in it is swapped too: writing in place could go through the link.
  // Files replaced in place are few, and all of them are written even when the run is stopped
  // meanwhile: the folder is then whole, without a marker for `--check` to report.
  if (links === 0 && diff.unchanged > 0 && changes * 4 <= files.length)
    await updateFiles(target, files, diff, step);
  else await replaceTree(target, files, step, options.signal);
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
  if ((await lstat(target).catch(() => undefined)) === undefined) {
    // Only a real folder is put back: a link in a moved-aside tree's place is removed like junk.
    const folders = await Promise.all(
      leftovers.map(async (leftover) => (await lstat(leftover.dir)).isDirectory()),
    );
    const previous = leftovers.filter(
      (leftover, i) => leftover.kind === "previous" && folders[i] === true,
    );
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
  signal: AbortSignal | undefined,
): Promise<void> {
  const staging = `${target}${STAGING}${process.pid}`;
  const backup = `${target}${PREVIOUS}${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  try {
    writeFiles(staging, files);
    step("staged");
    const hadPrevious = await exists(target);
    // The last point where a stopped run leaves the old tree as it was (the staged one is removed
    // below); from the first rename on, the swap is finished, so that the folder is never missing.
    signal?.throwIfAborted();
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
  // Created afresh ("wx"): whatever had the name is removed first, never written through.
  await rm(marker, { force: true });
  await writeFile(
    marker,
    "flowgen is replacing files here; if no flowgen runs, the next `flowgen generate` repairs this folder\n",
    { flag: "wx" },
  );
  step("marked");
  const wanted = new Set([...diff.added, ...diff.changed]);
  const replaced = files.filter((candidate) => wanted.has(candidate.path));
  const folders = new Set<string>();
  // The manifest goes last, after the removals: until the folder holds what it describes, the old
  // one stays, its hashes do not match the mix, and it still records the files left to remove as
  // flowgen's (`findForeignFiles`), so the next run may finish the job.
  for (const file of replaced.filter((candidate) => candidate.path !== MANIFEST_PATH)) {
    replaceFile(target, file, folders);
    step("file-written", file.path);
  }
  for (const removed of diff.removed) {
    if (removed === WRITING_MARKER) continue;
    await rm(path.join(target, ...removed.split("/")), { force: true });
    await removeEmptyFolders(target, path.posix.dirname(removed));
    step("file-removed", removed);
  }
  for (const file of replaced.filter((candidate) => candidate.path === MANIFEST_PATH)) {
    replaceFile(target, file, folders);
    step("file-written", file.path);
  }
  await rm(marker, { force: true });
  step("unmarked");
}

/** Writes `file` to a temporary file beside its place, then renames it over the old one. */
function replaceFile(target: string, file: OutputFile, folders: Set<string>): void {
  const destination = path.join(target, ...file.path.split("/"));
  const temporary = `${destination}${TEMPORARY}${process.pid}`;
  makeFolder(path.dirname(destination), folders);
  rmSync(temporary, { force: true });
  writeFileSync(temporary, file.content, { flag: "wx" });
  renameSync(temporary, destination);
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
    writeFileSync(destination, file.content, { flag: "wx" });
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
  return (await listOutputEntries(outDir)).files;
}

/**
 * The output folder's files, and its entries that are neither files nor folders (symlinks, pipes):
 * relative paths, forward slashes, sorted. Links are listed, never followed.
 */
async function listOutputEntries(outDir: string): Promise<{ files: string[]; links: string[] }> {
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
  const relative = (entry: (typeof entries)[number]) =>
    path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/");
  return {
    files: entries
      .filter((entry) => entry.isFile())
      .map(relative)
      .sort(compareText),
    links: entries
      .filter((entry) => !entry.isFile() && !entry.isDirectory())
      .map(relative)
      .sort(compareText),
  };
}

async function readOutputFolder(
  outDir: string,
): Promise<{ contents: Map<string, string>; links: string[] }> {
  const root = path.resolve(outDir);
  const { files: paths, links } = await listOutputEntries(outDir);
  if (paths.length === 0 && links.length === 0) return { contents: new Map(), links };
  // index.ts is in every output, whatever the runtime's layout: flowgen's banner on it marks the folder as flowgen's.
  const [index = ""] = paths.includes("index.ts")
    ? readTextFiles([path.join(root, "index.ts")])
    : [];
  if (!index.startsWith(BANNER_PREFIX)) throw new ForeignOutputError(outDir);
  const contents = readTextFiles(paths.map((p) => path.join(root, p)));
  return { contents: new Map(paths.map((p, i) => [p, contents[i] ?? ""])), links };
}

async function exists(p: string): Promise<boolean> {
  return readdir(p).then(
    () => true,
    () => false,
  );
}
