import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The project a folder belongs to: the nearest folder at or above `dir` that holds `.git` (a
 * repository or a worktree) or `package.json`; undefined when there is none up to the filesystem's
 * root. Prettier config found above it belongs to something else and is not used.
 *
 * @example
 * const root = findProjectRoot("/home/me/app/generated"); // "/home/me/app"
 */
export function findProjectRoot(dir: string): string | undefined {
  for (let current = path.resolve(dir); ; current = path.dirname(current)) {
    if (existsSync(path.join(current, ".git")) || existsSync(path.join(current, "package.json"))) return current;
    if (path.dirname(current) === current) return undefined;
  }
}
