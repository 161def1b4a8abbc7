import type * as Prettier from "prettier";
import type * as TS from "typescript";
import { checkHandPrinted } from "./check-printers.js";
import { codeLayoutFor } from "./code-layout.js";
import { printFlowModule } from "./print-flow-module.js";
import { importPrettier, type PrettierRef } from "./project-prettier.js";

/**
 * Formats TypeScript files: flow modules by `printFlowModule` in prettier's layout when the
 * formatting prettier is the one it is proven against and the options allow it, every other file
 * (and any module it does not know) by that prettier, several per call. `ts` is the TypeScript
 * already loaded on the calling thread, to parse the modules with.
 *
 * @example
 * const formatted = await formatModules(texts, formatter.optionsFor("flow.ts"), ts, formatter.prettier);
 */
export async function formatModules(
  contents: readonly string[],
  options: Prettier.Options,
  ts: typeof TS,
  ref: PrettierRef,
): Promise<string[]> {
  const layout = ref.own ? codeLayoutFor(options) : undefined;
  const formatted = contents.map((content) =>
    layout === undefined ? undefined : printFlowModule(content, layout, ts),
  );
  for (const [index, printed] of formatted.entries())
    if (printed !== undefined)
      await checkHandPrinted(
        options.filepath ?? "a flow module",
        printed,
        contents[index] as string,
        options,
        ref,
      );
  const rest = formatted.flatMap((text, index) => (text === undefined ? [index] : []));
  if (rest.length > 0) {
    // Prettier loads only on threads that have something it must format.
    const [{ formatBatch }, prettier] = await Promise.all([
      import("./format-batch.js"),
      importPrettier(ref),
    ]);
    const byPrettier = await formatBatch(
      rest.map((index) => contents[index] as string),
      options,
      prettier,
    );
    rest.forEach((index, i) => (formatted[index] = byPrettier[i]));
  }
  return formatted as string[];
}
