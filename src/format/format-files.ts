import path from "node:path";
import type * as Prettier from "prettier";
import type { OutputFile } from "../output-file.js";
import { codeLayoutFor, OTHER_SYNTAX_OPTIONS, type CodeLayout } from "./code-layout.js";
import { checkHandPrinted } from "./check-printers.js";
import { findProjectPrettier, importPrettier, type PrettierRef } from "./project-prettier.js";
import { createConfigResolver, optionsMayVary, readConfigSources } from "./project-root.js";
import { JSON_LAYOUT_OPTIONS, printJson, type JsonLayout } from "./print-json.js";

/**
 * Prettier's defaults, written out: output must not change when a prettier release changes one.
 * The project's own prettier config (found from each output file, up to the project's root) wins over these.
 */
const BASE_OPTIONS: Prettier.Options = {
  printWidth: 80,
  tabWidth: 2,
  useTabs: false,
  semi: true,
  singleQuote: false,
  quoteProps: "as-needed",
  trailingComma: "all",
  bracketSpacing: true,
  arrowParens: "always",
  endOfLine: "lf",
};

/**
 * Options that leave JSON output as `printJson` prints it. A project config that sets anything
 * else for `.json` (plugins, a parser, `objectWrap: "collapse"`) gets prettier itself.
 */
const JSON_NEUTRAL_OPTIONS = new Set<string>([
  ...JSON_LAYOUT_OPTIONS,
  ...Object.keys(BASE_OPTIONS),
  ...OTHER_SYNTAX_OPTIONS,
  "experimentalOperatorPosition",
]);

/**
 * Prettier's `babel-ts` parser reads TypeScript faster than its default `typescript` parser
 * (bench/NOTES.md) and prints generated code the same (a test formats `generated/` with the default one).
 * A project config that names a parser keeps it.
 */
const TS_PARSER = "babel-ts";

/** The options of a TypeScript file no project config changes: prettier's defaults, flowgen's parser. */
export const DEFAULT_TS_OPTIONS: Readonly<Prettier.Options> = {
  ...BASE_OPTIONS,
  parser: TS_PARSER,
};

/** `optionsKey` of such a file. */
const DEFAULT_TS_OPTIONS_KEY = JSON.stringify(DEFAULT_TS_OPTIONS);

/** Paths whose options stand for the folder's in the fingerprint: one per kind of file flowgen writes. */
const PROBES = ["index.ts", "openapi.json", "package.json"];

export interface Formatter {
  format(file: OutputFile): Promise<OutputFile>;
  /** Writes `value` as formatted JSON, as prettier would format `JSON.stringify(value, null, 2)`. */
  formatJson(path: string, value: unknown): Promise<OutputFile>;
  /** Resolves the options of these output files (overrides included); `optionsFor` answers for them after. */
  prepare(paths: readonly string[]): Promise<void>;
  /** The prettier options for a file at `path` in the output folder (prepared, else the folder's). */
  optionsFor(path: string): Prettier.Options;
  /** A key equal for files formatted with equal options: files that may share a prettier call. */
  optionsKey(path: string): string;
  /**
   * True when `path` is formatted by flowgen's own prettier with its defaults (no project config
   * changes them): text already formatted so, like the runtime's templates, stays as it is.
   */
  formatsByDefault(path: string): boolean;
  /** The layout the fast printers print `path` in, when they may: the proven prettier, options they know. */
  layoutFor(path: string): CodeLayout | undefined;
  /** The prettier that formats: the project's 3.x, else flowgen's own. */
  readonly prettier: PrettierRef;
  /** Identifies prettier's version, its config files and the options in force, for caching formatted text. */
  readonly fingerprint: string;
}

/**
 * A formatter for the files of `outDir`, with the prettier of the project it is in (its own 3.x,
 * else flowgen's) and the options that apply to each file, its config's `overrides` included, as
 * that project's `prettier --check` resolves them. Formatting many files at once goes through
 * `formatModules` (format-modules.ts) with `optionsFor`, on worker threads or here.
 *
 * @example
 * const formatter = await createFormatter("generated");
 * await formatter.prepare(["index.ts"]);
 * const formatted = await formatter.format({ path: "index.ts", content: text });
 */
