import { statSync } from "node:fs";
import path from "node:path";

/**
 * The file that stands where `folder`, or a folder on its way, should be: the deepest existing
 * part of the path, when it is not a folder (links followed, as the system follows them).
 * Undefined when the path is a folder, or can still be made one. A user's `--out`, `--specs` or
 * `--cache-dir` naming a file (`package.json`) is a mistake to say in words, not a system error.
 *
 * @example
 * findFileInTheWay("/app/package.json/specs"); // "/app/package.json"
 */
export function findFileInTheWay(folder: string): string | undefined {
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    const info = statEntry(current);
    if (info !== undefined) return info.isDirectory() ? undefined : current;
    if (path.dirname(current) === current) return undefined;
  }
}

/** The entry at `file`, or undefined when there is none (or a file on its way, met further up). */
function statEntry(file: string): ReturnType<typeof statSync> {
  try {
    return statSync(file, { throwIfNoEntry: false });
  } catch {
    // ENOTDIR: a file above it, which the next step up finds; ELOOP, EACCES: nothing to name here.
    return undefined;
  }
}
