import type * as prettier from "prettier";
import type * as TS from "typescript";
import { codeLayoutFor } from "./code-layout.js";
import { printFlowModule } from "./print-flow-module.js";

/**
 * Formats TypeScript files: flow modules by `printFlowModule` in prettier's layout when the options
 * allow it, every other file (and any module it does not know) by prettier, several per call.
 * `ts` is the TypeScript already loaded on the calling thread, to parse the modules with.
 *
 * @example
 * const formatted = await formatModules(texts, formatter.optionsFor("flow.ts"), ts);
 */
export async function formatModules(
  contents: readonly string[],
  options: prettier.Options,
  ts: typeof TS,
): Promise<string[]> {
  const layout = codeLayoutFor(options);
  const formatted = contents.map((content) =>
    layout === undefined ? undefined : printFlowModule(content, layout, ts),
  );
  const rest = formatted.flatMap((text, index) => (text === undefined ? [index] : []));
  if (rest.length > 0) {
    // Prettier loads only on threads that have something it must format.
    const { formatBatch } = await import("./format-batch.js");
    const byPrettier = await formatBatch(
      rest.map((index) => contents[index] as string),
      options,
    );
    rest.forEach((index, i) => (formatted[index] = byPrettier[i]));
  }
  return formatted as string[];
}
