import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { lstat, mkdir, readdir, rename, rm, rmdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { isStale } from "./stale-pid.js";

/** The lock of `generated` is the folder `generated.flowgen-lock` beside it. */
export const LOCK_SUFFIX = ".flowgen-lock";

/** Thrown when another run held the output folder's lock for longer than this run would wait. */
export class OutputLockedError extends Error {
  constructor(
    readonly lockDir: string,
    readonly pid: number,
  ) {
    super(`another flowgen run (pid ${pid}) holds ${lockDir}`);
    this.name = "OutputLockedError";
  }
}

export interface LockOptions {
  /** How long to wait for a live holder, in ms, before `OutputLockedError`. Default 60 000. */
  readonly waitMs?: number | undefined;
  /** For runs that only read (`--check`): a folder that cannot be locked (read-only disk) is read unlocked. */
  readonly readOnly?: boolean | undefined;
  /** Stops waiting for a live holder: rejects with the signal's reason, holding nothing. */
  readonly signal?: AbortSignal | undefined;
}

interface Holder {
  /** The owner file's name in the lock folder: `<pid>-<start>-<random>`. */
  readonly name: string;
  readonly pid: number;
  /** When the holding process started, as `processStart` gives it. */
  readonly start: string;
}

const OWNER = /^(\d+)-(\d+)-([0-9a-f]+)$/;
/** A lock is taken over when its holder is dead; these bound the tries, whatever the disk does. */
const MAX_TRIES = 100_000;

/**
 * Takes the output folder's lock: one run at a time writes a folder. The lock is a folder beside
 * the output folder holding one file named for its owner (pid, process start, random), renamed into
 * place whole: a rename onto an existing non-empty folder fails, so exactly one run gets it. A
 * second run waits for a live holder (up to `waitMs`); the lock of a process that no longer runs
 * is taken over at once, by removing that owner's file (by its unique name, so never a newer
 * owner's) and then the folder only if it is empty.
 *
 * Why not proper-lockfile: it judges a lock stale by age alone (a run blocked on a long synchronous
 * write would lose its lock), records no pid to name, and two runs can both take over one stale lock.
 *
 * @example
 * const release = await lockOutput("generated");
 * try { await write(); } finally { await release(); }
 */
export async function lockOutput(
  outDir: string,
  options: LockOptions = {},
): Promise<() => Promise<void>> {
  const lockDir = `${path.resolve(outDir)}${LOCK_SUFFIX}`;
  const owner = `${process.pid}-${processStart(process.pid) ?? "0"}-${randomBytes(6).toString("hex")}`;
  const deadline = Date.now() + (options.waitMs ?? 60_000);
  if (!options.readOnly) await mkdir(path.dirname(lockDir), { recursive: true });
  for (let tries = 0; tries < MAX_TRIES; tries++) {
    options.signal?.throwIfAborted();
    const taken = await tryLock(lockDir, owner).catch((error: NodeJS.ErrnoException) => {
      if (options.readOnly && ["EACCES", "EPERM", "EROFS", "ENOENT"].includes(error.code ?? ""))
        return "unlockable" as const;
      throw error;
    });
    if (taken === "unlockable") return () => Promise.resolve();
    if (taken) {
      await removeDeadStaging(lockDir);
      return () => releaseLock(lockDir, owner);
    }
    const holder = await readHolder(lockDir);
    if (holder === "junk") await removeJunk(lockDir);
    else if (holder !== undefined && !isAlive(holder)) await breakLock(lockDir, holder);
    else if (Date.now() >= deadline && holder !== undefined)
      throw new OutputLockedError(lockDir, holder.pid);
    else await waitBeforeRetry(tries, options.signal);
  }
  throw new Error(`${lockDir} could not be taken after ${MAX_TRIES} tries`);
}

/** A pause that grows with the tries, cut short when the run is stopped (the loop then says so). */
async function waitBeforeRetry(tries: number, signal: AbortSignal | undefined): Promise<void> {
  await sleep(Math.min(10 * 2 ** Math.min(tries, 5), 250), undefined, { signal }).catch(
    () => undefined,
  );
}

/** Renames a folder holding this run's owner file into the lock's place; false when it is taken. */
async function tryLock(lockDir: string, owner: string): Promise<boolean> {
  const staging = `${lockDir}-${owner}`;
  await mkdir(staging);
  try {
    await writeFile(path.join(staging, owner), "");
    await rename(staging, lockDir);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    if (["EEXIST", "ENOTEMPTY", "ENOTDIR", "EISDIR"].includes(code)) return false;
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Staging folders (`generated.flowgen-lock-<owner>`) of runs that died between making and renaming one. */
async function removeDeadStaging(lockDir: string): Promise<void> {
  const prefix = `${path.basename(lockDir)}-`;
  const names = await readdir(path.dirname(lockDir)).catch(() => [] as string[]);
  for (const name of names) {
    const match = name.startsWith(prefix) ? OWNER.exec(name.slice(prefix.length)) : null;
    if (match && isStale(Number(match[1])) && Number(match[1]) !== process.pid)
      await rm(path.join(path.dirname(lockDir), name), { recursive: true, force: true });
  }
}

async function releaseLock(lockDir: string, owner: string): Promise<void> {
  await rm(path.join(lockDir, owner), { force: true });
  // Not empty: another run renamed its lock into the emptied folder already; it is theirs now.
  await rmdir(lockDir).catch(() => undefined);
}

/** The lock's owner; undefined when there is no lock (or an empty one), "junk" when it is not a flowgen lock. */
async function readHolder(lockDir: string): Promise<Holder | "junk" | undefined> {
  const info = await lstat(lockDir).catch(() => undefined);
  if (info === undefined) return undefined;
  if (!info.isDirectory()) return "junk";
  const names = await readdir(lockDir).catch(() => [] as string[]);
  for (const name of names) {
    const match = OWNER.exec(name);
    if (match) return { name, pid: Number(match[1]), start: match[2] ?? "" };
  }
  return names.length > 0 ? "junk" : undefined;
}

/** Whether the process that took the lock still runs: same pid, and (where the system says) the same start. */
function isAlive(holder: Holder): boolean {
  const start = processStart(holder.pid);
  if (start !== undefined) return start === holder.start;
  // No start times to compare: this pid is this process (another run in it), or any other live one.
  return holder.pid === process.pid || !isStale(holder.pid);
}

async function breakLock(lockDir: string, holder: Holder): Promise<void> {
  await rm(path.join(lockDir, holder.name), { force: true });
  await rmdir(lockDir).catch(() => undefined);
}

/**
 * What is in the lock's place is not a flowgen lock (a file, a link, a folder of other files, as a
 * repository could bring along): removed entry by entry, never followed, so that a lock renamed
 * into the emptied folder meanwhile is not removed with it.
 */
async function removeJunk(lockDir: string): Promise<void> {
  const info = await lstat(lockDir).catch(() => undefined);
  if (info === undefined) return;
  if (!info.isDirectory()) {
    await rm(lockDir, { force: true });
    return;
  }
  for (const name of await readdir(lockDir).catch(() => [] as string[]))
    if (!OWNER.test(name)) await rm(path.join(lockDir, name), { recursive: true, force: true });
  await rmdir(lockDir).catch(() => undefined);
}

/**
 * When process `pid` started, in clock ticks since boot (Linux's /proc): with the pid, it tells a
 * process from a later one that got the same pid. Undefined where the system does not say, or when
 * no such process runs.
 */
function processStart(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name (which may hold spaces), from the 3rd on: the start is the 22nd.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}
