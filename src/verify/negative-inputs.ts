import { getAtPointer, isPlainObject, joinPointer, splitPointer } from "../json-pointer.js";
import { showJson } from "./check-answer.js";

/** An input that breaks the input schema in one named way. */
export interface NegativeInput {
  readonly name: string;
  readonly input: unknown;
}

type Category = "missing" | "type" | "range" | "unknown-property";

interface Candidate {
  readonly category: Category;
  readonly pointer: string;
  /** undefined: remove the value at `pointer`. */
  readonly value?: unknown;
  readonly why: string;
}

/** How deep the walk follows nested properties and `$ref`s. */
const MAX_DEPTH = 16;
/** Lengths and counts beyond this are not built to break a maxLength or maxItems. */
const MAX_BUILT = 10_000;
/** A property no schema is expected to allow. */
const UNKNOWN_PROPERTY = "flowgenUnexpectedProperty";
/** One value of each JSON type, tried in this order for a wrong type. */
const WRONG_TYPES: readonly unknown[] = [12345, "flowgen", true, null, { flowgen: 1 }, ["flowgen"]];

/**
 * Inputs that break a flow's input schema, derived from the schema and a valid `base` input
 * without randomness: one with a required property missing, one with a property of the wrong
 * type, one with a value out of range (a bound, a length, an enum, a format), one with a
 * property the schema does not allow, and a body that is not an object. Properties are visited
 * in the schema's order and the first of each kind is kept; each input is checked to be invalid
 * (`isValid` false), so a schema that allows more than it seems to is never accused.
 *
 * @example
 * deriveNegativeInputs(schema, { question: "Capital?" }, isValid);
 * // [{ name: "/question missing (required)", input: {} }, { name: '/question as 12345 (type: "string")', … }, …]
 */
export function deriveNegativeInputs(
  document: Record<string, unknown>,
  base: unknown,
  isValid: (value: unknown) => boolean,
): NegativeInput[] {
  const found: NegativeInput[] = [];
  if (isPlainObject(base) && isValid(base)) {
    const taken = new Set<Category>();
    for (const candidate of listCandidates(document, document, base, "", 0)) {
      if (taken.has(candidate.category)) continue;
      const input = applyCandidate(base, candidate);
      if (isValid(input)) continue;
      taken.add(candidate.category);
      found.push({ name: describeCandidate(candidate), input });
    }
  }
  if (!isValid([])) found.push({ name: "body [] (an array, not an object)", input: [] });
  return found;
}

function* listCandidates(
  document: Record<string, unknown>,
  node: unknown,
  value: Record<string, unknown>,
  pointer: string,
  depth: number,
): Generator<Candidate> {
  const schema = resolve(document, node, depth);
  if (schema === undefined || depth > MAX_DEPTH) return;
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : [])
    yield* listCandidates(document, branch, value, pointer, depth + 1);
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const name of required)
    if (typeof name === "string" && Object.hasOwn(value, name))
      yield { category: "missing", pointer: joinPointer(pointer, name), why: "missing (required)" };
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  for (const [name, sub] of Object.entries(properties)) {
    if (!Object.hasOwn(value, name)) continue;
    const at = joinPointer(pointer, name);
    const resolved = resolve(document, sub, depth + 1);
    if (resolved === undefined) continue;
    yield* typeCandidates(resolved, at);
    yield* rangeCandidates(resolved, value[name], at);
    const inner = value[name];
    if (isPlainObject(inner)) yield* listCandidates(document, resolved, inner, at, depth + 1);
    if (Array.isArray(inner) && isPlainObject(inner[0]) && resolved.items !== undefined)
      yield* listCandidates(document, resolved.items, inner[0], joinPointer(at, 0), depth + 1);
  }
  if (schema.additionalProperties === false || schema.unevaluatedProperties === false)
    yield {
      category: "unknown-property",
      pointer: joinPointer(pointer, UNKNOWN_PROPERTY),
      value: "flowgen",
      why: "added (additionalProperties: false)",
    };
}

