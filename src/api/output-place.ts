import { lstatSync } from "node:fs";
import path from "node:path";
import type { GenerateSettings } from "../config/resolve-settings.js";
import { findFileInTheWay } from "../file-in-the-way.js";
import type { Issue } from "../issues.js";
import { projectBoundary, staysInside } from "../project-boundary.js";
import { OutputLockedError } from "../write/output-lock.js";
import { ForeignOutputError, refuseLinkedFolder } from "../write/write-output.js";

/**
 * The output folder may not be a link: flowgen never writes through one. When it lies in the
 * project as written, it must stay there once the links on its way are followed. A file in its
 * place, or in a folder's place on its way, is refused before anything renders
 * (`findFileInOutputPlace`).
 *
 * @example
 * const refused = await checkOutputPlace("/repo/generated", "generated", "/repo");
 */
export async function checkOutputPlace(
  outDir: string,
  out: string,
  cwd: string,
  doing: "write" | "read" = "write",
): Promise<Issue | undefined> {
  const blocked = findFileInOutputPlace(outDir, out, cwd, doing);
  if (blocked !== undefined) return blocked;
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
 * `output-unwritable` when a file stands where the output folder, or a folder on its way, should
 * be (`--out package.json`), naming that file; undefined otherwise.
 *
 * @example
 * const blocked = findFileInOutputPlace("/repo/generated", "generated", "/repo");
 */
export function findFileInOutputPlace(
  outDir: string,
  out: string,
  cwd: string,
  doing: "write" | "read" = "write",
): Issue | undefined {
  const blocker = findFileInTheWay(outDir);
  return blocker === undefined
    ? undefined
    : unwritableIssue("ENOTDIR", blocker, { out, cwd, doing });
}

/**
 * The cache folder, unless it lies in the project as written but leads out of it, or a file stands
 * in its place: then no cache (it only saves time).
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
  if (findFileInTheWay(dir) !== undefined) return undefined;
  return (await staysInside(dir, projectBoundary(dir, cwd))) ? settings.cacheDir : undefined;
}

/**
 * The issue an error from writing (or, with `--check`, reading) the output folder stands for;
 * undefined for a bug.
 *
 * @example
 * const issue = outputIssue(error, "generated", process.cwd());
 */
export function outputIssue(
  error: unknown,
  out: string,
  cwd: string,
  doing: "write" | "read" = "write",
): Issue | undefined {
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
  const failure = error as NodeJS.ErrnoException | undefined;
  const code =
    failure?.code === "EEXIST" && failure.syscall === "mkdir" ? "ENOTDIR" : failure?.code;
  return code === undefined ? undefined : unwritableIssue(code, failure?.path, { out, cwd, doing });
}

/** `output-unwritable` for a system error `code` at `file`; undefined for a code that means a bug. */
function unwritableIssue(
  code: string,
  file: string | undefined,
  place: { readonly out: string; readonly cwd: string; readonly doing: "write" | "read" },
): Issue | undefined {
  const reason = MACHINE_ERRORS[code];
  if (reason === undefined) return undefined;
  const { out, cwd, doing } = place;
  return {
    code: "output-unwritable",
    file: refusedEntry(file, cwd) ?? out,
    message: `flowgen cannot ${doing} the output folder ${out}: ${reason} (${code}); run flowgen again once it is fixed`,
  };
}

/**
 * The entry that refused, as a message shows it: the deepest part of `file` that exists (a file in
 * a folder's place, a folder without write permission), relative to `cwd`. Undefined when that is
 * one of flowgen's own temporary folders, or lies outside `cwd` (a path of the machine's that a CI
 * log need not show): the output folder is named instead.
 */
function refusedEntry(file: string | undefined, cwd: string): string | undefined {
  if (file === undefined) return undefined;
  const refused = nearestExisting(file);
  const relative = path.relative(cwd, refused);
  if (relative === "") return ".";
  if (relative.startsWith("..") || path.isAbsolute(relative)) return undefined;
  if (/\.flowgen-(?:staging|previous|lock|tmp)/.test(relative)) return undefined;
  return relative.split(path.sep).join("/");
}

/** File system errors that come from the machine, not from flowgen: what each means, and what to do. */
const MACHINE_ERRORS: Readonly<Record<string, string>> = {
  EACCES:
    "permission denied here; make the folder this user's (one a container or another user made: chown it), or choose another --out",
  EPERM:
    "the operation is not permitted here (permissions, or a file another program holds open); let this user write the folder, or choose another --out",
  EROFS: "the file system is read-only; choose another --out",
  ENOSPC: "no space is left on the device; free some",
  EDQUOT: "the disk quota is used up; free some",
  ENOTDIR: "this is a file where a folder is needed; move it, or choose another --out",
  EISDIR: "this is a folder where a file is needed; move it, or choose another --out",
  ENAMETOOLONG: "the path is too long for the file system; choose a shorter --out",
  EBUSY:
    "the folder is in use (a mount point, or open in another program); let flowgen replace it, or choose another --out",
  EMFILE: "too many files are open; raise the limit (ulimit -n)",
  ENFILE: "too many files are open on this machine; close some",
};

/**
 * The deepest part of `file` that exists: the entry that refused (a file in a folder's place, a
 * folder without write permission), rather than the temporary name flowgen was making in it.
 */
function nearestExisting(file: string): string {
  for (let current = file; ; current = path.dirname(current)) {
    if (exists(current)) return current;
    if (path.dirname(current) === current) return file;
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    // Missing, or a file on its way (ENOTDIR), or too long a name: not this one.
    return false;
  }
}
