import { readFileSync } from "node:fs";

/**
 * Reads many small UTF-8 files, one after another. Synchronous on purpose: an asynchronous read is
 * several thread-pool round trips (open, stat, read, close) per file, which for the thousands of
 * small files of specs and output folders costs several times the reading itself (bench/NOTES.md).
 * A file that cannot be read is `onError`'s answer (by default, the error is thrown).
 *
 * @example
 * const [index, manifest] = readTextFiles(["generated/index.ts", "generated/.flowgen-manifest.json"]);
 */
export function readTextFiles<T = never>(
  paths: readonly string[],
  onError: (error: NodeJS.ErrnoException, path: string) => T = rethrow,
): (string | T)[] {
  return paths.map((file) => {
    try {
      return readFileSync(file, "utf8");
    } catch (error) {
      return onError(error as NodeJS.ErrnoException, file);
    }
  });
}

function rethrow(error: NodeJS.ErrnoException): never {
  throw error;
}
