import { findNonUtf8, readTextFiles } from "../read-text-files.js";
import path from "node:path";
import { findFileInTheWay } from "../file-in-the-way.js";
import { compareText, type Issue } from "../issues.js";
import { isInside, projectBoundary, resolveReal } from "../project-boundary.js";
import { findSpecFiles, SPEC_EXTENSION } from "./find-spec-files.js";

/** A file under the specs folder, read but not parsed. */
export interface SpecSource {
  /** Path relative to the specs folder, forward slashes: "@acme/qa.json", "_shared/money.json". */
  readonly relPath: string;
  /** Path to show people: relative to the working directory, forward slashes. */
  readonly displayPath: string;
  readonly text: string;
}

export interface FlowSource extends SpecSource {
  readonly org: string;
  readonly name: string;
}

export interface SpecSources {
  readonly flows: readonly FlowSource[];
  readonly shared: readonly SpecSource[];
  readonly issues: readonly Issue[];
}

/** Lowercase letters, digits and hyphens, alphanumeric at both ends, at most 64 characters. */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const NAME_RULE =
  "lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters";

/**
 * Finds every spec file: flows at `@org/name.ext`, shared schemas anywhere under a file or folder
 * whose name starts with `_`. Files that are neither JSON nor YAML, and dot-files, are skipped.
 * Nothing is read from outside the project: the folder holding `package.json` or `.git` at or
 * above the specs folder (else the working directory's), whatever links or `..` steps say.
 *
 * @example
 * const { flows, shared, issues } = await readSpecFiles("specs");
 */
export async function readSpecFiles(
  specsDir: string,
  cwd = process.cwd(),
  flag = "--specs",
): Promise<SpecSources> {
  const root = path.resolve(cwd, specsDir);
  const displayRoot = toPosix(path.relative(cwd, root)) || ".";
  const inside = await findRealBoundary(root, cwd, displayRoot, flag);
  if ("issue" in inside) return { flows: [], shared: [], issues: [inside.issue] };
  const found = await findSpecFiles(root, inside.boundary).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (found === undefined) {
    const inTheWay = findFileInSpecsPlace(root, cwd, displayRoot, flag);
    if (inTheWay !== undefined) return { flows: [], shared: [], issues: [inTheWay] };
    const message = `specs folder not found; create it with one file per flow at ${displayRoot}/@<org>/<flow-name>.json, or pass --specs <folder>`;
    return { flows: [], shared: [], issues: [{ code: "no-specs", file: displayRoot, message }] };
  }
  const issues: Issue[] = found.problems.map(({ relPath, code, message }) => ({
    code,
    file: `${displayRoot}/${relPath}`,
    message,
  }));
  const sources = readSources(root, displayRoot, found.files.sort(compareText), issues);
  const { flows, shared } = sortSources(sources, displayRoot, issues);
  if (flows.length === 0 && issues.length === 0) {
    issues.push({
      code: "no-specs",
      file: displayRoot,
      message: `no flow specs found; add one at ${displayRoot}/@<org>/<flow-name>.json, or point --specs at the folder that has them`,
    });
  }
  return { flows, shared, issues };
}

/**
 * The project's real path, when the specs folder is inside it (as written and once links are
 * followed), else why not: what `readSpecFiles` reads from, and `flowgen new` writes into.
 *
 * @example
 * const inside = await findRealBoundary("/app/specs", "/app", "specs");
 */
export async function findRealBoundary(
  root: string,
  cwd: string,
  displayRoot: string,
  flag = "--specs",
): Promise<{ boundary: string } | { issue: Issue }> {
  const boundary = projectBoundary(root, cwd);
  const realBoundary = await resolveReal(boundary);
  if (isInside(root, boundary) && isInside(await resolveReal(root), realBoundary))
    return { boundary: realBoundary };
  const message = `the specs folder is outside the project (${toPosix(path.relative(cwd, boundary)) || "."}, the folder holding package.json or .git), or a link leading out of it; flowgen reads specs only from inside the project: point ${flag} at a folder in it`;
  return { issue: { code: "outside-project", file: displayRoot, message } };
}

/**
 * `no-specs` when a file stands where the specs folder, or a folder on its way, should be
 * (`--specs package.json`): said in words, for the command to refuse before it reads or writes.
 *
 * @example
 * const issue = findFileInSpecsPlace("/app/package.json", "/app", "package.json");
 */
export function findFileInSpecsPlace(
  root: string,
  cwd: string,
  displayRoot: string,
  flag = "--specs",
): Issue | undefined {
  const blocker = findFileInTheWay(root);
  if (blocker === undefined) return undefined;
  const shown = isInside(blocker, cwd)
    ? toPosix(path.relative(cwd, blocker))
    : "a part of its path";
  const what = blocker === path.resolve(root) ? "is a file" : `${shown} is a file`;
  const message = `${what}, not a folder; point ${flag} at the folder of flow specs (one file per flow at <folder>/@<org>/<flow-name>.json)`;
  return { code: "no-specs", file: displayRoot, message };
}

