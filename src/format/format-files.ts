import { availableParallelism } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import * as prettier from "prettier";
import type { OutputFile } from "../output-file.js";
import type { WorkerTask } from "./format-worker.js";

/**
 * Prettier's defaults, written out: output must not change when a prettier release changes one.
 * The project's own prettier config (found from the output folder) wins over these.
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

/** Below this many files, starting worker threads costs more than it saves. */
const POOL_THRESHOLD = 64;

export interface Formatter {
  format(file: OutputFile): Promise<OutputFile>;
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
  for (const ext of [".ts", ".json"]) {
    const config = (await prettier.resolveConfig(path.join(path.resolve(outDir), `file${ext}`), { editorconfig: true })) ?? {};
    resolved.set(ext, { ...BASE_OPTIONS, ...config });
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
    formatTypes: (filePath, header, document) => run(filePath, { kind: "types", header, document, options: optionsFor({ path: filePath, content: "" }) }),
    async parallelize(expectedFiles) {
      if (pool === undefined && expectedFiles >= POOL_THRESHOLD) pool = await startPool();
    },
    async close() {
      await pool?.destroy();
    },
  };
}

async function startPool() {
  // The worker is compiled JavaScript; when running from sources (tests), format in this thread.
  if (!import.meta.url.endsWith(".js")) return undefined;
  const { Tinypool } = await import("tinypool");
  const worker = fileURLToPath(new URL("./format-worker.js", import.meta.url));
  return new Tinypool({ filename: worker, minThreads: 1, maxThreads: Math.max(1, availableParallelism()) });
}
