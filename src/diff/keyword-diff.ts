import { compareText } from "../issues.js";
import { joinPointer } from "../json-pointer.js";
import { stableJson } from "./resolve-schema.js";
import { quote, type DiffContext, type Schema } from "./diff-context.js";

/** Keywords that describe and never reject a value (2020-12 meta-data and content vocabularies, OpenAPI 3.1 §4.8.24). */
const ANNOTATIONS = [
  "title",
  "description",
  "default",
  "examples",
  "example",
  "$comment",
  "readOnly",
  "writeOnly",
  "deprecated",
  "externalDocs",
  "xml",
  "discriminator",
  "contentMediaType",
  "contentEncoding",
];
/** Lower bounds: a higher value rejects more. Validation vocabulary §6.2–6.5. */
const LOWER_BOUNDS = [
  "minimum",
  "exclusiveMinimum",
  "minLength",
  "minItems",
  "minProperties",
  "minContains",
];
/** Upper bounds: a lower value rejects more. */
const UPPER_BOUNDS = [
  "maximum",
  "exclusiveMaximum",
  "maxLength",
  "maxItems",
  "maxProperties",
  "maxContains",
];
/** Every keyword some comparison here or in structure-diff/combinator-diff looks at; the rest is "unclassified". */
const CLASSIFIED = new Set([
  ...ANNOTATIONS,
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  ...["type", "nullable", "enum", "const", "multipleOf", "uniqueItems", "pattern", "format"],
  ...[
    "properties",
    "required",
    "additionalProperties",
    "unevaluatedProperties",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
  ],
  ...[
    "items",
    "prefixItems",
    "contains",
    "unevaluatedItems",
    "allOf",
    "anyOf",
    "oneOf",
    "not",
    "if",
    "then",
    "else",
  ],
  ...["$schema", "$id", "$anchor", "$defs", "definitions", "$vocabulary"],
]);

/** Meta-data (Validation §9) and `x-*` extensions: never breaking, reported so reviewers see them. */
export function compareAnnotations(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => ANNOTATIONS.includes(key) || key.startsWith("x-"))
    .sort(compareText);
  for (const key of keys) {
    if (stableJson(a[key]) === stableJson(b[key])) continue;
    const at = joinPointer(pointer, key);
    if (key === "deprecated" && b[key] === true)
      ctx.report(at, "property-deprecated", "deprecated");
    else if (key === "default")
      ctx.report(at, "description-changed", `default ${quote(a[key])} became ${quote(b[key])}`);
    else
      ctx.report(
        at,
        "description-changed",
        `${key} ${a[key] === undefined ? "added" : b[key] === undefined ? "removed" : "changed"}`,
      );
  }
}

/** The types a schema allows; undefined for any. OpenAPI 3.0's `nullable: true` counts as "null". */
function typesOf(schema: Schema): Set<string> | undefined {
  const declared =
    typeof schema.type === "string"
      ? [schema.type]
      : Array.isArray(schema.type)
        ? schema.type.filter((t) => typeof t === "string")
        : undefined;
  if (declared === undefined) return undefined;
  return new Set(schema.nullable === true ? [...declared, "null"] : declared);
}

/** Validation §6.1.1: "integer" is a subset of "number". */
function allowsType(types: Set<string>, type: string): boolean {
  return types.has(type) || (type === "integer" && types.has("number"));
}

function describeTypes(types: Iterable<string>): string {
  const list = [...types].sort(compareText).map((type) => JSON.stringify(type));
  return list.length === 0 ? "nothing" : list.join(" or ");
}

/** `type` (Validation §6.1.1), with a `null` gained or lost reported on its own: that is what nullable means in 3.1. */
export function compareTypes(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const before = typesOf(a);
  const after = typesOf(b);
  const at = joinPointer(pointer, "type");
  if (before === undefined && after === undefined) return;
  if (before === undefined)
    return ctx.report(
      at,
      "type-narrowed",
      `type is now ${describeTypes(after ?? [])} (was any type)`,
    );
  if (after === undefined)
    return ctx.report(at, "type-widened", `any type is allowed now (was ${describeTypes(before)})`);
  const removed = [...before].filter((type) => !allowsType(after, type));
  const added = [...after].filter((type) => !allowsType(before, type));
  if (added.includes("null")) ctx.report(at, "nullable-added", "null is now allowed");
  if (removed.includes("null")) ctx.report(at, "nullable-removed", "null is no longer allowed");
  const lost = removed.filter((type) => type !== "null");
  const gained = added.filter((type) => type !== "null");
  const was = describeTypes([...before].filter((type) => type !== "null"));
  const now = describeTypes([...after].filter((type) => type !== "null"));
  if (lost.length > 0 && gained.length > 0)
    ctx.report(at, "type-changed", `type was ${was}, is now ${now}`);
  else if (lost.length > 0) ctx.report(at, "type-narrowed", `type narrowed from ${was} to ${now}`);
  else if (gained.length > 0) ctx.report(at, "type-widened", `type widened from ${was} to ${now}`);
}

