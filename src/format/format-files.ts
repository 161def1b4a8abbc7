import path from "node:path";
import * as prettier from "prettier";
import type { OutputFile } from "../output-file.js";
import { OTHER_SYNTAX_OPTIONS } from "./code-layout.js";
import { resolveProjectConfig } from "./project-root.js";
import { JSON_LAYOUT_OPTIONS, printJson, type JsonLayout } from "./print-json.js";

/**
 * Prettier's defaults, written out: output must not change when a prettier release changes one.
 * The project's own prettier config (found from the output folder, up to the project's root) wins over these.
 */
const BASE_OPTIONS: prettier.Options = {
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

export interface Formatter {
  format(file: OutputFile): Promise<OutputFile>;
  /** Writes `value` as formatted JSON, as prettier would format `JSON.stringify(value, null, 2)`. */
  formatJson(path: string, value: unknown): Promise<OutputFile>;
  /** The prettier options for a file at `path` in the output folder. */
  optionsFor(path: string): prettier.Options;
  /** Identifies prettier's version and the options in force, for caching formatted text. */
  readonly fingerprint: string;
}

/**
 * A formatter bound to the prettier options that apply in `outDir`. Formatting many files at once
 * goes through `formatModules` (format-modules.ts) with `optionsFor`, on worker threads or here.
 *
 * @example
 * const formatter = await createFormatter("generated");
 * const formatted = await formatter.format({ path: "index.ts", content: text });
 */
export async function createFormatter(outDir: string): Promise<Formatter> {
  const resolved = new Map<string, prettier.Options>();
  let jsonLayout: JsonLayout | undefined;
  for (const ext of [".ts", ".json"]) {
    const config = await resolveProjectConfig(path.join(path.resolve(outDir), `file${ext}`));
    resolved.set(ext, {
      ...BASE_OPTIONS,
      ...(ext === ".ts" ? { parser: TS_PARSER } : {}),
      ...config,
    });
    if (ext === ".json") jsonLayout = jsonLayoutFor({ ...BASE_OPTIONS, ...config });
  }
  const optionsFor = (filePath: string): prettier.Options => ({
    ...(resolved.get(path.extname(filePath)) ?? BASE_OPTIONS),
    filepath: filePath,
  });
  const format = async (file: OutputFile): Promise<OutputFile> => ({
    path: file.path,
    content: await prettier.format(file.content, optionsFor(file.path)),
  });
  return {
    fingerprint: JSON.stringify([prettier.version, [...resolved]]),
    format,
    optionsFor,
    async formatJson(filePath, value) {
      if (jsonLayout) return { path: filePath, content: printJson(value, jsonLayout) };
      return format({ path: filePath, content: JSON.stringify(value, null, 2) });
    },
  };
}

/** The layout for `printJson`, when the options in force allow it; else undefined (use prettier). */
function jsonLayoutFor(options: prettier.Options): JsonLayout | undefined {
  const { printWidth, tabWidth, useTabs, endOfLine, objectWrap } = options;
  const neutral = Object.keys(options).every(
    (key) => JSON_NEUTRAL_OPTIONS.has(key) || (key === "objectWrap" && objectWrap === "preserve"),
  );
  if (
    !neutral ||
    typeof printWidth !== "number" ||
    typeof tabWidth !== "number" ||
    typeof useTabs !== "boolean"
  )
    return undefined;
  if (endOfLine !== "lf" && endOfLine !== "crlf" && endOfLine !== "cr") return undefined;
  return { printWidth, tabWidth, useTabs, endOfLine, stringWidth: prettier.util.getStringWidth };
}
