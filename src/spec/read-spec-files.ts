import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { compareText, type Issue } from "../issues.js";

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

const SPEC_EXTENSION = /\.(json|ya?ml)$/i;
/** Lowercase letters, digits and hyphens, alphanumeric at both ends, at most 64 characters. */
export const NAME_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;
export const NAME_RULE = "lowercase letters, digits and hyphens, starting and ending with a letter or digit, at most 64 characters";

/**
 * Finds every spec file: flows at `@org/name.ext`, shared schemas anywhere under a file or folder
 * whose name starts with `_`. Files that are neither JSON nor YAML, and dot-files, are skipped.
 *
 * @example
 * const { flows, shared, issues } = await readSpecFiles("specs");
 */
export async function readSpecFiles(specsDir: string, cwd = process.cwd()): Promise<SpecSources> {
  const root = path.resolve(cwd, specsDir);
  const displayRoot = toPosix(path.relative(cwd, root)) || ".";
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (entries === undefined) {
    const message = `specs folder not found; create it with one file per flow at ${displayRoot}/@<org>/<flow-name>.json, or pass --specs <folder>`;
    return { flows: [], shared: [], issues: [{ code: "no-specs", file: displayRoot, message }] };
  }
  const relPaths = entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join("/"))
    .filter((rel) => SPEC_EXTENSION.test(rel) && !rel.split("/").some((part) => part.startsWith(".")))
    .sort(compareText);

  const texts = await Promise.all(relPaths.map((rel) => readFile(path.join(root, rel), "utf8")));
  const flows: FlowSource[] = [];
  const shared: SpecSource[] = [];
  const issues: Issue[] = [];
  const seenFlows = new Map<string, string>();

  relPaths.forEach((relPath, index) => {
    const source = { relPath, displayPath: `${displayRoot}/${relPath}`, text: texts[index] ?? "" };
    const parts = relPath.split("/");
    if (parts.some((part) => part.startsWith("_"))) {
      shared.push(source);
      return;
    }
    const [orgFolder, fileName] = parts;
    if (parts.length !== 2 || orgFolder === undefined || fileName === undefined || !orgFolder.startsWith("@")) {
      issues.push({
        code: "misplaced-file",
        file: source.displayPath,
        message: `flow specs live at ${displayRoot}/@<org>/<flow-name>.json (or .yaml/.yml); move this file there, or start its name with "_" if it is a shared schema`,
      });
      return;
    }
    const org = orgFolder.slice(1);
    const name = fileName.replace(SPEC_EXTENSION, "");
    const nameIssues = [
      NAME_PATTERN.test(org) ? undefined : `org "${org}" in folder "${orgFolder}"`,
      NAME_PATTERN.test(name) ? undefined : `flow name "${name}"`,
    ].filter((what) => what !== undefined);
    for (const what of nameIssues) {
      issues.push({
        code: "invalid-flow-name",
        file: source.displayPath,
        message: `${what} is not allowed: use ${NAME_RULE}; rename the ${what.startsWith("org") ? "folder" : "file"}`,
      });
    }
    if (nameIssues.length > 0) return;
    const id = `@${org}/${name}`;
    const first = seenFlows.get(id);
    if (first !== undefined) {
      issues.push({
        code: "duplicate-flow",
        file: source.displayPath,
        message: `flow ${id} is already described by ${first}; keep one of the two files`,
      });
      return;
    }
    seenFlows.set(id, source.displayPath);
    flows.push({ ...source, org, name });
  });

  if (flows.length === 0 && issues.length === 0) {
    issues.push({
      code: "no-specs",
      file: displayRoot,
      message: `no flow specs found; add one at ${displayRoot}/@<org>/<flow-name>.json, or point --specs at the folder that has them`,
    });
  }
  return { flows, shared, issues };
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}