export async function createFormatter(outDir: string): Promise<Formatter> {
  const folder = path.resolve(outDir);
  const ref = await findProjectPrettier(folder);
  const prettier = await importPrettier(ref);
  // A config edited since the last run (a watching run) is read again.
  await prettier.clearConfigCache();
  const resolved = new Map<string, Prettier.Options>();
  const resolveConfig = createConfigResolver(prettier, folder);
  const resolve = async (filePath: string) => {
    if (resolved.has(filePath)) return;
    const config = await resolveConfig(path.join(folder, filePath));
    resolved.set(filePath, {
      ...BASE_OPTIONS,
      ...(filePath.endsWith(".ts") ? { parser: TS_PARSER } : {}),
      ...config,
    });
  };
  await Promise.all(PROBES.map(resolve));
  // Resolving each output file's options is a prettier call per file: only when they could differ.
  const perFile = await optionsMayVary(folder, prettier);
  const optionsFor = (filePath: string): Prettier.Options => ({
    ...(resolved.get(filePath) ??
      resolved.get(PROBES[filePath.endsWith(".ts") ? 0 : 1] as string) ??
      BASE_OPTIONS),
    filepath: filePath,
  });
  const optionsKey = (filePath: string) => {
    const { filepath: _path, ...options } = optionsFor(filePath);
    return JSON.stringify(options);
  };
  const format = async (file: OutputFile): Promise<OutputFile> => ({
    path: file.path,
    content: await prettier.format(file.content, optionsFor(file.path)),
  });
  return {
    prettier: ref,
    fingerprint: JSON.stringify([
      ref.version,
      ref.own,
      await readConfigSources(folder, prettier),
      PROBES.map(optionsKey),
    ]),
    format,
    prepare: async (paths) => void (perFile ? await Promise.all(paths.map(resolve)) : undefined),
    optionsFor,
    optionsKey,
    formatsByDefault: (filePath) => ref.own && optionsKey(filePath) === DEFAULT_TS_OPTIONS_KEY,
    layoutFor: (filePath) => (ref.own ? codeLayoutFor(optionsFor(filePath)) : undefined),
    async formatJson(filePath, value) {
      const options = optionsFor(filePath);
      const layout = ref.own ? jsonLayoutFor(options, prettier) : undefined;
      if (layout === undefined)
        return format({ path: filePath, content: JSON.stringify(value, null, 2) });
      const printed = printJson(value, layout);
      await checkHandPrinted(filePath, printed, () => JSON.stringify(value, null, 2), options, ref);
      return { path: filePath, content: printed };
    },
  };
}

/** The layout for `printJson`, when the options in force allow it; else undefined (use prettier). */
function jsonLayoutFor(
  options: Prettier.Options,
  prettier: typeof Prettier,
): JsonLayout | undefined {
  const { printWidth, tabWidth, useTabs, endOfLine, objectWrap, parser } = options;
  const neutral = Object.keys(options).every(
    (key) =>
      JSON_NEUTRAL_OPTIONS.has(key) ||
      key === "filepath" ||
      (key === "objectWrap" && objectWrap === "preserve"),
  );
  // package.json is `json-stringify` to prettier, which prints every array one element per line.
  if (!neutral || parser !== undefined || options.filepath?.endsWith("package.json") === true)
    return undefined;
  if (
    typeof printWidth !== "number" ||
    typeof tabWidth !== "number" ||
    typeof useTabs !== "boolean"
  )
    return undefined;
  if (endOfLine !== "lf" && endOfLine !== "crlf" && endOfLine !== "cr") return undefined;
  return { printWidth, tabWidth, useTabs, endOfLine, stringWidth: prettier.util.getStringWidth };
}
