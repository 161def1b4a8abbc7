import { constants, readFileSync } from "node:fs";
import { open } from "node:fs/promises";

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

/**
 * The UTF-8 text of `file` when it is a regular file; undefined when it is missing, a symlink (never
 * followed: O_NOFOLLOW) or anything else. For files in folders flowgen owns, where a link is not
 * flowgen's and must not lead a read elsewhere.
 *
 * @example
 * const previous = await readRegularFile("generated/openapi.json");
 */
export async function readRegularFile(file: string): Promise<string | undefined> {
  return (await readRegularBytes(file))?.toString("utf8");
}

/**
 * The bytes of `file` when it is a regular file, as `readRegularFile` reads it.
 *
 * @example
 * const pack = await readRegularBytes("node_modules/.cache/flowgen/render-cache.pack");
 */
export async function readRegularBytes(file: string): Promise<Buffer | undefined> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => undefined);
  if (handle === undefined) return undefined;
  try {
    return (await handle.stat()).isFile() ? await handle.readFile() : undefined;
  } finally {
    await handle.close();
  }
}
