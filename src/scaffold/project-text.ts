import { lstat, readFile, readlink } from "node:fs/promises";
import path from "node:path";
import * as jsonc from "jsonc-parser";
import type { Issue } from "../issues.js";
import { isInside, linkText, resolveReal, staysInside } from "../project-boundary.js";

/**
 * `outside-project` problems for each of `files` (relative to `cwd`) that is a link leading out of
 * the project `boundary`, or lies in a folder that does: `flowgen init` reads and writes them, and
 * never through a link out of the project, as every file flowgen reads or writes.
 *
 * @example
 * const issues = await findLinksOut("/app", "/app", ["package.json", ".gitattributes"]);
 */
export async function findLinksOut(
  cwd: string,
  boundary: string,
  files: readonly string[],
): Promise<Issue[]> {
  const issues: Issue[] = [];
  for (const file of files) {
    const full = path.resolve(cwd, file);
    const isLink = (await lstat(full).catch(() => undefined))?.isSymbolicLink() === true;
    // A link to a file that does not exist yet would be written through, creating its target.
    const target = isLink ? path.resolve(path.dirname(full), await readlink(full)) : full;
    if (
      (await staysInside(full, boundary)) &&
      isInside(await resolveReal(target), await resolveReal(boundary))
    )
      continue;
    issues.push({
      code: "outside-project",
      file,
      message: `${isLink ? `symlink to ${await linkText(full)}` : "a link on its way"} leads outside the project (the folder holding package.json or .git); flowgen init reads and writes only inside the project: replace the link with the file itself`,
    });
  }
  return issues;
}

/**
 * Where `text` stops being JSON, as line and column (1-based), and jsonc-parser's name for what
 * it found; undefined when it is JSON. Never an excerpt of the text: the file may not be the
 * project's (a secret), and an error message is printed in CI logs.
 *
 * @example
 * jsonSyntaxProblem('{"a": }'); // { line: 1, column: 7, what: "ValueExpected" }
 */
export function jsonSyntaxProblem(
  text: string,
): { line: number; column: number; what: string } | undefined {
  const errors: jsonc.ParseError[] = [];
  jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false });
  const first = errors[0];
  if (first === undefined) return undefined;
  const before = text.slice(0, first.offset);
  const lineStart = before.lastIndexOf("\n") + 1;
  return {
    line: before.split("\n").length,
    column: first.offset - lineStart + 1,
    what: jsonc.printParseErrorCode(first.error),
  };
}

/**
 * The text of `file`, undefined when it does not exist.
 *
 * @example
 * const manifest = await readOptionalText("/app/package.json");
 */
export async function readOptionalText(file: string): Promise<string | undefined> {
  return readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
}
