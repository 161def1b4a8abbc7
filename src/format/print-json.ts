/**
 * Prints JSON exactly as prettier's `json` parser formats `JSON.stringify(value, null, 2)`, without
 * prettier's parse and document building (bench/NOTES.md).
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
 *
 * That is `JSON.stringify(value, null, indent)`'s own layout but for arrays, so the text comes from
 * there and only its arrays are laid out again (`relayArrays`); a walk of the value (`printNode`)
 * prints what that text cannot show simply: exponents, arrays of numbers or of arrays that break,
 * indents `JSON.stringify` does not make.
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

/** What every step of one `printJson` call needs: the layout, the strings it implies, the output. */
interface JsonPrinter {
  readonly layout: JsonLayout;
  /** One level of indentation. */
  readonly unit: string;
  readonly eol: string;
  /** The line break and indentation that start a line at each depth, made once. */
  readonly lineStarts: string[];
  /** The text so far, in pieces joined once at the end. */
  readonly out: string[];
}

export function printJson(value: unknown, layout: JsonLayout): string {
  const unit = indentUnit(layout);
  const eol = lineEnding(layout);
  const stringified = fitsStringify(unit) ? JSON.stringify(value, null, unit) : undefined;
  if (stringified === undefined || hasExponent(stringified)) {
    const printer: JsonPrinter = { layout, unit, eol, lineStarts: [], out: [] };
    printNode(printer, value as Json, 0, 0, 0);
    printer.out.push(eol);
    return printer.out.join("");
  }
  // A raw line break is always layout in JSON text (strings escape theirs): it becomes `eol` at the end.
  const printer: JsonPrinter = { layout, unit, eol: "\n", lineStarts: [], out: [] };
  relayArrays(printer, stringified);
  printer.out.push("\n");
  const printed = printer.out.join("");
  return eol === "\n" ? printed : printed.replaceAll("\n", eol);
}

/** `JSON.stringify` indents with at most 10 characters, and puts nothing on new lines without any. */
function fitsStringify(unit: string): boolean {
  return unit.length > 0 && unit.length <= 10;
}

/**
 * Whether a digit comes before an `e+`: maybe a number's exponent (or text in a string, which the
 * walk prints the same). `indexOf` finds the rare `e+` many times faster than a regular expression.
 */
function hasExponent(text: string): boolean {
  for (let at = text.indexOf("e+"); at !== -1; at = text.indexOf("e+", at + 2)) {
    const before = text.charCodeAt(at - 1);
    if (before >= 48 && before <= 57) return true;
  }
  return false;
}

/**
 * Copies `text` (`JSON.stringify`'s layout, with `printer.unit`) to the output with each array laid
 * out as prettier does. A non-empty array opens with `[` and a line break, which a string never
 * holds, and closes on the first line after it that has the array's own indentation and `]`.
 */
function relayArrays(printer: JsonPrinter, text: string): void {
  const { out } = printer;
  let from = 0;
  for (let open = text.indexOf("[\n"); open !== -1; open = text.indexOf("[\n", from)) {
    const start = text.lastIndexOf("\n", open) + 1;
    const depth = indentDepth(printer, text, start);
    const elements = open + lineStart(printer, depth + 1).length + 1;
    // Elements that are non-empty objects: one per line, as printed; the arrays inside come next.
    if (text.startsWith("{\n", elements)) {
      out.push(text.slice(from, elements));
      from = elements;
      continue;
    }
    const closing = `${lineStart(printer, depth)}]`;
    const close = text.indexOf(closing, elements);
    const end = close + closing.length;
    const inner = text.slice(elements, close);
    if (inner.includes("{\n")) {
      out.push(text.slice(from, elements));
      from = elements;
      continue;
    }
    const column =
      columnsOf(printer, depth) +
      widthOf(printer, text.slice(start + depth * printer.unit.length, open));
    const trailing = text.charCodeAt(end) === COMMA ? 1 : 0;
    out.push(text.slice(from, open));
    from = end;
    // Arrays inside, or numbers that may wrap: the walk decides.
    if (inner.includes("[\n") || startsNumber(inner)) {
      printArray(printer, JSON.parse(text.slice(open, end)) as Json[], depth, column, trailing);
      continue;
    }
    const flat = `[${inner.replaceAll(`,${lineStart(printer, depth + 1)}`, ", ")}]`;
    if (column + widthOf(printer, flat) + trailing <= printer.layout.printWidth) out.push(flat);
    else out.push(text.slice(open, end));
  }
  out.push(text.slice(from));
}

const COMMA = 44;

/** How many indentation units start the line at `start`. */
function indentDepth(printer: JsonPrinter, text: string, start: number): number {
  const unit = printer.unit.charCodeAt(0);
  let end = start;
  while (text.charCodeAt(end) === unit) end++;
  return (end - start) / printer.unit.length;
}

function startsNumber(text: string): boolean {
  const first = text.charCodeAt(0);
  return first === 45 || (first >= 48 && first <= 57);
}

function indentUnit(layout: JsonLayout): string {
  return layout.useTabs ? "\t" : " ".repeat(layout.tabWidth);
}

