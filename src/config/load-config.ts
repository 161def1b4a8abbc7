import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { lilconfig, type LilconfigResult, type Loader } from "lilconfig";
import type { Issue } from "../issues.js";
import * as jsonc from "jsonc-parser";
import { findWorkspaceRoot, linkText, projectBoundary, staysInside } from "../project-boundary.js";
import {
  checkConfigValue,
  emptyConfigIssue,
  looksLikeConfig,
  notAConfigIssue,
} from "./config-keys.js";
import type { FlowgenConfig } from "./define-config.js";

/** The file names looked for, in this order, in the working directory and then its parents. */
export const CONFIG_FILES = [
  "flowgen.config.ts",
  "flowgen.config.mts",
  "flowgen.config.js",
  "flowgen.config.mjs",
  "flowgen.config.json",
] as const;

export type LoadedConfig =
  | {
      readonly ok: true;
      readonly config: FlowgenConfig;
      /** Absolute path of the file, or undefined when there is none. */
      readonly file: string | undefined;
      /** Where the config's relative paths start: the file's folder, or the working directory. */
      readonly root: string;
    }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/**
 * Finds and loads the project's flowgen config: `explicit` when given (relative to `cwd`), else the
 * first of `CONFIG_FILES` in `cwd` or a parent up to the project root: the nearest folder with a
 * package.json, or, for a package of a workspace, the workspace's root (a package without a config
 * of its own takes the root's). TypeScript and JavaScript configs load through tsx, so `flowgen.config.ts` needs no
 * build step. No file is fine: every setting has a default.
 *
 * @example
 * const loaded = await loadConfig(process.cwd());
 * if (loaded.ok) console.log(loaded.file ?? "no config file", loaded.config);
 */
export async function loadConfig(cwd: string, explicit?: string): Promise<LoadedConfig> {
  const stopDir = projectRoot(cwd);
  const display = (file: string) => path.relative(cwd, file).split(path.sep).join("/") || file;
  const target = explicit === undefined ? undefined : path.resolve(cwd, explicit);
  if (target !== undefined && !existsSync(target)) {
    return {
      ok: false,
      issues: [
        {
          code: "invalid-config",
          file: explicit ?? "",
          message: "config file not found; check the --config path",
        },
      ],
    };
  }
  const refused = await refuseOutsideProject(target ?? findConfigFile(cwd, stopDir), cwd, display);
  if (refused !== undefined) return { ok: false, issues: [refused] };
  const searcher = createSearcher(stopDir);
  let found: LilconfigResult;
  try {
    found = target === undefined ? await searcher.search(cwd) : await searcher.load(target);
  } catch (error) {
    return { ok: false, issues: [describeLoadError(error, target, cwd, display)] };
  }
  if (found === null) return { ok: true, config: {}, file: undefined, root: cwd };
  const rival = target === undefined ? rivalConfig(found.filepath, display) : undefined;
  if (rival !== undefined) return { ok: false, issues: [rival] };
  return checkFoundConfig(found, display, target !== undefined);
}

/** Another config file beside the one found: which of the two holds the settings is unclear. */
function rivalConfig(file: string, display: (file: string) => string): Issue | undefined {
  const folder = path.dirname(file);
  const others = CONFIG_FILES.map((name) => path.join(folder, name)).filter(
    (other) => other !== file && existsSync(other),
  );
  if (others.length === 0) return undefined;
  const names = [file, ...others].map(display).join(", ");
  return {
    code: "invalid-config",
    file: display(file),
    message: `one folder holds several flowgen configs (${names}); keep one of them, or pass the one to use with --config`,
  };
}

/** lilconfig searching for `CONFIG_FILES` up to `stopDir`, each read by the loader for its kind. */
function createSearcher(stopDir: string): ReturnType<typeof lilconfig> {
  const loader: Loader = (file) => importConfig(file);
  return lilconfig("flowgen", {
    searchPlaces: [...CONFIG_FILES],
    loaders: {
      ".ts": loader,
      ".mts": loader,
      ".js": loader,
      ".mjs": loader,
      ".json": readJsonConfig,
    },
    stopDir,
    cache: false,
    // An empty config file is found, and refused, rather than passed over for a parent's or none.
    ignoreEmptySearchPlaces: false,
  });
}

