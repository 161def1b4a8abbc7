// Turns the validators flowgen compiles from each flow's JSON Schemas (with
// `flowgen generate --validators`) into the runtime's `Validate`: one detail per violation, with a
// JSON pointer to the offending value and what is wrong with it.
import type { FlowErrorDetail, Validate } from "./runtime/index.js";

/** A validator as @exodus/schemasafe compiles it: true or false, and the errors of the last call. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: { keywordLocation: string; instanceLocation: string }[] | null;
}

// A Map, not an object: a keyword is looked up among these entries only, never
// among the members every object inherits (`toString`, `constructor`…).
const MESSAGES = new Map<string, string>(
  Object.entries({
    type: "has the wrong type",
    required: "is required",
    additionalProperties: "is not an allowed property",
    unevaluatedProperties: "is not an allowed property",
    propertyNames: "has a property name that is not allowed",
    enum: "is not one of the allowed values",
    const: "is not the allowed value",
    minLength: "is too short",
    maxLength: "is too long",
    pattern: "does not match the required pattern",
    format: "is not in the required format",
    minimum: "is too small",
    exclusiveMinimum: "is too small",
    maximum: "is too large",
    exclusiveMaximum: "is too large",
    multipleOf: "is not a multiple of the required number",
    minItems: "has too few items",
    maxItems: "has too many items",
    uniqueItems: "has duplicate items",
    minProperties: "has too few properties",
    maxProperties: "has too many properties",
    oneOf: "matches none (or more than one) of the allowed shapes",
    anyOf: "matches none of the allowed shapes",
    not: "matches a shape that is not allowed",
    dependentRequired:
      "lacks a property that another of its properties requires",
    properties: "is not allowed",
    patternProperties: "is not allowed",
    items: "is not allowed",
    prefixItems: "is not allowed",
  }),
);

/** Keywords whose value maps names, or lists indexes, to schemas: the next segment is a name or an index. */
const SCHEMA_CONTAINERS = new Set([
  "properties",
  "patternProperties",
  "dependentSchemas",
  "$defs",
  "definitions",
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
]);

/** Keywords whose value is one schema: the next segment is a keyword of it. */
const SCHEMA_VALUED = new Set([
  "$ref",
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
]);

/**
 * The keyword that failed at a keyword location (`#/properties/a/type` →
 * `type`), read from the root: a property may be named like a keyword, and
 * some keywords end in a property name (`#/dependentRequired/toString`).
 */
function failedKeyword(keywordLocation: string): string {
  const segments = keywordLocation.split("/").slice(1);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? "";
    const last = i === segments.length - 1;
    if (SCHEMA_CONTAINERS.has(segment) && i + 1 < segments.length - 1) i++;
    else if (!(SCHEMA_VALUED.has(segment) && !last)) return segment;
  }
  return "";
}

/** Wraps a compiled validator as the runtime's `Validate`. */
export function validatorFor(compiled: CompiledValidator): Validate {
  return (value) =>
    compiled(value)
      ? []
      : (compiled.errors ?? []).map(
          ({ keywordLocation, instanceLocation }): FlowErrorDetail => {
            const keyword = failedKeyword(keywordLocation);
            const message =
              MESSAGES.get(keyword) ?? `breaks the schema's "${keyword}" rule`;
            return { pointer: instanceLocation.replace(/^#/, ""), message };
          },
        );
}