function lineEnding(layout: JsonLayout): string {
  return layout.endOfLine === "crlf" ? "\r\n" : layout.endOfLine === "cr" ? "\r" : "\n";
}

/** A line break and the indentation of `depth`. */
function lineStart(printer: JsonPrinter, depth: number): string {
  return (printer.lineStarts[depth] ??= printer.eol + printer.unit.repeat(depth));
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

function widthOf(printer: JsonPrinter, text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : printer.layout.stringWidth(text);
}

/** Prettier measures indentation in columns, a tab counting as `tabWidth`. */
function columnsOf(printer: JsonPrinter, depth: number): number {
  return depth * printer.layout.tabWidth;
}

/** Prints `node` starting at `column`, on a line that continues with `trailing` columns (a comma). */
function printNode(
  printer: JsonPrinter,
  node: Json,
  depth: number,
  column: number,
  trailing: number,
): void {
  if (node === null || typeof node !== "object") printer.out.push(scalar(node));
  else if (Array.isArray(node))
    printArray(printer, node as readonly Json[], depth, column, trailing);
  else printObject(printer, node as { readonly [key: string]: Json }, depth);
}

/** A non-empty object puts each property on its own line. */
function printObject(
  printer: JsonPrinter,
  object: { readonly [key: string]: Json },
  depth: number,
): void {
  const keys = Object.keys(object);
  if (keys.length === 0) {
    printer.out.push("{}");
    return;
  }
  const inner = lineStart(printer, depth + 1);
  const start = columnsOf(printer, depth + 1);
  printer.out.push("{");
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    const label = `${JSON.stringify(key)}: `;
    const column = start + widthOf(printer, label);
    const trailing = i < keys.length - 1 ? 1 : 0;
    printer.out.push(i === 0 ? inner : `,${inner}`, label);
    printNode(printer, object[key] as Json, depth + 1, column, trailing);
  }
  closeLine(printer, depth, "}");
}

/** An array on one line when it fits, else numbers wrapped like text, else one element per line. */
function printArray(
  printer: JsonPrinter,
  elements: readonly Json[],
  depth: number,
  column: number,
  trailing: number,
): void {
  if (elements.length === 0) {
    printer.out.push("[]");
    return;
  }
  const oneLine = alwaysBreaks(elements) ? undefined : flatArray(elements);
  if (
    oneLine !== undefined &&
    column + widthOf(printer, oneLine) + trailing <= printer.layout.printWidth
  ) {
    printer.out.push(oneLine);
    return;
  }
  const inner = lineStart(printer, depth + 1);
  printer.out.push("[", inner);
  if (oneLine !== undefined && elements.length > 1 && allNumbers(elements))
    fillNumbers(printer, elements, columnsOf(printer, depth + 1), inner);
  else printElements(printer, elements, depth, inner);
  closeLine(printer, depth, "]");
}

/** One element per line, each starting the line after `inner`. */
function printElements(
  printer: JsonPrinter,
  elements: readonly Json[],
  depth: number,
  inner: string,
): void {
  const start = columnsOf(printer, depth + 1);
  for (let i = 0; i < elements.length; i++) {
    const trailing = i < elements.length - 1 ? 1 : 0;
    if (i > 0) printer.out.push(`,${inner}`);
    printNode(printer, elements[i] as Json, depth + 1, start, trailing);
  }
}

/** Numbers wrap like words: as many to a line as fit. */
function fillNumbers(
  printer: JsonPrinter,
  numbers: readonly Json[],
  start: number,
  inner: string,
): void {
  let column = start;
  for (let i = 0; i < numbers.length; i++) {
    const item = scalar(numbers[i] as Json);
    const word = i < numbers.length - 1 ? `${item},` : item;
    if (i === 0) {
      printer.out.push(word);
      column += word.length;
    } else if (column + 1 + word.length <= printer.layout.printWidth) {
      printer.out.push(` ${word}`);
      column += 1 + word.length;
    } else {
      printer.out.push(inner, word);
      column = start + word.length;
    }
  }
}

/** The line break and indentation before a closing bracket, and the bracket. */
function closeLine(printer: JsonPrinter, depth: number, bracket: "]" | "}"): void {
  printer.out.push(lineStart(printer, depth), bracket);
}

/** The one-line form of `node`, or undefined when it cannot be on one line (a non-empty object). */
function flatJson(node: Json): string | undefined {
  if (node === null || typeof node !== "object") return scalar(node);
  if (Array.isArray(node)) return flatArray(node as readonly Json[]);
  return Object.keys(node).length === 0 ? "{}" : undefined;
}

function flatArray(elements: readonly Json[]): string | undefined {
  let text = "[";
  for (let i = 0; i < elements.length; i++) {
    const element = flatJson(elements[i] as Json);
    if (element === undefined) return undefined;
    text += i === 0 ? element : `, ${element}`;
  }
  return `${text}]`;
}

function allNumbers(elements: readonly Json[]): boolean {
  for (const element of elements) if (typeof element !== "number") return false;
  return true;
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