/** The files' texts, in `relPaths` order; a file that cannot be read is an issue, and left out. */
function readSources(
  root: string,
  displayRoot: string,
  relPaths: readonly string[],
  issues: Issue[],
): SpecSource[] {
  const texts = readTextFiles(
    relPaths.map((rel) => path.join(root, rel)),
    (error, file) => {
      const rel = path.relative(root, file).split(path.sep).join("/");
      issues.push({
        code: "unreadable-file",
        file: `${displayRoot}/${rel}`,
        message: `cannot be read (${error.code ?? error.message}); check its permissions, or remove it`,
      });
      return undefined;
    },
  );
  return relPaths.flatMap((relPath, index) => {
    const text = texts[index];
    if (text === undefined) return [];
    const displayPath = `${displayRoot}/${relPath}`;
    const notUtf8 = findNonUtf8(path.join(root, relPath), text);
    // The file is still checked, as decoded: its other problems show in the same run.
    if (notUtf8 !== undefined) issues.push(notUtf8Issue(displayPath, text, notUtf8));
    return [{ relPath, displayPath, text }];
  });
}

/**
 * JSON text is UTF-8 (RFC 8259 §8.1): bytes that are not would be read as U+FFFD, and a key or an
 * enum value made of them would reach the contract changed. Latin-1 and UTF-16 files are the usual
 * cause; the message names neither the bytes nor the text around them.
 */
function notUtf8Issue(file: string, text: string, at: number): Issue {
  // A UTF-16 byte order mark is two bytes that are not UTF-8, and ASCII after it has NUL halves.
  const utf16 = /^\uFFFD\uFFFD[\s\S]?\0/.test(text);
  const line = countLines(text, at);
  const column = at - text.lastIndexOf("\n", at - 1);
  return {
    code: "not-utf8",
    file,
    line,
    column,
    message: `holds bytes here that are not UTF-8 text${utf16 ? " (the file looks like UTF-16)" : ""}, which would be read as U+FFFD (�); save the file as UTF-8 (an editor's "save with encoding" does it, or iconv -f <its encoding> -t UTF-8)`,
  };
}

function countLines(text: string, before: number): number {
  let lines = 1;
  for (let at = text.indexOf("\n"); at >= 0 && at < before; at = text.indexOf("\n", at + 1))
    lines++;
  return lines;
}

/** Shared schemas (a part of the path starts with `_`) apart from flows, each flow once. */
function sortSources(
  sources: readonly SpecSource[],
  displayRoot: string,
  issues: Issue[],
): { flows: FlowSource[]; shared: SpecSource[] } {
  const flows: FlowSource[] = [];
  const shared: SpecSource[] = [];
  const seenFlows = new Map<string, string>();
  for (const source of sources) {
    if (source.relPath.split("/").some((part) => part.startsWith("_"))) {
      shared.push(source);
      continue;
    }
    const placed = placeFlow(source, displayRoot);
    if (Array.isArray(placed)) {
      issues.push(...placed);
      continue;
    }
    const id = `@${placed.org}/${placed.name}`;
    const first = seenFlows.get(id);
    if (first !== undefined) {
      issues.push({
        code: "duplicate-flow",
        file: source.displayPath,
        message: `flow ${id} is already described by ${first}; keep one of the two files`,
      });
      continue;
    }
    seenFlows.set(id, source.displayPath);
    flows.push({ ...source, ...placed });
  }
  return { flows, shared };
}

/** The org and name a flow spec's path gives, or what is wrong with the path. */
function placeFlow(
  source: SpecSource,
  displayRoot: string,
): { org: string; name: string } | Issue[] {
  const parts = source.relPath.split("/");
  const [orgFolder, fileName] = parts;
  if (
    parts.length !== 2 ||
    orgFolder === undefined ||
    fileName === undefined ||
    !orgFolder.startsWith("@")
  ) {
    return [
      {
        code: "misplaced-file",
        file: source.displayPath,
        message: `flow specs live at ${displayRoot}/@<org>/<flow-name>.json (or .yaml/.yml); move this file there, or start its name with "_" if it is a shared schema`,
      },
    ];
  }
  const org = orgFolder.slice(1);
  const name = fileName.replace(SPEC_EXTENSION, "");
  const nameIssues = [
    NAME_PATTERN.test(org) ? undefined : `org "${org}" in folder "${orgFolder}"`,
    NAME_PATTERN.test(name) ? undefined : `flow name "${name}"`,
  ].filter((what) => what !== undefined);
  if (nameIssues.length === 0) return { org, name };
  return nameIssues.map((what) => ({
    code: "invalid-flow-name",
    file: source.displayPath,
    message: `${what} is not allowed: use ${NAME_RULE}; rename the ${what.startsWith("org") ? "folder" : "file"}`,
  }));
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}
