import type { ProcessedFileConfig } from "editorconfig";
import type * as Prettier from "prettier";

/**
 * A reader of the options the `.editorconfig` files from a file's folder up to `root` give it, as
 * prettier maps them (`editorconfigToPrettier`); none above `root` is read. For a project outside
 * any repository, where prettier itself would read them up to the filesystem's root. Each
 * `.editorconfig` file is read once per reader.
 *
 * @example
 * const options = await editorconfigReader("/home/me/app")("/home/me/app/generated/index.ts");
 */
export function editorconfigReader(root: string): (file: string) => Promise<Prettier.Options> {
  const cache = new Map<string, ProcessedFileConfig>();
  return async (file) => {
    const { parse } = await import("editorconfig");
    return editorconfigToPrettier(await parse(file, { root, cache }));
  };
}

/** Prettier's reading of editorconfig properties (its `editorconfig-to-prettier`). */
function editorconfigToPrettier(properties: Record<string, unknown>): Prettier.Options {
  const {
    indent_style: style,
    indent_size: size,
    tab_width: tabWidth,
    max_line_length: lineLength,
    quote_type: quotes,
    end_of_line: lineEnd,
  } = properties;
  const options: Prettier.Options = {};
  if (style === "space") options.useTabs = false;
  else if (style === "tab" || size === "tab") options.useTabs = true;
  if (options.useTabs === false && isPositiveInteger(size)) options.tabWidth = size;
  else if (isPositiveInteger(tabWidth)) options.tabWidth = tabWidth;
  if (lineLength === "off") options.printWidth = Number.POSITIVE_INFINITY;
  else if (isPositiveInteger(lineLength)) options.printWidth = lineLength;
  if (quotes === "single") options.singleQuote = true;
  else if (quotes === "double") options.singleQuote = false;
  if (lineEnd === "lf" || lineEnd === "crlf" || lineEnd === "cr") options.endOfLine = lineEnd;
  return options;
}

function isPositiveInteger(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) > 0;
}
