import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import type { OutputFile } from "../output-file.js";
import { resolveProjectConfig } from "./project-root.js";
import type { WorkerTask } from "./format-worker.js";
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
  "bracketSameLine",
  "jsxSingleQuote",
  "singleAttributePerLine",
  "proseWrap",
  "htmlWhitespaceSensitivity",
  "vueIndentScriptAndStyle",
  "embeddedLanguageFormatting",
  "experimentalTernaries",
  "experimentalOperatorPosition",
]);

/**
 * Prettier's `babel-ts` parser reads TypeScript faster than its default `typescript` parser
 * (bench/NOTES.md) and prints generated code the same (a test formats `generated/` with the default one).
 * A project config that names a parser keeps it.
 */
const TS_PARSER = "babel-ts";

/** Below this many files, starting worker threads costs more than it saves. */
const POOL_THRESHOLD = 64;

export interface Formatter {
  format(file: OutputFile): Promise<OutputFile>;
  /** Writes `value` as formatted JSON, as prettier would format `JSON.stringify(value, null, 2)`. */
  formatJson(path: string, value: unknown): Promise<OutputFile>;
  /** Renders one flow's OpenAPI document to types with openapi-typescript, under `header`, and formats it. */
  formatTypes(path: string, header: string, document: Record<string, unknown>): Promise<OutputFile>;
  /** Identifies prettier's version and the options in force, for caching formatted text. */
  readonly fingerprint: string;
  /** Formats on worker threads from now on, when `expectedFiles` makes that worth it. */
  parallelize(expectedFiles: number): Promise<void>;
  /** Stops worker threads, if any were started. */
  close(): Promise<void>;
}

/**
 * A formatter bound to the prettier options that apply in `outDir`. After `parallelize` with
 * enough files it formats on worker threads, one per core, so rendering and formatting overlap.
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
    resolved.set(ext, { ...BASE_OPTIONS, ...(ext === ".ts" ? { parser: TS_PARSER } : {}), ...config });
    if (ext === ".json") jsonLayout = jsonLayoutFor({ ...BASE_OPTIONS, ...config });
  }
  const optionsFor = (file: OutputFile): prettier.Options => ({ ...(resolved.get(path.extname(file.path)) ?? BASE_OPTIONS), filepath: file.path });
  let pool: Awaited<ReturnType<typeof startPool>>;
  const run = async (filePath: string, task: WorkerTask): Promise<OutputFile> => {
    if (pool) return { path: filePath, content: (await pool.run(task)) as string };
    const { default: runTask } = await import("./format-worker.js");
    return { path: filePath, content: await runTask(task) };
  };
  return {
    fingerprint: JSON.stringify([prettier.version, [...resolved]]),
    format: (file) => run(file.path, { kind: "format", content: file.content, options: optionsFor(file) }),
    async formatJson(filePath, value) {
      if (jsonLayout) return { path: filePath, content: printJson(value, jsonLayout) };
      return run(filePath, { kind: "format", content: JSON.stringify(value, null, 2), options: optionsFor({ path: filePath, content: "" }) });
    },
    formatTypes: (filePath, header, document) => run(filePath, { kind: "types", header, document, options: optionsFor({ path: filePath, content: "" }) }),
    async parallelize(expectedFiles) {
      if (pool === undefined && expectedFiles >= POOL_THRESHOLD) pool = await startPool();
    },
    async close() {
      await pool?.destroy();
    },
  };
}

/** The layout for `printJson`, when the options in force allow it; else undefined (use prettier). */
function jsonLayoutFor(options: prettier.Options): JsonLayout | undefined {
  const { printWidth, tabWidth, useTabs, endOfLine, objectWrap } = options;
  const neutral = Object.keys(options).every((key) => JSON_NEUTRAL_OPTIONS.has(key) || (key === "objectWrap" && objectWrap === "preserve"));
  if (!neutral || typeof printWidth !== "number" || typeof tabWidth !== "number" || typeof useTabs !== "boolean") return undefined;
  if (endOfLine !== "lf" && endOfLine !== "crlf" && endOfLine !== "cr") return undefined;
  return { printWidth, tabWidth, useTabs, endOfLine, stringWidth: prettier.util.getStringWidth };
}

async function startPool() {
  // The worker is compiled JavaScript; when running from sources (tests), format in this thread.
  if (!import.meta.url.endsWith(".js")) return undefined;
  const { Tinypool } = await import("tinypool");
  const worker = fileURLToPath(new URL("./format-worker.js", import.meta.url));
  const threads = Math.max(1, availableParallelism());
  return new Tinypool({ filename: worker, minThreads: threads, maxThreads: threads });
}
