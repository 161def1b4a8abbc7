import { createRequire } from "node:module";
import * as jsonc from "jsonc-parser";
import type * as Yaml from "yaml";
import type { YAMLError } from "yaml";
import type { Issue } from "../issues.js";
import { findValueBeyondLimits, listValuesBeyondLimits } from "../json-limits.js";
import { joinPointer, splitPointer } from "../json-pointer.js";
import { findInexactJsonIntegers, INEXACT_INTEGER, readsExactly } from "./inexact-integers.js";

const require = createRequire(import.meta.url);
let yamlPackage: typeof Yaml | undefined;

/** The yaml package, loaded with the first YAML file read: projects of JSON specs never load it. */
function yaml(): typeof Yaml {
  return (yamlPackage ??= require("yaml") as typeof Yaml);
}

/** A spec or shared-schema file after parsing, able to say where a JSON pointer sits in it. */
export interface ParsedDocument {
  readonly value: unknown;
  /** The first key of the top-level object, in the order written; undefined when there is none. */
  readonly firstKey: string | undefined;
  /** 1-based line and column of the value (or of its key) at `pointer`, when it exists. */
  readonly locate: (pointer: string) => { line: number; column: number } | undefined;
}

export type ParseResult =
  | { readonly ok: true; readonly document: ParsedDocument }
  | {
      readonly ok: false;
      readonly issues: Issue[];
      /**
       * The value as read in spite of the issues, when they leave one to check further: of a key
       * written twice, one value is kept (the later, as `JSON.parse` and the yaml package keep
       * it). Checking it too shows the file's other problems in the same run.
       */
      readonly document?: ParsedDocument | undefined;
    };

export interface ParseOptions {
  /**
   * Whether problems may quote the file, given its first key as written. A file that does not look
   * like what its place says (a secret linked or copied into the specs folder) gets problems that
   * say where and what is wrong without quoting it: no keys in pointers, no text from the file in
   * messages. Default: every file may be quoted.
   */
  readonly quotable?: ((firstKey: string | undefined) => boolean) | undefined;
  /**
   * The text passed these checks before, as it is now (this flowgen's cache says so): JSON is
   * parsed without looking for repeated keys or values nested too deep again. Default false.
   */
  readonly checked?: boolean | undefined;
}

/** What a parser read: its problems, and the value when there is one to check further. */
interface Parsed {
  readonly issues: Issue[];
  readonly firstKey: string | undefined;
  readonly document?: ParsedDocument | undefined;
}

/**
 * How deep values may nest in one file. Real schemas stay far below it; past it, recursive tools
 * down the pipeline (meta-schema checks, type rendering, formatting) could run out of stack.
 */
export const MAX_NESTING_DEPTH = 128;
const TOO_DEEP = `values nest more than ${MAX_NESTING_DEPTH} levels deep here, flowgen's limit; move inner schemas into "$defs" and "$ref" them`;
const NOT_FINITE =
  "this number is infinite or not a number, which JSON cannot hold (written out, it would say null); write a finite number, or leave it out";
const NOT_PLAIN =
  "this YAML value (a date, set, binary or ordered map, from a tag or a %YAML 1.1 directive) has no JSON form; write it as a string, an array or a mapping";
/** How many alias expansions a YAML file may make: enough for reuse, too few for an alias bomb. */
export const MAX_YAML_ALIASES = 1000;

/**
 * Parses JSON strictly (no comments, no trailing commas, no duplicate keys) and YAML 1.2, by file
 * extension. A leading byte order mark is dropped in both. Files nesting deeper than
 * MAX_NESTING_DEPTH or expanding more than MAX_YAML_ALIASES aliases are refused. A key written
 * twice is a problem too, but leaves a value to check further (`document`).
 *
 * @example
 * const parsed = parseDocument("specs/@acme/qa.json", text);
 * if (parsed.ok) parsed.document.locate("/input/type"); // { line: 3, column: 5 }
 */
