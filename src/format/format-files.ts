import path from "node:path";
import * as prettier from "prettier";
import type { OutputFile } from "../output-file.js";

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

export interface Formatter {
  format(file: OutputFile): Promise<OutputFile>;
  /** Identifies the options in force, for caching formatted text. */
  readonly fingerprint: string;
}

/**
 * A formatter bound to the prettier options that apply in `outDir`.
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
  return {
    fingerprint: JSON.stringify([prettier.version, [...resolved]]),
    async format(file) {
      const options = resolved.get(path.extname(file.path)) ?? BASE_OPTIONS;
      const content = await prettier.format(file.content, { ...options, filepath: file.path });
      return { path: file.path, content };
    },
  };
}
