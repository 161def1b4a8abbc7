import { isPlainObject, joinPointer } from "../json-pointer.js";

/**
 * Keywords whose values are schemas, by shape. JSON Schema 2020-12 Core §10 (applicators) and
 * §11 (unevaluated), Validation §8.2.4 (contentSchema); `definitions` and `dependencies` are the
 * pre-2019 spellings still common in the wild.
 */
const SCHEMA_VALUED = [
  "additionalProperties",
  "contains",
  "contentSchema",
  "else",
  "if",
  "items",
  "not",
  "propertyNames",
  "then",
  "unevaluatedItems",
  "unevaluatedProperties",
] as const;
const SCHEMA_ARRAY_VALUED = ["allOf", "anyOf", "oneOf", "prefixItems"] as const;
const SCHEMA_MAP_VALUED = [
  "$defs",
  "definitions",
  "dependentSchemas",
  "patternProperties",
  "properties",
] as const;

const MAP_VALUED_OR_DEPENDENCIES = [...SCHEMA_MAP_VALUED, "dependencies"] as const;

/** Every keyword of the 2020-12 vocabularies, plus the OpenAPI 3.1 Schema Object's own (§4.8.24). */
export const KNOWN_KEYWORDS: ReadonlySet<string> = new Set([
  // Core
  "$schema",
  "$id",
  "$ref",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
  "$vocabulary",
  "$comment",
  "$defs",
  // Applicator and unevaluated
  ...SCHEMA_VALUED,
  ...SCHEMA_ARRAY_VALUED,
  ...SCHEMA_MAP_VALUED,
  "dependencies",
  // Validation
  "type",
  "enum",
  "const",
  "multipleOf",
  "maximum",
  "exclusiveMaximum",
  "minimum",
  "exclusiveMinimum",
  "maxLength",
  "minLength",
  "pattern",
  "maxItems",
  "minItems",
  "uniqueItems",
  "maxContains",
  "minContains",
  "maxProperties",
  "minProperties",
  "required",
  "dependentRequired",
  // Meta-data, format, content
  "title",
  "description",
  "default",
  "deprecated",
  "readOnly",
  "writeOnly",
  "examples",
  "format",
  "contentEncoding",
  "contentMediaType",
  // OpenAPI 3.1 Schema Object
  "discriminator",
  "xml",
  "externalDocs",
  "example",
]);

/** Keywords that move the base URI or name a location; flowgen bundles by relative $ref only. */
export const UNSUPPORTED_KEYWORDS: ReadonlySet<string> = new Set([
  "$id",
  "$anchor",
  "$dynamicRef",
  "$dynamicAnchor",
]);

export interface SubschemaVisit {
  readonly schema: unknown;
  readonly pointer: string;
}

/**
 * The direct subschemas of `schema`, each with its JSON pointer, in the order of the schema's
 * keywords. Data keywords (enum, const, default) are never entered.
 */
export function subschemasOf(schema: unknown, pointer: string): SubschemaVisit[] {
  if (!isPlainObject(schema)) return [];
  const found: SubschemaVisit[] = [];
  for (const keyword of Object.keys(schema)) {
    const kind = SUBSCHEMA_KINDS.get(keyword);
    if (kind === undefined) continue;
    const value = schema[keyword];
    if (kind === "one") found.push({ schema: value, pointer: joinPointer(pointer, keyword) });
    else if (kind === "array" && Array.isArray(value)) {
      const at = joinPointer(pointer, keyword);
      value.forEach((item, i) => found.push({ schema: item, pointer: `${at}/${i}` }));
    } else if (kind === "map" && isPlainObject(value)) {
      const at = joinPointer(pointer, keyword);
      for (const name of Object.keys(value)) {
        const item = value[name];
        // `dependencies` mixes schemas with arrays of property names (draft-07 §6.5.7).
        if (keyword === "dependencies" && !isPlainObject(item) && typeof item !== "boolean")
          continue;
        found.push({ schema: item, pointer: joinPointer(at, name) });
      }
    }
  }
  return found;
}

/** How each keyword that holds subschemas holds them. */
const SUBSCHEMA_KINDS: ReadonlyMap<string, "one" | "array" | "map"> = new Map([
  ...SCHEMA_VALUED.map((keyword) => [keyword, "one"] as const),
  ...SCHEMA_ARRAY_VALUED.map((keyword) => [keyword, "array"] as const),
  ...MAP_VALUED_OR_DEPENDENCIES.map((keyword) => [keyword, "map"] as const),
]);

/**
 * The direct subschemas of `schema`, as `subschemasOf` finds them, without their pointers: for
 * walks that need none, visiting only the keywords the schema has.
 */
export function childSchemas(schema: Record<string, unknown>): unknown[] {
  const found: unknown[] = [];
  for (const keyword of Object.keys(schema)) {
    const kind = SUBSCHEMA_KINDS.get(keyword);
    const value = schema[keyword];
    if (kind === "one") found.push(value);
    else if (kind === "array" && Array.isArray(value)) found.push(...(value as unknown[]));
    else if (kind === "map" && isPlainObject(value)) {
      for (const name of Object.keys(value)) {
        const item = value[name];
        // `dependencies` mixes schemas with arrays of property names (draft-07 §6.5.7).
        if (keyword !== "dependencies" || isPlainObject(item) || typeof item === "boolean")
          found.push(item);
      }
    }
  }
  return found;
}

/**
 * The subschema of `schema` at a JSON pointer's `tokens`, when they lead through keywords that hold
 * subschemas only, as `childSchemas` finds them: undefined for a pointer into a value (`default`,
 * `examples`, an `x-` keyword) or into nothing.
 */
