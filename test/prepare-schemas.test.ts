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
});
