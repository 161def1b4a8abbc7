import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import * as jsonc from "jsonc-parser";
import {
  findConfigRoot,
  findPackageFolder,
  isInside,
  projectBoundary,
  staysInside,
} from "../project-boundary.js";

/** How many `extends` a tsconfig chain may take before flowgen stops following it. */
const MAX_EXTENDS = 8;

/**
 * Whether the output folder needs a package.json of its own saying `"type": "module"`. Generated
 * modules are written as ES modules (`import`, `export`, `.js` specifiers). In a CommonJS package
 * (`npm init -y` writes `"type": "commonjs"`; no `type` means the same) TypeScript reads them as
 * CommonJS, and with `verbatimModuleSyntax` (`tsc --init` sets it) refuses every import and export
 * in them (TS1287, TS1295). There, and only there, the marker makes them ES modules; CommonJS code
 * loads them with `require`, which Node 20.19+ and TypeScript 5.8+ (`module: nodenext`) allow.
 * Elsewhere it is left out: a CommonJS project without `verbatimModuleSyntax` compiles them to
 * CommonJS as before, which its `module: node16` imports and its `outDir` rely on.
 *
 * The package is the nearest package.json at or above the output folder's parent; the tsconfig,
 * the nearest tsconfig.json at or above the output folder, with its `extends` followed. Both are
 * read from inside the project only (its repository, when it is in one: `findConfigRoot`); what
 * cannot be read counts as not set.
 *
 * @example
 * if (await needsModuleMarker(process.cwd(), "generated")) plan.push(marker);
 */
export async function needsModuleMarker(cwd: string, out: string): Promise<boolean> {
  const outDir = path.resolve(cwd, out);
  // Read where the project's config lies, wherever the run starts from: the same answer from the
  // repository's root and from a workspace package.
  const boundary = findConfigRoot(outDir) ?? projectBoundary(outDir, cwd);
  const packageFolder = findPackageFolder(path.dirname(outDir), boundary);
  if (packageFolder === undefined) return false;
  const manifest = await readJson(path.join(packageFolder, "package.json"), boundary);
  if (isRecord(manifest) && manifest["type"] === "module") return false;
  const tsconfig = findNearest(outDir, "tsconfig.json", boundary);
  if (tsconfig === undefined) return false;
  const projects = [tsconfig, ...(await solutionReferences(tsconfig, outDir, boundary))];
  for (const project of projects)
    if ((await readCompilerOption(project, "verbatimModuleSyntax", boundary)) === true) return true;
  return false;
}

/**
 * The projects a solution-style tsconfig (`"files": []` and `references`, as Vite's template
 * writes it) hands its files to, of those whose files take in `outDir`: their tsconfig files.
 * None for any other tsconfig.
 */
async function solutionReferences(
  file: string,
  outDir: string,
  boundary: string,
): Promise<string[]> {
  const config = await readJson(file, boundary);
  if (!isRecord(config) || !Array.isArray(config["files"]) || config["files"].length > 0) return [];
  const references: unknown = config["references"];
  if (!Array.isArray(references)) return [];
  const projects = references.flatMap((reference: unknown) => {
    const target = isRecord(reference) ? reference["path"] : undefined;
    if (typeof target !== "string") return [];
    const resolved = path.resolve(path.dirname(file), target);
    return [resolved.endsWith(".json") ? resolved : path.join(resolved, "tsconfig.json")];
  });
  const covering: string[] = [];
  for (const project of projects)
    if (takesIn(await readJson(project, boundary), project, outDir)) covering.push(project);
  return covering;
}

/**
 * Whether a tsconfig may compile files of `folder`: unless its own `include` (or `files`) names
 * only single source files outside it (Vite's `tsconfig.node.json` names `vite.config.ts`). A
 * folder or a pattern may take `folder` in, and so may an import from a file it does take in.
 */
function takesIn(config: unknown, file: string, folder: string): boolean {
  if (!isRecord(config)) return false;
  const { include, files } = config;
  const entries: unknown[] = Array.isArray(include) ? include : Array.isArray(files) ? files : [];
  if (entries.length === 0) return true;
  return !entries.every(
    (entry) =>
      typeof entry === "string" &&
      SOURCE_FILE.test(entry) &&
      !/[*?{[]/.test(entry) &&
      !isInside(path.resolve(path.dirname(file), entry), folder),
  );
}

/** A path that names one source file. */
const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|json)$/;

/** A compiler option as the tsconfig at `file` has it, its own or through `extends` (the nearest wins). */
async function readCompilerOption(
  file: string,
  option: string,
  boundary: string,
  depth = 0,
): Promise<unknown> {
  if (depth > MAX_EXTENDS) return undefined;
  const config = await readJson(file, boundary);
  if (!isRecord(config)) return undefined;
  const options = config["compilerOptions"];
  if (isRecord(options) && Object.hasOwn(options, option)) return options[option];
  // An array of bases (TypeScript 5.0+): a later one overrides an earlier, so it is asked first.
  const extended: unknown = config["extends"];
  const bases: unknown[] = Array.isArray(extended)
    ? [...(extended as unknown[])].reverse()
    : [extended];
  for (const base of bases) {
    const target = typeof base === "string" ? resolveBase(base, file) : undefined;
    const value =
      target === undefined
        ? undefined
        : await readCompilerOption(target, option, boundary, depth + 1);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Where `extends` points: a path relative to the config, or a package's tsconfig. */
function resolveBase(base: string, from: string): string | undefined {
  if (base.startsWith(".") || path.isAbsolute(base)) {
    const target = path.resolve(path.dirname(from), base);
    return target.endsWith(".json") || existsSync(target) ? target : `${target}.json`;
  }
  try {
    return createRequire(from).resolve(base.endsWith(".json") ? base : `${base}/tsconfig.json`);
  } catch {
    try {
      return createRequire(from).resolve(base);
    } catch {
      return undefined;
    }
  }
}

/** JSON with comments and trailing commas, as tsconfig allows; undefined when it cannot be read or lies outside the project. */
async function readJson(file: string, boundary: string): Promise<unknown> {
  if (!isInside(path.resolve(file), boundary) || !(await staysInside(file, boundary)))
    return undefined;
  const text = await readFile(file, "utf8").catch(() => undefined);
  return text === undefined
    ? undefined
    : (jsonc.parse(text, [], { allowTrailingComma: true }) as unknown);
}

function findNearest(dir: string, name: string, boundary: string): string | undefined {
  for (let current = dir; isInside(current, boundary); current = path.dirname(current)) {
    const file = path.join(current, name);
    if (existsSync(file)) return file;
    if (path.dirname(current) === current) return undefined;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
