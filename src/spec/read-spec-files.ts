import { readdir, realpath, stat } from "node:fs/promises";
import { readTextFiles } from "../read-text-files.js";
import path from "node:path";
import { compareText, type Issue, type IssueCode } from "../issues.js";
import { isInside, linkText, projectBoundary, resolveReal } from "../project-boundary.js";

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
export async function readSpecFiles(specsDir: string, cwd = process.cwd()): Promise<SpecSources> {
  const root = path.resolve(cwd, specsDir);
  const displayRoot = toPosix(path.relative(cwd, root)) || ".";
  const boundary = projectBoundary(root, cwd);
  const realBoundary = await resolveReal(boundary);
  if (!isInside(root, boundary) || !isInside(await resolveReal(root), realBoundary)) {
    const message = `the specs folder is outside the project (${toPosix(path.relative(cwd, boundary)) || "."}, the folder holding package.json or .git), or a link leading out of it; flowgen reads specs only from inside the project: point --specs at a folder in it`;
    return {
      flows: [],
      shared: [],
      issues: [{ code: "outside-project", file: displayRoot, message }],
    };
  }
  const found = await findSpecFiles(root, realBoundary).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
    throw error;
  });
  if (found === undefined) {
    const message = `specs folder not found; create it with one file per flow at ${displayRoot}/@<org>/<flow-name>.json, or pass --specs <folder>`;
    return { flows: [], shared: [], issues: [{ code: "no-specs", file: displayRoot, message }] };
  }
  const issues: Issue[] = found.problems.map(({ relPath, code, message }) => ({
    code,
    file: `${displayRoot}/${relPath}`,
    message,
  }));
  const relPaths = found.files.sort(compareText);
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
  const flows: FlowSource[] = [];
  const shared: SpecSource[] = [];
  const seenFlows = new Map<string, string>();

  relPaths.forEach((relPath, index) => {
    const text = texts[index];
    if (text === undefined) return;
    const source = { relPath, displayPath: `${displayRoot}/${relPath}`, text };
    const parts = relPath.split("/");
    if (parts.some((part) => part.startsWith("_"))) {
      shared.push(source);
      return;
    }
    const [orgFolder, fileName] = parts;
    if (
      parts.length !== 2 ||
      orgFolder === undefined ||
      fileName === undefined ||
      !orgFolder.startsWith("@")
    ) {
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

interface ReadProblem {
  readonly relPath: string;
  readonly code: IssueCode;
  readonly message: string;
}

/**
 * Every JSON and YAML file under `root`, relative to it, skipping dot-files and dot-folders.
 * Symlinks are followed, to files and folders alike, and their targets read as if they lived at
 * the link's path; a link that leads nowhere, back into a folder it sits in, or out of the project
 * (`boundary`, a real path) is a problem, and nothing behind it is read.
 */
async function findSpecFiles(
  root: string,
  boundary: string,
): Promise<{ files: string[]; problems: ReadProblem[] }> {
  const files: string[] = [];
  const problems: ReadProblem[] = [];
  const walk = async (dir: string, relDir: string, ancestors: readonly string[]): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(
      (error: NodeJS.ErrnoException) => {
        if (relDir === "") throw error;
        problems.push({
          relPath: relDir,
          code: "unreadable-file",
          message: `folder cannot be read (${error.code ?? error.message}); check its permissions, or remove it`,
        });
        return [];
      },
    );
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      const relPath = relDir === "" ? entry.name : `${relDir}/${entry.name}`;
      let isDirectory = entry.isDirectory();
      let isFile = entry.isFile();
      if (entry.isSymbolicLink()) {
        const target = await stat(full).catch(() => undefined);
        if (target === undefined) {
          problems.push({
            relPath,
            code: "unreadable-file",
            message: `symlink to ${await linkText(full)}, which does not exist; fix the link or remove it`,
          });
          continue;
        }
        if (!isInside(await realpath(full), boundary)) {
          problems.push({
            relPath,
            code: "outside-project",
            message: `symlink to ${await linkText(full)}, outside the project (the folder holding package.json or .git); flowgen reads specs only from inside the project: copy what you need into it, or remove the link`,
          });
          continue;
        }
        isDirectory = target.isDirectory();
        isFile = target.isFile();
      }
      if (isFile && SPEC_EXTENSION.test(entry.name)) files.push(relPath);
      else if (!isDirectory && SPEC_EXTENSION.test(entry.name)) {
        problems.push({
          relPath,
          code: "unreadable-file",
          message:
            "is not a regular file (a pipe, socket or device); replace it with the spec file itself",
        });
      }
      if (!isDirectory) continue;
      const real = await realpath(full);
      if (ancestors.includes(real)) {
        problems.push({
          relPath,
          code: "unreadable-file",
          message:
            "symlink to a folder that contains it, which would be read forever; remove the link or point it elsewhere",
        });
        continue;
      }
      await walk(full, relPath, [...ancestors, real]);
    }
  };
  await walk(root, "", [await realpath(root)]);
  return { files, problems };
}

function toPosix(p: string): string {
  return p.split(path.sep).join("/");
}