/** Why a config file could not be loaded, with the fix for the usual first-run mistake. */
function describeLoadError(
  error: unknown,
  target: string | undefined,
  cwd: string,
  display: (file: string) => string,
): Issue {
  const file = target ?? (error instanceof ConfigImportError ? error.file : cwd);
  const reason = error instanceof ConfigImportError ? error.reason : error;
  const why = reason instanceof Error ? reason.message : String(reason);
  // The usual first-run mistake: a config that imports defineConfig before flowgen is installed.
  const hint = why.includes("'flowgen-cli'")
    ? "; install flowgen in this project: npm install -D flowgen-cli"
    : "";
  const message = `cannot be loaded: ${why}${hint}`;
  return { code: "invalid-config", file: display(file), pointer: "", message };
}

/** The config a file holds, when its value is a valid config; `named`: given with --config. */
function checkFoundConfig(
  found: NonNullable<LilconfigResult>,
  display: (file: string) => string,
  named: boolean,
): LoadedConfig {
  if (found.isEmpty === true)
    return { ok: false, issues: [emptyConfigIssue(display(found.filepath), named)] };
  const value: unknown = found.config;
  // A JSON file is data, maybe not a config at all (a secret linked into its place): say nothing of it then.
  if (found.filepath.endsWith(".json") && !looksLikeConfig(value))
    return { ok: false, issues: [notAConfigIssue(display(found.filepath))] };
  const issues = checkConfigValue(value, display(found.filepath));
  if (issues.length > 0) return { ok: false, issues };
  return {
    ok: true,
    config: (found.config ?? {}) as FlowgenConfig,
    file: found.filepath,
    root: path.dirname(found.filepath),
  };
}

class ConfigImportError extends Error {
  constructor(
    readonly file: string,
    readonly reason: unknown,
  ) {
    super(`${file}: cannot be loaded`);
  }
}

function readJsonConfig(file: string, content: string): unknown {
  // JSON.parse makes `"__proto__"` an own key, which the key check then reports; jsonc-parser would
  // assign it, setting the object's prototype, only to locate a syntax error.
  try {
    return JSON.parse(content);
  } catch {
    // Where, not what: JSON.parse's own message quotes the text, which may not be a config at all.
  }
  const errors: jsonc.ParseError[] = [];
  jsonc.parse(content, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0] ?? { offset: 0, error: jsonc.ParseErrorCode.InvalidSymbol };
  const line = content.slice(0, first.offset).split("\n").length;
  const reason = `invalid JSON at line ${line} (${jsonc.printParseErrorCode(first.error)})`;
  throw new ConfigImportError(file, new Error(reason));
}

/**
 * The first config file a search from `cwd` up to `stopDir` finds, the way lilconfig looks: each
 * folder's names in order, nearest folder first; undefined when there is none.
 */
function findConfigFile(cwd: string, stopDir: string): string | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const found = CONFIG_FILES.map((name) => path.join(dir, name)).find((file) => existsSync(file));
    if (found !== undefined || dir === stopDir || path.dirname(dir) === dir) return found;
  }
}

/** A config file inside the project that is a link leading out of it is refused before it is read. */
async function refuseOutsideProject(
  file: string | undefined,
  cwd: string,
  display: (file: string) => string,
): Promise<Issue | undefined> {
  if (file === undefined) return undefined;
  if (await staysInside(file, projectBoundary(path.dirname(file), cwd))) return undefined;
  return {
    code: "outside-project",
    file: display(file),
    message: `symlink to ${await linkText(file)}, outside the project (the folder holding package.json or .git); flowgen reads its config only from inside the project: replace the link with the file`,
  };
}

async function importConfig(file: string): Promise<unknown> {
  // The modification time in the URL makes a watching run load an edited config afresh.
  const url = `${pathToFileURL(file).href}?v=${statSync(file).mtimeMs}`;
  let module: { default?: unknown };
  try {
    const { tsImport } = await import("tsx/esm/api");
    module = (await tsImport(url, import.meta.url)) as { default?: unknown };
  } catch (error) {
    throw new ConfigImportError(file, error);
  }
  // tsx wraps a default export once more when it compiles the file to CommonJS.
  const exported = module.default;
  return typeof exported === "object" &&
    exported !== null &&
    "default" in exported &&
    Object.keys(exported).length === 1
    ? exported.default
    : exported;
}

function projectRoot(cwd: string): string {
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    // A workspace package's config may sit at its monorepo's root: the search goes on to there.
    if (existsSync(path.join(dir, "package.json"))) return findWorkspaceRoot(dir) ?? dir;
    if (path.dirname(dir) === dir) return cwd;
  }
}
