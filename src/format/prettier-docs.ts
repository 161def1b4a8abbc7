import { builders } from "prettier/doc";

// Pieces of the documents prettier's estree printer builds, shared by print-types.ts and
// print-flow-module.ts. Nothing here loads TypeScript.

const {
  align,
  group,
  hardline,
  indent,
  indentIfBreak,
  line,
  lineSuffixBoundary,
  literalline,
  markAsRoot,
} = builders;
export type Doc = builders.Doc;

/**
 * The text of a document without line breaks or layout commands; undefined for any other. Prettier
 * lays such a document out as that text in every mode, so a group, indent or alignment around it,
 * and the arrays holding it, can go: the layout is the same with far fewer commands to lay out.
 */
export function flatText(doc: Doc): string | undefined {
  if (typeof doc === "string") return doc;
  if (!Array.isArray(doc)) return undefined;
  let text = "";
  for (const part of doc) {
    const partText = flatText(part);
    if (partText === undefined) return undefined;
    text += partText;
  }
  return text;
}

export const concat = (parts: Doc[]): Doc => flatText(parts) ?? parts;
export const groupOf = (doc: Doc): Doc => flatText(doc) ?? group(doc);
export const indentOf = (doc: Doc): Doc => flatText(doc) ?? indent(doc);
export const alignOf = (width: number, doc: Doc): Doc => flatText(doc) ?? align(width, doc);

/** Prettier's layouts for `left op right` (an assignment, a type alias, an object property). */
export type AssignmentLayout = "fluid" | "break-after-operator" | "never-break-after-operator";

/**
 * `left op right` as prettier's `printAssignment` lays it out: "break-after-operator" moves the
 * right side to the next line when it does not fit; "never-break-after-operator" keeps it on the
 * line; "fluid" moves it only when its first line does not fit.
 */
export function assignment(left: Doc, operator: string, right: Doc, layout: AssignmentLayout): Doc {
  if (layout === "break-after-operator")
    return group([group(left), operator, group(indent([line, right]))]);
  if (layout === "never-break-after-operator") return group([group(left), operator, " ", right]);
  const groupId = Symbol("assignment");
  return group([
    group(left),
    operator,
    group(indent(line), { id: groupId }),
    lineSuffixBoundary,
    indentIfBreak(right, { groupId }),
  ]);
}

/**
 * A block comment as prettier prints it, from its text as written (`/*` to `*\/`): a comment of
 * several lines that each start with `*` is re-indented line by line (a JSDoc line ending in two
 * spaces keeps them, a Markdown line break); undefined for any other comment of several lines,
 * which prettier prints as it stands. A one-line comment is its text.
 */
export function blockComment(text: string): Doc | undefined {
  const value = text.slice(2, -2);
  if (!value.includes("\n")) return text;
  const lines = `*${value}*`.split("\n").map((line) => line.trimStart());
  if (!lines.every((line) => line.startsWith("*"))) return undefined;
  const jsdoc = value[0] === "*" && value[1] !== "*";
  const last = lines.length - 1;
  const printed = lines.map((line, index): Doc => {
    if (index === 0) return [line.trimEnd(), hardline];
    if (index === last) return [" ", line];
    const trimmed = line.trimEnd();
    return jsdoc && trimmed !== "*" && line.endsWith("  ")
      ? [" ", trimmed, "  ", markAsRoot(literalline)]
      : [" ", trimmed, hardline];
  });
  return ["/", printed, "/"];
}

/** Prettier's choice of quotes for a string: the preferred one unless the text holds more of it than of the other. */
export function printString(raw: string, layout: { readonly singleQuote: boolean }): string {
  const content = raw.slice(1, -1);
  const [preferred, alternate] = layout.singleQuote ? ["'", '"'] : ['"', "'"];
  let preferredCount = 0;
  let alternateCount = 0;
  for (const char of content) {
    if (char === preferred) preferredCount++;
    else if (char === alternate) alternateCount++;
  }
  const quote = preferredCount > alternateCount ? alternate : preferred;
  if (raw.startsWith(quote)) return raw;
  const other = quote === '"' ? "'" : '"';
  return (
    quote +
    content.replace(
      /\\(["'\\])|(["'])/g,
      (match, escaped: string | undefined, bare: string | undefined) =>
        escaped !== undefined
          ? escaped === other
            ? escaped
            : match
          : bare === quote
            ? `\\${bare}`
            : (bare as string),
    ) +
    quote
  );
}

/** Prettier's spelling of a number: lower case, no `+` in the exponent, no trailing zeros or dot. */
export function printNumber(raw: string): string {
  if (raw.length === 1) return raw;
  return raw
    .toLowerCase()
    .replace(/^([+-]?[\d.]+e)(?:\+|(-))?0*(?=\d)/, "$1$2")
    .replace(/^([+-]?[\d.]+)e[+-]?0+$/, "$1")
    .replace(/^([+-])?\./, "$10.")
    .replace(/(\.\d+?)0+(?=e|$)/, "$1")
    .replace(/\.(?=e|$)/, "");
}
