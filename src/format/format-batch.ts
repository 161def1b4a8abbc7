import { randomBytes } from "node:crypto";
import type * as Prettier from "prettier";

/** Parsers whose top-level statements prettier prints without looking at their neighbours. */
const JOINABLE_PARSERS = new Set(["babel-ts", "typescript"]);

/**
 * Formats TypeScript files with prettier, several files per prettier call where that prints the
 * same text as one call per file: most of a call's cost for a small file is option handling, not
 * the file itself (bench/NOTES.md).
 *
 * Prettier prints each top-level statement from the statement itself and the blank lines around
 * it, so files joined by a comment line come out as each would alone, apart from the blank lines
 * at each file's edges, which a file alone never keeps. Files are joined only when nothing acts on
 * a whole file: no plugins (an import sorter would merge the files' imports), no pragma options,
 * LF line ends. A join that does not split back into as many files, or that prettier refuses
 * (then the error names the right file), is formatted one file at a time instead. A test compares
 * both ways over the goldens and a large generated project.
 *
 * @example
 * const [a, b] = await formatBatch([textA, textB], { parser: "babel-ts" }, prettier);
 */
export async function formatBatch(
  contents: readonly string[],
  options: Prettier.Options,
  prettier: typeof Prettier,
): Promise<string[]> {
  if (contents.length > 1 && canJoin(options, contents)) {
    const joined = await formatJoined(contents, options, prettier).catch(() => undefined);
    if (joined !== undefined) return joined;
  }
  const formatted: string[] = [];
  for (const content of contents) formatted.push(await prettier.format(content, options));
  return formatted;
}

function canJoin(options: Prettier.Options, contents: readonly string[]): boolean {
  const {
    parser,
    plugins,
    requirePragma,
    insertPragma,
    endOfLine,
    rangeStart,
    rangeEnd,
    cursorOffset,
  } = options;
  if (
    typeof parser !== "string" ||
    !JOINABLE_PARSERS.has(parser) ||
    (plugins !== undefined && plugins.length > 0)
  )
    return false;
  if (
    requirePragma === true ||
    insertPragma === true ||
    (endOfLine !== undefined && endOfLine !== "lf")
  )
    return false;
  if (rangeStart !== undefined || rangeEnd !== undefined || cursorOffset !== undefined)
    return false;
  // A file that is empty or starts with a string (a directive prologue) prints differently alone.
  return contents.every((content) => /^\s*[^\s"'`]/.test(content));
}

async function formatJoined(
  contents: readonly string[],
  options: Prettier.Options,
  prettier: typeof Prettier,
): Promise<string[] | undefined> {
  // A fresh random marker per call: no file's text can contain it by chance or on purpose. The `;`
  // before it ends a file's last statement when the file has no final `;`: otherwise ASI would not
  // end it before a next file starting with `(`, `[`, a template literal or an operator, and the two
  // would print as one expression. Prettier prints that `;` as the statement's own, or drops it as
  // an empty statement.
  const marker = `// flowgen file boundary ${randomBytes(12).toString("hex")}`;
  const text = contents
    .map((content) => (content.endsWith("\n") ? content : `${content}\n`))
    .join(`;\n${marker}\n`);
  const parts = (await prettier.format(text, options)).split(new RegExp(`\\n*^${marker}\\n`, "m"));
  if (parts.length !== contents.length) return undefined;
  const files = parts.map((part) => part.replace(/^\n+/, "").replace(/\n*$/, "\n"));
  return files.some((file) => file === "\n") ? undefined : files;
}
