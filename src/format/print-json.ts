/**
 * Prints JSON exactly as prettier's `json` parser formats `JSON.stringify(value, null, 2)`, in a
 * fraction of the time: prettier spends seconds on a large OpenAPI document, this milliseconds.
 * It applies only with the options listed in `JSON_LAYOUT_OPTIONS`; for anything else (plugins,
 * `objectWrap: "collapse"`, another parser) the caller formats with prettier itself. The test
 * suite compares the two on generated documents and on random ones.
 *
 * The layout, as prettier prints it when every non-empty object starts a new line in the source:
 * - a non-empty object puts each property on its own line;
 * - an array goes on one line when that line fits in `printWidth`, else one element per line;
 *   arrays of numbers wrap like text instead, and an array of two or more arrays (or objects)
 *   that each have two or more elements always takes one element per line;
 * - numbers drop the `+` of a positive exponent (`1e+21` → `1e21`).
 */

export interface JsonLayout {
  readonly printWidth: number;
  readonly tabWidth: number;
  readonly useTabs: boolean;
  readonly endOfLine: "lf" | "crlf" | "cr";
  /** Display width of text; prettier's own `util.getStringWidth` counts wide characters as two columns. */
  readonly stringWidth: (text: string) => number;
}

/** Prettier options that `printJson` honours; the rest of `BASE_OPTIONS` do not change JSON. */
export const JSON_LAYOUT_OPTIONS = ["printWidth", "tabWidth", "useTabs", "endOfLine"] as const;

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export function printJson(value: unknown, layout: JsonLayout): string {
  const unit = layout.useTabs ? "\t" : " ".repeat(layout.tabWidth);
  const eol = layout.endOfLine === "crlf" ? "\r\n" : layout.endOfLine === "cr" ? "\r" : "\n";
  const widthOf = (text: string) =>
    /^[\x20-\x7e]*$/.test(text) ? text.length : layout.stringWidth(text);
  // Prettier measures indentation in columns, a tab counting as `tabWidth`.
  const columnsOf = (depth: number) => depth * layout.tabWidth;

  /** The one-line form of `node`, or undefined when it cannot be on one line (a non-empty object). */
  const flat = (node: Json): string | undefined => {
    if (node === null || typeof node !== "object") return scalar(node);
    if (Array.isArray(node)) {
      const parts: string[] = [];
      for (const element of node as readonly Json[]) {
        const text = flat(element);
        if (text === undefined) return undefined;
        parts.push(text);
      }
      return `[${parts.join(", ")}]`;
    }
    return Object.keys(node).length === 0 ? "{}" : undefined;
  };

  /** Prints `node` starting at `column`, on a line that continues with `trailing` columns (a comma). */
  const print = (node: Json, depth: number, column: number, trailing: number): string => {
    if (node === null || typeof node !== "object") return scalar(node);
    const inner = eol + unit.repeat(depth + 1);
    const close = eol + unit.repeat(depth) + (Array.isArray(node) ? "]" : "}");
    if (!Array.isArray(node)) {
      const keys = Object.keys(node);
      if (keys.length === 0) return "{}";
      const object = node as { readonly [key: string]: Json };
      const lines = keys.map((key, i) => {
        const label = `${JSON.stringify(key)}: `;
        const start = columnsOf(depth + 1) + widthOf(label);
        return label + print(object[key] as Json, depth + 1, start, i < keys.length - 1 ? 1 : 0);
      });
      return `{${inner}${lines.join(`,${inner}`)}${close}`;
    }
    const elements = node as readonly Json[];
    if (elements.length === 0) return "[]";
    const oneLine = alwaysBreaks(elements) ? undefined : flat(node);
    if (oneLine !== undefined && column + widthOf(oneLine) + trailing <= layout.printWidth)
      return oneLine;
    if (
      oneLine !== undefined &&
      elements.length > 1 &&
      elements.every((element) => typeof element === "number")
    ) {
      return `[${inner}${fill(elements.map(scalar), columnsOf(depth + 1), inner)}${close}`;
    }
    const start = columnsOf(depth + 1);
    const lines = elements.map((element, i) =>
      print(element, depth + 1, start, i < elements.length - 1 ? 1 : 0),
    );
    return `[${inner}${lines.join(`,${inner}`)}${close}`;
  };

  /** Numbers wrap like words: as many to a line as fit. */
  const fill = (items: readonly string[], start: number, inner: string): string => {
    let text = "";
    let column = start;
    items.forEach((item, i) => {
      const word = i < items.length - 1 ? `${item},` : item;
      if (i === 0) {
        text = word;
        column += word.length;
      } else if (column + 1 + word.length <= layout.printWidth) {
        text += ` ${word}`;
        column += 1 + word.length;
      } else {
        text += inner + word;
        column = start + word.length;
      }
    });
    return text;
  };

  return print(value as Json, 0, 0, 0) + eol;
}

function scalar(value: Json): string {
  if (typeof value === "number") return JSON.stringify(value).replace("e+", "e");
  return JSON.stringify(value);
}

/** Two or more elements, all arrays (or all objects) with two or more elements each. */
function alwaysBreaks(elements: readonly Json[]): boolean {
  if (elements.length < 2) return false;
  const first = elements[0];
  const kind = Array.isArray(first)
    ? "array"
    : typeof first === "object" && first !== null
      ? "object"
      : undefined;
  if (kind === undefined) return false;
  return elements.every((element) => {
    if (
      typeof element !== "object" ||
      element === null ||
      Array.isArray(element) !== (kind === "array")
    )
      return false;
    return (Array.isArray(element) ? element.length : Object.keys(element).length) > 1;
  });
}
