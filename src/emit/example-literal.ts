/** Where a literal sits on its line: the column it starts at and the characters that follow it. */
export interface LiteralPlace {
  readonly column: number;
  readonly after: number;
}

/** The line length prettier's default layout keeps to; the examples are read next to such code. */
const PRINT_WIDTH = 80;
const INDENT = "  ";

/**
 * An example value from a spec (JSON data) as the TypeScript object literal prettier would print:
 * on one line when it fits within 80 columns from `place`, otherwise broken one property or item a
 * line, outermost first, with trailing commas; an array of several objects always breaks, as in
 * prettier. Keys are quoted only when they are not identifiers.
 * The text lands in a JSDoc comment, so no string in it holds a star then a slash (it is written
 * `*\/`, the same string) or a line break of any kind.
 *
 * @example
 * exampleLiteral({ question: "Why?" }, { column: 30, after: 2 }); // '{ question: "Why?" }'
 */
export function exampleLiteral(value: unknown, place: LiteralPlace): string {
  return printValue(value, "", place.column, place.after);
}

function printValue(value: unknown, indent: string, column: number, after: number): string {
  const flat = printFlat(value);
  if (!isBreakable(value)) return flat;
  if (column + flat.length + after <= PRINT_WIDTH && !holdsTable(value)) return flat;
  const inner = indent + INDENT;
  const items = Array.isArray(value)
    ? value.map((item: unknown) => printValue(item, inner, inner.length, 1))
    : Object.entries(value).map(([key, item]) => {
        const name = `${printKey(key)}: `;
        return name + printValue(item, inner, inner.length + name.length, 1);
      });
  const [open, close] = Array.isArray(value) ? ["[", "]"] : ["{", "}"];
  return [open, ...items.map((item) => `${inner}${item},`), `${indent}${close}`].join("\n");
}

/** A non-empty array or object: the only values that can take more than one line. */
function isBreakable(value: unknown): value is object {
  if (Array.isArray(value)) return value.length > 0;
  return isRecord(value) && Object.keys(value).length > 0;
}

/**
 * Whether `value` is or holds several objects (or arrays) of more than one entry each, which
 * prettier always prints one a line however short (the `shouldBreak` of its array printer); that
 * break breaks every object and array around it too.
 */
function holdsTable(value: unknown): boolean {
  if (isTable(value)) return true;
  const children: unknown[] = Array.isArray(value)
    ? value
    : isRecord(value)
      ? Object.values(value)
      : [];
  return children.some((child) => holdsTable(child));
}

function isTable(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 2) return false;
  const rows: unknown[] = value;
  return (
    rows.every((row) => isRecord(row) && Object.keys(row).length > 1) ||
    rows.every((row) => Array.isArray(row) && row.length > 1)
  );
}

function printFlat(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0
      ? "[]"
      : `[${value.map((item: unknown) => printFlat(item)).join(", ")}]`;
  }
  if (isRecord(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return "{}";
    return `{ ${entries.map(([key, item]) => `${printKey(key)}: ${printFlat(item)}`).join(", ")} }`;
  }
  if (typeof value === "string") return printString(value);
  // Numbers, booleans and null as JSON writes them; JSON data holds nothing else.
  return JSON.stringify(value) ?? "undefined";
}

/**
 * A property name as prettier's `quoteProps: "as-needed"` leaves it. `__proto__` is computed: as a
 * plain or quoted key, an object literal would set the prototype instead of adding the property.
 */
function printKey(key: string): string {
  if (key === "__proto__") return `[${printString(key)}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : printString(key);
}

/**
 * A double-quoted string literal. JSON's escapes are valid TypeScript; U+2028/U+2029 are escaped
 * too, since they would end the comment's line, and a star then a slash is written `*\/` (the same
 * string), since as it is it would end the comment.
 */
function printString(text: string): string {
  return JSON.stringify(text)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029")
    .replace(/\*\//g, "*\\/");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