/** `const: x` is `enum: [x]` (Validation §6.1.3). */
function valuesOf(schema: Schema): { keyword: string; values: unknown[] } | undefined {
  if (schema.const !== undefined) return { keyword: "const", values: [schema.const] };
  return Array.isArray(schema.enum) ? { keyword: "enum", values: schema.enum } : undefined;
}

/** `enum` and `const` (Validation §6.1.2–6.1.3), value by value, compared as JSON. */
export function compareEnums(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const before = valuesOf(a);
  const after = valuesOf(b);
  if (before === undefined && after === undefined) return;
  if (before === undefined)
    return ctx.report(
      joinPointer(pointer, after?.keyword ?? "enum"),
      "constraint-added",
      `only ${after?.values.map(quote).join(", ")} allowed now`,
    );
  if (after === undefined)
    return ctx.report(
      joinPointer(pointer, before.keyword),
      "constraint-removed",
      `any value allowed now (was ${before.values.map(quote).join(", ")})`,
    );
  const at = joinPointer(pointer, after.keyword);
  const beforeKeys = new Set(before.values.map(stableJson));
  const afterKeys = new Set(after.values.map(stableJson));
  for (const value of before.values) {
    if (afterKeys.has(stableJson(value))) continue;
    if (value === null) ctx.report(at, "nullable-removed", "null is no longer allowed");
    else ctx.report(at, "enum-value-removed", `value ${quote(value)} is no longer allowed`);
  }
  for (const value of after.values) {
    if (beforeKeys.has(stableJson(value))) continue;
    if (value === null) ctx.report(at, "nullable-added", "null is now allowed");
    else ctx.report(at, "enum-value-added", `value ${quote(value)} is now allowed`);
  }
}

/** Numeric, length, size and count bounds (Validation §6.2–6.5), `multipleOf` and `uniqueItems`. */
export function compareBounds(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const before = a[keyword];
    const after = b[keyword];
    if (before === after) continue;
    const at = joinPointer(pointer, keyword);
    if (typeof before !== "number" && typeof after !== "number") {
      // OpenAPI 3.0's boolean exclusiveMinimum: not a 3.1 bound, so conservatively breaking.
      ctx.report(at, "constraint-changed", `${keyword} ${quote(before)} became ${quote(after)}`);
    } else if (typeof before !== "number")
      ctx.report(at, "bound-tightened", `${keyword} ${String(after)} added`);
    else if (typeof after !== "number")
      ctx.report(at, "bound-loosened", `${keyword} ${String(before)} removed`);
    else {
      const tighter = LOWER_BOUNDS.includes(keyword) ? after > before : after < before;
      ctx.report(
        at,
        tighter ? "bound-tightened" : "bound-loosened",
        `${keyword} ${after > before ? "raised" : "lowered"} from ${before} to ${after}`,
      );
    }
  }
  compareMultipleOf(ctx, a.multipleOf, b.multipleOf, joinPointer(pointer, "multipleOf"));
  if ((a.uniqueItems === true) !== (b.uniqueItems === true)) {
    ctx.report(
      joinPointer(pointer, "uniqueItems"),
      b.uniqueItems === true ? "bound-tightened" : "bound-loosened",
      `items ${b.uniqueItems === true ? "must be unique now" : "need not be unique now"}`,
    );
  }
}

function compareMultipleOf(ctx: DiffContext, before: unknown, after: unknown, at: string): void {
  if (before === after) return;
  if (typeof before !== "number")
    return ctx.report(at, "bound-tightened", `multipleOf ${quote(after)} added`);
  if (typeof after !== "number")
    return ctx.report(at, "bound-loosened", `multipleOf ${before} removed`);
  // A multiple of 4 is a multiple of 2: moving to a multiple of the old divisor only rejects more.
  const rule = Number.isInteger(after / before)
    ? "bound-tightened"
    : Number.isInteger(before / after)
      ? "bound-loosened"
      : "constraint-changed";
  ctx.report(at, rule, `multipleOf changed from ${before} to ${after}`);
}

/** `pattern` (Validation §6.3.3) and `format` (§7): regular expressions are not compared by meaning, so any change counts both ways. */
export function comparePatterns(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  for (const keyword of ["pattern", "format"]) {
    const before = a[keyword];
    const after = b[keyword];
    if (before === after) continue;
    const at = joinPointer(pointer, keyword);
    if (before === undefined) ctx.report(at, "pattern-added", `${keyword} ${quote(after)} added`);
    else if (after === undefined)
      ctx.report(at, "pattern-removed", `${keyword} ${quote(before)} removed`);
    else
      ctx.report(
        at,
        "pattern-changed",
        `${keyword} changed from ${quote(before)} to ${quote(after)}`,
      );
  }
}

/** Keywords no rule here understands: a change to one counts as breaking, since it may be. */
export function compareUnclassified(ctx: DiffContext, a: Schema, b: Schema, pointer: string): void {
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .filter((key) => !CLASSIFIED.has(key) && !key.startsWith("x-"))
    .sort(compareText);
  for (const key of keys) {
    if (stableJson(a[key]) === stableJson(b[key])) continue;
    ctx.report(
      joinPointer(pointer, key),
      "constraint-changed",
      `${key} changed; flowgen does not classify this keyword, so the change counts as breaking`,
    );
  }
}
