import { readFile } from "node:fs/promises";
import path from "node:path";
import { createTwoFilesPatch } from "diff";
import type { OutputFile } from "../../src/output-file.js";
import type { OutputDiff } from "../../src/write/write-output.js";

/**
 * The whole unified diff from a committed tree (`dir`) to the rendered `files`, file by file in
 * path order, or "" when they match: a golden test that fails shows what the emitter changed, not
 * only which files. A file only on one side is diffed against nothing.
 *
 * @example
 * const patch = await outputPatch(expectedDir, files, await diffOutput(expectedDir, files));
 */
export async function outputPatch(
  dir: string,
  files: readonly OutputFile[],
  diff: OutputDiff,
): Promise<string> {
  const rendered = new Map(files.map((file) => [file.path, file.content]));
  const patches: string[] = [];
  for (const file of [...diff.added, ...diff.changed, ...diff.removed].sort()) {
    const before =
      diff.previous.get(file) ?? (diff.added.includes(file) ? "" : await readCommitted(dir, file));
    const after = rendered.get(file) ?? "";
    patches.push(createTwoFilesPatch(`expected/${file}`, `rendered/${file}`, before, after));
  }
  return patches.join("");
}

/** A removed entry may be a link or a folder, which the diff shows as not text. */
async function readCommitted(dir: string, file: string): Promise<string> {
  try {
    return await readFile(path.join(dir, file), "utf8");
  } catch {
    return "(not a readable file)\n";
  }
}