function* typeCandidates(schema: Record<string, unknown>, pointer: string): Generator<Candidate> {
  const types = typeof schema.type === "string" ? [schema.type] : schema.type;
  if (!Array.isArray(types)) return;
  const allowed = (value: unknown) =>
    types.some(
      (type) => type === jsonType(value) || (type === "number" && jsonType(value) === "integer"),
    );
  const wrong = WRONG_TYPES.find((value) => !allowed(value));
  if (wrong !== undefined)
    yield {
      category: "type",
      pointer,
      value: wrong,
      why: `as ${showJson(wrong)} (type: ${showJson(schema.type)})`,
    };
}

function* rangeCandidates(
  schema: Record<string, unknown>,
  current: unknown,
  pointer: string,
): Generator<Candidate> {
  const range = (value: unknown, keyword: string): Candidate => ({
    category: "range",
    pointer,
    value,
    why: `as ${showJson(value)} (${keyword}: ${showJson(schema[keyword])})`,
  });
  const number = (keyword: string) =>
    typeof schema[keyword] === "number" ? schema[keyword] : undefined;
  const minimum = number("minimum");
  const maximum = number("maximum");
  if (minimum !== undefined) yield range(Math.floor(minimum) - 1, "minimum");
  if (maximum !== undefined) yield range(Math.ceil(maximum) + 1, "maximum");
  if (number("exclusiveMinimum") !== undefined)
    yield range(number("exclusiveMinimum"), "exclusiveMinimum");
  if (number("exclusiveMaximum") !== undefined)
    yield range(number("exclusiveMaximum"), "exclusiveMaximum");
  const minLength = number("minLength");
  const maxLength = number("maxLength");
  if (minLength !== undefined && minLength >= 1)
    yield range("x".repeat(Math.min(minLength, MAX_BUILT) - 1), "minLength");
  if (maxLength !== undefined && maxLength < MAX_BUILT)
    yield range("x".repeat(maxLength + 1), "maxLength");
  if (Array.isArray(schema.enum)) yield range("flowgen-not-in-enum", "enum");
  if (Object.hasOwn(schema, "const"))
    yield range(schema.const === "flowgen" ? "flowgen-other" : "flowgen", "const");
  if (typeof schema.format === "string") yield range(`not-a-${schema.format}`, "format");
  const minItems = number("minItems");
  const maxItems = number("maxItems");
  if (minItems !== undefined && minItems >= 1 && Array.isArray(current))
    yield range(current.slice(0, Math.min(minItems, MAX_BUILT) - 1), "minItems");
  if (
    maxItems !== undefined &&
    maxItems < MAX_BUILT &&
    Array.isArray(current) &&
    current.length > 0
  )
    yield range(
      Array.from({ length: maxItems + 1 }, (_, i) => current[i % current.length] as unknown),
      "maxItems",
    );
}

/** The schema at `node`, following local `$ref`s (`#/$defs/…`) a bounded number of times. */
function resolve(
  document: Record<string, unknown>,
  node: unknown,
  depth: number,
): Record<string, unknown> | undefined {
  let schema = node;
  for (
    let hops = 0;
    hops < MAX_DEPTH - depth && isPlainObject(schema) && typeof schema.$ref === "string";
    hops++
  ) {
    if (!schema.$ref.startsWith("#")) return undefined;
    schema = getAtPointer(document, decodeURIComponent(schema.$ref.slice(1)));
  }
  return isPlainObject(schema) && typeof schema.$ref !== "string" ? schema : undefined;
}

function applyCandidate(base: Record<string, unknown>, candidate: Candidate): unknown {
  const copy = structuredClone(base);
  const tokens = splitPointer(candidate.pointer);
  const last = tokens.pop();
  const parent = getAtPointer(copy, joinPointer("", ...tokens));
  if (last === undefined || typeof parent !== "object" || parent === null) return copy;
  if (!Object.hasOwn(candidate, "value")) delete (parent as Record<string, unknown>)[last];
  // defineProperty, not assignment: a property named "__proto__" stays a property.
  else
    Object.defineProperty(parent, last, {
      value: candidate.value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return copy;
}

function describeCandidate(candidate: Candidate): string {
  return `${candidate.pointer} ${candidate.why}`;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}
