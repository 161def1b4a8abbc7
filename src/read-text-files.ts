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

/**
 * Where `text`, which `readTextFiles` read from `file`, first stands for bytes that are not UTF-8:
 * the offset in `text` of the U+FFFD the decoder wrote in their place, or undefined. The decoder
 * does not say, so only a text holding U+FFFD costs a second read: each U+FFFD is matched with
 * the bytes under it, and one that a file spells out itself (EF BF BD) is text like any other.
 * A file that cannot be read again (removed since) says nothing.
 *
 * @example
 * const at = findNonUtf8("specs/@acme/qa.json", text); // 42, or undefined
 */
export function findNonUtf8(file: string, text: string): number | undefined {
  let at = text.indexOf("\uFFFD");
  if (at < 0) return undefined;
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  // The text before the first U+FFFD was decoded from valid bytes: its UTF-8 length is their count.
  let byte = 0;
  let from = 0;
  for (; at >= 0; at = text.indexOf("\uFFFD", at + 1)) {
    byte += Buffer.byteLength(text.slice(from, at));
    if (bytes[byte] !== 0xef || bytes[byte + 1] !== 0xbf || bytes[byte + 2] !== 0xbd) return at;
    byte += 3;
    from = at + 1;
  }
  return undefined;
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