export function parseDocument(file: string, text: string, options: ParseOptions = {}): ParseResult {
  const quotable = options.quotable ?? (() => true);
  const yaml = /\.ya?ml$/i.test(file);
  if (!yaml && options.checked === true) {
    const checked = parseCheckedJson(text.replace(/^\uFEFF/, ""));
    if (checked !== undefined) return { ok: true, document: checked };
  }
  const parsed = yaml
    ? parseYaml(file, text, quotable)
    : parseJson(file, text.replace(/^\uFEFF/, ""));
  // Pointers name keys: a file that may not be quoted keeps its positions only.
  const shown = (issues: Issue[], firstKey: string | undefined) =>
    quotable(firstKey) ? issues : issues.map(({ pointer: _, ...issue }) => issue);
  const { document } = parsed;
  if (document === undefined) return { ok: false, issues: shown(parsed.issues, parsed.firstKey) };
  const beyond = valuesBeyondLimits(file, document);
  const issues = shown([...parsed.issues, ...beyond], parsed.firstKey);
  if (issues.length === 0) return { ok: true, document };
  // Values JSON has no form for, or nested past the limit, are not values to check further.
  return beyond.length > 0 ? { ok: false, issues } : { ok: false, issues, document };
}

const VALUE_LIMITS = { maxDepth: MAX_NESTING_DEPTH, finiteNumbers: true, plainObjects: true };

/**
 * Values nested too deep, and every value JSON has no form for: all of them, so that a file's
 * `.inf`s and dates show in one run. The usual file has none, and is walked once.
 */
function valuesBeyondLimits(file: string, document: ParsedDocument): Issue[] {
  const first = findValueBeyondLimits(document.value, VALUE_LIMITS);
  if (first === undefined) return [];
  const all =
    first.kind === "too-deep" ? [first] : listValuesBeyondLimits(document.value, VALUE_LIMITS);
  return all.map(({ pointer, kind }) => ({
    code: kind === "too-deep" ? kind : "not-json",
    file,
    pointer,
    ...document.locate(pointer),
    message: kind === "too-deep" ? TOO_DEEP : kind === "not-finite" ? NOT_FINITE : NOT_PLAIN,
  }));
}

/**
 * Where JSON text that `JSON.parse` refused breaks, and what is wrong there, without quoting any of
 * it: the text may hold a secret, and a quote of part of one would pass a look for the whole.
 * Linear in the text; brackets nested too deep to read are said to be so.
 *
 * @example
 * jsonSyntaxError('{"a": b}'); // { line: 1, column: 7, problem: "unexpected character" }
 */
export function jsonSyntaxError(text: string): { line: number; column: number; problem: string } {
  const lines = lineStarts(text);
  const { runaway } = scanJson(text, 4 * MAX_NESTING_DEPTH);
  if (runaway !== undefined)
    return { ...positionOf(lines, runaway), problem: "brackets nest too deep to be read" };
  const errors: jsonc.ParseError[] = [];
  jsonc.parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (first === undefined) return { line: 1, column: 1, problem: "something JSON does not allow" };
  return { ...positionOf(lines, first.offset), problem: describeJsonError(first.error) };
}

/** The first key of the top-level object in JSON text, read from its first two tokens. */
function firstJsonKey(text: string): string | undefined {
  const scanner = jsonc.createScanner(text, true);
  if (scanner.scan() !== jsonc.SyntaxKind.OpenBraceToken) return undefined;
  return scanner.scan() === jsonc.SyntaxKind.StringLiteral ? scanner.getTokenValue() : undefined;
}

/**
 * One pass over JSON text, skipping strings: the offset of the first bracket that opens past
 * `limit` levels, how many keys (strings followed by `:`) the text has, and whether a run of 16
 * digits stands outside its strings. The JSON parser recurses once per level, so a file of 100,000
 * `[` would exhaust the stack before the depth check on the parsed value could say anything. In
 * text `JSON.parse` accepts, a string followed by `:` is always a key, so fewer keys in the parsed
 * value than here means a key repeats. An integer of 15 digits or fewer is always read exactly:
 * only a text with a longer run needs its numbers looked at (`findInexactJsonIntegers`).
 */
