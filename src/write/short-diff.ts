import { createTwoFilesPatch } from "diff";

/** Patch lines shown per file. */
const MAX_LINES = 40;
/** Unchanged lines shown around each change. */
const CONTEXT = 2;
/**
 * Lines of each side compared, from just before the first difference. The diff's cost grows with
 * the lines it compares times the lines that differ: two large files that differ throughout (a
 * manifest after a prettier change) took seconds, and the lines shown come from the start anyway.
 */
const WINDOW = 400;
const HUNK_HEADER = /^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@/;

/**
 * A unified diff of one file, cut to its first lines: enough to see what went stale. Only the
 * lines from the first difference to the last are compared, at most `WINDOW` of them.
 *
 * @example
 * shortDiff("generated/openapi.json", committed, rendered);
 */
export function shortDiff(file: string, before: string, after: string): string {
  const old = before.split("\n");
  const now = after.split("\n");
  const span = changedSpan(old, now);
  const from = Math.max(0, span.first - CONTEXT);
  const oldEnd = Math.min(old.length - span.sameEnd + CONTEXT, from + WINDOW);
  const newEnd = Math.min(now.length - span.sameEnd + CONTEXT, from + WINDOW);
  const cut = oldEnd - from === WINDOW || newEnd - from === WINDOW;
  const patch = createTwoFilesPatch(
    `${file} (committed)`,
    `${file} (from specs)`,
    window(old, from, oldEnd),
    window(now, from, newEnd),
    undefined,
    undefined,
    { context: CONTEXT },
  );
  const lines = shownHunks(patch.split("\n").slice(2), from, cut);
  const shown = lines.slice(0, MAX_LINES);
  if (lines.length > MAX_LINES) shown.push(`  … ${lines.length - MAX_LINES} more lines`);
  if (cut) shown.push("  … more differences follow");
  return shown.join("\n");
}

/** Lines `from` to `end` as text; a line the file ends after keeps its newline. */
function window(lines: readonly string[], from: number, end: number): string {
  const text = lines.slice(from, end).join("\n");
  return end < lines.length ? `${text}\n` : text;
}

/**
 * The first line that differs, and how many lines at the end are the same (not overlapping it).
 * The diff compares lines with their newlines: a file's last line has none, unless it ends in one.
 */
function changedSpan(
  old: readonly string[],
  now: readonly string[],
): { first: number; sameEnd: number } {
  let first = 0;
  while (first < old.length - 1 && first < now.length - 1 && old[first] === now[first]) first++;
  let sameEnd = 0;
  while (
    sameEnd < old.length - first &&
    sameEnd < now.length - first &&
    old[old.length - 1 - sameEnd] === now[now.length - 1 - sameEnd]
  )
    sameEnd++;
  return { first, sameEnd };
}

/**
 * The patch's lines with hunk headers counting from the file's start. Of a cut comparison, only
 * hunks that start in its first half: near the cut, lines one side has further on look changed.
 */
function shownHunks(lines: readonly string[], from: number, cut: boolean): string[] {
  const shown: string[] = [];
  for (const line of lines) {
    const header = HUNK_HEADER.exec(line);
    if (header === null) {
      shown.push(line);
      continue;
    }
    const [, oldStart = "0", oldCount = "", newStart = "0", newCount = ""] = header;
    if (cut && Number(oldStart) > WINDOW / 2) break;
    const at = (start: string) => Number(start) + from;
    shown.push(
      `@@ -${at(oldStart)}${oldCount} +${at(newStart)}${newCount} @@${line.slice(header[0].length)}`,
    );
  }
  return shown;
}
