import { describe, expect, it } from "vitest";
import { childSchemas, replaceSubschemas, subschemasOf } from "../src/spec/schema-keywords.js";

/** A schema that uses every keyword holding subschemas, each kind of holding once at least. */
const EVERY_KIND = {
  type: "object",
  properties: { a: { type: "string" }, b: { $ref: "#/$defs/B" } },
  patternProperties: { "^x-": { type: "number" } },
  additionalProperties: false,
  propertyNames: { maxLength: 9 },
  dependentSchemas: { a: { required: ["b"] } },
  dependencies: { a: ["b"], b: { required: ["a"] } },
  allOf: [{ minProperties: 1 }],
  anyOf: [{ required: ["a"] }, true],
  oneOf: [{ required: ["b"] }],
  not: { required: ["z"] },
  if: { required: ["a"] },
  then: { required: ["b"] },
  else: {},
  prefixItems: [{ type: "integer" }],
  items: { type: "integer" },
  contains: { const: 1 },
  unevaluatedItems: false,
  unevaluatedProperties: false,
  contentSchema: { type: "string" },
  $defs: { B: { type: "boolean" } },
  definitions: { C: { type: "null" } },
  enum: [{ type: "not a schema" }],
  default: { properties: "not a schema" },
};

describe("schema keywords", () => {
  it("childSchemas finds what subschemasOf finds", () => {
    const found = childSchemas(EVERY_KIND);
    const expected = subschemasOf(EVERY_KIND, "").map((visit) => visit.schema);
    expect(found).toHaveLength(expected.length);
    expect(new Set(found)).toEqual(new Set(expected));
    expect(found).not.toContain(EVERY_KIND.enum[0]);
    expect(found).not.toContain(EVERY_KIND.dependencies.a);
  });

  it("replaceSubschemas gives back what it did not change, and copies the rest", () => {
    expect(replaceSubschemas(EVERY_KIND, (sub) => sub)).toBe(EVERY_KIND);
    const b = EVERY_KIND.properties.b;
    const replaced = replaceSubschemas(EVERY_KIND, (sub) =>
      sub === b ? { type: "boolean" } : sub,
    );
    expect(replaced).not.toBe(EVERY_KIND);
    expect(replaced.properties).toEqual({ a: { type: "string" }, b: { type: "boolean" } });
    expect((replaced.properties as Record<string, unknown>).a).toBe(EVERY_KIND.properties.a);
    expect(replaced.allOf).toBe(EVERY_KIND.allOf);
    expect(EVERY_KIND.properties.b).toEqual({ $ref: "#/$defs/B" });
    const kept = replaceSubschemas(
      EVERY_KIND,
      (sub) => sub,
      (keyword) => keyword !== "$defs",
    );
    expect(Object.keys(kept)).toEqual(Object.keys(EVERY_KIND).filter((key) => key !== "$defs"));
  });

  it("replaceSubschemas keeps a property named __proto__ as data", () => {
    const schema = JSON.parse('{"properties":{"__proto__":{"type":"string"}}}') as Record<
      string,
      unknown
    >;
    const replaced = replaceSubschemas(schema, () => ({ type: "number" }));
    const properties = replaced.properties as Record<string, unknown>;
    expect(Object.hasOwn(properties, "__proto__")).toBe(true);
    expect(Object.getPrototypeOf(properties)).toBe(Object.prototype);
    expect(properties["__proto__"]).toEqual({ type: "number" });
  });
});