function scanJson(
  text: string,
  limit: number,
): { runaway: number | undefined; keys: number; longDigits: boolean } {
  let depth = 0;
  let keys = 0;
  let digits = 0;
  let longDigits = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (++digits >= 16) longDigits = true;
      continue;
    }
    digits = 0;
    if (c === 34) {
      // Strings are most of a spec's text: jump to their closing quote.
      i = closingQuote(text, i);
      if (i < 0) break;
      let next = i + 1;
      while (isJsonWhitespace(text.charCodeAt(next))) next++;
      if (text.charCodeAt(next) === 58) keys++;
    } else if (c === 123 || c === 91) {
      if (++depth > limit) return { runaway: i, keys, longDigits };
    } else if (c === 125 || c === 93) depth--;
  }
  return { runaway: undefined, keys, longDigits };
}

/**
 * The offset of the quote that closes the string opened at `open`, or -1: the next quote not
 * escaped, that is, not after an odd run of backslashes. Each run is counted once, by the quote
 * after it, so the scan stays linear.
 */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

function isJsonWhitespace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

/** How many keys the objects in `value` have, all levels. */
function countKeys(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += countKeys(item);
    return count;
  }
  for (const key of Object.keys(value))
    count += 1 + countKeys((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * `JSON.parse` alone when the text is valid and no key repeats: the common case, and far cheaper
 * than a position tree. The tree is built when there is a problem to place, or when `locate` is
 * first asked for a position.
 */
function parseJson(file: string, text: string): Parsed {
  const firstKey = firstJsonKey(text);
  // Far past the limit: refused before parsing, by position (the pointer would be unreadable anyway).
  const { runaway, keys, longDigits } = scanJson(text, 4 * MAX_NESTING_DEPTH);
  if (runaway !== undefined) {
    return {
      firstKey,
      issues: [
        { code: "too-deep", file, ...positionOf(lineStarts(text), runaway), message: TOO_DEEP },
      ],
    };
  }
  const parsed = parseJsonValue(file, text, firstKey, keys);
  if (!longDigits || parsed.document === undefined) return parsed;
  // The value was read with its numbers rounded; it is checked on as read.
  const lines = lineStarts(text);
  const inexact = findInexactJsonIntegers(text).map(({ offset, pointer }): Issue => ({
    code: "inexact-integer",
    file,
    pointer,
    ...positionOf(lines, offset),
    message: INEXACT_INTEGER,
  }));
  return { ...parsed, issues: [...parsed.issues, ...inexact] };
}

/** `JSON.parse`, or the position tree when it throws or a key repeats (fewer keys than `keys`). */
function parseJsonValue(
  file: string,
  text: string,
  firstKey: string | undefined,
  keys: number,
): Parsed {
  let value: unknown;
  try {
    // JSON.parse, not the tree: it keeps a "__proto__" key as an own property instead of a prototype.
    value = JSON.parse(text) as unknown;
  } catch {
    return parseJsonTree(file, text, firstKey);
  }
  if (countKeys(value) !== keys) return parseJsonTree(file, text, firstKey);
  return { issues: [], firstKey, document: { value, firstKey, locate: lazyLocator(text) } };
}

/** JSON checked before: `JSON.parse` alone (undefined if it throws: then the full parse says why). */
function parseCheckedJson(text: string): ParsedDocument | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
  return { value, firstKey: firstJsonKey(text), locate: lazyLocator(text) };
}

/** Finds positions through a position tree, built when first asked. */
function lazyLocator(text: string): ParsedDocument["locate"] {
  let locator: ParsedDocument["locate"] | undefined;
  return (pointer) => {
    locator ??= locatorOf(
      jsonc.parseTree(text, [], { allowTrailingComma: false, disallowComments: true }),
      lineStarts(text),
    );
    return locator(pointer);
  };
}

/** Parses with a position tree, to report syntax errors and repeated keys where they are. */
function parseJsonTree(file: string, text: string, firstKey: string | undefined): Parsed {
  const errors: jsonc.ParseError[] = [];
  const tree = jsonc.parseTree(text, errors, { allowTrailingComma: false, disallowComments: true });
  const lines = lineStarts(text);
  if (errors.length > 0 || tree === undefined) {
    // Only the first error: the parser's later ones are mostly echoes of it.
    const first = errors[0] ?? { error: jsonc.ParseErrorCode.ValueExpected, offset: 0, length: 0 };
    return {
      firstKey,
      issues: [first].map((error) => ({
        code: "syntax-error",
        file,
        ...positionOf(lines, error.offset),
        message: `invalid JSON: ${describeJsonError(error.error)}; fix the syntax (a JSON linter or editor shows it too)`,
      })),
    };
  }
  const document = { value: JSON.parse(text) as unknown, firstKey, locate: locatorOf(tree, lines) };
  const duplicates = duplicateKeys(tree);
  return {
    firstKey,
    issues: duplicates.map(({ pointer, offset, first }) => ({
      code: "duplicate-key",
      file,
      pointer,
      ...positionOf(lines, offset),
      message: `this key appears twice in one object (first at line ${positionOf(lines, first).line}); JSON parsers keep only one of them, so merge the two into one`,
    })),
    document,
  };
}

function locatorOf(
  tree: jsonc.Node | undefined,
  lines: readonly number[],
): ParsedDocument["locate"] {
  return (pointer) => {
    const node = tree && jsonNodeAt(tree, splitPointer(pointer));
    if (node === undefined) return undefined;
    const anchor = node.parent?.type === "property" ? node.parent : node;
    return positionOf(lines, anchor.offset);
  };
}

/**
 * The node at a pointer's tokens. Of a key written twice, the later: the one whose value
 * `JSON.parse` keeps, and the checks read.
 */
function jsonNodeAt(tree: jsonc.Node, tokens: readonly string[]): jsonc.Node | undefined {
  let node: jsonc.Node | undefined = tree;
  for (const token of tokens) {
    const children: jsonc.Node[] = node?.children ?? [];
    if (node?.type === "array")
      node = arrayIndex(token) === undefined ? undefined : children[Number(token)];
    else if (node?.type === "object")
      node = lastWhere(children, (p) => p.children?.[0]?.value === token)?.children?.[1];
    else return undefined;
  }
  return node;
}

function lastWhere<T>(items: readonly T[], test: (item: T) => boolean): T | undefined {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return items[i];
  return undefined;
}

/** Every key that repeats an earlier key of the same object (RFC 8259 §4: names SHOULD be unique). */
function duplicateKeys(tree: jsonc.Node): { pointer: string; offset: number; first: number }[] {
  const found: { pointer: string; offset: number; first: number }[] = [];
  const stack: { node: jsonc.Node; pointer: string }[] = [{ node: tree, pointer: "" }];
  while (stack.length > 0) {
    const { node, pointer } = stack.pop() as { node: jsonc.Node; pointer: string };
    const seen = new Map<string, number>();
    (node.children ?? []).forEach((child, i) => {
      if (node.type === "array")
        return stack.push({ node: child, pointer: joinPointer(pointer, i) });
      const [keyNode, valueNode] = child.children ?? [];
      if (node.type !== "object" || keyNode === undefined) return;
      const key = String(keyNode.value);
      const first = seen.get(key);
      if (first === undefined) seen.set(key, child.offset);
      else found.push({ pointer: joinPointer(pointer, key), offset: child.offset, first });
      if (valueNode !== undefined)
        stack.push({ node: valueNode, pointer: joinPointer(pointer, key) });
      return undefined;
    });
  }
  return found.sort((a, b) => a.offset - b.offset);
}

function parseYaml(
  file: string,
  text: string,
  quotable: (firstKey: string | undefined) => boolean,
): Parsed {
  const { LineCounter, parseDocument: parseYamlDocument, isMap, isPair, isScalar } = yaml();
  const lineCounter = new LineCounter();
  // stringKeys: a key that is a list or a mapping is an error (NON_STRING_KEY), not text made up.
  const doc = parseYamlDocument(text, {
    lineCounter,
    prettyErrors: false,
    uniqueKeys: true,
    stringKeys: true,
  });
  const firstItem: unknown = isMap(doc.contents) ? doc.contents.items[0] : undefined;
  const firstKey =
    isPair(firstItem) && isScalar(firstItem.key) ? String(firstItem.key.value) : undefined;
  const repeated = doc.errors.some((error) => error.code === "DUPLICATE_KEY");
  const keys = repeated ? yamlKeys(doc) : new Map<number, YamlKey>();
  const errors = doc.errors.map((error) =>
    yamlErrorIssue(file, error, lineCounter, quotable(firstKey), keys.get(error.pos[0])),
  );
  // A key written twice leaves a value to check (the later one); any other error does not.
  if (errors.some((issue) => issue.code !== "duplicate-key")) return { firstKey, issues: errors };
  const unresolved = unresolvedAlias(doc);
  if (unresolved !== undefined) {
    const pos = lineCounter.linePos(unresolved);
    const message = `invalid YAML: ${YAML_ERRORS.BAD_ALIAS} (its anchor must come before it); fix the syntax`;
    return {
      firstKey,
      issues: [...errors, { code: "syntax-error", file, line: pos.line, column: pos.col, message }],
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    // The yaml package throws a ReferenceError when aliases expand past maxAliasCount.
    if (!(error instanceof ReferenceError)) throw error;
    const message = `aliases expand past ${MAX_YAML_ALIASES} nodes, flowgen's limit (this is how an alias bomb looks); write the repeated parts out, or move them into a shared schema and "$ref" it`;
    return { firstKey, issues: [...errors, { code: "yaml-alias-limit", file, message }] };
  }
  const locate = yamlLocator(doc, lineCounter);
  const inexact = INEXACT_GATE.test(text) ? inexactYamlIntegers(file, doc, locate) : [];
  return { firstKey, issues: [...errors, ...inexact], document: { value, firstKey, locate } };
}

/**
 * Text that may hold an integer a double cannot: 16 digits in a row, or a long `0x` or `0o` one.
 * Other YAML files are not walked for them.
 */
const INEXACT_GATE = /\d{16}|0x[\da-f]{14}|0o[0-7]{18}/i;

/** Every integer in a YAML document read as another number (the yaml package reads doubles). */
function inexactYamlIntegers(
  file: string,
  doc: Yaml.Document,
  locate: ParsedDocument["locate"],
): Issue[] {
  const { visit } = yaml();
  const found: Issue[] = [];
  visit(doc, {
    Scalar(_, node, path) {
      if (typeof node.value !== "number" || node.source === undefined) return;
      if (!/^[-+]?(?:\d+|0x[\da-f]+|0o[0-7]+)$/i.test(node.source)) return;
      if (readsExactly(node.source, node.value)) return;
      const pointer = yamlPointer([...path, node]);
      found.push({
        code: "inexact-integer",
        file,
        pointer,
        ...locate(pointer),
        message: INEXACT_INTEGER,
      });
    },
  });
  return found;
}

/**
 * One error of the yaml package as a problem, in its words when the file may be quoted. `key`:
 * the key the error is at, if any.
 */
function yamlErrorIssue(
  file: string,
  error: YAMLError,
  lineCounter: Yaml.LineCounter,
  quote: boolean,
  key: YamlKey | undefined,
): Issue {
  const { line, col: column } = lineCounter.linePos(error.pos[0]);
  if (error.code === "DUPLICATE_KEY") {
    const first = key && ` (first at line ${lineCounter.linePos(key.first).line})`;
    const message = `this key appears twice in one mapping${first ?? ""}; YAML parsers keep only one of them, so merge the two into one`;
    return { code: "duplicate-key", file, pointer: key?.pointer, line, column, message };
  }
  // The yaml package quotes the text it stumbled on in some messages (tags, escapes, directives).
  const what =
    quote && !OWN_WORDS.has(error.code)
      ? firstLine(error.message)
      : (YAML_ERRORS[error.code] ?? "not YAML");
  return {
    code: "syntax-error",
    file,
    line,
    column,
    message: `invalid YAML: ${what}; fix the syntax`,
  };
}

/** A key of a YAML mapping: its JSON pointer, and where the first key of that pointer starts. */
interface YamlKey {
  readonly pointer: string;
  readonly first: number;
}

/** Each key of a YAML document, by the offset where it starts. */
function yamlKeys(doc: Yaml.Document): Map<number, YamlKey> {
  const { visit, isScalar } = yaml();
  const keys = new Map<number, YamlKey>();
  const firsts = new Map<string, number>();
  visit(doc, {
    Pair(_, pair, path) {
      const offset = isScalar(pair.key) ? pair.key.range?.[0] : undefined;
      if (!isScalar(pair.key) || offset === undefined) return;
      const pointer = joinPointer(yamlPointer([...path, pair]), String(pair.key.value));
      // The walk goes in the document's order: the first offset seen for a pointer is the first key.
      if (!firsts.has(pointer)) firsts.set(pointer, offset);
      keys.set(offset, { pointer, first: firsts.get(pointer) ?? offset });
    },
  });
  return keys;
}

/**
 * The JSON pointer of the value a walk of the yaml package reached through `path` (its ancestors,
 * the document first): each pair on the way gives its key, each sequence the item's index.
 */
function yamlPointer(path: readonly unknown[]): string {
  const { isPair, isScalar, isSeq } = yaml();
  const tokens: (string | number)[] = [];
  path.forEach((step, i) => {
    const next = path[i + 1];
    if (next === undefined) return;
    if (isPair(step) && step.value === next && isScalar(step.key))
      tokens.push(String(step.key.value));
    else if (isSeq(step)) tokens.push(indexIn(step.items, next));
  });
  return joinPointer("", ...tokens);
}

/** Each sequence's items by position, made once: a pointer per key of a long list stays linear. */
const itemIndexes = new WeakMap<readonly unknown[], Map<unknown, number>>();

function indexIn(items: readonly unknown[], item: unknown): number {
  let indexes = itemIndexes.get(items);
  if (indexes === undefined) {
    indexes = new Map(items.map((each, i) => [each, i]));
    itemIndexes.set(items, indexes);
  }
  return indexes.get(item) ?? -1;
}

/** Finds the line and column of a pointer's value (or key) in a YAML document. */
function yamlLocator(doc: Yaml.Document, lineCounter: Yaml.LineCounter): ParsedDocument["locate"] {
  return (pointer) => {
    let node: unknown = doc.contents;
    let offset = (doc.contents as { range?: [number] } | null)?.range?.[0];
    for (const token of splitPointer(pointer)) {
      const step = yamlChild(node, token);
      if (step === undefined) return undefined;
      node = step.node;
      offset = step.offset;
    }
    if (offset === undefined) return undefined;
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
}

/**
 * Where the first alias whose anchor is not set before it starts, if there is one: one walk in the
 * document's order, noting each anchor as it comes (resolving each alias on its own would walk the
 * document once per alias).
 */
function unresolvedAlias(doc: Yaml.Document): number | undefined {
  const { visit, isAlias } = yaml();
  const anchors = new Set<string>();
  let found: number | undefined;
  visit(doc, (_, node) => {
    if (isAlias(node)) {
      if (anchors.has(node.source)) return undefined;
      found = node.range?.[0] ?? 0;
      return visit.BREAK;
    }
    // An empty document's contents are null: a node with nothing in it.
    const anchor = (node as { anchor?: unknown } | null)?.anchor;
    if (typeof anchor === "string") anchors.add(anchor);
    return undefined;
  });
  return found;
}

/** Errors whose own message speaks of the yaml package's API rather than of the file. */
const OWN_WORDS: ReadonlySet<YAMLError["code"]> = new Set(["MULTIPLE_DOCS", "NON_STRING_KEY"]);

/** What each kind of YAML error means, in words that quote nothing from the file. */
const YAML_ERRORS: Partial<Record<YAMLError["code"], string>> = {
  ALIAS_PROPS: "an alias may not have an anchor or a tag",
  BAD_ALIAS: "an alias that does not resolve",
  BAD_DIRECTIVE: "an invalid directive",
  BAD_DQ_ESCAPE: "an invalid escape in a double-quoted string",
  BAD_INDENT: "bad indentation",
  BAD_PROP_ORDER: "anchors and tags out of place",
  BAD_SCALAR_START: "a plain value starting with a character that may not start one",
  BLOCK_AS_IMPLICIT_KEY: "a block collection used as a key",
  BLOCK_IN_FLOW: "a block collection inside a flow collection",
  KEY_OVER_1024_CHARS: "a key longer than 1024 characters",
  MISSING_CHAR: "a missing character (a closing bracket or quote, a comma, a colon or a space)",
  MULTILINE_IMPLICIT_KEY: "a key spanning several lines",
  MULTIPLE_ANCHORS: "several anchors on one node",
  MULTIPLE_DOCS: "several documents in one file (a line of ---), where a spec file holds one",
  MULTIPLE_TAGS: "several tags on one node",
  NON_STRING_KEY: "a key that is a list or a mapping, where JSON has only text keys",
  TAB_AS_INDENT: "a tab used for indentation",
  TAG_RESOLVE_FAILED: "a tag that cannot be resolved",
  UNEXPECTED_TOKEN: "unexpected text",
  BAD_COLLECTION_TYPE: "a tag that does not fit its collection",
};

function yamlChild(
  node: unknown,
  token: string,
): { node: unknown; offset: number | undefined } | undefined {
  const { isMap, isPair, isScalar } = yaml();
  if (!isMap(node) && !(node && typeof node === "object" && "items" in node)) return undefined;
  const items = (node as { items: unknown[] }).items;
  if (isMap(node)) {
    // Of a key written twice, the later: the one whose value the yaml package keeps.
    const pair = lastWhere(
      items,
      (item) => isPair(item) && isScalar(item.key) && String(item.key.value) === token,
    );
    if (!isPair(pair)) return undefined;
    const keyRange = (pair.key as { range?: [number] }).range;
    return { node: pair.value, offset: keyRange?.[0] };
  }
  const item = items[Number(token)] as { range?: [number] } | undefined;
  return item === undefined ? undefined : { node: item, offset: item.range?.[0] };
}

function arrayIndex(token: string): number | undefined {
  return /^(0|[1-9]\d*)$/.test(token) ? Number(token) : undefined;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

function positionOf(starts: readonly number[], offset: number): { line: number; column: number } {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if ((starts[mid] ?? 0) <= offset) low = mid;
    else high = mid - 1;
  }
  return { line: low + 1, column: offset - (starts[low] ?? 0) + 1 };
}

const JSON_ERRORS: Record<number, string> = {
  [jsonc.ParseErrorCode.InvalidSymbol]: "unexpected character",
  [jsonc.ParseErrorCode.InvalidNumberFormat]: "invalid number",
  [jsonc.ParseErrorCode.PropertyNameExpected]: "expected a property name in double quotes",
  [jsonc.ParseErrorCode.ValueExpected]: "expected a value",
  [jsonc.ParseErrorCode.ColonExpected]: "expected ':'",
  [jsonc.ParseErrorCode.CommaExpected]: "expected ',' between members",
  [jsonc.ParseErrorCode.CloseBraceExpected]: "expected '}'",
  [jsonc.ParseErrorCode.CloseBracketExpected]: "expected ']'",
  [jsonc.ParseErrorCode.EndOfFileExpected]: "unexpected content after the end of the document",
  [jsonc.ParseErrorCode.InvalidCommentToken]: "comments are not allowed in JSON",
  [jsonc.ParseErrorCode.UnexpectedEndOfComment]: "comments are not allowed in JSON",
  [jsonc.ParseErrorCode.UnexpectedEndOfString]: "unterminated string",
  [jsonc.ParseErrorCode.UnexpectedEndOfNumber]: "unterminated number",
  [jsonc.ParseErrorCode.InvalidUnicode]: "invalid unicode escape",
  [jsonc.ParseErrorCode.InvalidEscapeCharacter]: "invalid escape character",
  [jsonc.ParseErrorCode.InvalidCharacter]: "invalid character in string",
};

function describeJsonError(code: jsonc.ParseErrorCode): string {
  return JSON_ERRORS[code] ?? jsonc.printParseErrorCode(code);
}

function firstLine(message: string): string {
  return (message.split("\n")[0] ?? message).replace(/ at line \d+, column \d+:?$/, "");
}
