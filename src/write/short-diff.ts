import { createTwoFilesPatch } from "diff";

const MAX_LINES = 40;

/** A unified diff of one file, cut to its first lines: enough to see what went stale. */
export function shortDiff(file: string, before: string, after: string): string {
  const patch = createTwoFilesPatch(
    `${file} (committed)`,
    `${file} (from specs)`,
    before,
    after,
    undefined,
    undefined,
    { context: 2 },
  );
  const lines = patch.split("\n").slice(2);
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > MAX_LINES) shown.push(`  … ${lines.length - MAX_LINES} more lines`);
  return shown.join("\n");
}
