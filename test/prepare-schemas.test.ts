import { describe, expect, it } from "vitest";
import { prepareSchemas } from "../src/types/prepare-schemas.js";

/** A component schema as these tests read it after preparing. */
interface Prepared {
  readonly [keyword: string]: unknown;
  readonly properties: Record<string, unknown>;
}

/** A flow's document as the types stage reads it, with these component schemas. */
function prepared(schemas: Record<string, unknown>): (name: string) => Prepared {
  const document = { openapi: "3.1.0", components: { schemas } };
  prepareSchemas(document);
  return (name) => {
    const schema = (document.components.schemas as Record<string, Prepared | undefined>)[name];
    if (schema === undefined) throw new Error(`no component ${name}`);
    return schema;
  };
}

describe("the document openapi-typescript reads", () => {
  it("opens free-form objects, and only those", () => {
    const schemas = prepared({
      Free: { type: "object", description: "anything" },
      Nullable: { type: ["object", "null"] },
      Empty: { type: "object", properties: {} },
      Closed: { type: "object", additionalProperties: false },
      Shaped: { type: "object", properties: { a: { type: "string" } } },
      Union: { type: "object", oneOf: [{ required: ["a"] }] },
      Inner: { type: "object", properties: { meta: { type: "object" } } },
    });
    expect(schemas("Free")).toEqual({
      type: "object",
      description: "anything",
      additionalProperties: true,
    });
    expect(schemas("Nullable")).toMatchObject({ additionalProperties: true });
    expect(schemas("Empty")).toMatchObject({ additionalProperties: true });
    expect(schemas("Closed")).toEqual({ type: "object", additionalProperties: false });
    expect(schemas("Shaped")).not.toHaveProperty("additionalProperties");
    expect(schemas("Union")).not.toHaveProperty("additionalProperties");
    expect(schemas("Inner").properties.meta).toEqual({
      type: "object",
      additionalProperties: true,
    });
  });

  it("lists the names an allOf entry requires alone, where the intersection makes them required", () => {
    const schemas = prepared({
      Parts: { allOf: [{ properties: { a: { type: "string" } } }, { required: ["a", "b"] }] },
      Beside: { $ref: "#/components/schemas/Base", required: ["x"] },
      Typed: { allOf: [{ type: "object", required: ["a"] }] },
      Alone: { required: ["a"] },
      Base: { type: "object", properties: { x: { type: "string" } } },
    });
    expect(schemas("Parts").allOf).toEqual([
      { properties: { a: { type: "string" } } },
      { required: ["a", "b"], properties: { a: {}, b: {} } },
    ]);
    expect(schemas("Beside")).toEqual({
      allOf: [{ $ref: "#/components/schemas/Base" }, { required: ["x"], properties: { x: {} } }],
    });
    expect(schemas("Typed").allOf).toEqual([
      { type: "object", required: ["a"], additionalProperties: true },
    ]);
    expect(schemas("Alone")).toEqual({ required: ["a"] });
  });

  it("types anyOf and oneOf branches that list required names alone as objects the object's type meets", () => {
    const properties = { a: { type: "string" }, b: { type: "integer" } };
    const names = () => [{ required: ["a"] }, { required: ["b"], description: "b alone" }];
    const typed = [
      { required: ["a"], properties: { a: {} } },
      { required: ["b"], description: "b alone", properties: { b: {} } },
    ];
    const schemas = prepared({
      Any: { type: "object", properties, anyOf: names(), allOf: [{ required: ["a"] }] },
      One: { properties, oneOf: names() },
      Bare: { type: "object", oneOf: names() },
      Nullable: { type: ["object", "null"], properties, anyOf: names() },
      Untyped: { anyOf: names() },
      Mixed: { type: "object", properties, anyOf: [{ required: ["a"] }, { properties }] },
    });
    expect(schemas("Any")).toEqual({
      type: "object",
      properties,
      allOf: [{ required: ["a"], properties: { a: {} } }, { anyOf: typed }],
    });
    expect(schemas("One")).toEqual({ properties, oneOf: typed });
    expect(schemas("Bare")).toEqual({ type: "object", oneOf: typed });
    expect(schemas("Nullable").anyOf).toEqual(names());
    expect(schemas("Untyped").anyOf).toEqual(names());
    expect(schemas("Mixed").anyOf).toEqual([{ required: ["a"] }, { properties }]);
  });

  it("lets a key no pattern matches hold any value, where the object is open", () => {
    const pattern = { "^n_": { type: "number" } };
    const schemas = prepared({
      Open: { type: "object", properties: { id: { type: "integer" } }, patternProperties: pattern },
      True: { type: "object", patternProperties: pattern, additionalProperties: true },
      Empty: { type: "object", patternProperties: pattern, additionalProperties: {} },
      Closed: { type: "object", patternProperties: pattern, additionalProperties: false },
      Typed: {
        type: "object",
        patternProperties: pattern,
        additionalProperties: { type: "string" },
      },
    });
    expect(schemas("Open")).toEqual({
      type: "object",
      properties: { id: { type: "integer" } },
      additionalProperties: true,
    });
    expect(schemas("True")).toEqual({ type: "object", additionalProperties: true });
    expect(schemas("Empty")).toEqual({ type: "object", additionalProperties: true });
    expect(schemas("Closed").patternProperties).toBe(pattern);
    expect(schemas("Typed").patternProperties).toBe(pattern);
    expect(schemas("Typed").additionalProperties).toEqual({ type: "string" });
  });

  it("lists required names the properties leave out, as values of any type or of the referenced schema", () => {
    const schemas = prepared({
      Plain: { type: "object", required: ["id", "name"], properties: { name: { type: "string" } } },
      Referenced: {
        type: "object",
        required: ["count"],
        properties: { label: { type: "string" } },
        additionalProperties: { $ref: "#/components/schemas/Count" },
      },
      Inline: {
        type: "object",
        required: ["count"],
        properties: { label: { type: "string" } },
        additionalProperties: { type: "integer" },
      },
      Pattern: {
        type: "object",
        required: ["by-yes"],
        properties: { total: { type: "integer" } },
        patternProperties: { "^by-": { type: "number" } },
      },
      NoProperties: { type: "object", required: ["id"] },
    });
    expect(Object.keys(schemas("Plain").properties)).toEqual(["name", "id"]);
    expect(schemas("Plain").properties.id).toEqual({});
    expect(schemas("Referenced").properties.count).toEqual({ $ref: "#/components/schemas/Count" });
    expect(schemas("Inline").properties.count).toEqual({});
    expect(schemas("Pattern").properties["by-yes"]).toEqual({});
    expect(schemas("NoProperties")).toEqual({
      type: "object",
      required: ["id"],
      additionalProperties: true,
    });
  });

  it("keeps null in the type only where the enum has it", () => {
    const schemas = prepared({
      NullType: { type: ["string", "null"], enum: ["a", "b"] },
      NullBoth: { type: ["string", "null"], enum: ["a", null] },
      Plain: { type: "string", enum: ["a"] },
      Const: { type: ["string", "null"], const: "a" },
    });
    expect(schemas("NullType")).toEqual({ type: ["string"], enum: ["a", "b"] });
    expect(schemas("NullBoth")).toEqual({ type: ["string", "null"], enum: ["a", null] });
    expect(schemas("Plain")).toEqual({ type: "string", enum: ["a"] });
    expect(schemas("Const")).toEqual({ type: ["string", "null"], const: "a" });
  });

  it("says a null const as an enum of null", () => {
    const schemas = prepared({
      Null: { const: null, description: "nothing" },
      Typed: { type: ["string", "null"], const: null },
      Both: { const: null, enum: [null, "a"] },
      Apart: { const: null, enum: ["a"] },
      Text: { const: "a" },
    });
    expect(schemas("Null")).toEqual({ description: "nothing", enum: [null] });
    expect(schemas("Typed")).toEqual({ type: ["string", "null"], enum: [null] });
    expect(schemas("Both")).toEqual({ enum: [null] });
    expect(schemas("Apart")).toEqual({ enum: [] });
    expect(schemas("Text")).toEqual({ const: "a" });
  });

  it("types prefixItems as a tuple only where the array is exactly that long", () => {
    const [text, whole, flag] = [{ type: "string" }, { type: "integer" }, { type: "boolean" }];
    const schemas = prepared({
      Rest: { type: "array", prefixItems: [text], items: flag },
      Short: { type: "array", prefixItems: [text, whole], items: false },
      One: { type: "array", prefixItems: [text], items: false, minItems: 0 },
      Open: { type: "array", prefixItems: [text], items: true },
      Exact: { type: "array", prefixItems: [text, whole], items: false, minItems: 2 },
      Empty: { type: "array", prefixItems: [], items: false },
      Self: { type: "array", prefixItems: [{ $ref: "#/components/schemas/Self" }] },
    });
    expect(schemas("Rest")).toEqual({ type: "array", items: { anyOf: [text, flag] } });
    expect(schemas("Short")).toEqual({ type: "array", items: { anyOf: [text, whole] } });
    expect(schemas("One")).toEqual({ type: "array", items: text, minItems: 0 });
    expect(schemas("Open")).toEqual({ type: "array" });
    expect(schemas("Exact")).toEqual({
      type: "array",
      prefixItems: [text, whole],
      items: false,
      minItems: 2,
    });
    expect(schemas("Empty")).toEqual({ type: "array", prefixItems: [], items: false });
    expect(schemas("Self")).toEqual({ type: "array" });
  });

  it("moves what constrains values beside a $ref into an allOf entry, and leaves annotations", () => {
    const schemas = prepared({
      Named: {
        $ref: "#/components/schemas/Base",
        description: "kept",
        default: {},
        "x-note": 1,
        required: ["id"],
        properties: { id: { type: "string" } },
      },
      Described: { $ref: "#/components/schemas/Base", description: "only this" },
      Typed: { $ref: "#/components/schemas/Base", type: "object" },
      Base: { type: "object", properties: { name: { type: "string" } } },
    });
    expect(schemas("Named")).toEqual({
      description: "kept",
      default: {},
      "x-note": 1,
      allOf: [
        { $ref: "#/components/schemas/Base" },
        { required: ["id"], properties: { id: { type: "string" } } },
      ],
    });
    expect(schemas("Described")).toEqual({
      $ref: "#/components/schemas/Base",
      description: "only this",
    });
    expect(schemas("Typed")).toEqual({ $ref: "#/components/schemas/Base", type: "object" });
  });

  it("keeps type beside the allOf it makes, so a required name moved with it is still required", () => {
    const schemas = prepared({
      Root: { $ref: "#/components/schemas/Base", type: "object", required: ["id"] },
      Base: { type: "object", properties: { id: { type: "string" } } },
    });
    expect(schemas("Root")).toEqual({
      type: "object",
      allOf: [{ $ref: "#/components/schemas/Base" }, { required: ["id"], properties: { id: {} } }],
    });
  });

  it("leaves a $ref beside keywords alone where a discriminator reads allOf as extending", () => {
    const pet = {
      oneOf: [{ $ref: "#/components/schemas/Cat" }],
      discriminator: { propertyName: "kind" },
    };
    const schemas = prepared({
      Pet: pet,
      Cat: { type: "object", properties: { kind: { const: "cat" } } },
      Adopted: { $ref: "#/components/schemas/Pet", required: ["owner"] },
      Kitten: { allOf: [{ $ref: "#/components/schemas/Pet" }, { required: ["age"] }] },
      Tabby: { $ref: "#/components/schemas/Kitten", required: ["name"] },
      Narrowed: {
        $ref: "#/components/schemas/Cat",
        discriminator: { propertyName: "kind" },
        required: ["kind"],
      },
    });
    expect(schemas("Adopted")).toEqual({ $ref: "#/components/schemas/Pet", required: ["owner"] });
    expect(schemas("Tabby")).toEqual({ $ref: "#/components/schemas/Kitten", required: ["name"] });
    expect(schemas("Narrowed")).toMatchObject({ $ref: "#/components/schemas/Cat" });
  });
});