export function subschemaAt(schema: unknown, tokens: readonly string[]): unknown {
  let node = schema;
  for (let i = 0; i < tokens.length; i++) {
    const keyword = tokens[i] ?? "";
    const kind = SUBSCHEMA_KINDS.get(keyword);
    if (kind === undefined || !isPlainObject(node) || !Object.hasOwn(node, keyword))
      return undefined;
    const value = node[keyword];
    if (kind === "one") {
      node = value;
      continue;
    }
    const name = tokens[++i];
    if (name === undefined) return undefined;
    if (kind === "array") {
      if (!Array.isArray(value) || !/^(0|[1-9]\d*)$/.test(name)) return undefined;
      node = value[Number(name)];
    } else {
      if (!isPlainObject(value) || !Object.hasOwn(value, name)) return undefined;
      node = value[name];
      // `dependencies` mixes schemas with arrays of property names (draft-07 §6.5.7).
      if (keyword === "dependencies" && !isPlainObject(node) && typeof node !== "boolean")
        return undefined;
    }
  }
  return node;
}

/**
 * Rebuilds `schema` with every subschema passed through `map`; other keywords are copied as they
 * are. With `keep`, keywords it refuses are left out.
 */
export function mapSubschemas(
  schema: Record<string, unknown>,
  map: (sub: unknown) => unknown,
  keep?: (keyword: string, value: unknown) => boolean,
): Record<string, unknown> {
  const mapped: Record<string, unknown> = {};
  for (const keyword of Object.keys(schema)) {
    const value = schema[keyword];
    if (keep === undefined || keep(keyword, value))
      setOwn(mapped, keyword, mapKeyword(keyword, value, map));
  }
  return mapped;
}

function mapKeyword(keyword: string, value: unknown, map: (sub: unknown) => unknown): unknown {
  const kind = SUBSCHEMA_KINDS.get(keyword);
  if (kind === "one") return map(value);
  if (kind === "array" && Array.isArray(value)) return value.map(map);
  if (kind !== "map" || !isPlainObject(value)) return value;
  const mapped: Record<string, unknown> = {};
  for (const name of Object.keys(value)) {
    const item = value[name];
    // `dependencies` mixes schemas with arrays of property names (draft-07 §6.5.7).
    const isSchema = keyword !== "dependencies" || isPlainObject(item) || typeof item === "boolean";
    setOwn(mapped, name, isSchema ? map(item) : item);
  }
  return mapped;
}

/**
 * `schema` with every subschema passed through `map`, and without the keywords `keep` refuses.
 * Copies only what changes: when `map` returns every subschema as it was and every keyword is
 * kept, `schema` itself comes back, and so does each container of subschemas left as it was. The
 * result may share objects with `schema`: treat both as read only.
 */
export function replaceSubschemas(
  schema: Record<string, unknown>,
  map: (sub: unknown) => unknown,
  keep?: (keyword: string, value: unknown) => boolean,
): Record<string, unknown> {
  const keywords = Object.keys(schema);
  let copy: Record<string, unknown> | undefined;
  for (const [i, keyword] of keywords.entries()) {
    const value = schema[keyword];
    const kept = keep === undefined || keep(keyword, value);
    const replaced = kept ? replaceKeyword(keyword, value, map) : undefined;
    if (copy === undefined && kept && replaced === value) continue;
    copy ??= copyKeys(schema, keywords.slice(0, i));
    if (kept) setOwn(copy, keyword, replaced);
  }
  return copy ?? schema;
}

function replaceKeyword(keyword: string, value: unknown, map: (sub: unknown) => unknown): unknown {
  const kind = SUBSCHEMA_KINDS.get(keyword);
  if (kind === "one") return map(value);
  if (kind === "array" && Array.isArray(value)) {
    const replaced = value.map(map);
    return replaced.every((item, i) => item === value[i]) ? value : replaced;
  }
  if (kind !== "map" || !isPlainObject(value)) return value;
  const names = Object.keys(value);
  let copy: Record<string, unknown> | undefined;
  for (const [i, name] of names.entries()) {
    const item = value[name];
    // `dependencies` mixes schemas with arrays of property names (draft-07 §6.5.7).
    const isSchema = keyword !== "dependencies" || isPlainObject(item) || typeof item === "boolean";
    const replaced = isSchema ? map(item) : item;
    if (copy === undefined && replaced === item) continue;
    copy ??= copyKeys(value, names.slice(0, i));
    setOwn(copy, name, replaced);
  }
  return copy ?? value;
}

function copyKeys(
  source: Record<string, unknown>,
  keys: readonly string[],
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of keys) setOwn(copy, key, source[key]);
  return copy;
}

/**
 * Sets `key` on `target` as an own data property. Assigning is several times faster than building
 * objects with `Object.fromEntries`, but takes `"__proto__"` as the prototype: that key is defined.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__")
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else target[key] = value;
}

/** `discriminator.mapping` (OpenAPI 3.1 §4.8.25), when the schema has one. */
export function discriminatorMapping(
  schema: Record<string, unknown>,
): Record<string, string> | undefined {
  const discriminator = schema.discriminator;
  if (!isPlainObject(discriminator) || !isPlainObject(discriminator.mapping)) return undefined;
  return Object.fromEntries(
    Object.entries(discriminator.mapping).filter(
      (entry): entry is [string, string] => typeof entry[1] === "string",
    ),
  );
}

/** A mapping value is a reference when it is not a bare component name. */
export function isMappingRef(value: string): boolean {
  return value.includes("/") || value.includes("#") || /\.(json|ya?ml)$/i.test(value);
}
